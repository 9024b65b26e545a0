build-dev/lib/cache.o: harness/lib/cache.c harness/lib/cache.h \
 harness/lib/strbuf.h harness/lib/child.h harness/lib/seal.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/lib/child.h:
harness/lib/seal.h:
harness/lib/util.h:
harness/lib/xalloc.h:
