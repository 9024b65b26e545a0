#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# make bench: every benchmark, one after the other (an hour or more).
# Each prints its figures and writes them to results/bench/<stamp>-NAME.json;
# tests/bench/README says what the files hold and how the benchmark table
# of docs/measurements.md is made from them.
set -eu
cd "$(dirname "$0")/../.."
sh tests/bench/initramfs.sh 3 x86_64
sh tests/bench/initramfs.sh 3 i386
sh tests/bench/boot.sh 3 x86_64
sh tests/bench/modload.sh 5
sh tests/bench/fio.sh 3
sh tests/bench/overhead.sh scenarios/seed-i386-4000 2
sh tests/bench/fio-range.sh scenarios/seed-i386-4000 2
sh tests/bench/monitor.sh scenarios/seed-i386-4000 2
sh tests/bench/timeattr.sh scenarios/x86_64-4000 3
sh tests/bench/channel.sh scenarios/smoke 3 1024
