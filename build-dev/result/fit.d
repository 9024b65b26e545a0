build-dev/result/fit.o: harness/result/fit.c harness/result/fit.h \
 harness/compare/stats.h harness/lib/xalloc.h
harness/result/fit.h:
harness/compare/stats.h:
harness/lib/xalloc.h:
