build-dev/report/markup.o: harness/report/markup.c \
 harness/report/markup.h harness/lib/strbuf.h
harness/report/markup.h:
harness/lib/strbuf.h:
