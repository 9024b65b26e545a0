# SPDX-License-Identifier: Apache-2.0
# A minimal Debian base system (debootstrap --variant=minbase RELEASE) as a
# tarball, shared by the suites that start from one: tests/deb-chroot.sh
# (bookworm and trixie) and tests/e2e/trixie.sh.  Sourced after tests/lib.sh:
#
#   minbase_cache DIR       use DIR as the cache (minbase_dir=DIR), if it and
#                           every folder above it are this user's (or root's)
#                           and no one else may write them (above it, a
#                           sticky folder such as /tmp may be); else none
#                           (minbase_dir empty, and a line saying why)
#   minbase RELEASE TAR MIRROR LOG
#                           the base in TAR (a file of the caller's), from
#                           the cache when it is there, sealed and at most a
#                           week old; else debootstrap'd from MIRROR (its
#                           output in LOG) and, where there is a cache, kept
#                           there; TAR.from says which ("cached" or
#                           "debootstrap N s"); 1 if there is none
#
# The cache is untrusted input: DIR/RELEASE-minbase.tar is used only when
# a copy of it matches the SHA-256 in DIR/.RELEASE-minbase.tar.sha256 (the
# copy is what the caller unpacks, so the check and the use see the same
# bytes); both are written under temporary names made by mktemp (O_EXCL)
# and renamed into place, the seal first, so that a writer killed half way
# leaves a tarball that fails its seal, never one that passes.  One writer
# at a time per release: a lock (flock) on DIR/.RELEASE-minbase.lock, held
# from the look into the cache to the tarball kept, so that two suites
# wanting the same release at once (make test's two lanes) debootstrap it
# once: the second waits for the first and takes its tarball.

minbase_dir=

minbase_trusted() { # DIR: 0 if DIR is this user's (or root's) and no one else may write it, nor change a folder above it
	mb_p=$1
	mb_self=1
	case $mb_p in /*) ;; *) return 1 ;; esac
	while [ -n "$mb_p" ] && [ "$mb_p" != / ]; do
		if [ -e "$mb_p" ] || [ -L "$mb_p" ]; then
			# (a symbolic link's own mode, 777, fails the test below)
			mb_o=$(stat -c '%u %a' "$mb_p") || return 1
			case $mb_o in
			"$(id -u) "* | "0 "*) ;;
			*) return 1 ;;
			esac
			mb_m=$(( 0${mb_o#* } ))
			# No write for group or others; above DIR, a sticky folder
			# (/tmp) may be written by all, as the harness's cache
			# allows (docs/trust.md): no one may rename or remove what
			# is this user's there.
			if [ $(( mb_m & 022 )) != 0 ]; then
				[ $mb_self = 0 ] && [ $(( mb_m & 01000 )) != 0 ] || return 1
			fi
		fi
		mb_self=0
		mb_p=${mb_p%/*}
	done
}

minbase_cache() { # DIR
	minbase_dir=
	if minbase_trusted "$1" && mkdir -p "$1" && minbase_trusted "$1" && chmod 700 "$1"; then
		minbase_dir=$1
	else
		say "# $SUITE: the cache '$1' is not this user's alone: no cache"
	fi
}

minbase_debootstrap() { # RELEASE TAR MIRROR LOG
	rm -rf "$2.root"
	mb_s=$(date +%s)
	if ! debootstrap --variant=minbase "$1" "$2.root" "$3" > "$4" 2>&1; then
		rm -rf "$2.root"
		return 1
	fi
	echo "debootstrap $(( $(date +%s) - mb_s )) s" > "$2.from"
	tar -C "$2.root" -cf "$2" . && rm -rf "$2.root"
}

minbase() { # RELEASE TAR MIRROR LOG
	case $1 in
	'' | *[!a-z]*) say "minbase: '$1' is not a release name"; return 1 ;;
	esac
	rm -f "$2" "$2.from"
	if [ -z "$minbase_dir" ]; then
		minbase_debootstrap "$@"
		return
	fi
	mb_lock=$minbase_dir/.$1-minbase.lock
	if [ -L "$mb_lock" ]; then
		say "minbase: '$mb_lock' is a symbolic link: no cache"
		minbase_debootstrap "$@"
		return
	fi
	(
		flock -w 1800 9 || { say "minbase: '$mb_lock' held for 30 minutes"; exit 1; }
		e=$minbase_dir/$1-minbase.tar
		seal=$minbase_dir/.$1-minbase.tar.sha256
		if [ -f "$e" ] && [ ! -L "$e" ] && [ -f "$seal" ] && [ ! -L "$seal" ] &&
		   [ -n "$(find "$e" -mtime -7)" ] && cp "$e" "$2" &&
		   read -r want < "$seal" &&
		   [ "$(sha256sum < "$2" | cut -d' ' -f1)" = "$want" ]; then
			echo cached > "$2.from"
			exit 0
		fi
		rm -f "$2"
		minbase_debootstrap "$@" || exit 1
		# (what a writer killed here left: no one else writes under the lock)
		rm -f "$e" "$seal" "$minbase_dir/.$1-minbase.new-tar."?????? "$minbase_dir/.$1-minbase.new-seal."??????
		t= s=
		t=$(mktemp "$minbase_dir/.$1-minbase.new-tar.XXXXXX") && cp "$2" "$t" &&
			s=$(mktemp "$minbase_dir/.$1-minbase.new-seal.XXXXXX") &&
			sha256sum < "$t" | cut -d' ' -f1 > "$s" && mv "$s" "$seal" && mv "$t" "$e" ||
			{ say "minbase: cannot keep the $1 base in '$minbase_dir'"; rm -f "$t" "$s"; }
		exit 0
	) 9> "$mb_lock"
}
