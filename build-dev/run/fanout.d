build-dev/run/fanout.o: harness/run/fanout.c harness/run/fanout.h \
 /usr/include/json-c/json.h /usr/include/json-c/arraylist.h \
 /usr/include/json-c/debug.h /usr/include/json-c/json_c_version.h \
 /usr/include/json-c/json_object.h /usr/include/json-c/json_inttypes.h \
 /usr/include/json-c/json_config.h /usr/include/json-c/json_types.h \
 /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/lib/child.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/result/verdict.h harness/record/console.h \
 harness/record/records.h harness/guest/phase.h \
 harness/scenario/scenario.h harness/record/channel.h \
 harness/record/disks.h harness/record/inventory.h \
 harness/record/pageowner.h harness/record/timeattr.h \
 harness/record/stacks.h harness/lib/util.h harness/lib/xalloc.h \
 harness/result/result.h harness/record/meminfo.h \
 harness/record/slabinfo.h
harness/run/fanout.h:
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
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/result/verdict.h:
harness/record/console.h:
harness/record/records.h:
harness/guest/phase.h:
harness/scenario/scenario.h:
harness/record/channel.h:
harness/record/disks.h:
harness/record/inventory.h:
harness/record/pageowner.h:
harness/record/timeattr.h:
harness/record/stacks.h:
harness/lib/util.h:
harness/lib/xalloc.h:
harness/result/result.h:
harness/record/meminfo.h:
harness/record/slabinfo.h:
