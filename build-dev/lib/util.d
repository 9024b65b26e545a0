build-dev/lib/util.o: harness/lib/util.c harness/lib/util.h \
 harness/lib/strbuf.h harness/lib/xalloc.h
harness/lib/util.h:
harness/lib/strbuf.h:
harness/lib/xalloc.h:
