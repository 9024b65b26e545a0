build-dev/cli/cmd_triage.o: harness/cli/cmd_triage.c \
 harness/cli/commands.h harness/lib/util.h harness/lib/strbuf.h \
 harness/lib/xalloc.h harness/record/console.h harness/lib/strvec.h
harness/cli/commands.h:
harness/lib/util.h:
harness/lib/strbuf.h:
harness/lib/xalloc.h:
harness/record/console.h:
harness/lib/strvec.h:
