// SPDX-License-Identifier: Apache-2.0
#include "lib/owner.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long proc_start_time(long long pid)
{
	char path[64], buf[1024];
	unsigned long long start = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* Field 22; the command name (field 2) may hold spaces: skip past ')'. */
	char *p = strrchr(buf, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		start = strtoull(p + 1, NULL, 10);
	return start;
}

void owner_self(struct owner *o)
{
	memset(o, 0, sizeof(*o));
	if (gethostname(o->host, sizeof(o->host) - 1) < 0 || !o->host[0])
		snprintf(o->host, sizeof(o->host), "unknown");
	/* One safe form for every place the owner is written: the owner line
	 * (space-separated) and volume names (DOMAIN+HOST+PID+START). */
	for (char *c = o->host; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '.' && *c != '-' && *c != '_')
			*c = '_';
	o->pid = (long long)getpid();
	o->start = proc_start_time(o->pid);
}

int owner_alive(const struct owner *o)
{
	struct owner me;

	owner_self(&me);
	if (strcmp(o->host, me.host))
		return -1;
	return o->pid > 0 && o->start && proc_start_time(o->pid) == o->start;
}

void owner_format(const struct owner *o, struct strbuf *out)
{
	sb_addf(out, "%s %lld %llu\n", o->host, o->pid, o->start);
}

int owner_parse(const char *text, struct owner *o)
{
	const char *sp = strchr(text, ' ');
	char *end;

	memset(o, 0, sizeof(*o));
	if (!sp || sp == text || (size_t)(sp - text) >= sizeof(o->host))
		return -1;
	memcpy(o->host, text, (size_t)(sp - text));
	o->host[sp - text] = '\0';
	if (sp[1] < '0' || sp[1] > '9')
		return -1;
	o->pid = strtoll(sp + 1, &end, 10);
	if (*end != ' ' || end[1] < '0' || end[1] > '9' || o->pid <= 0)
		return -1;
	o->start = strtoull(end + 1, &end, 10);
	if (*end && *end != '\n')
		return -1;
	return 0;
}
