build-dev/bisect/criterion.o: harness/bisect/criterion.c \
 harness/bisect/criterion.h harness/lib/strbuf.h harness/compare/stats.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/bisect/criterion.h:
harness/lib/strbuf.h:
harness/compare/stats.h:
harness/lib/util.h:
harness/lib/xalloc.h:
