# SPDX-License-Identifier: Apache-2.0
# scaletest: a QEMU scale-test harness for the Linux block layer.
#
#   make              build bin/scaletest
#   make deps         install the Debian packages the default run needs (only
#                     what is missing); deps-kbuild, deps-libvirt, deps-test,
#                     deps-fuzz, deps-html, deps-deb add what those need, deps-full all
#   make test         deps-full, then every suite (unit to end-to-end), each run
#                     even when one fails, then one summary; make test-only
#                     skips the install
#   make libvirt-start  libvirtd and virtlogd, without systemd (libvirt-stop)
#   make scale-test   deps, build, and run the default scenario end to end
#   make nightly      deps-kbuild, the nightly matrix, compared with the baselines (CI);
#                     exit 4 when a run has no baseline on this runner
#   make nightly-first  the same, recording the missing baselines (a new runner)
#   make check        the quick suites: unit, command-line, security, triage and the
#                     syzkaller corpus, replay, golden, JUnit, KCIDB and JSON Schema,
#                     manual pages, install, include and docs tests (no QEMU);
#                     SUITES=, TESTS= pick suites and tests (docs/testing.md)
#   make golden       rewrite tests/golden/*/expected from the writers (then read the diff)
#   make bench        the benchmarks under tests/bench/ (figures in results/bench/)
#   make bench-table  docs/measurements.md's benchmark table from results/bench/*.json
#   make fuzz         build the libFuzzer targets (clang) and run each FUZZ_SECONDS
#   make fuzz-merge   the same, then merge new coverage into tests/fuzz/corpus/
#   make valgrind     the unit tests under valgrind (not part of make test)
#   make check-sanitize  unit and command-line tests built with ASan+UBSan
#                     (into build-san/ and bin-san/, beside the normal build)
#   make install      bin/, share/scaletest/, the manual pages, the docs and the bash,
#                     zsh and fish completions under PREFIX (/usr/local) in DESTDIR, all
#                     or nothing; make uninstall removes them
#   make dist         build/scaletest-VERSION.tar.gz, with the version in it
#   make man-keys     rewrite scaletest-scenario(5)'s key list from the key table
#   make docs-keys    rewrite docs/scenarios.md's key reference from the key table
#
# Build knobs: the warnings below are always on; DEVELOPER=1 makes them
# errors (-Werror), and is the default in a git checkout (developers, make
# check, CI: a warning fails them); a release tarball (make dist) and the
# Debian package (debian/rules: DEVELOPER=0) warn and build on, as a newer
# compiler's new warning must not stop a user's build.  VERSION= names
# the version (default: below); SANITIZE=address,undefined builds with
# sanitizers; BUILD= and BIN= name the build and binary folders (build,
# bin), and every target writes under them (the sanitizer build under
# $(BUILD)-san and $(BIN)-san); the test scripts find them through
# SCALETEST_BUILD and SCALETEST_BIN.

CC ?= cc
CFLAGS ?= -O2 -g
SCENARIO ?= scenarios/seed-i386-4000
MATRIX ?= scenarios/nightly/default
BASELINES ?= results/baselines
SANITIZE ?=
BUILD ?= build
BIN ?= bin
BUILD_SAN = $(BUILD)-san
BIN_SAN = $(BIN)-san
# The test scripts look in build/ and bin/ unless told (tests/lib.sh).
ifneq ($(BUILD) $(BIN),build bin)
export SCALETEST_BUILD = $(abspath $(BUILD))
export SCALETEST_BIN = $(abspath $(BIN))/scaletest
endif
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 10

DEVELOPER ?= $(if $(wildcard .git),1,0)
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wno-format-nonliteral -Wvla
ifeq ($(DEVELOPER),1)
WARN += -Werror
endif
PKGS = libarchive json-c zlib libcrypto libkmod
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -larchive -ljson-c -lz -lcrypto -lkmod) -lm -pthread
# The libvirt backend (harness/vm/libvirt.c) when libvirt's and libxml2's
# development files are there; without them it is built as a stub whose
# check says what to install.
LIBVIRT_PKGS = libvirt libxml-2.0
ifeq ($(shell pkg-config --exists $(LIBVIRT_PKGS) 2>/dev/null && echo yes),yes)
PKG_CFLAGS += $(shell pkg-config --cflags $(LIBVIRT_PKGS)) -DHAVE_LIBVIRT
PKG_LIBS += $(shell pkg-config --libs $(LIBVIRT_PKGS))
endif
BASE_CFLAGS = -std=gnu11 -D_GNU_SOURCE -pthread $(WARN) $(CFLAGS) $(PKG_CFLAGS) -Iharness -MMD -MP
ALL_LDFLAGS = $(LDFLAGS)
ifneq ($(SANITIZE),)
BASE_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif
ALL_CFLAGS = $(BASE_CFLAGS) -DSCALETEST_VERSION='"$(VERSION)"'

# The version --version says, the first of: VERSION= on the command line;
# the file VERSION of a release tarball (make dist writes it); git
# describe in a checkout (its own .git); what the last build here recorded
# (.version-stamp: for sudo make install, whose root git refuses a
# repository another user owns, so that install neither rebuilds as root
# nor installs "unknown"); "unknown".  make writes no tracked file, so
# --dirty says only what the user changed.
VERSION := $(or $(firstword $(shell cat VERSION 2>/dev/null)),$(if $(wildcard .git),$(shell git describe --always --dirty 2>/dev/null)),$(firstword $(shell cat .version-stamp 2>/dev/null)),unknown)

# One folder per stage (docs/internals.md, "How it works"); cli/ holds main.c and
# one file per command, everything else goes into libscaletest.a.
STAGES := $(filter-out harness/cli/,$(sort $(dir $(wildcard harness/*/*.c))))
LIB_SRCS := $(foreach d,$(STAGES),$(wildcard $(d)*.c))
CMD_SRCS := $(wildcard harness/cli/*.c)
LIB_OBJS := $(LIB_SRCS:harness/%.c=$(BUILD)/%.o)
CMD_OBJS := $(CMD_SRCS:harness/%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/unit/%.o)

all: $(BIN)/scaletest

# The flags decide what an object is, and pkg-config decides some of them
# when make reads this file (libvirt's, after make deps-libvirt): as git's
# GIT-CFLAGS, $(BUILD)/CFLAGS holds them and every object depends on it,
# rewritten only when they change, so a new flag rebuilds everything and
# an unchanged one nothing; $(BUILD)/LDFLAGS the same for the links.  The
# version stays out (only main.o shows it: .version-stamp below).
# $(call flags_file,TEXT) is the recipe.
define flags_file
	@mkdir -p $(@D)
	@printf '%s\n' '$(subst ','\'',$(1))' | cmp -s - $@ || \
		{ printf '%s\n' '$(subst ','\'',$(1))' > $@; echo "    * new flags in $@"; }
endef
# The libraries' development files, found by pkg-config (PKGS above): one
# missing drops every flag of the others too and the build stops at a
# header three files later, so it stops here first, naming what is
# missing (make deps installs it; the package's Build-Depends list it).
PKG_CONFIG_FOUND = $(shell command -v pkg-config)
PKG_MISSING = $(strip $(if $(PKG_CONFIG_FOUND),$(foreach m,$(PKGS),$(if $(shell pkg-config --exists $(m) && echo y),,$(m)))))
$(BUILD)/CFLAGS: FORCE
	@$(if $(PKG_CONFIG_FOUND),,echo "make: 'pkg-config' not found (make deps installs it)" >&2; exit 1)
	@$(if $(PKG_MISSING),echo "make: missing development files: pkg-config finds no $(PKG_MISSING:%='%.pc') (make deps installs them)" >&2; exit 1)
	$(call flags_file,$(CC) $(BASE_CFLAGS))
$(BUILD)/LDFLAGS: FORCE
	$(call flags_file,$(CC) $(ALL_LDFLAGS) $(PKG_LIBS))

$(BIN)/scaletest: $(CMD_OBJS) $(BUILD)/libscaletest.a $(BUILD)/LDFLAGS
	@mkdir -p $(BIN)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(PKG_LIBS)

$(BUILD)/libscaletest.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: harness/%.c $(BUILD)/CFLAGS
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/unit/%.o: tests/unit/%.c $(BUILD)/CFLAGS
	@mkdir -p $(BUILD)/unit
	$(CC) $(ALL_CFLAGS) -Itests/unit -DSCALETEST_SOURCE_ROOT='"$(CURDIR)"' -c -o $@ $<

$(BUILD)/unit-tests: $(UNIT_OBJS) $(BUILD)/libscaletest.a $(BUILD)/LDFLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(PKG_LIBS)

# The benchmarks' helper: appends archives with the harness's cpio writer.
$(BUILD)/bench/mkcpio.o: tests/bench/mkcpio.c $(BUILD)/CFLAGS
	@mkdir -p $(BUILD)/bench
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/bench/mkcpio: $(BUILD)/bench/mkcpio.o $(BUILD)/libscaletest.a $(BUILD)/LDFLAGS
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(filter %.o %.a,$^) $(PKG_LIBS)

# The tests' JSON Schema validator (tests/tools/jsonschema.c): the KCIDB
# documents against kcidb-io's schema (tests/kcidb/validate.sh), result.json
# against docs/result.schema.json (tests/resultschema.sh, tests/e2e/lib.sh).
$(BUILD)/jsonschema: tests/tools/jsonschema.c $(BUILD)/libscaletest.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libscaletest.a $(PKG_LIBS)
-include $(BUILD)/jsonschema.d

# Version changes must rebuild main.o.
$(BUILD)/cli/main.o: .version-stamp
.version-stamp: FORCE
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

# The Debian packages, by profile (tools/deps.sh; docs/setup.md): make deps
# installs what the default run needs; the others add what their targets
# need; deps-full all of them (make test, .ci/run).
DEPS_PROFILES = kbuild libvirt test fuzz html deb full
deps:
	sh tools/deps.sh install --scenario $(SCENARIO)

$(DEPS_PROFILES:%=deps-%):
	sh tools/deps.sh install $(@:deps-%=%)

# The libvirt daemons without systemd (tests/libvirt/daemons.sh): started
# if not running, stopped again only if started here.  /dev/kvm is left as
# it is (the harness says when libvirt is slow because of it).
libvirt-start:
	sh tests/libvirt/daemons.sh start
libvirt-stop:
	sh tests/libvirt/daemons.sh stop

# The suites (tests/run.sh finds them: "# suite: quick" or "full" in each):
# every one runs, a failing one included, then one summary of all that
# failed.  SUITES="cli e2e/faults" runs those only, TESTS='GLOB...' the
# tests of theirs whose names match (docs/testing.md).
check: $(BIN)/scaletest $(BUILD)/unit-tests
	sh tests/run.sh --quick $(SUITES)

test: deps-full
	$(MAKE) test-only

# make test without installing anything first.  (make test runs it in a new
# make, so that the libvirt check above sees what deps-full installed.)
test-only: $(BIN)/scaletest $(BUILD)/unit-tests $(BUILD)/bench/mkcpio
	sh tests/run.sh $(SUITES)

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

bench: $(BIN)/scaletest $(BUILD)/bench/mkcpio
	sh tests/bench/run.sh

golden: $(BIN)/scaletest
	sh tests/golden.sh --update

# Refresh docs/measurements.md's benchmark table from results/bench/*.json.
bench-table:
	sh tests/bench/table.sh --update

clean:
	rm -rf $(BUILD) $(BIN) $(BUILD_SAN) $(BIN_SAN) .version-stamp

# The unit and command-line tests again, built with AddressSanitizer and
# UndefinedBehaviorSanitizer into $(BUILD_SAN)/ and $(BIN_SAN)/, so the
# normal build is left as it is.
check-sanitize:
	$(MAKE) BUILD=$(BUILD_SAN) BIN=$(BIN_SAN) SANITIZE=address,undefined \
		$(BIN_SAN)/scaletest $(BUILD_SAN)/unit-tests
	$(BUILD_SAN)/unit-tests tests/fixtures
	SCALETEST_BIN=$(abspath $(BIN_SAN))/scaletest sh tests/cli.sh

# Fuzzing (tests/fuzz/, docs/test-tools.md "Fuzzing"): one libFuzzer target per parser
# of untrusted input, built with clang into $(BUILD)/fuzz/, the library
# compiled again with the fuzzer's instrumentation and ASan+UBSan.
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	   -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=gnu11 -D_GNU_SOURCE $(WARN) -O1 -g $(PKG_CFLAGS) -Iharness \
	      $(FUZZ_SAN) -MMD -MP -DSCALETEST_VERSION='"fuzz"'
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_LIB_OBJS := $(LIB_SRCS:harness/%.c=$(BUILD)/fuzz/obj/%.o)
$(BUILD)/fuzz/FLAGS: FORCE
	$(call flags_file,$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_LIBS))

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh

fuzz-merge: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh --merge

fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
		echo "make fuzz: '$(FUZZ_CC)' not found: the fuzz targets need clang" \
		     "with libFuzzer (make deps-fuzz)" >&2; exit 1; }
	@mkdir -p $(BUILD)/fuzz
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n * 0; }' | \
		$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o $(BUILD)/fuzz/probe 2>/dev/null || { \
		echo "make fuzz: '$(FUZZ_CC)' cannot link -fsanitize=fuzzer,address,undefined:" \
		     "libFuzzer or the sanitizer runtimes are missing (Debian: libclang-rt-14-dev;" \
		     "make deps-fuzz)" >&2; exit 1; }
	$(MAKE) $(FUZZ_BINS)

$(BUILD)/fuzz/obj/%.o: harness/%.c $(BUILD)/fuzz/FLAGS
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(BUILD)/fuzz/libscaletest.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/fuzz/libscaletest.a $(BUILD)/fuzz/FLAGS
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -o $@ $< \
		$(BUILD)/fuzz/libscaletest.a $(PKG_LIBS)

.PHONY: all deps $(DEPS_PROFILES:%=deps-%) libvirt-start libvirt-stop check test test-only scale-test nightly nightly-first bench bench-table golden clean FORCE \
	check-sanitize fuzz fuzz-merge fuzz-build

-include $(LIB_OBJS:.o=.d) $(CMD_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) \
	 $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_BINS:=.d) $(BUILD)/bench/mkcpio.d

# Refresh docs/scenarios.md's key reference from the key table (tests/cli.sh
# fails when it is stale); readme-keys, its old name, still works.
docs-keys readme-keys: $(BIN)/scaletest
	$(BIN)/scaletest keys > $(BUILD)/keys.md
	awk 'BEGIN { while ((getline l < "$(BUILD)/keys.md") > 0) k = k l "\n" } \
	     /<!-- keys:end -->/ { printf "%s", k; skip = 0 } \
	     !skip { print } \
	     /<!-- keys:start -->/ { skip = 1 }' docs/scenarios.md > $(BUILD)/scenarios.md
	mv $(BUILD)/scenarios.md docs/scenarios.md
.PHONY: docs-keys readme-keys valgrind

# The unit tests under valgrind: no definite leak and no memory error in
# harness code (tests/unit/valgrind.supp lists the libraries' own).  Slow
# (minutes); not part of make test.
valgrind: $(BUILD)/unit-tests
	@command -v valgrind >/dev/null 2>&1 || { \
		echo "make valgrind: valgrind not found (apt-get install valgrind)" >&2; exit 3; }
	valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=9 \
		--suppressions=$(CURDIR)/tests/unit/valgrind.supp $(BUILD)/unit-tests tests/fixtures

# The tests' own tools, built before the tests that use them.
check test-only: $(BUILD)/jsonschema

# Refresh scaletest-scenario(5)'s key list from the key table (tests/man.sh
# fails when it is stale).
man-keys: $(BIN)/scaletest
	$(BIN)/scaletest keys --format mdoc > $(BUILD)/keys.mdoc
	awk 'BEGIN { while ((getline l < "$(BUILD)/keys.mdoc") > 0) k = k l "\n" } \
	     /^\.\\" keys:end$$/ { printf "%s", k; skip = 0 } \
	     !skip { print } \
	     /^\.\\" keys:start$$/ { skip = 1 }' docs/man/scaletest-scenario.5 > $(BUILD)/scenario.5
	mv $(BUILD)/scenario.5 docs/man/scaletest-scenario.5
.PHONY: man-keys

# make install [PREFIX=/usr/local] [DESTDIR=]: the binary in PREFIX/bin, its
# data (the guest's initramfs/ scripts, kernel-configs/, scenarios/, and
# result.schema.json) in PREFIX/share/scaletest, the manual pages in
# PREFIX/share/man, the README and docs/ in PREFIX/share/doc/scaletest, the
# bash, zsh and fish completions where each shell looks (the *_DIR
# settings; debian/rules names Debian's).  The binary finds its data from
# where it is (PREFIX/bin/../share/scaletest; lib/util.h's scaletest_root),
# so one build installs under any PREFIX or DESTDIR and nothing is rebuilt
# for it.  tools/install.sh does it, all or nothing: it checks every
# target folder first (a DESTDIR that is a file, a PREFIX this user cannot
# write: one message, nothing written) and renames the copies into place
# only when all are there.  make uninstall removes what install put there.
PREFIX ?= /usr/local
INSTALL_VARS = DESTDIR PREFIX BIN BINDIR DATADIR MANDIR DOCDIR \
	BASH_COMPLETION_DIR ZSH_COMPLETION_DIR FISH_COMPLETION_DIR
INSTALL_ARGS = $(foreach v,$(INSTALL_VARS),$(if $(value $(v)),'$(v)=$(subst ','\'',$($(v)))'))

install: $(BIN)/scaletest
	sh tools/install.sh install $(INSTALL_ARGS)

uninstall:
	sh tools/install.sh uninstall $(INSTALL_ARGS)
.PHONY: install uninstall

# make dist: $(BUILD)/scaletest-VERSION.tar.gz, the files git tracks and
# would (tests/lib.sh's tree_copy: work not committed yet included, and
# said in the version's -dirty), and a file VERSION, which a build from
# the tarball reads first: it has no git to ask.
dist:
	@[ -e .git ] || { echo "make dist: not a git checkout (a tarball has its VERSION already)" >&2; exit 1; }
	rm -rf $(BUILD)/dist
	mkdir -p $(BUILD)/dist/scaletest-$(VERSION)
	git ls-files -z -co --exclude-standard | tar cf - --null --no-recursion -T - | \
		tar xf - -C $(BUILD)/dist/scaletest-$(VERSION)
	echo '$(VERSION)' > $(BUILD)/dist/scaletest-$(VERSION)/VERSION
	tar -C $(BUILD)/dist --owner=0 --group=0 --numeric-owner --sort=name \
		-czf $(BUILD)/scaletest-$(VERSION).tar.gz scaletest-$(VERSION)
	rm -rf $(BUILD)/dist
	@echo "$(BUILD)/scaletest-$(VERSION).tar.gz"
.PHONY: dist

# Rewrite docs/result-json-reference.md from docs/result.schema.json
# (tests/resultschema.sh fails when it is stale).
result-reference:
	@mkdir -p $(BUILD)
	sh tools/result-reference.sh > $(BUILD)/result-json-reference.md
	mv $(BUILD)/result-json-reference.md docs/result-json-reference.md
.PHONY: result-reference
