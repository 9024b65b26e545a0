build-dev/lib/meter.o: harness/lib/meter.c harness/lib/meter.h \
 harness/lib/strbuf.h harness/lib/util.h harness/lib/xalloc.h
harness/lib/meter.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
