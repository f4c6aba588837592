#!/bin/sh
# Build the libFuzzer targets listed in tests/fuzz/targets with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer, apart from the normal
# (gcc) build: objects and programs go to BUILDDIR/tests/fuzz/build/.
# Each source is compiled once and again only when it or a header
# changed.  Exit 77 (with the reason) when clang cannot build a fuzzer.
#
# Usage: tests/fuzz/build.sh [BUILDDIR]   (default: the current directory)
#   environment: FUZZ_CC (default clang), FUZZ_CFLAGS (added flags)
set -eu
case ${1:-} in -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-.}" && pwd)/tests/fuzz/build
cc=${FUZZ_CC:-clang}
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cflags="-g -O1 $san ${FUZZ_CFLAGS:-} -I$src/lb -I$src/cli -I$src/apps -I$src/farm"
mkdir -p "$build/obj" "$build/bin"

command -v "$cc" >/dev/null 2>&1 || { echo "build.sh: $cc not found (Debian: apt-get install clang libclang-rt-dev)"; exit 77; }
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)(n & 0); }\n' >"$build/probe.c"
"$cc" -fsanitize=fuzzer,address,undefined "$build/probe.c" -o "$build/probe" >"$build/probe.log" 2>&1 ||
  { echo "build.sh: $cc cannot link a libFuzzer target (Debian: apt-get install libclang-rt-dev); see $build/probe.log"; exit 77; }
gsl_cflags=$(pkg-config --cflags gsl 2>/dev/null) || { echo "build.sh: GSL (pkg-config gsl) not found"; exit 77; }
gsl_libs=$(pkg-config --libs gsl)

# Newest header the sources may include: an object older than it is rebuilt.
newest=$(ls -t "$src"/lb/*.h "$src"/cli/*.h "$src"/apps/*.h "$src"/farm/*.h "$src"/tests/fuzz/src/*.h | head -1)

compile() {  # compile SOURCE OBJECT FLAGS...
  s=$1 o=$2; shift 2
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest" -nt "$o" ]; then
    mkdir -p "$(dirname "$o")"
    echo "  CC(fuzz) ${s#"$src"/}"
    # shellcheck disable=SC2086
    "$cc" $cflags $gsl_cflags "$@" -c "$s" -o "$o"
  fi
}

grep -v '^[[:space:]]*\(#\|$\)' "$src/tests/fuzz/targets" | while read -r name rest; do
  objs="" cf="" lf=""
  for w in $rest; do
    case $w in -l*|-L*) lf="$lf $w" ;; -*) cf="$cf $w" ;; esac
  done
  # A word with a * names every source it matches (lb/*.c: the whole
  # engine, so a target does not break when a file is split in two).
  words=""
  for w in $rest; do
    case $w in
      -*) ;;
      *'*'*) words="$words $(cd "$src" && set +f && ls $w)" ;;
      *) words="$words $w" ;;
    esac
  done
  for w in $words; do
    case $w in
      -*) ;;
      # Objects are shared between targets unless the line adds flags.
      *) o=$build/obj${cf:+/$name}/${w%.c}.o
         # shellcheck disable=SC2086
         compile "$src/$w" "$o" -fsanitize=fuzzer-no-link $cf
         objs="$objs $o" ;;
    esac
  done
  # shellcheck disable=SC2086
  compile "$src/tests/fuzz/src/fuzz_$name.c" "$build/obj/fuzz_$name.o" -fsanitize=fuzzer-no-link $cf
  echo "  LD(fuzz) fuzz_$name"
  # shellcheck disable=SC2086
  "$cc" -fsanitize=fuzzer $san "$build/obj/fuzz_$name.o" $objs $lf $gsl_libs -lm -o "$build/bin/fuzz_$name"
done
echo "build.sh: targets in $build/bin"
