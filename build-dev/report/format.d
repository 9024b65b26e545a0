build-dev/report/format.o: harness/report/format.c \
 harness/report/format.h harness/lib/strbuf.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/report/format.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
