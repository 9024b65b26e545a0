build-dev/lib/child.o: harness/lib/child.c harness/lib/child.h \
 harness/lib/strbuf.h harness/lib/util.h harness/lib/xalloc.h
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
