build-dev/scenario/scenario.o: harness/scenario/scenario.c \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/textscan.h harness/lib/util.h harness/lib/xalloc.h
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
