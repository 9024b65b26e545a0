// SPDX-License-Identifier: Apache-2.0
#include "scenario/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strvec.h"
#include "lib/textscan.h"
#include "lib/util.h"

/* The rows are in keys.c; here, reading a value against its row, and the
 * rules across keys. */
#define KEY_FIELD(s, k, T) ((T *)((char *)(s) + (k)->offset))

static size_t key_index(const struct scenario_key *k)
{
	return (size_t)(k - scenario_keys);
}

/* Check and store one value; returns NULL or the reason it is bad. */
static const char *store(struct scenario *s, const struct scenario_key *k,
			 const char *v, struct strbuf *why)
{
	int64_t n;

	switch (k->type) {
	case KT_INT:
		if (parse_i64(v, &n) < 0) {
			sb_addf(why, "'%s' is not a whole number", v);
			return why->buf;
		}
		if (n < k->min || n > k->max) {
			sb_addf(why, "%lld is out of range %lld..%lld", (long long)n,
				k->min, k->max);
			return why->buf;
		}
		*KEY_FIELD(s, k, long long) = n;
		return NULL;
	case KT_BOOL:
		if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") ||
		    !strcmp(v, "on"))
			*KEY_FIELD(s, k, int) = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "no") ||
			 !strcmp(v, "false") || !strcmp(v, "off"))
			*KEY_FIELD(s, k, int) = 0;
		else {
			sb_addf(why, "'%s' is not a boolean (yes/no, 1/0, true/false, on/off)", v);
			return why->buf;
		}
		return NULL;
	case KT_ENUM:
		for (int i = 0; k->choices[i]; i++)
			if (!strcmp(v, k->choices[i])) {
				*KEY_FIELD(s, k, int) = i;
				return NULL;
			}
		sb_addf(why, "'%s' is not one of", v);
		for (int i = 0; k->choices[i]; i++)
			sb_addf(why, "%s %s", i ? "," : "", k->choices[i]);
		return why->buf;
	case KT_STRING:
	case KT_PATH:
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				sb_adds(why, "control character in value");
				return why->buf;
			}
		if (strlen(v) > 4096) {
			sb_adds(why, "value too long");
			return why->buf;
		}
		char **dst = KEY_FIELD(s, k, char *);
		free(*dst);
		if (k->type == KT_PATH && *v && v[0] != '/' && s->dir)
			*dst = xstrfmt("%s/%s", s->dir, v);
		else
			*dst = xstrdup(v);
		return NULL;
	}
	return "bad key type";
}

void scenario_init(struct scenario *s)
{
	struct strbuf why = STRBUF_INIT;

	memset(s, 0, sizeof(*s));
	s->origin = xcalloc(scenario_nkeys, sizeof(*s->origin));
	for (size_t i = 0; i < scenario_nkeys; i++) {
		if (store(s, &scenario_keys[i], scenario_keys[i].def, &why))
			bug("bad default for key '%s' in keys.c: %s", scenario_keys[i].name,
			    why.buf);
	}
	sb_release(&why);
}

void scenario_release(struct scenario *s)
{
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];
		if (k->type == KT_STRING || k->type == KT_PATH)
			free(*KEY_FIELD(s, k, char *));
	}
	free(s->origin);
	free(s->file);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (lb >= ARRAY_SIZE(row) || la >= 64)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cur = row[j];
			size_t best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = cur;
		}
	}
	return row[lb];
}

static void unknown_key(struct strbuf *err, const char *key)
{
	const char *best = NULL;
	size_t bd = 3;

	sb_addf(err, "unknown key '%s'", key);
	for (size_t i = 0; i < scenario_nkeys; i++) {
		size_t d = edit_distance(key, scenario_keys[i].name);
		if (d < bd) {
			bd = d;
			best = scenario_keys[i].name;
		}
	}
	if (best)
		sb_addf(err, " (did you mean '%s'?)", best);
}

static int apply(struct scenario *s, const char *key, const char *val,
		 int origin, const char *where, struct strbuf *err)
{
	const struct scenario_key *k = scenario_key_find(key);
	struct strbuf why = STRBUF_INIT;
	const char *bad;

	if (!k) {
		sb_addf(err, "%s: ", where);
		unknown_key(err, key);
		return -1;
	}
	if (origin > 0 && s->origin[key_index(k)] > 0) {
		sb_addf(err, "%s: duplicate key '%s' (first set on line %d)", where,
			key, s->origin[key_index(k)]);
		return -1;
	}
	bad = store(s, k, val, &why);
	if (bad) {
		sb_addf(err, "%s: %s: %s", where, key, bad);
		sb_release(&why);
		return -1;
	}
	sb_release(&why);
	s->origin[key_index(k)] = origin;
	return 0;
}

static int valid_key_char(int c)
{
	return islower(c) || isdigit(c) || c == '_';
}

/* Split "key = value  # comment" into key and value (unquoted). */
static int split_assignment(char *line, char **key, char **val,
			    const char **why)
{
	char *p = line, *eq, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	*key = p;
	while (valid_key_char((unsigned char)*p))
		p++;
	end = p;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '=' || end == *key) {
		*why = end == *key ? "expected 'key = value'" : "expected '=' after the key";
		return -1;
	}
	eq = p;
	*end = '\0';
	p = eq + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '"') {
		/* Inside the quotes \" is a quote and \\ a backslash; any
		 * other backslash stands for itself. */
		char *q = p + 1, *w = p + 1;

		for (; *q && *q != '"'; q++) {
			if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
				q++;
			*w++ = *q;
		}
		if (!*q) {
			*why = "unterminated quote";
			return -1;
		}
		*w = '\0';
		*val = p + 1;
		for (q++; *q == ' ' || *q == '\t'; q++)
			;
		if (*q && *q != '#') {
			*why = "text after the closing quote";
			return -1;
		}
		return 0;
	}
	*val = p;
	/* A comment starts at '#' preceded by a blank (or at the value's start). */
	for (char *c = p; *c; c++)
		if (*c == '#' && (c == p || c[-1] == ' ' || c[-1] == '\t')) {
			*c = '\0';
			break;
		}
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return 0;
}

int scenario_parse(struct scenario *s, const char *file, const char *buf,
		   size_t len, struct strbuf *err)
{
	struct line_iter it;
	struct strbuf line = STRBUF_INIT;
	char where[512];
	int r = 0;

	if (!s->file && file)
		s->file = xstrdup(file);
	line_iter_init(&it, buf, len);
	while (line_next(&it)) {
		char *key, *val, *p;
		const char *why = NULL;

		snprintf(where, sizeof(where), "%s:%u", file, it.lineno);
		if (line_has_nul(it.line, it.len)) {
			sb_addf(err, "%s: NUL byte in line", where);
			r = -1;
			break;
		}
		sb_reset(&line);
		sb_add(&line, it.line, it.len);
		if (line.len && line.buf[line.len - 1] == '\r')
			sb_setlen(&line, line.len - 1);
		for (p = line.buf; *p == ' ' || *p == '\t'; p++)
			;
		if (!*p || *p == '#')
			continue;
		if (split_assignment(line.buf, &key, &val, &why) < 0) {
			sb_addf(err, "%s: %s", where, why);
			r = -1;
			break;
		}
		if (apply(s, key, val, (int)it.lineno, where, err) < 0) {
			r = -1;
			break;
		}
	}
	sb_release(&line);
	if (!r && !*s->name && file) {
		/* Default name: the file's base name, made safe. */
		struct strbuf n = STRBUF_INIT;
		for (const char *c = path_basename(file); *c; c++)
			sb_addch(&n, isalnum((unsigned char)*c) || *c == '.' ||
					     *c == '-' || *c == '_' ? *c : '_');
		if (n.len > 4 && !strcmp(n.buf + n.len - 4, ".scn"))
			sb_setlen(&n, n.len - 4);
		free(s->name);
		s->name = sb_detach(&n, NULL);
	}
	return r;
}

int scenario_load(struct scenario *s, const char *path, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	char *abs;
	int r;

	if (sb_read_file(&buf, path) < 0) {
		sb_addf(err, "cannot read '%s': %s", path, strerror(errno));
		sb_release(&buf);
		return -1;
	}
	abs = absolute_path(path);
	if (!abs) {
		sb_addf(err, "cannot resolve '%s': %s", path, strerror(errno));
		sb_release(&buf);
		return -1;
	}
	free(s->file);
	free(s->dir);
	s->file = xstrdup(path);
	*strrchr(abs, '/') = '\0';
	s->dir = abs;
	r = scenario_parse(s, path, buf.buf, buf.len, err);
	sb_release(&buf);
	return r;
}

int scenario_set(struct scenario *s, const char *assignment, const char *where,
		 struct strbuf *err)
{
	const char *eq = strchr(assignment, '=');
	char *key;
	int r;

	if (!eq || eq == assignment) {
		sb_addf(err, "%s: expected key=value, got '%s'", where, assignment);
		return -1;
	}
	key = xstrndup(assignment, (size_t)(eq - assignment));
	char *w = xstrfmt("%s %s", where, assignment);
	/* Paths given on the command line are relative to the cwd. */
	char *dir = s->dir;
	s->dir = NULL;
	r = apply(s, key, eq + 1, -1, w, err);
	s->dir = dir;
	free(w);
	free(key);
	return r;
}

static void where_key(const struct scenario *s, const char *name,
		      struct strbuf *err)
{
	const struct scenario_key *k = scenario_key_find(name);
	int o = s->origin[key_index(k)];

	if (o > 0)
		sb_addf(err, "%s:%d: ", s->file ? s->file : "scenario", o);
	else if (o < 0)
		sb_addf(err, "--set %s: ", name);
	else
		sb_addf(err, "%s: ", s->file ? s->file : "scenario");
}

static int valid_name(const char *n)
{
	if (!*n || strlen(n) > 64)
		return 0;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '.' && *n != '_' && *n != '-')
			return 0;
	return 1;
}

static int valid_package(const char *p)
{
	/* Debian package names, optionally with ":arch". */
	if (!*p || strlen(p) > 100 || !isalnum((unsigned char)*p))
		return 0;
	for (; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) &&
		    !strchr(".+-:", *p))
			return 0;
	return 1;
}

static int valid_cmdline(const char *c)
{
	for (; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(" _.,=:/+-", *c))
			return 0;
	return 1;
}

const char *scenario_kernel_package(const struct scenario *s)
{
	if (*s->kernel_package)
		return s->kernel_package;
	return s->arch == ARCH_I386 ? "linux-image-686-pae" : "linux-image-amd64";
}

int scenario_debian_source(const char *source, char *series, size_t n)
{
	const char *v = source + 7;
	size_t major, minor;

	if (series && n)
		*series = '\0';
	if (!strcmp(source, "debian"))
		return 1;
	if (strncmp(source, "debian:", 7))
		return 0;
	/* "debian:6.12": digits, a dot, digits; nothing else. */
	major = strspn(v, "0123456789");
	if (!major || major > 3 || v[major] != '.')
		return 0;
	minor = strspn(v + major + 1, "0123456789");
	if (!minor || minor > 3 || v[major + 1 + minor])
		return 0;
	if (series && n > major + 1 + minor)
		memcpy(series, v, major + 1 + minor + 1);
	return 1;
}

const char *scenario_disk_scheduler(const struct scenario *s)
{
	if (s->scheduler)
		return scenario_scheduler(s);
	/* The kernel's default (elevator_get_default()): none for a queue of
	 * several hardware queues, and scsi_debug trims submit_queues to the
	 * CPUs; else mq-deadline. */
	return s->sd_submit_queues > 1 && s->cpus > 1 ? "none" : "mq-deadline";
}

/*
 * What a disk costs, by the scheduler it gets and what memory holds it
 * (lowmem on i386).  A scheduler preallocates a request pool per hardware
 * queue (2 x min(queue_depth, 128) requests, each with the driver's
 * per-command data and a sense buffer); none has none.  Measured at 4000
 * disks on Debian's kernels (docs/many-disks.md), some headroom
 * added: mq-deadline 178 kB of LowFree on 686-pae 6.1, 355-357 kB of
 * MemFree on amd64 6.1 and 6.12; none (submit_queues = CPUs = 2) 73.6 kB
 * of LowFree on 686-pae, 121.4 kB of MemFree on amd64 6.12 (127 kB on 6.1,
 * DESIGN.md).  kyber and bfq get mq-deadline's figure: they preallocate
 * the same pool.
 */
static const struct {
	int arch;
	int none;
	long long kb;
} disk_costs[] = {
	{ ARCH_I386, 0, 180 }, { ARCH_I386, 1, 80 },
	{ ARCH_X86_64, 0, 360 }, { ARCH_X86_64, 1, 130 },
};

long long scenario_disk_cost_kb(const struct scenario *s)
{
	int none = !strcmp(scenario_disk_scheduler(s), "none");

	if (s->disk_cost_kb)
		return s->disk_cost_kb;
	for (size_t i = 0; i < ARRAY_SIZE(disk_costs); i++)
		if (disk_costs[i].arch == s->arch && disk_costs[i].none == none)
			return disk_costs[i].kb;
	return 360;
}

void scenario_sd_layout(const struct scenario *s, long long *tgts,
			long long *luns)
{
	long long per_host = scenario_sd_host_disks(s);
	long long l = per_host < 64 ? per_host : 64;

	/* The largest LUN count <= 64 that divides the per-host count. */
	while (l > 1 && per_host % l)
		l--;
	if (l < 1)
		l = 1;
	*luns = l;
	*tgts = per_host / l;
}

int scenario_sd_crowded(const struct scenario *s, struct strbuf *why)
{
	long long per = scenario_sd_host_disks(s), n = scenario_sweep_peak(s), h;
	struct strbuf way = STRBUF_INIT;

	if (per <= SD_HOST_CROWDED)
		return 0;
	for (h = *s->sweep ? 2 : s->sd_hosts + 1; h <= SD_HOSTS_MAX; h++)
		if (n % h == 0 && n / h <= SD_HOST_SPREAD)
			break;
	if (h <= SD_HOSTS_MAX)
		sb_addf(&way, "sd_hosts = %lld (%lld disks a host)", h, n / h);
	else
		sb_addf(&way, "no sd_hosts up to %d divides %lld disks into hosts of at most %d",
			SD_HOSTS_MAX, n, SD_HOST_SPREAD);
	sb_addf(why, "%lld disks a scsi_debug host: insmod returns long after the last "
		"of them appears (32,768 disks on one host took 20%% longer than over 32 hosts: "
		"docs/many-disks.md); ", per);
	if (*s->sweep)
		sb_addf(why, "a sweep adds hosts of its steps' greatest common divisor and "
			"cannot spread them; a run of its peak can: %s", way.buf);
	else
		sb_addf(why, "spread them: %s", way.buf);
	sb_release(&way);
	return 1;
}

/*
 * "even" or "even:N": N + 1 evenly spaced counts from 0 to disks, written
 * out in place, so that result.json, scenario.scn and reproduce.sh carry
 * the list itself.  Without N, the largest N from 8 down that divides
 * disks.  Even spacing suits the fitted line (no end of the range holds
 * most of the points) and keeps the one-boot ladder well ahead of one
 * boot per point: the boots enumerate (N + 1) / 2 times as many disks.
 * 0: not this form; 1: expanded; -1 with the error said.
 */
static int sweep_even(struct scenario *s, struct strbuf *err)
{
	const char *spec = s->sweep;
	struct strbuf list = STRBUF_INIT;
	uint64_t v = 0;
	long long n = 0;

	if (strcmp(spec, "even") && strncmp(spec, "even:", 5))
		return 0;
	if (spec[4] == ':' && (parse_u64(spec + 5, &v) < 0 || v < 1 || v >= SWEEP_MAX_STEPS)) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': even:N needs N from 1 to %d (the steps after 0)",
			spec, SWEEP_MAX_STEPS - 1);
		return -1;
	}
	if (s->disks <= 0) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s' spaces its steps up to disks, which is %lld", spec, s->disks);
		return -1;
	}
	n = (long long)v;
	if (!n)
		for (n = 8; s->disks % n; n--)
			;
	if (s->disks % n) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': disks (%lld) is not a multiple of %lld, so the steps "
			"cannot be even (give the counts, or another N)", spec, s->disks, n);
		return -1;
	}
	for (long long i = 0; i <= n; i++)
		sb_addf(&list, "%s%lld", i ? "," : "", s->disks / n * i);
	free(s->sweep);
	s->sweep = sb_detach(&list, NULL);
	return 1;
}

/* The sweep's rules across keys: disks is its last step, the hosts come
 * from the steps' gcd. */
static int check_sweep(struct scenario *s, struct strbuf *err)
{
	const struct scenario_key *kd = scenario_key_find("disks");
	struct strbuf why = STRBUF_INIT;
	long long *st, last, g, peak;
	size_t n;

	if (!*s->sweep && s->sweep_floor_mb) {
		where_key(s, "sweep_floor_mb", err);
		sb_adds(err, "sweep_floor_mb needs a sweep (the sweep key)");
		return -1;
	}
	if (!*s->sweep)
		return 0;
	if (sweep_even(s, err) < 0)
		return -1;
	if (scenario_sweep_parse(s->sweep, &st, &n, &why) < 0) {
		where_key(s, "sweep", err);
		sb_addf(err, "sweep '%s': %s", s->sweep, why.buf);
		sb_release(&why);
		return -1;
	}
	sb_release(&why);
	last = st[n - 1];
	free(st);
	/* A sweep given on the command line replaces the file's disks. */
	int od = s->origin[key_index(kd)], os = s->origin[key_index(scenario_key_find("sweep"))];
	if (od && !(od > 0 && os < 0) && s->disks != last) {
		where_key(s, "disks", err);
		sb_addf(err, "disks (%lld) must be the sweep's last step (%lld), or be left out",
			s->disks, last);
		return -1;
	}
	if (od > 0 && os < 0)
		s->origin[key_index(kd)] = os;
	if (s->sd_hosts != 1) {
		where_key(s, "sd_hosts", err);
		sb_adds(err, "sd_hosts cannot be set with a sweep: it adds hosts of as many "
			"disks as the greatest common divisor of its steps");
		return -1;
	}
	s->disks = last;
	g = scenario_sd_host_disks(s);
	peak = scenario_sweep_peak(s);
	if (peak / g > SWEEP_MAX_HOSTS) {
		where_key(s, "sweep", err);
		sb_addf(err, "no host layout reaches these counts: their greatest common divisor "
			"is %lld, so %lld disks need %lld scsi_debug hosts (at most %d; "
			"use counts with a larger common divisor)",
			g, peak, peak / g, SWEEP_MAX_HOSTS);
		return -1;
	}
	if (s->sweep_floor_mb) {
		long long one = g * scenario_disk_cost_kb(s);

		if (peak != last) {
			where_key(s, "sweep_floor_mb", err);
			sb_adds(err, "sweep_floor_mb extends a rising sweep: the list may not fall "
				"(it comes back to its last step by itself)");
			return -1;
		}
		if (one >= s->sweep_floor_mb * 1024) {
			where_key(s, "sweep_floor_mb", err);
			sb_addf(err, "one host of %lld disks costs about %lld MiB (%lld kB each), "
				"not less than the floor of %lld MiB: a step could run out of memory "
				"before the floor is seen (raise sweep_floor_mb, or use counts with a "
				"smaller common divisor)", g, (one + 1023) / 1024,
				scenario_disk_cost_kb(s), s->sweep_floor_mb);
			return -1;
		}
	}
	return 0;
}

static int sample_indexes(const char *list, long **idx, size_t *n, size_t *alloc,
			  const char **bad);

int scenario_check(struct scenario *s, struct strbuf *err)
{
	if (*s->name && !valid_name(s->name)) {
		where_key(s, "name", err);
		sb_addf(err, "name '%s' must be letters, digits, '.', '_' or '-' (at most 64)", s->name);
		return -1;
	}
	if (*s->kernel_package && !valid_package(s->kernel_package)) {
		where_key(s, "kernel_package", err);
		sb_addf(err, "'%s' is not a Debian package name", s->kernel_package);
		return -1;
	}
	if (*s->kernel_suite && (strlen(s->kernel_suite) > 32 ||
				 strspn(s->kernel_suite, "abcdefghijklmnopqrstuvwxyz-") !=
				 strlen(s->kernel_suite))) {
		where_key(s, "kernel_suite", err);
		sb_addf(err, "'%s' is not a Debian suite name (lowercase letters and '-', such as "
			"bookworm or trixie-backports)", s->kernel_suite);
		return -1;
	}
	if (!valid_cmdline(s->cmdline)) {
		where_key(s, "cmdline", err);
		sb_adds(err, "cmdline may hold only letters, digits, spaces and _.,=:/+-");
		return -1;
	}
	if (s->kernel == KERNEL_FILES && (!*s->kernel_image || !*s->kernel_modules)) {
		where_key(s, "kernel", err);
		sb_adds(err, "kernel=files needs kernel_image and kernel_modules");
		return -1;
	}
	if (s->kernel != KERNEL_FILES && (*s->kernel_image || *s->kernel_modules)) {
		where_key(s, *s->kernel_image ? "kernel_image" : "kernel_modules", err);
		sb_adds(err, "kernel_image and kernel_modules need kernel=files");
		return -1;
	}
	if (s->kernel == KERNEL_BUILD && !strncmp(s->kernel_source, "debian:", 7) &&
	    !scenario_debian_source(s->kernel_source, NULL, 0)) {
		where_key(s, "kernel_source", err);
		sb_addf(err, "kernel_source '%s': Debian's source is 'debian' or 'debian:X.Y' "
			"(linux-source-X.Y, e.g. debian:6.12)", s->kernel_source);
		return -1;
	}
	if (s->kernel == KERNEL_BUILD && !scenario_debian_source(s->kernel_source, NULL, 0)) {
		char *src = s->kernel_source[0] == '/' || !s->dir
			? xstrdup(s->kernel_source)
			: xstrfmt("%s/%s", s->dir, s->kernel_source);
		int ok = is_dir(src);

		free(src);
		if (!ok) {
			where_key(s, "kernel_source", err);
			sb_addf(err, "kernel_source '%s' is neither 'debian' nor a directory",
				s->kernel_source);
			return -1;
		}
	}
	if (*s->kernel_patches && !path_exists(s->kernel_patches)) {
		where_key(s, "kernel_patches", err);
		sb_addf(err, "kernel_patches '%s' does not exist", s->kernel_patches);
		return -1;
	}
	if (*s->kernel_rev && (s->kernel != KERNEL_BUILD ||
			       scenario_debian_source(s->kernel_source, NULL, 0))) {
		where_key(s, "kernel_rev", err);
		sb_adds(err, "kernel_rev needs kernel=build and kernel_source a git repository");
		return -1;
	}
	if (s->kernel != KERNEL_BUILD && (*s->kernel_patches || *s->kernel_fragments)) {
		where_key(s, *s->kernel_patches ? "kernel_patches" : "kernel_fragments", err);
		sb_adds(err, "kernel_patches and kernel_fragments need kernel=build");
		return -1;
	}
	if (check_sweep(s, err) < 0)
		return -1;
	if (s->disks % s->sd_hosts) {
		where_key(s, "disks", err);
		sb_addf(err, "%lld disks cannot be spread evenly over %lld hosts (sd_hosts)",
			s->disks, s->sd_hosts);
		return -1;
	}
	if (scenario_sweep_peak(s) + (s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0) >
	    SD_MAX_DISKS) {
		where_key(s, *s->sweep ? "sweep" : "disks", err);
		sb_addf(err, "%lld scsi_debug disks and %lld virtio-scsi disks after them are more "
			"than the %d that sd names (its 20-bit index)", scenario_sweep_peak(s),
			s->virtio_bus == VIRTIO_SCSI ? s->virtio_disks : 0, SD_MAX_DISKS);
		return -1;
	}
	if (s->disks + s->virtio_disks == 0) {
		where_key(s, "disks", err);
		sb_adds(err, "nothing to test: disks and virtio_disks are both 0");
		return -1;
	}
	if (*s->fio_sample_indexes) {
		long *idx = NULL;
		size_t n = 0, alloc = 0;
		const char *bad = NULL;
		int r = sample_indexes(s->fio_sample_indexes, &idx, &n, &alloc, &bad);

		for (size_t i = 0; !r && i < n; i++)
			if (idx[i] >= s->disks) {
				where_key(s, "fio_sample_indexes", err);
				sb_addf(err, "disk index %ld does not exist (disks = %lld: 0..%lld)",
					idx[i], s->disks, s->disks - 1);
				free(idx);
				return -1;
			}
		free(idx);
		if (r) {
			where_key(s, "fio_sample_indexes", err);
			sb_addf(err, "'%.*s' is not a disk index", (int)strcspn(bad, ", "), bad);
			return -1;
		}
	}
	if (s->io_mb > s->virtio_disk_mb) {
		where_key(s, "io_mb", err);
		sb_addf(err, "io_mb (%lld) is larger than virtio_disk_mb (%lld)",
			s->io_mb, s->virtio_disk_mb);
		return -1;
	}

	/* Will the disks fit?  On i386 they must fit in lowmem. */
	long long cost = scenario_disk_cost_kb(s);
	long long peak = scenario_sweep_peak(s);
	long long need_kb = peak * cost;
	long long have_mb, have_kb;
	const char *what;

	if (s->arch == ARCH_I386) {
		have_mb = (s->memory_mb < 896 ? s->memory_mb : 896) - 64;
		what = "low memory";
	} else {
		have_mb = s->memory_mb - 192;
		what = "memory";
	}
	have_kb = have_mb * 1024;
	if (need_kb > have_kb) {
		where_key(s, *s->sweep ? "sweep" : "disks", err);
		sb_addf(err, "%lld disks need about %lld MiB of %s at %lld kB each "
			"(scheduler %s%s), but a %lld MiB %s guest has about %lld MiB "
			"(raise memory_mb, lower disks, or set disk_cost_kb%s)",
			peak, need_kb / 1024, what, cost, scenario_disk_scheduler(s),
			s->disk_cost_kb ? ", disk_cost_kb" : "", s->memory_mb,
			arch_name(s->arch), have_mb < 0 ? 0 : have_mb,
			strcmp(scenario_disk_scheduler(s), "none") ?
			"; scheduler none costs far less a disk: sd_submit_queues = cpus, "
			"cpus > 1" : "");
		return -1;
	}
	return 0;
}

void scenario_value(const struct scenario *s, const struct scenario_key *k,
		    struct strbuf *out)
{
	switch (k->type) {
	case KT_INT:
		sb_addf(out, "%lld", *KEY_FIELD(s, k, long long));
		break;
	case KT_BOOL:
		sb_adds(out, *KEY_FIELD(s, k, int) ? "1" : "0");
		break;
	case KT_ENUM:
		sb_adds(out, k->choices[*KEY_FIELD(s, k, int)]);
		break;
	case KT_STRING:
	case KT_PATH:
		sb_adds(out, *KEY_FIELD(s, k, char *));
		break;
	}
}

void scenario_quote(const char *v, struct strbuf *out)
{
	size_t n = strlen(v);

	if (n && !strpbrk(v, " \t#\"\\")) {
		sb_adds(out, v);
		return;
	}
	sb_addch(out, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			sb_addch(out, '\\');
		sb_addch(out, *v);
	}
	sb_addch(out, '"');
}

int scenario_open(struct scenario *s, const char *path, const struct strvec *sets)
{
	struct strbuf err = STRBUF_INIT;
	int r = -1;

	scenario_init(s);
	if (scenario_load(s, path, &err) < 0)
		goto out;
	for (size_t i = 0; i < sets->n; i++)
		if (scenario_set(s, sets->v[i], "--set", &err) < 0)
			goto out;
	r = scenario_check(s, &err);
out:
	if (r)
		error("%s", err.buf);
	sb_release(&err);
	return r;
}

const char *scenario_scheduler(const struct scenario *s)
{
	const struct scenario_key *k = scenario_key_find("scheduler");

	return s->scheduler ? k->choices[s->scheduler] : "";
}

/* The explicit indexes of fio_sample_indexes; -1 and *bad on a bad one. */
static int sample_indexes(const char *list, long **idx, size_t *n, size_t *alloc,
			  const char **bad)
{
	const char *p = list;

	while (*p) {
		char num[24];
		size_t l = strcspn(p, ", ");
		uint64_t v;

		if (l && l < sizeof(num)) {
			memcpy(num, p, l);
			num[l] = '\0';
			if (parse_u64(num, &v) < 0 || v >= SD_MAX_DISKS) {
				*bad = p;
				return -1;
			}
			ALLOC_GROW(*idx, *n + 1, *alloc);
			(*idx)[(*n)++] = (long)v;
		} else if (l) {
			*bad = p;
			return -1;
		}
		p += l;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

void scenario_fio_sample(const struct scenario *s, long **idx, size_t *n)
{
	size_t alloc = 0, out = 0;
	const char *bad;
	long d = s->disks;

	*idx = NULL;
	*n = 0;
	if (!s->fio || d <= 0)
		return;
	ALLOC_GROW(*idx, 3 + (size_t)s->fio_sample_disks, alloc);
	(*idx)[(*n)++] = 0;
	(*idx)[(*n)++] = d / 2;
	(*idx)[(*n)++] = d - 1;
	for (long i = 1; i <= s->fio_sample_disks; i++) {
		ALLOC_GROW(*idx, *n + 1, alloc);
		(*idx)[(*n)++] = (long)((long long)i * d / (s->fio_sample_disks + 1));
	}
	sample_indexes(s->fio_sample_indexes, idx, n, &alloc, &bad);
	qsort(*idx, *n, sizeof(**idx), cmp_long);
	for (size_t i = 0; i < *n; i++)
		if ((!out || (*idx)[out - 1] != (*idx)[i]) && (*idx)[i] < d)
			(*idx)[out++] = (*idx)[i];
	*n = out;
}

void scenario_copy(struct scenario *dst, const struct scenario *src)
{
	struct strbuf v = STRBUF_INIT, why = STRBUF_INIT;

	scenario_init(dst);
	dst->file = src->file ? xstrdup(src->file) : NULL;
	for (size_t i = 0; i < scenario_nkeys; i++) {
		const struct scenario_key *k = &scenario_keys[i];

		sb_reset(&v);
		scenario_value(src, k, &v);
		/* The values were checked once; paths are already resolved. */
		if (store(dst, k, v.buf, &why))
			bug("scenario_copy: key '%s' does not take its own value: %s", k->name,
			    why.buf);
		dst->origin[i] = src->origin[i];
	}
	dst->dir = src->dir ? xstrdup(src->dir) : NULL;
	sb_release(&v);
	sb_release(&why);
}
