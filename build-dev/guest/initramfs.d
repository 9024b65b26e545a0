build-dev/guest/initramfs.o: harness/guest/initramfs.c \
 harness/guest/initramfs.h harness/lib/cache.h harness/lib/strbuf.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/guest/initramfs.h:
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
