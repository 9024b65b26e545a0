#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Kernels from any Debian suite (kernel_suite, harness/kernel/apt.c) over a
# local file:// archive signed by a key made here: scaletest's own apt
# fetches and checks its lists, resolves a split 7.x-style kernel
# (linux-image-V a metapackage of linux-binary-, linux-modules- and
# linux-base-V, modules under usr/lib/modules) from sid and a merged-/usr
# busybox-static from bookworm (the guest's userland), and refuses, exit 3 with nothing booted and nothing
# half-written in the cache: an unknown suite, a package the suite does
# not have, an i386 kernel after bookworm, a metapackage whose parts are
# missing, lists signed by a key that is not trusted, an InRelease altered
# after signing, and a suite the archive does not have.  No network, no
# QEMU (a stub that leaves a mark stands in for it).
# suite: quick
set -u

. "$(dirname "$0")/lib.sh"

V=9.9.9+t-amd64
Vre='9\.9\.9\+t-amd64'

fake_bzimage() { # FILE VERSION: an x86_64 bzImage header (as tests/cli.sh's)
	{
		head -c 514 /dev/zero
		printf 'HdrS\017\002'
		head -c 6 /dev/zero
		printf '\000\002'
		head -c $((0x236 - 0x210)) /dev/zero
		printf '\001\000'
		head -c $((0x400 - 0x238)) /dev/zero
		printf '%s (fake@scaletest) #1 SMP\000' "$2"
	} > "$1"
}

# deb NAME VERSION ROOT [DEPENDS]: a .deb of ROOT's files into the pool.
deb() {
	mkdir -p "$3/DEBIAN" "$repo/pool"
	{
		printf 'Package: %s\nVersion: %s\nArchitecture: amd64\n' "$1" "$2"
		printf 'Maintainer: scaletest <t@t>\nDescription: test package\n'
		if [ -n "${4:-}" ]; then printf 'Depends: %s\n' "$4"; fi
	} > "$3/DEBIAN/control"
	dpkg-deb -b -Znone "$3" "$repo/pool/${1}_${2}_amd64.deb" > /dev/null
}

# release DIST: Packages, Sources and a Release signed by the key of
# $GNUPGHOME's uid given in $2 (InRelease).
release() {
	d=$repo/dists/$1
	mkdir -p "$d/main/binary-amd64" "$d/main/binary-i386" "$d/main/source"
	(cd "$repo" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) > "$d/main/binary-amd64/Packages"
	: > "$d/main/binary-i386/Packages"
	: > "$d/main/source/Sources"
	{
		printf 'Origin: scaletest\nLabel: scaletest\nSuite: %s\nCodename: %s\n' "$1" "$1"
		printf 'Date: %s\nArchitectures: amd64 i386\nComponents: main\nSHA256:\n' \
			"$(LC_ALL=C date -u '+%a, %d %b %Y %H:%M:%S UTC')"
		for f in main/binary-amd64/Packages main/binary-i386/Packages main/source/Sources; do
			printf ' %s %s %s\n' "$(sha256sum < "$d/$f" | cut -d' ' -f1)" \
				"$(wc -c < "$d/$f" | tr -d ' ')" "$f"
		done
	} > "$d/Release"
	rm -f "$d/InRelease"
	gpg --batch -q --local-user "$2" --clearsign -o "$d/InRelease" "$d/Release"
}

# The archive, the keys and a stub QEMU: made once (in $tmp/base), copied
# for each test (which may spoil its copy).
setup() {
	if [ ! -e "$tmp/base/ready" ]; then
		w=$tmp/base
		rm -rf "$w"
		mkdir -p "$w"
		make_base || return 1
		: > "$w/ready"
	fi
	w=$tmp/$t
	rm -rf "$w"
	cp -a "$tmp/base" "$w"
	repo=$w/repo
	export GNUPGHOME="$w/gnupg"
	# The stub's mark, where this test looks for it.
	for q in qemu-system-x86_64 qemu-system-i386; do
		printf '#!/bin/sh\n[ "$1" = --version ] && { echo "QEMU emulator version 7.2.0 (stub)"; exit 0; }\ntouch "%s/qemu-started"\n' "$w" > "$w/stub/$q"
		chmod +x "$w/stub/$q"
	done
}

make_base() {
	repo=$w/repo
	export GNUPGHOME="$w/gnupg"
	mkdir -p "$GNUPGHOME" "$w/stub"
	chmod 700 "$GNUPGHOME"
	for who in trusted untrusted; do
		gpg --batch -q --pinentry-mode loopback --passphrase '' \
			--quick-gen-key "scaletest $who <$who@scaletest.invalid>" ed25519 sign never 2>/dev/null ||
			return 1
		gpg --batch -q --export "$who@scaletest.invalid" > "$w/$who.gpg"
	done
	# A split kernel, as sid's 7.x: the metapackages, then its three parts.
	r=$w/pk
	mkdir -p "$r/meta" "$r/image" "$r/bin/usr/lib/modules/$V" "$r/base/usr/lib/modules/$V" \
		"$r/brokenmeta" "$r/broken" "$r/busybox/usr/bin"
	fake_bzimage "$r/bin/usr/lib/modules/$V/vmlinuz" "$V"
	sh "$top/tests/fixtures/kmod/mktree.sh" "$r/mk" 2>/dev/null || return 1
	mkdir -p "$r/mods/usr/lib/modules/$V"
	cp -r "$r/mk/lib/modules/9.9.9-scaletest/kernel" "$r/mods/usr/lib/modules/$V/"
	for f in modules.builtin modules.order; do
		cp "$r/mk/lib/modules/9.9.9-scaletest/$f" "$r/base/usr/lib/modules/$V/"
	done
	printf 'CONFIG_X86_64=y\nCONFIG_SCSI=y\n' > "$r/base/usr/lib/modules/$V/config"
	echo "ffffffff81000000 T _text" > "$r/base/usr/lib/modules/$V/System.map"
	printf '#!/bin/sh\necho busybox\n' > "$r/busybox/usr/bin/busybox"
	chmod 755 "$r/busybox/usr/bin/busybox"
	deb linux-image-amd64 9.9.9-1 "$r/meta" "linux-image-$V (= 9.9.9-1)"
	deb "linux-image-$V" 9.9.9-1 "$r/image" \
		"initramfs-tools | linux-initramfs-tool, linux-base-$V (= 9.9.9-1), linux-binary-$V (= 9.9.9-1), linux-modules-$V (= 9.9.9-1)"
	deb "linux-binary-$V" 9.9.9-1 "$r/bin"
	deb "linux-modules-$V" 9.9.9-1 "$r/mods"
	deb "linux-base-$V" 9.9.9-1 "$r/base"
	# A metapackage of a kernel whose binary part the archive lacks.
	deb linux-image-broken-amd64 9.9.8-1 "$r/brokenmeta" "linux-image-9.9.8+t-amd64 (= 9.9.8-1)"
	deb linux-image-9.9.8+t-amd64 9.9.8-1 "$r/broken" \
		"linux-binary-9.9.8+t-amd64 (= 9.9.8-1), linux-modules-9.9.8+t-amd64 (= 9.9.8-1)"
	deb busybox-static 1:1.37.0-1 "$r/busybox"
	# sid for the kernel; bookworm's three for the guest's userland, which
	# comes from bookworm whatever the kernel's suite (apt.h).
	for dist in sid bookworm bookworm-updates bookworm-security; do
		release "$dist" trusted@scaletest.invalid
	done
	for q in qemu-system-x86_64 qemu-system-i386; do
		printf '#!/bin/sh\n[ "$1" = --version ] && { echo "QEMU emulator version 7.2.0 (stub)"; exit 0; }\ntouch "%s/qemu-started"\n' "$w" > "$w/stub/$q"
		chmod +x "$w/stub/$q"
	done
	mkdir -p "$w/cache"
	chmod 700 "$w/cache"
}

# scaletest with the archive and the trusted key, unless the caller set
# KEYRING; the stub QEMU first on PATH.
st() {
	env SCALETEST_CACHE="$w/cache" SCALETEST_DEBIAN_MIRROR="file://$repo" \
		SCALETEST_DEBIAN_SECURITY_MIRROR="file://$repo" \
		SCALETEST_APT_KEYRING="${KEYRING:-$w/trusted.gpg}" \
		PATH="$w/stub:$PATH" "$bin" "$@"
}

# Nothing in the cache but what a failed fetch may leave: no kernel entry,
# no lists entry, no temporary.
nothing_cached() { # WHY
	left=$(cd "$w/cache" && { find apt/suites -mindepth 2 -maxdepth 2 ! -name '*.lock'
		find kernels/debian debs -mindepth 1 -maxdepth 1 ! -name '*.lock'; } 2>/dev/null | head -n 3)
	[ -z "$left" ] || fail "$1: the cache holds '$left'"
	[ -e "$w/qemu-started" ] && fail "$1: QEMU was started"
	rm -f "$w/qemu-started"
}

need_tools() {
	for tool in gpg gpgv dpkg-deb dpkg-scanpackages apt-get depmod gcc xz zstd; do
		command -v "$tool" > /dev/null 2>&1 || { skip "no $tool here"; return 1; }
	done
}

test_list_resolves_split_kernel() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 0 "^suite sid \(sid from file://$repo\)$" -- st kernel list --suite sid
	expect 0 "^  linux-image-amd64 \(amd64\) -> linux-image-9\.9\.9\+t-amd64 9\.9\.9-1$" -- st kernel list --suite sid
	expect 0 "^    part linux-binary-9\.9\.9\+t-amd64 9\.9\.9-1$" -- st kernel list --suite sid
	expect 0 "^    part linux-modules-9\.9\.9\+t-amd64 9\.9\.9-1$" -- st kernel list --suite sid
	expect 0 "^    part linux-base-9\.9\.9\+t-amd64 9\.9\.9-1$" -- st kernel list --suite sid
	expect 0 "not cached: a run would download linux-image-9\.9\.9\+t-amd64 9\.9\.9-1 \(amd64\) \(its parts: .*\) from suite sid" -- \
		st kernel list scenarios/smoke --set kernel_suite=sid
	# The dry run says the same, from the lists now cached, and fetches nothing.
	expect 0 "^  kernel_suite = sid +# command line$" -- st run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	expect 0 "from suite sid with apt-get download" -- st run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	checked
	[ -d "$w/cache/kernels" ] && [ -n "$(ls "$w/cache/kernels/debian" 2>/dev/null)" ] &&
		fail "kernel list or a dry run fetched a kernel"
	return 0
}

# A run fetches the three parts, moves usr/lib/modules to lib/modules,
# indexes it, takes busybox from usr/bin, and goes on to QEMU (the stub).
test_run_fetches_split_kernel_and_usr_busybox() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	st run "$top/scenarios/smoke" --set kernel_suite=sid --set fio=0 --set accel=tcg \
		--out "$w/res" --quiet > "$w/out" 2>&1
	e=$w/cache/kernels/debian/linux-image-${V}_9.9.9-1_amd64
	check "the kernel of linux-binary, moved to lib/modules" test -f "$e/lib/modules/$V/vmlinuz"
	check "modules indexed by depmod" test -f "$e/lib/modules/$V/modules.dep"
	check "the modules of linux-modules" test -f "$e/lib/modules/$V/kernel/drivers/scsi/scsi_debug.ko.xz"
	check "the config of linux-base" test -f "$e/lib/modules/$V/config"
	check "nothing left in usr/lib/modules" test ! -e "$e/usr/lib/modules/$V"
	check "busybox from usr/bin" test -x "$w/cache/debs/busybox-static_1:1.37.0-1_amd64/usr/bin/busybox"
	check "the run went on to QEMU" test -e "$w/qemu-started"
	# Now cached: the dry run names the kernel, its version and its suite.
	expect 0 "^  package  linux-image-$Vre 9\.9\.9-1 \(cached\), suite sid$" -- st run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	expect 0 "^  part     linux-modules-$Vre=9\.9\.9-1$" -- st run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	expect 0 "cached: kernel $Vre, .*/lib/modules/$Vre/vmlinuz" -- st kernel list --suite sid
	checked
}

test_unknown_suite() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "unknown kernel_suite 'bookwurm': set it to one of bookworm, bookworm-security, .*experimental" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=bookwurm --out "$w/res" --quiet
	expect 3 "unknown kernel_suite 'bookwurm'" -- st run --dry-run "$top/scenarios/smoke" --set kernel_suite=bookwurm
	expect 2 "kernel_suite: 'sid/../x' is not a Debian suite name|'sid/../x' is not a Debian suite name" -- \
		st run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid/../x
	checked
	nothing_cached "an unknown suite"
}

test_package_not_in_suite() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "suite 'sid' has no package 'linux-image-nosuch' for amd64: check kernel_package, or set kernel_suite to a suite that has it" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --set kernel_package=linux-image-nosuch \
		--out "$w/res" --quiet
	checked
	# The lists were fetched (they are good); no kernel.
	[ -n "$(ls "$w/cache/kernels/debian" 2>/dev/null)" ] && fail "a kernel entry was made"
	[ -e "$w/qemu-started" ] && fail "QEMU was started"
	return 0
}

test_i386_kernel_after_bookworm() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "suite 'sid' has no package 'linux-image-686-pae' for i386: Debian builds no i386 kernel after bookworm \(12\); set kernel_suite = bookworm" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --set arch=i386 --out "$w/res" --quiet
	checked
	[ -n "$(ls "$w/cache/kernels/debian" 2>/dev/null)" ] && fail "a kernel entry was made"
	[ -e "$w/qemu-started" ] && fail "QEMU was started"
	return 0
}

test_unresolvable_metapackage() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "'linux-image-9\.9\.8\+t-amd64' in suite 'sid' is a metapackage whose part 'linux-binary-9\.9\.8\+t-amd64' \(the kernel\) cannot be resolved: .*set kernel_package" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --set kernel_package=linux-image-broken-amd64 \
		--out "$w/res" --quiet
	checked
	[ -n "$(ls "$w/cache/kernels/debian" 2>/dev/null)" ] && fail "a kernel entry was made"
	[ -e "$w/qemu-started" ] && fail "QEMU was started"
	return 0
}

# Lists signed by a key apt is not told to trust: apt-get update fails,
# and nothing of it stays in the cache.
test_signature_untrusted_key() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	KEYRING=$w/untrusted.gpg
	expect 3 "suite 'sid': apt-get update failed \(exit status 100\); apt said:" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --out "$w/res" --quiet
	expect 3 "^nothing was kept in the cache; check kernel_suite, the network, and that the archive's signatures verify with '$w/untrusted.gpg'" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --out "$w/res" --quiet
	expect 3 "NO_PUBKEY|not signed|signatures couldn't be verified|Signature by key" -- \
		st kernel list --suite sid
	KEYRING=
	checked
	nothing_cached "an untrusted signature"
}

# A Release altered after it was signed: the clear-signed text no longer
# verifies.
test_signature_altered_release() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	sed -i 's/^Codename: sid$/Codename: sid2/' "$repo/dists/sid/InRelease"
	expect 3 "suite 'sid': apt-get update failed" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --out "$w/res" --quiet
	checked
	nothing_cached "an altered InRelease"
	# A Packages file altered after signing: its hash no longer matches.
	# sid for the kernel; bookworm's three for the guest's userland, which
	# comes from bookworm whatever the kernel's suite (apt.h).
	for dist in sid bookworm bookworm-updates bookworm-security; do
		release "$dist" trusted@scaletest.invalid
	done
	printf '\nPackage: evil\nVersion: 1\nArchitecture: amd64\n' >> "$repo/dists/sid/main/binary-amd64/Packages"
	expect 3 "suite 'sid': apt-get update failed" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=sid --out "$w/res" --quiet
	checked
	nothing_cached "an altered Packages"
}

# A suite the archive does not have (experimental here): the update fails.
test_suite_missing_from_archive() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "does not have a Release file" -- \
		st run "$top/scenarios/smoke" --set kernel_suite=experimental --out "$w/res" --quiet
	checked
	nothing_cached "a suite the archive lacks"
}

# Mirror and keyring from the environment reach a sources.list entry:
# what could break out of it is refused.
test_mirror_and_keyring_checked() {
	need_tools || return 0
	setup || { fail "cannot make the test archive"; return 0; }
	expect 3 "is not a URI for a sources.list entry \(SCALETEST_DEBIAN_MIRROR\)" -- \
		env SCALETEST_DEBIAN_MIRROR="file:///x] trusted=yes [" SCALETEST_CACHE="$w/cache" \
		"$bin" run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	expect 3 "Debian's archive keyring '$w/none.gpg' is missing.*install debian-archive-keyring" -- \
		env SCALETEST_APT_KEYRING="$w/none.gpg" SCALETEST_CACHE="$w/cache" \
		"$bin" run --dry-run "$top/scenarios/smoke" --set kernel_suite=sid
	checked
	nothing_cached "a bad mirror or keyring"
}

run_tests "$@"
