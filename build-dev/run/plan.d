build-dev/run/plan.o: harness/run/plan.c harness/run/plan.h \
 harness/lib/strbuf.h harness/run/run.h harness/result/verdict.h \
 /usr/include/json-c/json.h /usr/include/json-c/arraylist.h \
 /usr/include/json-c/debug.h /usr/include/json-c/json_c_version.h \
 /usr/include/json-c/json_object.h /usr/include/json-c/json_inttypes.h \
 /usr/include/json-c/json_config.h /usr/include/json-c/json_types.h \
 /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/record/console.h harness/lib/strvec.h harness/record/records.h \
 harness/guest/phase.h harness/scenario/scenario.h \
 harness/record/channel.h harness/record/disks.h \
 harness/record/inventory.h harness/record/pageowner.h \
 harness/record/timeattr.h harness/record/stacks.h harness/guest/guest.h \
 harness/guest/initramfs.h harness/kernel/kernel.h \
 harness/kernel/kbuild.h harness/lib/cache.h harness/lib/util.h \
 harness/lib/xalloc.h harness/vm/accel.h harness/vm/libvirt.h \
 harness/lib/owner.h harness/vm/vm.h harness/lib/child.h
harness/run/plan.h:
harness/lib/strbuf.h:
harness/run/run.h:
harness/result/verdict.h:
/usr/include/json-c/json.h:
/usr/include/json-c/arraylist.h:
/usr/include/json-c/debug.h:
/usr/include/json-c/json_c_version.h:
/usr/include/json-c/json_object.h:
/usr/include/json-c/json_inttypes.h:
/usr/include/json-c/json_config.h:
/usr/include/json-c/json_types.h:
/usr/include/json-c/printbuf.h:
/usr/include/json-c/json_object_iterator.h:
/usr/include/json-c/json_pointer.h:
/usr/include/json-c/json_tokener.h:
/usr/include/json-c/json_util.h:
/usr/include/json-c/linkhash.h:
harness/record/console.h:
harness/lib/strvec.h:
harness/record/records.h:
harness/guest/phase.h:
harness/scenario/scenario.h:
harness/record/channel.h:
harness/record/disks.h:
harness/record/inventory.h:
harness/record/pageowner.h:
harness/record/timeattr.h:
harness/record/stacks.h:
harness/guest/guest.h:
harness/guest/initramfs.h:
harness/kernel/kernel.h:
harness/kernel/kbuild.h:
harness/lib/cache.h:
harness/lib/util.h:
harness/lib/xalloc.h:
harness/vm/accel.h:
harness/vm/libvirt.h:
harness/lib/owner.h:
harness/vm/vm.h:
harness/lib/child.h:
