build-dev/cli/cmd_kernel.o: harness/cli/cmd_kernel.c \
 harness/cli/commands.h harness/lib/cache.h harness/lib/strbuf.h \
 harness/kernel/kbuild.h harness/kernel/kernel.h \
 harness/scenario/scenario.h harness/lib/strvec.h harness/lib/child.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/cli/commands.h:
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/kernel/kbuild.h:
harness/kernel/kernel.h:
harness/scenario/scenario.h:
harness/lib/strvec.h:
harness/lib/child.h:
harness/lib/util.h:
harness/lib/xalloc.h:
