// SPDX-License-Identifier: Apache-2.0
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "record/fiojson.h"
#include "result/result.h"
#include "test.h"
#include "lib/util.h"

TEST(fiojson_summarizes_a_real_sample_run)
{
	size_t len;
	char *buf = fixture("fio-json/sample.json", &len);
	json_object *jobs = json_object_new_array();
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(fio_json_summarize(buf, len, "sample", jobs, &err), 0);
	REQUIRE(json_object_array_length(jobs) == 11);
	json_object *j = json_object_array_get_idx(jobs, 0);
	CHECK_STR(jstr(j, "group", ""), "sample");
	CHECK_STR(jstr(j, "job", ""), "sample-sda");
	CHECK_STR(jstr(j, "filename", ""), "/dev/sda");
	CHECK_EQ_INT(jint(j, "error", -1), 0);
	/* From the fixture: iops 758.462764, clat p50 71168 ns, p99 26083328 ns. */
	CHECK(jdouble(j, "read.iops", 0) > 758.4 && jdouble(j, "read.iops", 0) < 758.5);
	CHECK(jdouble(j, "read.clat_p50_us", 0) > 71.1 && jdouble(j, "read.clat_p50_us", 0) < 71.2);
	CHECK(jdouble(j, "read.clat_p99_us", 0) > 26083 && jdouble(j, "read.clat_p99_us", 0) < 26084);
	CHECK(jget(j, "write") == NULL);
	json_object_put(jobs);
	sb_release(&err);
	free(buf);
}

TEST(fiojson_verify_only_has_no_write_side)
{
	size_t len;
	char *buf = fixture("fio-json/verify.json", &len);
	json_object *jobs = json_object_new_array();
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(fio_json_summarize(buf, len, "verify", jobs, &err), 0);
	REQUIRE(json_object_array_length(jobs) == 2);
	json_object *j = json_object_array_get_idx(jobs, 0);
	CHECK(jget(j, "read") != NULL);
	CHECK(jget(j, "write") == NULL);
	json_object_put(jobs);
	sb_release(&err);
	free(buf);
}

TEST(fiojson_counts_failed_jobs_and_skips_notes)
{
	static const char text[] =
		"note: both iodepth >= 1 and synchronous I/O engine are selected\n"
		"{\"jobs\": [{\"jobname\": \"verify-sdb\", \"error\": 84,"
		" \"job options\": {\"filename\": \"/dev/sdb\"},"
		" \"read\": {\"iops\": 10.5, \"bw\": 42, \"total_ios\": 21}},"
		" {\"jobname\": \"ok\", \"error\": 0}]}\n";
	json_object *jobs = json_object_new_array();
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(fio_json_summarize(text, strlen(text), "verify", jobs, &err), 1);
	REQUIRE(json_object_array_length(jobs) == 2);
	json_object *j = json_object_array_get_idx(jobs, 0);
	CHECK_EQ_INT(jint(j, "error", 0), 84);
	CHECK_STR(jstr(j, "filename", ""), "/dev/sdb");
	CHECK_EQ_INT(jint(j, "read.bw_kib", 0), 42);
	/* No percentiles in the input: the key is there, its value null. */
	CHECK(json_object_object_get_ex(jget(j, "read"), "clat_p50_us", NULL));
	CHECK(jget(j, "read.clat_p50_us") == NULL);
	json_object_put(jobs);
	sb_release(&err);
}

TEST(fiojson_rejects_what_is_not_fio_json)
{
	static const char *const bad[][2] = {
		{ "", "no JSON document" },
		{ "fio: some error\n", "no JSON document" },
		{ "{\"jobs\": [", "not valid JSON" },
		{ "{\"no_jobs\": 1}", "no \"jobs\" array" },
		{ "{\"jobs\": [1, 2]}", "fio job 0 is not an object" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_object *jobs = json_object_new_array();
		struct strbuf err = STRBUF_INIT;

		CHECK_EQ_INT(fio_json_summarize(bad[i][0], strlen(bad[i][0]), "g", jobs, &err), -1);
		CHECK_CONTAINS(err.buf, bad[i][1]);
		CHECK_EQ_INT((long long)json_object_array_length(jobs), 0);
		json_object_put(jobs);
		sb_release(&err);
	}
}

/* fio writes NaN where it has no figure; json-c reads it, and
 * json_object_get_int64() made bw_kib INT64_MIN. */
TEST(fiojson_nan_is_no_number)
{
	static const char doc[] = "{\"jobs\": [{\"jobname\": \"j\", \"error\": 0, \"read\": "
				  "{\"total_ios\": 10, \"iops\": 5.5, \"bw\": NaN}}]}";
	json_object *jobs = json_object_new_array();
	struct strbuf err = STRBUF_INIT;

	CHECK_EQ_INT(fio_json_summarize(doc, strlen(doc), "sample", jobs, &err), 0);
	CHECK_EQ_INT(jint(json_object_array_get_idx(jobs, 0), "read.bw_kib", -1), 0);
	CHECK(jint(json_object_array_get_idx(jobs, 0), "read.bw_kib", -1) != INT64_MIN);
	json_object_put(jobs);
	sb_release(&err);
}
