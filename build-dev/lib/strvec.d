build-dev/lib/strvec.o: harness/lib/strvec.c harness/lib/strvec.h \
 harness/lib/util.h harness/lib/strbuf.h harness/lib/xalloc.h
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/strbuf.h:
harness/lib/xalloc.h:
