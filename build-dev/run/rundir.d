build-dev/run/rundir.o: harness/run/rundir.c harness/run/rundir.h \
 harness/lib/strvec.h harness/scenario/scenario.h harness/lib/strbuf.h \
 harness/lib/owner.h harness/lib/util.h harness/lib/xalloc.h
harness/run/rundir.h:
harness/lib/strvec.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/owner.h:
harness/lib/util.h:
harness/lib/xalloc.h:
