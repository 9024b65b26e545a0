build-dev/record/slabinfo.o: harness/record/slabinfo.c \
 harness/record/slabinfo.h harness/lib/strbuf.h harness/lib/textscan.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/record/slabinfo.h:
harness/lib/strbuf.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
