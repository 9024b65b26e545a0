build-dev/kernel/deb.o: harness/kernel/deb.c harness/kernel/deb.h \
 harness/lib/cache.h harness/lib/strbuf.h harness/lib/child.h \
 harness/lib/strvec.h harness/lib/textscan.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/kernel/deb.h:
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/lib/child.h:
harness/lib/strvec.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
