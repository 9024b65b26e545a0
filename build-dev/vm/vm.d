build-dev/vm/vm.o: harness/vm/vm.c harness/vm/vm.h harness/lib/child.h \
 harness/lib/strbuf.h harness/lib/strvec.h
harness/vm/vm.h:
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
