build-dev/kernel/override.o: harness/kernel/override.c \
 harness/kernel/override.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/scenario/scenario.h harness/kernel/kernel.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/kernel/override.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/scenario/scenario.h:
harness/kernel/kernel.h:
harness/lib/util.h:
harness/lib/xalloc.h:
