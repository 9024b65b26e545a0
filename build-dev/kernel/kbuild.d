build-dev/kernel/kbuild.o: harness/kernel/kbuild.c \
 harness/kernel/kbuild.h harness/kernel/kernel.h \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h \
 harness/lib/cache.h harness/kernel/deb.h harness/lib/child.h \
 harness/lib/git.h harness/lib/textscan.h harness/lib/util.h \
 harness/lib/xalloc.h
harness/kernel/kbuild.h:
harness/kernel/kernel.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
harness/lib/cache.h:
harness/kernel/deb.h:
harness/lib/child.h:
harness/lib/git.h:
harness/lib/textscan.h:
harness/lib/util.h:
harness/lib/xalloc.h:
