build-dev/cli/cmd_gc.o: harness/cli/cmd_gc.c harness/cli/commands.h \
 harness/lib/owner.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/util.h harness/lib/xalloc.h harness/run/rundir.h \
 harness/scenario/scenario.h harness/vm/libvirt.h harness/vm/vm.h \
 harness/lib/child.h
harness/cli/commands.h:
harness/lib/owner.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/xalloc.h:
harness/run/rundir.h:
harness/scenario/scenario.h:
harness/vm/libvirt.h:
harness/vm/vm.h:
harness/lib/child.h:
