build-dev/record/inventory.o: harness/record/inventory.c \
 harness/record/inventory.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/record/disks.h harness/lib/textscan.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/inventory.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/record/disks.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
