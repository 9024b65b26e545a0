build-dev/cli/cmd_fio.o: harness/cli/cmd_fio.c harness/lib/cache.h \
 harness/lib/strbuf.h harness/cli/commands.h harness/guest/fio.h \
 harness/lib/strvec.h harness/lib/child.h harness/scenario/scenario.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/cli/commands.h:
harness/guest/fio.h:
harness/lib/strvec.h:
harness/lib/child.h:
harness/scenario/scenario.h:
harness/lib/util.h:
harness/lib/xalloc.h:
