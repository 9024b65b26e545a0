build-dev/record/console.o: harness/record/console.c \
 harness/record/console.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/guest/phase.h harness/scenario/scenario.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/record/console.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/guest/phase.h:
harness/scenario/scenario.h:
harness/lib/util.h:
harness/lib/xalloc.h:
