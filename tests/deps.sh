#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tools/deps.sh on the hosts it knows and those it does not, with dpkg,
# dpkg-query and apt-get stubbed (each call recorded) and another /etc/apt:
# Debian 12 and 13 (their package names), any other system refused with
# what scaletest needs and nothing run; the host's apt changed (the i386
# architecture, deb-src entries) only for a scenario asked for that takes
# packages from it, said before, and never with DEPS_APT_CHANGES=no; a
# plain make deps (the default scenario) changes nothing but packages.
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"

# A fake host: os-release, /etc/apt with a deb822 debian.sources, and
# stubs that record their arguments.  $1: VERSION_ID (or "ubuntu").
host() {
	h=$tmp/$t
	rm -rf "$h"
	mkdir -p "$h/bin" "$h/apt/sources.list.d"
	case $1 in
	ubuntu) printf 'ID=ubuntu\nVERSION_ID="24.04"\nPRETTY_NAME="Ubuntu 24.04 LTS"\n' ;;
	sid) printf 'ID=debian\nPRETTY_NAME="Debian GNU/Linux forky/sid"\nVERSION_CODENAME=forky\n' ;;
	*) printf 'ID=debian\nVERSION_ID="%s"\nPRETTY_NAME="Debian GNU/Linux %s"\n' "$1" "$1" ;;
	esac > "$h/os-release"
	printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
		> "$h/apt/sources.list.d/debian.sources"
	for s in dpkg dpkg-query apt-get sudo; do
		cat > "$h/bin/$s" <<EOF
#!/bin/sh
echo "$s \$*" >> "$h/calls"
case "$s \$*" in
"dpkg-query "*) printf 'install ok installed' ;;
"dpkg --print-foreign-architectures") ;;
"apt-get source --print-uris"*) exit 100 ;;
esac
exit 0
EOF
		chmod +x "$h/bin/$s"
	done
	: > "$h/calls"
}

deps() {
	env PATH="$h/bin:$PATH" DEPS_OS_RELEASE="$h/os-release" DEPS_APT_DIR="$h/apt" \
		sh "$top/tools/deps.sh" "$@"
}

# Nothing but queries ran, and /etc/apt holds what it held.
apt_untouched() { # WHY
	changed=$(grep -v -e '^dpkg-query ' -e '^dpkg --print-foreign-architectures$' \
		-e '^apt-get source --print-uris' -e '^apt-get update' -e '^apt-get install' "$h/calls")
	[ -z "$changed" ] || fail "$1: ran '$changed'"
	[ "$(ls "$h/apt/sources.list.d")" = debian.sources ] ||
		fail "$1: /etc/apt/sources.list.d holds $(ls "$h/apt/sources.list.d" | tr '\n' ' ')"
	checked
}

test_refuses_other_systems() {
	for os in ubuntu 11 sid; do
		host "$os"
		expect 3 "^deps: not Debian 12 \(bookworm\) or 13 \(trixie\): tools/deps.sh changes nothing here\.$" -- deps install
		expect 3 "qemu-system-x86_64 and qemu-system-i386" -- deps install
		expect 3 "not Debian 12" -- deps check --scenario "$top/scenarios/smoke"
		[ -s "$h/calls" ] && fail "$os: ran $(cat "$h/calls")"
		checked
		apt_untouched "$os"
	done
	host ubuntu
	expect 3 "^deps: this host is Ubuntu 24\.04 LTS \(ID=ubuntu, VERSION_ID=24\.04 in " -- deps install
}

test_release_package_names() {
	host 12
	expect 0 "^libclang-rt-14-dev$" -- deps list fuzz
	expect 0 "^debian-archive-keyring$" -- deps list
	host 13
	expect 0 "^libclang-rt-19-dev$" -- deps list fuzz
	checked
	deps list fuzz | grep -q '^libclang-rt-14-dev$' && fail "trixie asked for clang 14's runtime"
	expect 0 "^debootstrap$" -- deps list test
}

# The default scenario (and every shipped one but smoke) sets kernel_suite:
# nothing of the host's apt is needed, even where it has neither i386 nor
# deb-src.
test_plain_deps_changes_only_packages() {
	for v in 12 13; do
		host "$v"
		expect 0 "^deps: all present$" -- deps install --scenario "$top/scenarios/seed-i386-4000"
		expect 0 "^deps: all present$" -- deps install --scenario "$top/scenarios/x86_64-4000"
		expect 0 "^all dependencies present$" -- deps check --scenario "$top/scenarios/seed-i386-4000"
		apt_untouched "debian $v, the default scenario"
		grep -q '^dpkg --add-architecture' "$h/calls" && fail "i386 added"
		checked
	done
}

# A scenario on the host's apt (smoke sets no kernel_suite; fio on): deb-src
# entries, said before they are written; an i386 one: the architecture too.
test_host_apt_scenario_says_so() {
	host 13
	printf 'arch = i386\ndisks = 4\n' > "$h/i386.scn"
	deps install --scenario "$top/scenarios/smoke" --scenario "$h/i386.scn" > "$h/out" 2>&1
	check "it said why it adds deb-src entries" \
		grep -q "^deps: $top/scenarios/smoke, $h/i386.scn builds fio from Debian's source through this host's apt (it sets no kernel_suite): adding deb-src entries (DEPS_APT_CHANGES=no leaves /etc/apt alone)$" "$h/out"
	check "it said why it adds i386" \
		grep -q "^deps: $h/i386.scn takes i386 packages from this host's apt (it sets no kernel_suite): adding the i386 architecture" "$h/out"
	check "dpkg --add-architecture i386 ran" grep -qx 'dpkg --add-architecture i386' "$h/calls"
	check "deb-src entries written" grep -q '^Types: deb-src$' "$h/apt/sources.list.d/scaletest-src.sources"
	# Said before it was done: the line comes before the change's own.
	check "the i386 line came before dpkg ran" test "$(grep -n 'adding the i386' "$h/out" | cut -d: -f1)" -ge 1
	expect 1 "missing: dpkg architecture i386 \(for $h/i386\.scn\)" -- deps check --scenario "$h/i386.scn"
}

test_opt_out_leaves_apt_alone() {
	host 12
	printf 'arch = i386\n' > "$h/i386.scn"
	expect 0 "DEPS_APT_CHANGES=no: leaving /etc/apt alone \(set kernel_suite, or run 'dpkg --add-architecture i386'\)" -- \
		env DEPS_APT_CHANGES=no PATH="$h/bin:$PATH" DEPS_OS_RELEASE="$h/os-release" DEPS_APT_DIR="$h/apt" \
		sh "$top/tools/deps.sh" install --scenario "$h/i386.scn"
	apt_untouched "DEPS_APT_CHANGES=no"
	expect 2 "no scenario file '$h/none'" -- deps install --scenario "$h/none"
}

run_tests "$@"
