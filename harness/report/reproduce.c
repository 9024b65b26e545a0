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

/* One "key = value" line of the scenario, from settings; a value the
 * format cannot hold (a double quote) is left out, with a comment. */
static void setting(struct strbuf *out, const char *key, json_object *v, const char *kernel_package)
{
	const char *s;

	if (!strcmp(key, "kernel_package") && kernel_package)
		s = kernel_package;	/* the exact package that ran */
	else if (json_object_is_type(v, json_type_boolean))
		s = json_object_get_boolean(v) ? "1" : "0";
	else
		s = json_object_get_string(v);
	if (!s)
		return;
	if (strchr(s, '"') || strchr(s, '\n')) {
		sb_addf(out, "# %s: left out (its value holds a double quote)\n", key);
		return;
	}
	sb_addf(out, "%s = \"%s\"\n", key, s);
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
		jstr(root, "kernel.arch", "x86_64"));
	sb_adds(out, "[ \"$qemu_have\" = \"$qemu_want\" ] ||\n"
		"\techo \"reproduce: the run saw QEMU $qemu_want, this host has ${qemu_have:-none}\" >&2\n"
		"scn=$(mktemp \"${TMPDIR:-/tmp}/reproduce.XXXXXX\")\n"
		"trap 'rm -f \"$scn\"' EXIT\n"
		"cat > \"$scn\" <<'SCALETEST_SCENARIO'\n");
	for (size_t i = 0; i < scenario_nkeys; i++) {
		json_object *v = jget(settings, scenario_keys[i].name);
		if (v)
			setting(out, scenario_keys[i].name, v, pkg);
	}
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
}
