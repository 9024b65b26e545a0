build-dev/record/channel.o: harness/record/channel.c \
 harness/record/channel.h harness/lib/strbuf.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/channel.h:
harness/lib/strbuf.h:
harness/lib/util.h:
harness/lib/xalloc.h:
