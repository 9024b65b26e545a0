build-dev/cli/cmd_keys.o: harness/cli/cmd_keys.c harness/cli/commands.h \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/cli/commands.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/xalloc.h:
