build-dev/lib/textscan.o: harness/lib/textscan.c harness/lib/textscan.h \
 harness/lib/xalloc.h
harness/lib/textscan.h:
harness/lib/xalloc.h:
