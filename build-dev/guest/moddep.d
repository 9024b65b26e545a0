build-dev/guest/moddep.o: harness/guest/moddep.c harness/guest/moddep.h \
 harness/lib/strbuf.h harness/lib/strvec.h harness/lib/textscan.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/guest/moddep.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
