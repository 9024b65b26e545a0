build-dev/guest/phase.o: harness/guest/phase.c harness/guest/phase.h \
 harness/scenario/scenario.h harness/lib/strbuf.h harness/lib/strvec.h
harness/guest/phase.h:
harness/scenario/scenario.h:
harness/lib/strbuf.h:
harness/lib/strvec.h:
