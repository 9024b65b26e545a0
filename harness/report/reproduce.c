// SPDX-License-Identifier: Apache-2.0
#include "report/reproduce.h"

#include <ctype.h>
#include <string.h>

#include "result/result.h"
#include "scenario/scenario.h"
#include "lib/util.h"

/* Keeps the characters a commit, version or id may hold; the rest
 * become '_', so the text can stand in a shell word or a comment. */
static void word(struct strbuf *out, const char *s)
{
	for (; s && *s; s++)
		sb_addch(out, isalnum((unsigned char)*s) || strchr(".-_:+~", *s) ? *s : '_');
}

/*
 * The keys whose value names a place to build or boot from, and what a
 * rerun does with it.  result.json may come from anywhere: such a path is
 * never a live line of the scenario (it lives in ${TMPDIR:-/tmp}, where a
 * relative path would resolve, and an absolute one may lie anywhere any
 * user can write): it is written commented, after a "review:" line, and
 * the script stops until a person has read it.  A value that is no path
 * is none: Debian's source (debian, debian:X.Y), fragments by name (in the
 * clone's kernel-configs/), empty.
 */
static const struct {
	const char *key, *does;
} path_keys[] = {
	{ "kernel_source", "builds code from" },
	{ "kernel_patches", "builds code from" },
	{ "kernel_fragments", "builds code from" },
	{ "kernel_image", "boots the kernel" },
	{ "kernel_modules", "loads modules from" },
};

/* 0: no path; 1: absolute paths only; 2: a relative one among them. */
static int names_path(const struct scenario_key *k, const char *val)
{
	int any = 0, rel = 0;

	if (!*val)
		return 0;
	if (!strcmp(k->name, "kernel_source"))
		return scenario_debian_source(val, NULL, 0) ? 0 : val[0] == '/' ? 1 : 2;
	if (!strcmp(k->name, "kernel_fragments")) {
		/* a comma- or space-separated list: entries with a '/' are paths */
		for (const char *p = val; *p; ) {
			size_t n = strcspn(p, ", ");

			if (memchr(p, '/', n)) {
				any = 1;
				rel |= p[0] != '/';
			}
			p += n;
			p += strspn(p, ", ");
		}
		return !any ? 0 : rel ? 2 : 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(path_keys); i++)
		if (!strcmp(k->name, path_keys[i].key))
			return val[0] == '/' ? 1 : 2;
	return k->type == KT_PATH ? (val[0] == '/' ? 1 : 2) : 0;
}

static const char *path_does(const struct scenario_key *k)
{
	for (size_t i = 0; i < ARRAY_SIZE(path_keys); i++)
		if (!strcmp(k->name, path_keys[i].key))
			return path_keys[i].does;
	return "uses";
}

/*
 * One "key = value" line of the scenario, from settings.  result.json may
 * come from anywhere: the value must be one the key accepts (s, a
 * scenario of its own, takes it as --set would), else it is left out
 * with a comment; it is written quoted as scenario files quote.  The
 * lines stand inside a quoted here-document, which expands nothing.  A
 * path is written commented after its "review:" line: 1 then, else 0.
 */
static int setting(struct strbuf *out, struct scenario *s, const struct scenario_key *k,
		   json_object *v, const char *kernel_package)
{
	struct strbuf set = STRBUF_INIT, err = STRBUF_INIT;
	const char *val;
	int path = 0;

	if (!strcmp(k->name, "kernel_package") && kernel_package)
		val = kernel_package;	/* the exact package that ran */
	else if (json_object_is_type(v, json_type_boolean))
		val = json_object_get_boolean(v) ? "1" : "0";
	else if (json_object_is_type(v, json_type_string) ||
		 json_object_is_type(v, json_type_int))
		val = json_object_get_string(v);
	else
		val = NULL;
	if (val)
		sb_addf(&set, "%s=%s", k->name, val);
	if (!val || scenario_set(s, set.buf, "result.json", &err) < 0) {
		sb_addf(out, "# %s: left out (result.json's value is not one this key takes)\n",
			k->name);
	} else if ((path = names_path(k, val))) {
		/* (the value holds no control character: scenario_set) */
		if (path == 1)
			sb_addf(out, "# review: %s %s (%s): read it, then uncomment the next line\n",
				path_does(k), val, k->name);
		else
			sb_addf(out, "# review: %s '%s', a relative path (%s): relative to the directory "
				"of the run's scenario, unknown here; write it absolute, then uncomment the next "
				"line\n", path_does(k), val, k->name);
		sb_addf(out, "# %s = ", k->name);
		scenario_quote(val, out);
		sb_addch(out, '\n');
	} else {
		sb_addf(out, "%s = ", k->name);
		scenario_quote(val, out);
		sb_addch(out, '\n');
	}
	sb_release(&set);
	sb_release(&err);
	return path != 0;
}

void reproduce_script(json_object *root, struct strbuf *out)
{
	const char *tool = jstr(root, "tool", "");
	const char *ver = !strncmp(tool, "scaletest ", 10) ? tool + 10 : tool;
	const char *source = jstr(root, "kernel.source", "");
	const char *pkg = !strcmp(source, "debian") ? jstr(root, "kernel.package", NULL) : NULL;
	json_object *settings = jget(root, "settings");
	int highmem = result_highmem(root);
	const char *figure = highmem ? "LowFree" : "MemFree";
	struct strbuf scn = STRBUF_INIT;
	struct scenario s;
	int review = 0;

	/* The settings first: validated, they give the arch (an enum) for
	 * the QEMU binary below; result.json's kernel.arch is not used. */
	scenario_init(&s);
	for (size_t i = 0; i < scenario_nkeys; i++) {
		json_object *v = jget(settings, scenario_keys[i].name);
		if (v)
			review += setting(&scn, &s, &scenario_keys[i], v, pkg);
	}

	sb_adds(out, "#!/bin/sh\n# Runs scaletest run ");
	word(out, jstr(root, "run_id", "?"));
	sb_adds(out, " again: the same scenario, every setting resolved, the same kernel.\n"
		"#\n#   sh reproduce.sh [CLONE]    CLONE: a clone of scaletest (default: .)\n#\n");
	sb_adds(out, "# harness: scaletest ");
	word(out, ver);
	sb_adds(out, "\n# kernel: ");
	word(out, jstr(root, "kernel.version", "?"));
	if (pkg) {
		sb_adds(out, " (Debian package ");
		word(out, pkg);
		sb_adds(out, " ");
		word(out, jstr(root, "kernel.package_version", "?"));
		sb_adds(out, ")");
	} else if (jget(root, "kernel.build.key")) {
		sb_adds(out, " (built; key ");
		word(out, jstr(root, "kernel.build.key", "?"));
		sb_adds(out, ")");
	}
	sb_adds(out, "\n# QEMU: ");
	word(out, jstr(root, "vm.qemu_version", "?"));
	sb_adds(out, ", accelerator ");
	word(out, jstr(root, "vm.accel", "?"));
	sb_adds(out, "\nset -eu\nclone=${1:-.}\ncd \"$clone\"\nwant=");
	word(out, ver);
	sb_adds(out, "\nhave=$(git describe --always --dirty 2>/dev/null || echo unknown)\n"
		"case $want in\n"
		"\"$have\" | \"$have\"-*) ;;\n"
		"*) echo \"reproduce: the run was made by scaletest $want; $clone is at $have"
		" (git checkout ${want%-dirty})\" >&2 ;;\n"
		"esac\nqemu_want=");
	word(out, jstr(root, "vm.qemu_version", ""));
	sb_addf(out, "\nqemu_have=$(qemu-system-%s --version 2>/dev/null | sed -n '1s/.*version \\([^ ]*\\).*/\\1/p')\n",
		arch_name(s.arch));
	sb_adds(out, "[ \"$qemu_have\" = \"$qemu_want\" ] ||\n"
		"\techo \"reproduce: the run saw QEMU $qemu_want, this host has ${qemu_have:-none}\" >&2\n");
	if (review)
		sb_adds(out, "# The run built or booted its kernel from paths its result.json names\n"
			"# (the \"review:\" lines below): read what each holds, uncomment the\n"
			"# line after it, and delete the next line.\n"
			"echo \"reproduce: review the paths this script would build or boot from (the "
			"'review:' lines of $0)\" >&2; exit 2\n");
	sb_adds(out,
		"scn=$(mktemp \"${TMPDIR:-/tmp}/reproduce.XXXXXX\")\n"
		"trap 'rm -f \"$scn\"' EXIT\n"
		"cat > \"$scn\" <<'SCALETEST_SCENARIO'\n");
	sb_add(out, scn.buf, scn.len);
	sb_adds(out, "SCALETEST_SCENARIO\nmake >&2\nout=${SCALETEST_REPRODUCE_OUT:-results-reproduce}\n"
		"bin/scaletest run \"$scn\" --out \"$out\" || rc=$?\n"
		"new=$out/latest/result.json\n");
	if (pkg) {
		sb_adds(out, "v=$(jq -r .kernel.package_version \"$new\" 2>/dev/null || echo '?')\n[ \"$v\" = ");
		word(out, jstr(root, "kernel.package_version", "?"));
		sb_adds(out, " ] || echo \"reproduce: the kernel package is now version $v, the run had ");
		word(out, jstr(root, "kernel.package_version", "?"));
		sb_adds(out, "\" >&2\n");
	}
	sb_addf(out, "echo \"%s per disk: ", figure);
	if (jget(root, "deltas.insmod.per_disk_bytes") &&
	    jint(root, highmem ? "deltas.insmod.per_disk_bytes.LowFree"
			       : "deltas.insmod.per_disk_bytes.MemFree", -1) >= 0)
		sb_addf(out, "%lld", jint(root, highmem ? "deltas.insmod.per_disk_bytes.LowFree"
						    : "deltas.insmod.per_disk_bytes.MemFree", 0));
	else
		sb_adds(out, "n/a");
	sb_addf(out, " B then, $(jq -r '.deltas.insmod.per_disk_bytes.%s // \"n/a\"' \"$new\" 2>/dev/null) B now\"\n"
		"exit ${rc:-0}\n", figure);
	sb_release(&scn);
	scenario_release(&s);
}
