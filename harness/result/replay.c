#include "result/replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "lib/util.h"
#include "record/console.h"
#include "record/records.h"
#include "result/build.h"
#include "result/result.h"
#include "scenario/scenario.h"

/* dir/name, or dir/name.gz (kept fixtures); gzread passes plain files on. */
static int read_input(const char *dir, const char *name, struct strbuf *buf,
		      struct strbuf *err)
{
	char *path = xstrfmt("%s/%s", dir, name);
	char chunk[65536];
	gzFile gz;
	int n;

	if (!path_exists(path)) {
		char *gzpath = xstrfmt("%s.gz", path);

		if (path_exists(gzpath)) {
			free(path);
			path = gzpath;
		} else {
			free(gzpath);
		}
	}
	gz = gzopen(path, "rb");
	if (!gz) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno ? errno : ENOMEM));
		free(path);
		return -1;
	}
	while ((n = gzread(gz, chunk, sizeof(chunk))) > 0)
		sb_add(buf, chunk, (size_t)n);
	if (n < 0) {
		int e;
		sb_addf(err, "cannot read '%s': %s", path, gzerror(gz, &e));
	}
	gzclose(gz);
	free(path);
	return n < 0 ? -1 : 0;
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

int result_replay(const char *dir, json_object **root, enum run_status *status,
		  struct strbuf *err)
{
	struct strbuf chan = STRBUF_INIT, con = STRBUF_INIT;
	struct scenario s;
	struct records rs;
	struct console_scan cs;
	json_object *host = NULL;
	char *scn = xstrfmt("%s/scenario.scn", dir);
	int r = -1;

	*root = NULL;
	scenario_init(&s);
	if (scenario_load(&s, scn, err) < 0 || scenario_check(&s, err) < 0)
		goto out;
	if (read_input(dir, "channel.log", &chan, err) < 0 ||
	    read_input(dir, "console.log", &con, err) < 0)
		goto out;
	if (!(host = load_host(dir, err)))
		goto out;

	records_init(&rs, &s, NULL, NULL, NULL);
	records_feed(&rs, chan.buf, chan.len);
	records_finish(&rs);
	console_scan_init(&cs);
	console_scan_feed(&cs, con.buf, con.len);
	console_scan_finish(&cs);
	*root = result_build(&s, &rs, &cs, host, status);
	records_release(&rs);
	console_scan_release(&cs);
	r = 0;
out:
	json_object_put(host);
	scenario_release(&s);
	sb_release(&chan);
	sb_release(&con);
	free(scn);
	return r;
}
