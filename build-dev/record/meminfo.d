build-dev/record/meminfo.o: harness/record/meminfo.c \
 harness/record/meminfo.h harness/lib/strbuf.h harness/lib/textscan.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/record/meminfo.h:
harness/lib/strbuf.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
