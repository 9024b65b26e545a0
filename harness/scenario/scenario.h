/* SPDX-License-Identifier: Apache-2.0 */
/*
 * scenario: what one run asks for, read from a scenario file.
 *
 * A scenario file is lines of "key = value"; '#' starts a comment (outside
 * double quotes); blank lines are ignored; a value may be double-quoted to
 * keep spaces or '#', and inside the quotes \" is a quote and \\ a backslash
 * (scenario_quote() writes a value so).  Every key is one row of
 * scenario_keys[] (keys.h) with its type, range, default, unit and help:
 * the same table validates files and --set overrides, fills result.json's
 * "settings", and prints the key reference of docs/scenarios.md (scaletest keys).
 *
 * The scenario file is untrusted input: it is parsed here, never sourced by
 * a shell, and every value is checked against its row before anything runs.
 * Errors point at the input: "scenarios/x:12: unknown key 'dsks' (did you
 * mean 'disks'?)".
 *
 * Calling sequence:
 *
 *	struct scenario s;
 *	scenario_init(&s);				// all defaults
 *	if (scenario_load(&s, path, &err) < 0 ||	// read and parse
 *	    scenario_set(&s, "disks=200", "--set", &err) < 0 ||
 *	    scenario_check(&s, &err) < 0)		// rules across keys
 *		fail with err.buf (exit 2)
 *	... s.disks, s.arch ...
 *	scenario_release(&s);
 *
 * scenario_parse() does the same as scenario_load() from a buffer, for tests.
 * Commands call scenario_open(&s, path, &sets), which does all of the above
 * with each "key=value" of sets as --set and prints the error.
 *
 * scenario/ in three floors: keys.h (struct scenario and its key table),
 * sweep.h (the sweep list's arithmetic) on it, and this parser and its
 * rules across keys on both; this header includes the two below, so a
 * caller includes this one.
 */
#ifndef SCALETEST_SCENARIO_H
#define SCALETEST_SCENARIO_H

#include <stddef.h>

#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "scenario/keys.h"
#include "scenario/sweep.h"

void scenario_init(struct scenario *s);
void scenario_release(struct scenario *s);
/* A deep copy (values, origins, file and dir) to change and run apart. */
void scenario_copy(struct scenario *dst, const struct scenario *src);
int scenario_load(struct scenario *s, const char *path, struct strbuf *err);
int scenario_parse(struct scenario *s, const char *file, const char *buf,
		   size_t len, struct strbuf *err);
/* Apply "key=value"; where names the source in messages ("--set"). */
int scenario_set(struct scenario *s, const char *assignment, const char *where,
		 struct strbuf *err);
int scenario_check(struct scenario *s, struct strbuf *err);
/* All of the above for the command line: init, load path, apply each
 * "key=value" of sets as --set, check; on error prints it and returns -1
 * (the caller still calls scenario_release). */
int scenario_open(struct scenario *s, const char *path, const struct strvec *sets);

/* The value of a key as text (enum names, 0/1 for bools). */
void scenario_value(const struct scenario *s, const struct scenario_key *k,
		    struct strbuf *out);
/* A value as a scenario file writes it: bare, or double-quoted with \" and
 * \\ when it is empty or holds a blank, '#', '"' or a backslash, so that
 * reading the line back gives the value again. */
void scenario_quote(const char *v, struct strbuf *out);

/* Derived facts. */
const char *scenario_kernel_package(const struct scenario *s);
/* Whether a kernel_source value names Debian's source: "debian" (the
 * linux-source package of the prebuilt kernel's version; *series = "")
 * or "debian:6.12" (linux-source-6.12, whatever the prebuilt kernels are;
 * *series = "6.12").  1 or 0; series (at least 16 bytes) may be NULL. */
int scenario_debian_source(const char *source, char *series, size_t n);
/* The I/O scheduler the scsi_debug disks get: the scheduler key, or what
 * the kernel picks ("none" with several hardware queues, else
 * "mq-deadline"). */
const char *scenario_disk_scheduler(const struct scenario *s);
/* disk_cost_kb, or the measured cost of a disk with that scheduler. */
long long scenario_disk_cost_kb(const struct scenario *s);
/* The scheduler's name, or "" for the kernel's default. */
const char *scenario_scheduler(const struct scenario *s);
/* The scsi_debug disk indexes of fio's sample job, sorted, unique. */
void scenario_fio_sample(const struct scenario *s, long **idx, size_t *n);
/* scsi_debug layout of one host: scenario_sd_host_disks() = tgts * luns. */
void scenario_sd_layout(const struct scenario *s, long long *tgts,
			long long *luns);
/*
 * Disks per scsi_debug host.  scsi_debug makes, with each host, the state
 * of every device the host may have (num_tgts * max_luns entries in one
 * list) and walks the whole list for each device that has no state yet
 * (find_build_dev_info), and the scan of one host is one task.  Measured
 * on Debian's 6.12 under TCG (docs/many-disks.md): the disks appear at the
 * same pace on one host as over many, but insmod returns a fifth later on
 * one (8,192 disks: 34.3 s against 28.4 over 8 hosts; 32,768: 473 s
 * against 393 over 32), at the same memory per disk and rmmod time.
 * scenario_sd_crowded(): 1, with that and the way out added to why, when
 * a host has more than SD_HOST_CROWDED disks (the fewest sd_hosts, up to
 * SD_HOSTS_MAX, that make hosts of at most SD_HOST_SPREAD, as measured),
 * else 0.
 */
#define SD_HOST_CROWDED 4096
#define SD_HOST_SPREAD 1024
int scenario_sd_crowded(const struct scenario *s, struct strbuf *why);

#endif
