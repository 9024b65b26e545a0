#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make install and make uninstall (the Makefile passes its variables):
#
#   sh tools/install.sh install|uninstall NAME=VALUE...
#
# NAMEs: DESTDIR, PREFIX, BINDIR, DATADIR, MANDIR, DOCDIR,
# BASH_COMPLETION_DIR, ZSH_COMPLETION_DIR, FISH_COMPLETION_DIR (the
# Makefile's defaults: PREFIX/bin, PREFIX/share/scaletest, ...), BIN (the
# folder holding the built scaletest).  Run from the top of the tree.
#
# What goes where is one list (files below: "MODE SOURCE TARGET" a
# line), which install and uninstall both read.  install puts all of it
# there or nothing:
#
#   1. before anything is written, every target folder is checked: the
#      nearest one that exists must be a folder this user may write
#      ("DESTDIR that is a file", "/usr/local without root") and no target
#      may be a folder; the first that is not says so (exit 1);
#   2. every file is copied beside its target under a temporary name
#      (.NAME.scaletest-new, created afresh), in the folders it makes;
#   3. only when all copies are there are they renamed into place.
#
# A failure in 2 (a full disk) removes the copies and the folders made,
# and leaves what was installed before as it was.
set -u

DESTDIR= PREFIX=/usr/local BIN=bin BINDIR= DATADIR= MANDIR= DOCDIR=
BASH_COMPLETION_DIR= ZSH_COMPLETION_DIR= FISH_COMPLETION_DIR=
mode=${1:-}
case $mode in
install | uninstall) shift ;;
*) echo "usage: sh tools/install.sh install|uninstall NAME=VALUE..." >&2; exit 2 ;;
esac
for a; do
	case $a in
	DESTDIR=* | PREFIX=* | BIN=* | BINDIR=* | DATADIR=* | MANDIR=* | DOCDIR=* | \
	BASH_COMPLETION_DIR=* | ZSH_COMPLETION_DIR=* | FISH_COMPLETION_DIR=*)
		eval "${a%%=*}=\${a#*=}" ;;
	*) echo "install.sh: unknown setting '$a'" >&2; exit 2 ;;
	esac
done
: "${BINDIR:=$PREFIX/bin}" "${DATADIR:=$PREFIX/share/scaletest}" "${MANDIR:=$PREFIX/share/man}"
: "${DOCDIR:=$PREFIX/share/doc/scaletest}"
: "${BASH_COMPLETION_DIR:=$PREFIX/share/bash-completion/completions}"
: "${ZSH_COMPLETION_DIR:=$PREFIX/share/zsh/site-functions}"
: "${FISH_COMPLETION_DIR:=$PREFIX/share/fish/vendor_completions.d}"
for d in "$BINDIR" "$DATADIR" "$MANDIR" "$DOCDIR" "$BASH_COMPLETION_DIR" \
	 "$ZSH_COMPLETION_DIR" "$FISH_COMPLETION_DIR"; do
	case $d in
	/*) ;;
	*) echo "make install: '$d' is not an absolute path (PREFIX and the *DIR settings are)" >&2; exit 2 ;;
	esac
done
for d in "$DESTDIR" "$BINDIR" "$DATADIR" "$MANDIR" "$DOCDIR" "$BASH_COMPLETION_DIR" \
	 "$ZSH_COMPLETION_DIR" "$FISH_COMPLETION_DIR"; do
	case $d in
	*[[:space:]]*)
		echo "make install: '$d' holds a space: DESTDIR, PREFIX and the *DIR settings may not" >&2
		exit 2 ;;
	esac
done
case $DESTDIR in
'' | /*) ;;
*) DESTDIR=$(pwd)/$DESTDIR ;;
esac
me="make $mode"

# The list: MODE SOURCE TARGET, TARGET without DESTDIR.  Data keeps its
# executable bit (the guest's scripts); the rest is 644.
files() {
	echo "755 $BIN/scaletest $BINDIR/scaletest"
	find initramfs kernel-configs scenarios -type f ! -name '*~' ! -name '.*' | LC_ALL=C sort |
		while read -r f; do
			if [ -x "$f" ]; then m=755; else m=644; fi
			echo "$m $f $DATADIR/$f"
		done
	echo "644 docs/result.schema.json $DATADIR/result.schema.json"
	for p in docs/man/*.[1-8]; do
		echo "644 $p $MANDIR/man${p##*.}/${p##*/}"
	done
	echo "644 README.md $DOCDIR/README.md"
	for p in docs/*.md; do
		echo "644 $p $DOCDIR/$p"
	done
	echo "644 tools/completion/scaletest.bash $BASH_COMPLETION_DIR/scaletest"
	echo "644 tools/completion/_scaletest $ZSH_COMPLETION_DIR/_scaletest"
	echo "644 tools/completion/scaletest.fish $FISH_COMPLETION_DIR/scaletest.fish"
}

list=$(files) || exit 1

if [ "$mode" = uninstall ]; then
	printf '%s\n' "$list" | while read -r _ _ t; do
		rm -f "$DESTDIR$t" || exit 1
	done || exit 1
	# The folders of scaletest's own, if empty now.
	for d in "$DATADIR" "$DOCDIR"; do
		[ -d "$DESTDIR$d" ] || continue
		find "$DESTDIR$d" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	exit 0
fi

# 1. Nothing is written before every target can be.
for f in $(printf '%s\n' "$list" | awk '{ print $2 }'); do
	[ -f "$f" ] || { echo "$me: '$f' is missing (make builds it)" >&2; exit 1; }
done
printf '%s\n' "$list" | while read -r _ _ t; do
	echo "${t%/*}"
	if [ -d "$DESTDIR$t" ] && [ ! -L "$DESTDIR$t" ]; then
		echo "$me: '$DESTDIR$t' is a folder, where the file is to go" >&2
		exit 1
	fi
done > "${TMPDIR:-/tmp}/.scaletest-install.$$" || { rm -f "${TMPDIR:-/tmp}/.scaletest-install.$$"; exit 1; }
dirs=$(LC_ALL=C sort -u "${TMPDIR:-/tmp}/.scaletest-install.$$")
rm -f "${TMPDIR:-/tmp}/.scaletest-install.$$"
for d in $dirs; do
	p=$DESTDIR$d
	while [ ! -e "$p" ] && [ ! -L "$p" ]; do
		p=${p%/*}
		[ -n "$p" ] || p=/
	done
	if [ ! -d "$p" ]; then
		echo "$me: '$p' is not a folder (DESTDIR='$DESTDIR', PREFIX='$PREFIX')" >&2
		exit 1
	fi
	if [ ! -w "$p" ] || [ ! -x "$p" ]; then
		echo "$me: cannot write to '$p': run it as its owner (sudo make install), or install elsewhere (PREFIX=, DESTDIR=)" >&2
		exit 1
	fi
done

# 2. The copies, under temporary names; what this made is undone on a
# failure.
made=
copies=
undo() {
	for c in $copies; do rm -f "$c"; done
	for d in $made; do rmdir "$d" 2>/dev/null; done
}
trap 'undo; exit 130' INT TERM HUP
for d in $dirs; do
	p=$DESTDIR$d
	new=
	while [ ! -d "$p" ]; do
		new="$p $new"
		p=${p%/*}
	done
	for n in $new; do
		if ! mkdir "$n"; then
			undo
			echo "$me: nothing installed" >&2
			exit 1
		fi
		made="$n $made"	# deepest first, for undo's rmdir
	done
done
while read -r m s t; do
	c=${DESTDIR}${t%/*}/.${t##*/}.scaletest-new
	rm -f "$c"
	copies="$copies $c"
	if ! install -m "$m" "$s" "$c"; then
		undo
		echo "$me: nothing installed" >&2
		exit 1
	fi
done <<EOF
$list
EOF

# 3. Into place.
while read -r m s t; do
	c=${DESTDIR}${t%/*}/.${t##*/}.scaletest-new
	mv -fT "$c" "$DESTDIR$t" || { echo "$me: '$DESTDIR$t' may be half installed" >&2; exit 1; }
done <<EOF
$list
EOF
trap - INT TERM HUP
exit 0
