# scaletest: a QEMU scale-test harness for the Linux block layer.
#
#   make              build bin/scaletest
#   make deps         install the Debian packages the default run needs (only
#                     what is missing); deps-kbuild, deps-libvirt, deps-test,
#                     deps-fuzz, deps-html add what those need, deps-full all
#   make test         deps-full, then the whole test suite (unit + end-to-end);
#                     make test-only skips the install
#   make scale-test   deps, build, and run the default scenario end to end
#   make nightly      deps-kbuild, the nightly matrix, compared with the baselines (CI);
#                     exit 4 when a run has no baseline on this runner
#   make nightly-first  the same, recording the missing baselines (a new runner)
#   make check        unit, command-line, triage, replay, golden, JUnit-schema and include tests,
#                     and docs/measurements.md's benchmark table against its JSON (no QEMU)
#   make golden       rewrite tests/golden/*/expected from the writers (then read the diff)
#   make bench        the benchmarks under tests/bench/ (figures in results/bench/)
#   make bench-table  docs/measurements.md's benchmark table from results/bench/*.json
#   make fuzz         build the libFuzzer targets (clang) and run each FUZZ_SECONDS
#   make fuzz-merge   the same, then merge new coverage into tests/fuzz/corpus/
#   make valgrind     the unit tests under valgrind (not part of make test)
#   make check-sanitize  unit and command-line tests built with ASan+UBSan
#                     (into build-san/ and bin-san/, beside the normal build)
#
# Build knobs: DEVELOPER=1 is the default (-Wall -Wextra -Werror);
# SANITIZE=address,undefined builds with sanitizers; BUILD= and BIN= name
# the build and binary folders (build, bin).

CC ?= cc
CFLAGS ?= -O2 -g
SCENARIO ?= scenarios/seed-i386-4000
MATRIX ?= scenarios/nightly/default
BASELINES ?= results/baselines
SANITIZE ?=
BUILD ?= build
BIN ?= bin
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wno-format-nonliteral -Wvla
PKGS = libarchive json-c zlib libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -larchive -ljson-c -lz -lcrypto) -lm -pthread
# The libvirt backend (harness/vm/libvirt.c) when libvirt's and libxml2's
# development files are there; without them it is built as a stub whose
# check says what to install.
LIBVIRT_PKGS = libvirt libxml-2.0
ifeq ($(shell pkg-config --exists $(LIBVIRT_PKGS) 2>/dev/null && echo yes),yes)
PKG_CFLAGS += $(shell pkg-config --cflags $(LIBVIRT_PKGS)) -DHAVE_LIBVIRT
PKG_LIBS += $(shell pkg-config --libs $(LIBVIRT_PKGS))
endif
ALL_CFLAGS = -std=gnu11 -D_GNU_SOURCE -pthread $(WARN) $(CFLAGS) $(PKG_CFLAGS) -Iharness -MMD -MP \
	     -DSCALETEST_VERSION='"$(VERSION)"'
ALL_LDFLAGS = $(LDFLAGS)
ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# One folder per stage (see README, "How it works"); cli/ holds main.c and
# one file per command, everything else goes into libscaletest.a.
STAGES := $(filter-out harness/cli/,$(sort $(dir $(wildcard harness/*/*.c))))
LIB_SRCS := $(foreach d,$(STAGES),$(wildcard $(d)*.c))
CMD_SRCS := $(wildcard harness/cli/*.c)
LIB_OBJS := $(LIB_SRCS:harness/%.c=$(BUILD)/%.o)
CMD_OBJS := $(CMD_SRCS:harness/%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%.o)

all: $(BIN)/scaletest

$(BIN)/scaletest: $(CMD_OBJS) $(BUILD)/libscaletest.a
	@mkdir -p $(BIN)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/libscaletest.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: harness/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c
	@mkdir -p $(BUILD)/unit
	$(CC) $(ALL_CFLAGS) -Itests/unit -DSCALETEST_SOURCE_ROOT='"$(CURDIR)"' -c -o $@ $<

$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/libscaletest.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# The benchmarks' helper: appends archives with the harness's cpio writer.
build/bench/mkcpio.o: tests/bench/mkcpio.c
	@mkdir -p build/bench
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/bench/mkcpio: build/bench/mkcpio.o build/libscaletest.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Version changes must rebuild main.o.
$(BUILD)/cli/main.o: .version-stamp
.version-stamp: FORCE
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

# The Debian packages, by profile (tools/deps.sh; README "Set-up"): make deps
# installs what the default run needs; the others add what their targets
# need; deps-full all of them (make test, .ci/run).
DEPS_PROFILES = kbuild libvirt test fuzz html full
deps:
	sh tools/deps.sh install

$(DEPS_PROFILES:%=deps-%):
	sh tools/deps.sh install $(@:deps-%=%)

check: $(BIN)/scaletest $(BUILD)/unit-tests
	$(BUILD)/unit-tests tests/fixtures
	sh tests/cli.sh
	sh tests/triage.sh
	sh tests/gc.sh
	sh tests/security.sh
	sh tests/replay/run.sh
	sh tests/golden.sh
	sh tests/junit/validate.sh
	sh tests/includes.sh
	sh tests/e2e/listed.sh
	sh tests/bench/table.sh --check

test: deps-full
	$(MAKE) test-only

# make test without installing anything first.  (make test runs it in a new
# make, so that the libvirt check above sees what deps-full installed.)
test-only: $(BIN)/scaletest $(BUILD)/unit-tests build/bench/mkcpio
	$(BUILD)/unit-tests tests/fixtures
	sh tests/cli.sh
	sh tests/triage.sh
	sh tests/gc.sh
	sh tests/security.sh
	sh tests/replay/run.sh
	sh tests/golden.sh
	sh tests/junit/validate.sh
	sh tests/includes.sh
	sh tests/e2e/listed.sh
	sh tests/bench/table.sh --check
	$(MAKE) check-sanitize
	$(MAKE) fuzz FUZZ_SECONDS=5
	sh tests/e2e/run.sh
	sh tests/e2e/faults.sh
	sh tests/e2e/bounds.sh
	sh tests/e2e/timeattr.sh
	sh tests/e2e/kernel.sh
	sh tests/e2e/bisect.sh
	sh tests/e2e/compare.sh
	sh tests/e2e/libvirt.sh
	sh tests/html/chromium.sh
	sh tests/bench/smoke.sh

scale-test: deps
	$(MAKE) $(BIN)/scaletest
	$(BIN)/scaletest run $(SCENARIO)

nightly: deps-kbuild
	$(MAKE) $(BIN)/scaletest
	$(BIN)/scaletest nightly $(MATRIX) --baselines $(BASELINES)

# The first night on a runner (another accelerator or QEMU version than the
# committed baselines'): the matrix, recording a baseline for each run that
# passed and has none here.  Commit $(BASELINES) afterwards, or keep it
# between nights (BASELINES=DIR for another place than results/baselines).
nightly-first: deps-kbuild
	$(MAKE) $(BIN)/scaletest
	$(BIN)/scaletest nightly $(MATRIX) --baselines $(BASELINES) --record-baselines

bench: $(BIN)/scaletest build/bench/mkcpio
	sh tests/bench/run.sh

golden: $(BIN)/scaletest
	sh tests/golden.sh --update

# Refresh docs/measurements.md's benchmark table from results/bench/*.json.
bench-table:
	sh tests/bench/table.sh --update

clean:
	rm -rf build bin build-san bin-san $(BUILD) $(BIN) .version-stamp

# The unit and command-line tests again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-san/ and bin-san/, so the normal
# build is left as it is.
check-sanitize:
	$(MAKE) BUILD=build-san BIN=bin-san SANITIZE=address,undefined \
		bin-san/scaletest build-san/unit-tests
	build-san/unit-tests tests/fixtures
	SCALETEST_BIN=$(CURDIR)/bin-san/scaletest sh tests/cli.sh

# Fuzzing (tests/fuzz/, README "Fuzzing"): one libFuzzer target per parser
# of untrusted input, built with clang into build/fuzz/, the library
# compiled again with the fuzzer's instrumentation and ASan+UBSan.
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) -O1 -g $(PKG_CFLAGS) -Iharness \
	      $(FUZZ_SAN) -MMD -MP -DSCALETEST_VERSION='"fuzz"'
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:harness/%.c=build/fuzz/obj/%.o)

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh

fuzz-merge: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh --merge

fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
		echo "make fuzz: '$(FUZZ_CC)' not found: the fuzz targets need clang" \
		     "with libFuzzer (make deps-fuzz)" >&2; exit 1; }
	@mkdir -p build/fuzz
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' | \
		$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o build/fuzz/probe 2>/dev/null || { \
		echo "make fuzz: '$(FUZZ_CC)' cannot link -fsanitize=fuzzer,address,undefined:" \
		     "libFuzzer or the sanitizer runtimes are missing (Debian: libclang-rt-14-dev;" \
		     "make deps-fuzz)" >&2; exit 1; }
	$(MAKE) $(FUZZ_BINS)

build/fuzz/obj/%.o: harness/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/libscaletest.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

build/fuzz/%: tests/fuzz/%.c build/fuzz/libscaletest.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< \
		build/fuzz/libscaletest.a $(PKG_LIBS)

.PHONY: all deps $(DEPS_PROFILES:%=deps-%) check test test-only scale-test nightly nightly-first bench bench-table golden clean FORCE \
	check-sanitize fuzz fuzz-merge fuzz-build

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) \
	 $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d) build/bench/mkcpio.d

# Refresh the README's key reference from the key table.
readme-keys: bin/scaletest
	bin/scaletest keys > build/keys.md
	awk 'BEGIN { while ((getline l < "build/keys.md") > 0) k = k l "\n" } \
	     /<!-- keys:end -->/ { printf "%s", k; skip = 0 } \
	     !skip { print } \
	     /<!-- keys:start -->/ { skip = 1 }' README.md > build/README.md
	mv build/README.md README.md
.PHONY: readme-keys valgrind

# The unit tests under valgrind: no definite leak and no memory error in
# harness code (tests/unit/valgrind.supp lists the libraries' own).  Slow
# (minutes); not part of make test.
valgrind: $(BUILD)/unit-tests
	@command -v valgrind >/dev/null 2>&1 || { \
		echo "make valgrind: valgrind not found (apt-get install valgrind)" >&2; exit 3; }
	valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=9 \
		--suppressions=$(CURDIR)/tests/unit/valgrind.supp $(BUILD)/unit-tests tests/fixtures
