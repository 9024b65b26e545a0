build-dev/cli/main.o: harness/cli/main.c harness/cli/commands.h \
 harness/lib/child.h harness/lib/strbuf.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/cli/commands.h:
harness/lib/child.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
