build-dev/cli/cmd_nightly.o: harness/cli/cmd_nightly.c \
 harness/cli/commands.h harness/compare/nightly.h \
 harness/compare/compare.h /usr/include/json-c/json.h \
 /usr/include/json-c/arraylist.h /usr/include/json-c/debug.h \
 /usr/include/json-c/json_c_version.h /usr/include/json-c/json_object.h \
 /usr/include/json-c/json_inttypes.h /usr/include/json-c/json_config.h \
 /usr/include/json-c/json_types.h /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 harness/lib/strbuf.h harness/lib/strvec.h harness/scenario/scenario.h \
 harness/run/fanout.h harness/lib/child.h harness/result/verdict.h \
 harness/record/console.h harness/record/records.h harness/guest/phase.h \
 harness/record/channel.h harness/record/disks.h \
 harness/record/inventory.h harness/record/pageowner.h \
 harness/record/timeattr.h harness/record/stacks.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/cli/commands.h:
harness/compare/nightly.h:
harness/compare/compare.h:
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
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/scenario/scenario.h:
harness/run/fanout.h:
harness/lib/child.h:
harness/result/verdict.h:
harness/record/console.h:
harness/record/records.h:
harness/guest/phase.h:
harness/record/channel.h:
harness/record/disks.h:
harness/record/inventory.h:
harness/record/pageowner.h:
harness/record/timeattr.h:
harness/record/stacks.h:
harness/lib/util.h:
harness/lib/xalloc.h:
