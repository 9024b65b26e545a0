build-dev/lib/seal.o: harness/lib/seal.c harness/lib/seal.h \
 harness/lib/strbuf.h harness/lib/strvec.h harness/lib/textscan.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/lib/seal.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
