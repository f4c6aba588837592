#!/bin/sh
# Write the seed corpora and hand-made regression inputs of the message
# targets (lb_codec, farm_wire, app_task, app_result) with the real
# encoders: tests/fuzz/gen_seeds.c, compiled here with the lb/, farm_wire
# and apps/ sources.  The files are committed; run this again after a
# change to a wire format and commit what changed.
#
# Usage: tests/fuzz/gen_seeds.sh [DIR]   (default: tests/fuzz of the source tree)
#   environment: CC (default cc)
set -eu
case ${1:-} in -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$src/tests/fuzz}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
${CC:-cc} -O1 -I"$src/lb" -I"$src/farm" -I"$src/apps" -I"$src/tests/fuzz/src" $(pkg-config --cflags gsl libsodium) \
  "$src/tests/fuzz/gen_seeds.c" "$src"/lb/*.c "$src/farm/farm_wire.c" "$src/farm/farm_auth.c" "$src/farm/farm_journal.c" "$src/apps/app_task.c" \
  "$src/apps/app_matmul.c" "$src/apps/app_primes.c" "$src/apps/app_mem.c" "$src/apps/app_blas.c" \
  -lopenblas $(pkg-config --libs gsl libsodium) -lm -o "$tmp/gen_seeds"
"$tmp/gen_seeds" "$out"
echo "gen_seeds.sh: seeds in $out/corpus, regression inputs in $out/regress"
