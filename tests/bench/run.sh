#!/bin/sh
# make bench: every benchmark, one after the other (an hour or more).
set -eu
here=$(dirname "$0")
sh "$here/initramfs.sh" 3 x86_64
sh "$here/initramfs.sh" 3 i386
sh "$here/boot.sh" 3 x86_64
sh "$here/fio.sh" 3
sh "$here/overhead.sh" "$here/../../scenarios/seed-i386-4000" 2
sh "$here/fio-range.sh" "$here/../../scenarios/seed-i386-4000" 2
sh "$here/monitor.sh" "$here/../../scenarios/seed-i386-4000" 2
