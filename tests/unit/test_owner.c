// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/owner.h"
#include "test.h"

static long long gone_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (long long)p;
}

TEST(owner_round_trip_and_liveness)
{
	struct strbuf sb = STRBUF_INIT;
	struct owner me, back, dead, other;

	owner_self(&me);
	CHECK(me.pid == (long long)getpid() && me.start > 0);
	CHECK_EQ_INT(owner_alive(&me), 1);
	owner_format(&me, &sb);
	CHECK_EQ_INT(owner_parse(sb.buf, &back), 0);
	CHECK_STR(back.host, me.host);
	CHECK(back.pid == me.pid && back.start == me.start);
	CHECK_EQ_INT(owner_alive(&back), 1);
	dead = me;
	dead.pid = gone_pid();
	CHECK_EQ_INT(owner_alive(&dead), 0);
	/* same pid, another start time: the pid was reused */
	dead = me;
	dead.start++;
	CHECK_EQ_INT(owner_alive(&dead), 0);
	other = me;
	snprintf(other.host, sizeof(other.host), "%.200s-elsewhere", me.host);
	CHECK_EQ_INT(owner_alive(&other), -1);
	sb_release(&sb);
}

TEST(owner_parse_rejects_malformed)
{
	static const char *const bad[] = {
		"", "host", "host ", " 12 34", "host x 34", "host 12", "host 12 ",
		"host 12 34 extra", "host -5 34", "host 0 34", "host 12 3x",
	};
	struct owner o;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_INT(owner_parse(bad[i], &o), -1);
	CHECK_EQ_INT(owner_parse("h.example 12 34\n", &o), 0);
	CHECK_STR(o.host, "h.example");
}
