build-dev/vm/accel.o: harness/vm/accel.c harness/vm/accel.h \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/cache.h harness/record/channel.h harness/guest/guest.h \
 harness/guest/initramfs.h harness/kernel/kernel.h harness/lib/util.h \
 harness/lib/xalloc.h harness/vm/vm.h harness/lib/child.h \
 harness/vm/watch.h
harness/vm/accel.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/cache.h:
harness/record/channel.h:
harness/guest/guest.h:
harness/guest/initramfs.h:
harness/kernel/kernel.h:
harness/lib/util.h:
harness/lib/xalloc.h:
harness/vm/vm.h:
harness/lib/child.h:
harness/vm/watch.h:
