#!/bin/sh
# make bench: every benchmark, one after the other.
set -eu
here=$(dirname "$0")
sh "$here/initramfs.sh" 3 x86_64
sh "$here/initramfs.sh" 3 i386
sh "$here/overhead.sh" "$here/../../scenarios/seed-i386-4000" 2
