build-dev/lib/strbuf.o: harness/lib/strbuf.c harness/lib/strbuf.h \
 harness/lib/xalloc.h
harness/lib/strbuf.h:
harness/lib/xalloc.h:
