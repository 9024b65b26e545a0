build-dev/guest/guest.o: harness/guest/guest.c harness/guest/guest.h \
 harness/guest/initramfs.h harness/kernel/kernel.h \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/cache.h harness/kernel/deb.h harness/record/disks.h \
 harness/guest/fio.h harness/guest/moddep.h harness/record/monitor.h \
 /usr/include/json-c/json.h /usr/include/json-c/arraylist.h \
 /usr/include/json-c/debug.h /usr/include/json-c/json_c_version.h \
 /usr/include/json-c/json_object.h /usr/include/json-c/json_inttypes.h \
 /usr/include/json-c/json_config.h /usr/include/json-c/json_types.h \
 /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/guest/guest.h:
harness/guest/initramfs.h:
harness/kernel/kernel.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/cache.h:
harness/kernel/deb.h:
harness/record/disks.h:
harness/guest/fio.h:
harness/guest/moddep.h:
harness/record/monitor.h:
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
harness/lib/util.h:
harness/lib/xalloc.h:
