build-dev/vm/qemu.o: harness/vm/qemu.c harness/vm/vm.h \
 harness/lib/child.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/report/format.h harness/scenario/scenario.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/vm/vm.h:
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/report/format.h:
harness/scenario/scenario.h:
harness/lib/util.h:
harness/lib/xalloc.h:
