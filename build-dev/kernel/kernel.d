build-dev/kernel/kernel.o: harness/kernel/kernel.c \
 harness/kernel/kernel.h harness/scenario/scenario.h harness/lib/strbuf.h \
 harness/lib/strvec.h harness/lib/cache.h harness/kernel/deb.h \
 harness/lib/child.h harness/lib/util.h harness/lib/xalloc.h
harness/kernel/kernel.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/cache.h:
harness/kernel/deb.h:
harness/lib/child.h:
harness/lib/util.h:
harness/lib/xalloc.h:
