#include "deb.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "textscan.h"
#include "util.h"

void deb_pkg_release(struct deb_pkg *p)
{
	free(p->name);
	free(p->version);
	free(p->arch);
	p->name = p->version = p->arch = NULL;
}

/* "linux-image-6.1.0-57-amd64" is a versioned kernel image package;
 * "linux-image-amd64" and "linux-image-686-pae" are metapackages. */
static int is_versioned_kernel(const char *name)
{
	const char *p = name + 12;

	if (strncmp(name, "linux-image-", 12) || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '.' && isdigit((unsigned char)p[1]);
}

int deb_parse_show(const char *buf, char **version, char **kernel_dep)
{
	struct line_iter it;

	*version = NULL;
	*kernel_dep = NULL;
	line_iter_init(&it, buf, strlen(buf));
	while (line_next(&it)) {
		if (!it.len)
			break;	/* end of the first stanza */
		if (it.len > 9 && !strncmp(it.line, "Version: ", 9) && !*version)
			*version = xstrndup(it.line + 9, it.len - 9);
		if (it.len > 9 && !strncmp(it.line, "Depends: ", 9) && !*kernel_dep) {
			const char *p = it.line + 9, *end = it.line + it.len;
			while (p < end) {
				while (p < end && (*p == ' ' || *p == ',' || *p == '|'))
					p++;
				const char *s = p;
				while (p < end && *p != ' ' && *p != ',' && *p != '|')
					p++;
				char *dep = xstrndup(s, (size_t)(p - s));
				if (is_versioned_kernel(dep)) {
					*kernel_dep = dep;
					break;
				}
				free(dep);
				/* Skip a version constraint "(= x)". */
				while (p < end && *p != ',')
					p++;
			}
		}
	}
	for (const char *c = *version; *version && *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr(".+-:~", *c)) {
			free(*version);
			*version = NULL;
		}
	if (!*version) {
		free(*kernel_dep);
		*kernel_dep = NULL;
		return -1;
	}
	return 0;
}

static int apt_show(const char *name, const char *arch, char **version,
		    char **kernel_dep)
{
	char *spec = xstrfmt("%s:%s", name, arch);
	const char *argv[] = { "apt-cache", "show", "--no-all-versions", spec, NULL };
	struct run_opts o = RUN_OPTS_INIT;
	struct strbuf out = STRBUF_INIT;
	struct child_result res;
	int r = -1;

	if (!have_program("apt-cache")) {
		free(spec);
		return error_env("apt-cache not found: scaletest fetches Debian's "
				 "kernels with apt; use kernel=files on other systems");
	}
	o.capture = &out;
	o.timeout = 120;
	if (run_command(argv, &o, &res) < 0)
		goto out;
	if (!child_ok(&res) || !out.len) {
		if (!strcmp(arch, "i386"))
			error_env("package '%s' not found for i386: run 'make deps' "
				  "(it enables dpkg --add-architecture i386 and apt-get update)",
				  spec);
		else
			error_env("package '%s' not found: check the name, or run "
				  "'apt-get update'", spec);
		goto out;
	}
	if (deb_parse_show(out.buf, version, kernel_dep) < 0) {
		error("cannot read apt-cache's answer for '%s'", spec);
		goto out;
	}
	r = 0;
out:
	sb_release(&out);
	free(spec);
	return r;
}

int deb_resolve(const char *name, const char *arch, int follow_kernel,
		struct deb_pkg *out)
{
	char *version = NULL, *dep = NULL;
	char *cur = xstrdup(name);
	const char *colon = strchr(name, ':');

	if (colon) {
		/* "pkg:arch" in a scenario: the arch must agree. */
		if (strcmp(colon + 1, arch)) {
			free(cur);
			return error("package '%s' is not for %s", name, arch);
		}
		cur[colon - name] = '\0';
	}
	for (int depth = 0; ; depth++) {
		if (apt_show(cur, arch, &version, &dep) < 0) {
			free(cur);
			return -1;
		}
		if (!follow_kernel || is_versioned_kernel(cur) || !dep || depth > 3)
			break;
		free(cur);
		free(version);
		cur = dep;
		dep = NULL;
	}
	free(dep);
	if (follow_kernel && !is_versioned_kernel(cur)) {
		error("'%s' is not a kernel image package", name);
		free(cur);
		free(version);
		return -1;
	}
	out->name = cur;
	out->version = version;
	out->arch = xstrdup(arch);
	return 0;
}

int deb_fetch_extract(const struct deb_pkg *p, const char *root, const char *log)
{
	char *dl = xstrfmt("%s.download", root);
	char *spec = xstrfmt("%s:%s=%s", p->name, p->arch, p->version);
	const char *get[] = { "apt-get", "download", "-q", spec, NULL };
	struct run_opts o = RUN_OPTS_INIT;
	struct child_result res;
	char *deb = NULL;
	DIR *d;
	struct dirent *de;
	int r = -1;

	remove_tree(dl);
	if (mkdir_p(dl, 0755) < 0 || mkdir_p(root, 0755) < 0)
		goto out;
	o.dir = dl;
	o.log = log;
	o.timeout = 1800;
	note("downloading %s", spec);
	if (run_command(get, &o, &res) < 0)
		goto out;
	if (!child_ok(&res)) {
		error_env("apt-get download %s failed (%s); see '%s'", spec,
			  child_describe(&res), log);
		goto out;
	}
	if ((d = opendir(dl))) {
		while ((de = readdir(d)))
			if (strlen(de->d_name) > 4 &&
			    !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb"))
				deb = xstrfmt("%s/%s", dl, de->d_name);
		closedir(d);
	}
	if (!deb) {
		error("apt-get download %s left no .deb in '%s'", spec, dl);
		goto out;
	}
	const char *x[] = { "dpkg-deb", "-x", deb, root, NULL };
	o.dir = NULL;
	o.timeout = 600;
	if (run_command(x, &o, &res) < 0)
		goto out;
	if (!child_ok(&res)) {
		error("dpkg-deb -x %s failed (%s); see '%s'", deb,
		      child_describe(&res), log);
		goto out;
	}
	r = 0;
out:
	remove_tree(dl);
	free(deb);
	free(spec);
	free(dl);
	return r;
}
