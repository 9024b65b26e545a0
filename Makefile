# scaletest: a QEMU scale-test harness for the Linux block layer.
#
#   make              build bin/scaletest
#   make deps         install the Debian packages it needs (only what is missing)
#   make test         build and run the whole test suite (unit + end-to-end)
#   make scale-test   deps, build, and run the default scenario end to end
#   make nightly      the nightly matrix, compared with the baselines (CI)
#   make check        unit, command-line, triage, replay, golden and include tests,
#                     and the README's benchmark table against its JSON (no QEMU)
#   make golden       rewrite tests/golden/*/expected from the writers (then read the diff)
#   make bench        the benchmarks under tests/bench/ (figures in results/bench/)
#   make bench-table  the README's benchmark table from results/bench/*.json
#
# Build knobs: DEVELOPER=1 is the default (-Wall -Wextra -Werror);
# SANITIZE=address,undefined builds with sanitizers.

CC ?= cc
CFLAGS ?= -O2 -g
SCENARIO ?= scenarios/seed-i386-4000
MATRIX ?= scenarios/nightly/default
SANITIZE ?=

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
LIB_OBJS := $(LIB_SRCS:harness/%.c=build/%.o)
CMD_OBJS := $(CMD_SRCS:harness/%.c=build/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%.o)

all: bin/scaletest

bin/scaletest: $(CMD_OBJS) build/libscaletest.a
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

build/libscaletest.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

build/%.o: harness/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/unit/%.o: tests/unit/%.c
	@mkdir -p build/unit
	$(CC) $(ALL_CFLAGS) -Itests/unit -DSCALETEST_SOURCE_ROOT='"$(CURDIR)"' -c -o $@ $<

build/unit-tests: $(UNIT_OBJS) build/libscaletest.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# The benchmarks' helper: appends archives with the harness's cpio writer.
build/bench/mkcpio.o: tests/bench/mkcpio.c
	@mkdir -p build/bench
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build/bench/mkcpio: build/bench/mkcpio.o build/libscaletest.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Version changes must rebuild main.o.
build/cli/main.o: .version-stamp
.version-stamp: FORCE
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

deps:
	sh tools/deps.sh install

check: bin/scaletest build/unit-tests
	build/unit-tests tests/fixtures
	sh tests/cli.sh
	sh tests/triage.sh
	sh tests/replay/run.sh
	sh tests/golden.sh
	sh tests/includes.sh
	sh tests/bench/table.sh --check

test: bin/scaletest build/unit-tests build/bench/mkcpio
	build/unit-tests tests/fixtures
	sh tests/cli.sh
	sh tests/triage.sh
	sh tests/replay/run.sh
	sh tests/golden.sh
	sh tests/includes.sh
	sh tests/bench/table.sh --check
	sh tests/e2e/run.sh
	sh tests/e2e/kernel.sh
	sh tests/e2e/compare.sh
	sh tests/e2e/libvirt.sh
	sh tests/html/chromium.sh
	sh tests/bench/smoke.sh

scale-test: deps
	$(MAKE) bin/scaletest
	bin/scaletest run $(SCENARIO)

nightly: deps
	$(MAKE) bin/scaletest
	bin/scaletest nightly $(MATRIX)

bench: bin/scaletest build/bench/mkcpio
	sh tests/bench/run.sh

golden: bin/scaletest
	sh tests/golden.sh --update

# Refresh the README's benchmark table from results/bench/*.json.
bench-table:
	sh tests/bench/table.sh --update

clean:
	rm -rf build bin .version-stamp

.PHONY: all deps check test scale-test nightly bench bench-table golden clean FORCE

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) build/bench/mkcpio.d

# Refresh the README's key reference from the key table.
readme-keys: bin/scaletest
	bin/scaletest keys > build/keys.md
	awk 'BEGIN { while ((getline l < "build/keys.md") > 0) k = k l "\n" } \
	     /<!-- keys:end -->/ { printf "%s", k; skip = 0 } \
	     !skip { print } \
	     /<!-- keys:start -->/ { skip = 1 }' README.md > build/README.md
	mv build/README.md README.md
.PHONY: readme-keys
