build-dev/compare/stats.o: harness/compare/stats.c \
 harness/compare/stats.h
harness/compare/stats.h:
