build-dev/guest/fio.o: harness/guest/fio.c harness/guest/fio.h \
 harness/lib/strbuf.h harness/lib/strvec.h harness/lib/cache.h \
 harness/kernel/deb.h harness/lib/child.h harness/scenario/scenario.h \
 harness/lib/textscan.h harness/lib/util.h harness/lib/xalloc.h
harness/guest/fio.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/cache.h:
harness/kernel/deb.h:
harness/lib/child.h:
harness/scenario/scenario.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
