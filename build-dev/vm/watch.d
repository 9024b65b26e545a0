build-dev/vm/watch.o: harness/vm/watch.c harness/vm/watch.h \
 harness/vm/vm.h harness/lib/child.h harness/lib/strbuf.h \
 harness/lib/strvec.h harness/lib/util.h harness/lib/xalloc.h
harness/vm/watch.h:
harness/vm/vm.h:
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/xalloc.h:
