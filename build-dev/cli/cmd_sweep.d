build-dev/cli/cmd_sweep.o: harness/cli/cmd_sweep.c harness/cli/commands.h \
 harness/lib/strvec.h harness/lib/util.h harness/lib/strbuf.h \
 harness/lib/xalloc.h
harness/cli/commands.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/strbuf.h:
harness/lib/xalloc.h:
