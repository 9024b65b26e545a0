build-dev/record/kv.o: harness/record/kv.c harness/record/kv.h \
 harness/lib/strbuf.h harness/lib/textscan.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/kv.h:
harness/lib/strbuf.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
