build-dev/lib/git.o: harness/lib/git.c harness/lib/git.h \
 harness/lib/strbuf.h harness/lib/child.h harness/lib/strvec.h \
 harness/lib/util.h harness/lib/xalloc.h
harness/lib/git.h:
harness/lib/strbuf.h:
harness/lib/child.h:
harness/lib/strvec.h:
harness/lib/util.h:
harness/lib/xalloc.h:
