build-dev/record/disks.o: harness/record/disks.c harness/record/disks.h \
 harness/lib/strbuf.h harness/lib/textscan.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/disks.h:
harness/lib/strbuf.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
