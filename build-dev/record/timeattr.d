build-dev/record/timeattr.o: harness/record/timeattr.c \
 harness/record/timeattr.h /usr/include/json-c/json.h \
 /usr/include/json-c/arraylist.h /usr/include/json-c/debug.h \
 /usr/include/json-c/json_c_version.h /usr/include/json-c/json_object.h \
 /usr/include/json-c/json_inttypes.h /usr/include/json-c/json_config.h \
 /usr/include/json-c/json_types.h /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/record/stacks.h harness/lib/strbuf.h harness/result/result.h \
 harness/record/meminfo.h harness/scenario/scenario.h \
 harness/lib/strvec.h harness/record/slabinfo.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/timeattr.h:
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
harness/record/stacks.h:
harness/lib/strbuf.h:
harness/result/result.h:
harness/record/meminfo.h:
harness/scenario/scenario.h:
harness/lib/strvec.h:
harness/record/slabinfo.h:
harness/lib/util.h:
harness/lib/xalloc.h:
