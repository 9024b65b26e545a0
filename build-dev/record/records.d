build-dev/record/records.o: harness/record/records.c \
 harness/record/records.h /usr/include/json-c/json.h \
 /usr/include/json-c/arraylist.h /usr/include/json-c/debug.h \
 /usr/include/json-c/json_c_version.h /usr/include/json-c/json_object.h \
 /usr/include/json-c/json_inttypes.h /usr/include/json-c/json_config.h \
 /usr/include/json-c/json_types.h /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/guest/phase.h harness/scenario/scenario.h harness/lib/strbuf.h \
 harness/lib/strvec.h harness/record/channel.h harness/record/disks.h \
 harness/record/inventory.h harness/record/pageowner.h \
 harness/record/timeattr.h harness/record/stacks.h harness/guest/guest.h \
 harness/guest/initramfs.h harness/kernel/kernel.h \
 harness/record/attribution.h harness/record/fiojson.h \
 harness/record/kv.h harness/record/meminfo.h harness/record/monitor.h \
 harness/record/slabinfo.h harness/record/sweep.h harness/result/result.h \
 harness/lib/textscan.h harness/lib/util.h harness/lib/xalloc.h
harness/record/records.h:
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
harness/guest/phase.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/record/channel.h:
harness/record/disks.h:
harness/record/inventory.h:
harness/record/pageowner.h:
harness/record/timeattr.h:
harness/record/stacks.h:
harness/guest/guest.h:
harness/guest/initramfs.h:
harness/kernel/kernel.h:
harness/record/attribution.h:
harness/record/fiojson.h:
harness/record/kv.h:
harness/record/meminfo.h:
harness/record/monitor.h:
harness/record/slabinfo.h:
harness/record/sweep.h:
harness/result/result.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
