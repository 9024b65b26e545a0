build-dev/lib/xalloc.o: harness/lib/xalloc.c harness/lib/xalloc.h
harness/lib/xalloc.h:
