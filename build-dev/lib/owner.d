build-dev/lib/owner.o: harness/lib/owner.c harness/lib/owner.h \
 harness/lib/strbuf.h
harness/lib/owner.h:
harness/lib/strbuf.h:
