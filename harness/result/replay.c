// SPDX-License-Identifier: Apache-2.0
#include "result/replay.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "lib/util.h"
#include "record/console.h"
#include "record/records.h"
#include "result/build.h"
#include "result/result.h"
#include "scenario/scenario.h"

/*
 * dir/name, or dir/name.gz (kept fixtures; gzread passes plain files on),
 * fed to fn in chunks as it is read, as a live run feeds what arrives: the
 * decoders' memory does not grow with the file, and a scan stays linear.
 * The run directory may come from anywhere: only a regular file is read
 * (a FIFO would block), and at most max bytes of it, decompressed (a
 * small .gz may inflate without end); past that it is an error.
 */
static int feed_input(const char *dir, const char *name, unsigned long long max,
		      const char *whose,
		      void (*fn)(void *ctx, const char *buf, size_t n), void *ctx,
		      struct strbuf *err)
{
	char *path = xstrfmt("%s/%s", dir, name);
	char chunk[65536];
	unsigned long long total = 0;
	struct stat st;
	gzFile gz = NULL;
	int fd, n = 0, r = -1;

	if (!path_exists(path)) {
		char *gzpath = xstrfmt("%s.gz", path);

		if (path_exists(gzpath)) {
			free(path);
			path = gzpath;
		} else {
			free(gzpath);
		}
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sb_addf(err, "cannot read '%s': not a regular file", path);
		close(fd);
		goto out;
	}
	if (!(gz = gzdopen(fd, "rb"))) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno ? errno : ENOMEM));
		close(fd);
		goto out;
	}
	while ((n = gzread(gz, chunk, sizeof(chunk))) > 0) {
		total += (unsigned long long)n;
		if (total > max) {
			sb_addf(err, "'%s' holds more than %llu MiB (guest_output_mb, %s): "
				"not a run's own log (--guest-output-mb N reads more)", path,
				max >> 20, whose);
			goto out;
		}
		fn(ctx, chunk, (size_t)n);
	}
	if (n < 0) {
		int e;
		sb_addf(err, "cannot read '%s': %s", path, gzerror(gz, &e));
		goto out;
	}
	r = 0;
out:
	if (gz)
		gzclose(gz);
	free(path);
	return r;
}

static void feed_records(void *ctx, const char *buf, size_t n)
{
	records_feed(ctx, buf, n);
}

static void feed_console(void *ctx, const char *buf, size_t n)
{
	console_scan_feed(ctx, buf, n);
}

static json_object *load_host(const char *dir, struct strbuf *err)
{
	char *path = xstrfmt("%s/host.json", dir);
	json_object *host = NULL, *old;

	if (path_exists(path)) {
		json_load_object(path, &host, err);
	} else if (result_load(dir, &old, err) == 0) {
		host = host_from_result(old);
		json_object_put(old);
	}
	free(path);
	return host;
}

int result_replay(const char *dir, long long max_mb, json_object **root,
		  enum run_status *status, struct strbuf *err)
{
	struct scenario s, own;
	const char *whose;
	struct records rs;
	struct console_scan cs;
	json_object *host = NULL;
	char *scn = xstrfmt("%s/scenario.scn", dir);
	unsigned long long max;
	int r = -1;

	*root = NULL;
	scenario_init(&s);
	if (scenario_load(&s, scn, err) < 0 || scenario_check(&s, err) < 0)
		goto out_scn;
	if (!(host = load_host(dir, err)))
		goto out_scn;
	/* The bound is the harness's, not the run directory's: its scenario
	 * may say anything (1048576 let 1 MB of gzip inflate to 2 GiB).  A
	 * lower one of the scenario's holds too: the run kept no more. */
	scenario_init(&own);
	if (max_mb > 0) {
		max = (unsigned long long)max_mb << 20;
		whose = "as --guest-output-mb says";
	} else if (s.guest_output_mb < own.guest_output_mb) {
		max = (unsigned long long)s.guest_output_mb << 20;
		whose = "the run's, below the harness's own";
	} else {
		max = (unsigned long long)own.guest_output_mb << 20;
		whose = "the harness's own, whatever the run's scenario says";
	}
	scenario_release(&own);
	records_init(&rs, &s, NULL, NULL, NULL);
	console_scan_init(&cs);
	if (feed_input(dir, "channel.log", max, whose, feed_records, &rs, err) == 0 &&
	    feed_input(dir, "console.log", max, whose, feed_console, &cs, err) == 0) {
		records_finish(&rs);
		console_scan_finish(&cs);
		*root = result_build(&s, &rs, &cs, host, status);
		r = 0;
	}
	records_release(&rs);
	console_scan_release(&cs);
out_scn:
	json_object_put(host);
	scenario_release(&s);
	free(scn);
	return r;
}
