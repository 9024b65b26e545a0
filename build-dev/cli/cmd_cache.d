build-dev/cli/cmd_cache.o: harness/cli/cmd_cache.c harness/lib/cache.h \
 harness/lib/strbuf.h harness/cli/commands.h harness/lib/strvec.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/lib/cache.h:
harness/lib/strbuf.h:
harness/cli/commands.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/xalloc.h:
