#!/bin/sh
# No output is lost silently: on a full filesystem (a 64 KiB tmpfs,
# filled) every program and script that writes there exits non-zero with
# a message naming the file, and an earlier file of the same name is
# left as it was.  Programs: lbmaster (--trace, --out, --hosts-csv, and
# --csv to stdout), lbsim (--csv to stdout, --msg-trace, --load-csv),
# lbtopo, lbtransport, lbshare, lbtrace, lbseed003, lbarrange,
# lbdiffuse; scripts: main.sh (no room, and 16 KiB: room for the CSV but
# not the chart) and an experiment.  /dev/full checks stdout the same way.
# The tmpfs is mounted in a mount namespace of this test's own (unshare;
# in a user namespace where we are not root); where that is refused the
# tmpfs part is skipped, with the reason.
. "${LB_TOP_SRCDIR:-.}/tests/lib.sh"
b=$(cd "$top_builddir" && pwd)
s=$(cd "$top_srcdir" && pwd)

# expect_fail WHAT FILE CMD...: CMD exits non-zero and names FILE.
expect_fail() {
  what=$1 file=$2
  shift 2
  err=$("$@" 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq 0 ]; then fail "$what: exit 0 on a full disk"
  elif ! printf '%s' "$err" | grep -qF -- "$file"; then fail "$what: exit $rc, but the message does not name $file: $err"
  else ok "$what: exit $rc, names the file"
  fi
}
# stdout_fail WHAT FILE CMD...: CMD with stdout to FILE.
stdout_fail() {
  what=$1 file=$2
  shift 2
  err=$("$@" 2>&1 >"$file")
  rc=$?
  if [ $rc -eq 0 ]; then fail "$what: exit 0 with stdout on a full disk"
  elif ! printf '%s' "$err" | grep -qF -- "$file"; then fail "$what: exit $rc, no name of $file: $err"
  else ok "$what: exit $rc, names $file"
  fi
}

if [ "${LB_FULL_DISK_INNER:-}" != 1 ]; then
  # /dev/full: every program's stdout, outside the namespace.
  for c in "tools/lbtopo info ring:6" "tools/lbtransport --example --csv" "tools/lbshare --example" \
           "sim/lbsim --policy rmtlb --topology ring:6 --csv" "tools/lbarrange --csv mesh:3x3" \
           "tools/lbdiffuse --csv ring:8"; do
    # shellcheck disable=SC2086
    stdout_fail "${c%% *} >/dev/full" /dev/full "$b"/$c
  done
  command -v unshare >/dev/null || { echo "SKIP: no unshare: the tmpfs part needs a mount namespace"; finish; }
  if [ "$(id -u)" -eq 0 ]; then ns="unshare --mount --propagation private"; else ns="unshare --user --map-root-user --mount"; fi
  if ! $ns sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"' 2>/dev/null; then
    echo "SKIP (tmpfs part): this machine refuses a tmpfs in a private mount namespace ($ns); /dev/full checked only"
    [ "$fails" -eq 0 ] && exit 77
    finish
  fi
  LB_FULL_DISK_INNER=1 $ns sh "$0"
  rc=$?
  [ "$fails" -eq 0 ] || exit 1
  exit $rc
fi

full=$(mktemp -d "${TMPDIR:-/tmp}/lbfarm-full.XXXXXX")
at_exit "umount '$full' 2>/dev/null; rm -rf '$full'"
mount -t tmpfs -o size=64k tmpfs "$full" || { echo "SKIP: mount -t tmpfs refused"; exit 77; }
# fill LEAVE: fill the tmpfs up to LEAVE KiB of free room.
fill() {
  rm -f "$full/fill"
  avail=$(df -k --output=avail "$full" | tail -1)
  dd if=/dev/zero of="$full/fill" bs=1k count=$((avail - $1)) 2>/dev/null
  [ "$1" -gt 0 ] || dd if=/dev/zero of="$full/fill" bs=1k count=1 oflag=append conv=notrunc 2>/dev/null
}
echo "an earlier file" >"$full/old.csv"
fill 0
[ "$(df -k --output=avail "$full" | tail -1)" -eq 0 ] && ok "tmpfs full" || fail "tmpfs not full: $(df -k "$full")"

stdout_fail "lbtopo info" "$full/topo.txt" "$b/tools/lbtopo" info torus:8x8
stdout_fail "lbtransport --csv" "$full/t.csv" "$b/tools/lbtransport" --example --csv
stdout_fail "lbshare" "$full/share.txt" "$b/tools/lbshare" --example
stdout_fail "lbsim --csv" "$full/sim.csv" "$b/sim/lbsim" --policy rmtlb --topology ring:6 --csv
expect_fail "lbsim --msg-trace" "$full/old.csv" "$b/sim/lbsim" --policy rmtlb --topology ring:6 --msg-trace "$full/old.csv"
expect_fail "lbsim --load-csv" "$full/old.csv" "$b/sim/lbsim" --policy rmtlb --topology ring:6 --load-csv "$full/old.csv"
expect_fail "lbseed003 --out" "$full/old.csv" "$b/tools/lbseed003" --tests 2 --out "$full/old.csv"
expect_fail "lbdiffuse --trace" "$full/old.csv" "$b/tools/lbdiffuse" --trace "$full/old.csv" ring:8
expect_fail "lbtrace -o" "$full/old.csv" "$b/tools/lbtrace" -o "$full/old.csv" json "$s/tests/trace_small.csv"
[ "$(cat "$full/old.csv")" = "an earlier file" ] && ok "the earlier file is intact" || fail "old.csv changed"

# lbmaster: a private VM outside the tmpfs.
farm_lock
pvm_private
m="$b/master/lbmaster --hosts 2 --size 200000 --procs 8 --speeds 1"
# shellcheck disable=SC2086
expect_fail "lbmaster --trace" "$full/old.csv" $m --trace "$full/old.csv"
# shellcheck disable=SC2086
expect_fail "lbmaster --out" "$full/new.csv" $m --out "$full/new.csv"
# shellcheck disable=SC2086
expect_fail "lbmaster --hosts-csv" "$full/old.csv" $m --hosts-csv "$full/old.csv"
# shellcheck disable=SC2086
stdout_fail "lbmaster --csv" "$full/m.csv" $m --csv
[ "$(cat "$full/old.csv")" = "an earlier file" ] && ok "the earlier file is intact" || fail "old.csv changed"
nothing_left

# main.sh: an earlier job's files stay as they were.
mkdir -p "$full/main" 2>/dev/null || true
main="$s/scripts/main.sh"
export LBMASTER="$b/master/lbmaster" LBFARM_SKIP_SETUP=1
small="--policies none --size 2000000 --procs 60 --capacities 2"
for leave in 0 16; do
  rm -f "$full/fill"
  echo "earlier" >"$full/main/main.csv"
  fill "$leave"
  # shellcheck disable=SC2086
  out=$("$main" --outdir "$full/main" $small 2>&1)
  rc=$?
  [ $rc -ne 0 ] && ok "main.sh with $leave KiB free: exit $rc" || fail "main.sh with $leave KiB free: exit 0: $out"
  printf '%s\n' "$out" | grep -q "$full/main" && ok "main.sh: the message names the file" ||
    fail "main.sh: no file named: $out"
  [ "$(cat "$full/main/main.csv")" = earlier ] && ok "main.sh: the earlier main.csv is intact" || fail "main.csv changed"
  left=$(ls -A "$full/main" | grep -v '^main\.csv$')
  [ -z "$left" ] && ok "main.sh: nothing else left" || fail "main.sh left: $left"
done
nothing_left

# An experiment: seed 003's.
rm -f "$full/fill"
fill 4
mkdir -p "$full/s3"
expect_fail "seed003/run.sh" "$full/s3" "$s/experiments/seed003/run.sh" "$full/s3"
finish
