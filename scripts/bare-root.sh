#!/usr/bin/env bash
# bare-root.sh: the README's two commands on a bare Debian 12 root, as a
# new user runs them.  A minimal debootstrap root with no /etc/hosts
# line for its own host name gets a fresh clone of this repository's
# branch; scripts/main.sh, then scripts/test.sh, run in it as root in a
# chroot.  Prints PASS or FAIL and the time of each, and of a first check
# that scripts/setup.sh run by a user who is not root stops within 5 s
# with the apt-get line to run.
#
# Everything runs in private mount, PID and UTS namespaces: the mounts,
# the host name and every process (pvmds too) end with the script, even
# a killed one, and the host's own files, mounts and name are never
# changed.  The root is removed on every exit path.  The debootstrap
# result is cached as a tarball, so reruns start in seconds.
#
# Usage: scripts/bare-root.sh [--branch NAME] [--cache DIR]
#   --branch NAME  the branch to clone (default: the one checked out)
#   --cache DIR    tarball and logs (default /var/cache/lbfarm-bare)
# Needs root, debootstrap and git.  Exit 0 if all three pass.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
branch=
cache=/var/cache/lbfarm-bare
while [ $# -gt 0 ]; do
  case $1 in
  --branch) branch=${2:?--branch needs a name}; shift 2 ;;
  --cache) cache=${2:?--cache needs a directory}; shift 2 ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "bare-root.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
say() { echo "bare-root: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (chroot, namespaces): run it with sudo"; exit 2; }
for c in debootstrap unshare chroot git; do
  command -v "$c" >/dev/null || { say "no '$c': apt-get install -y debootstrap util-linux coreutils git"; exit 2; }
done
repo=$(git -C "$here" rev-parse --show-toplevel)
[ -n "$branch" ] || branch=$(git -C "$repo" rev-parse --abbrev-ref HEAD)
git -C "$repo" rev-parse --verify -q "refs/heads/$branch" >/dev/null ||
  { say "no branch '$branch' in $repo"; exit 2; }

# The Debian mirror apt already uses: one-line or deb822 sources.
mirror=$( {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed 's/\[[^]]*\]//' | awk '$1 == "deb" && $3 == "bookworm" { print $2 }'
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && awk 'BEGIN { RS = "" }
      /(^|\n)Suites:[^\n]* bookworm( |\n|$)/ && match($0, /(^|\n)URIs: *[^ \n]+/) {
        s = substr($0, RSTART, RLENGTH); sub(/.*URIs: */, "", s); print s }' "$f"
  done; } | head -n 1)
[ -n "$mirror" ] || { say "no bookworm mirror in /etc/apt/sources.list{,.d}: is this Debian 12?"; exit 2; }

arch=$(dpkg --print-architecture)
tarball=$cache/bookworm-minbase-$arch.tar.gz
mkdir -p "$cache"
root=
cleanup() {
  local rc=$?
  [ -n "${inner:-}" ] && kill -KILL "$inner" 2>/dev/null
  if [ -n "$root" ] && [ -d "$root" ]; then
    # The namespaces are private, so nothing should be mounted here;
    # never remove a tree that still has a mount under it.
    if grep -qF " $root/" /proc/self/mountinfo || grep -qF " $root " /proc/self/mountinfo; then
      umount -R "$root" 2>/dev/null || true
    fi
    if grep -qF " $root" /proc/self/mountinfo; then
      say "left $root in place: something is still mounted under it"
    else
      rm -rf --one-file-system "$root"
    fi
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ ! -s "$tarball" ]; then
  say "debootstrap --variant=minbase bookworm from $mirror (cached in $tarball)"
  root=$(mktemp -d "$cache/build.XXXXXX")
  t0=$(date +%s)
  # Its own mount namespace: debootstrap's mounts never reach the host.
  unshare --mount debootstrap --variant=minbase bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; say "debootstrap failed; log: $cache/debootstrap.log"; exit 1; }
  tar -C "$root" --numeric-owner -czf "$tarball.part" .
  mv "$tarball.part" "$tarball"
  rm -rf --one-file-system "$root"
  root=
  say "debootstrap took $(( $(date +%s) - t0 )) s"
fi

root=$(mktemp -d /var/tmp/lbfarm-bare.XXXXXX)
tar -C "$root" --numeric-owner -xzf "$tarball"
chmod 755 "$root"   # it becomes /, and the tarball's . came from mktemp
rm -f "$root"/var/cache/apt/archives/*.deb   # debootstrap's, not a fresh machine's
# A fresh machine: no line for its host name, DNS as the host has it.
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
echo lbfarm-bare >"$root/etc/hostname"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q --branch "$branch" "$repo" "$root/root/lbfarm"
say "cloned branch $branch at $(git -C "$root/root/lbfarm" log -1 --format='%h %s')"

# Run inside the root: each README command, timed, bounded, logged.
cat >"$root/run-readme.sh" <<'RUN'
#!/bin/bash
# First a user who is not root, in a clone of their own: set-up must
# stop at once with the fix.
cp -a /root/lbfarm /tmp/user-lbfarm && chown -R 65534:65534 /tmp/user-lbfarm
cd /tmp/user-lbfarm
t0=$(date +%s)
setpriv --reuid=65534 --regid=65534 --clear-groups timeout 60 scripts/setup.sh >/user.log 2>&1
rc=$? secs=$(( $(date +%s) - t0 ))
if [ $rc -eq 1 ] && [ $secs -lt 5 ] && grep -q 'sudo apt-get install -y ' /user.log; then rc=0; else rc=1; fi
echo "scripts/setup.sh(not-root) $rc $secs" >>/results
cat /user.log
cd /root/lbfarm && rm -rf /tmp/user-lbfarm
for cmd in scripts/main.sh scripts/test.sh; do
  t0=$(date +%s)
  timeout 2400 "$cmd" </dev/null 2>&1 | tee "/$(basename "$cmd" .sh).log"
  rc=${PIPESTATUS[0]}
  echo "$cmd $rc $(( $(date +%s) - t0 ))" >>/results
  echo "== $cmd exited $rc after $(( $(date +%s) - t0 )) s"
done
RUN
chmod +x "$root/run-readme.sh"
: >"$root/results"
say "running scripts/main.sh then scripts/test.sh in $root (logs in $cache)"
unshare --mount --uts --pid --fork --kill-child --propagation private /bin/sh -c '
  set -e
  r=$1
  hostname lbfarm-bare
  mount --bind "$r" "$r"          # ip netns exec needs / to be a mount point
  mount -t proc proc "$r/proc"
  mount -t sysfs sysfs "$r/sys"
  mount -t tmpfs -o mode=755 dev "$r/dev"
  mknod -m 666 "$r/dev/null" c 1 3
  mknod -m 666 "$r/dev/zero" c 1 5
  mknod -m 666 "$r/dev/full" c 1 7
  mknod -m 666 "$r/dev/random" c 1 8
  mknod -m 666 "$r/dev/urandom" c 1 9
  mknod -m 666 "$r/dev/tty" c 5 0
  mkdir "$r/dev/pts" "$r/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts"
  ln -s pts/ptmx "$r/dev/ptmx"
  ln -s /proc/self/fd "$r/dev/fd"
  ln -s /proc/self/fd/0 "$r/dev/stdin"
  ln -s /proc/self/fd/1 "$r/dev/stdout"
  ln -s /proc/self/fd/2 "$r/dev/stderr"
  mount -t tmpfs tmpfs "$r/dev/shm"
  exec chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /run-readme.sh
' sh "$root" &
inner=$!
wait "$inner" || true
inner=

for log in user main test; do
  [ -f "$root/$log.log" ] && cp "$root/$log.log" "$cache/$log.log"
done
fails=0
while read -r cmd rc secs; do
  if [ "$rc" -eq 0 ]; then say "PASS $cmd in $secs s"; else say "FAIL $cmd (exit $rc) in $secs s"; fails=$((fails + 1)); fi
done <"$root/results"
[ "$(wc -l <"$root/results")" -eq 3 ] || { say "FAIL: not every command ran"; fails=$((fails + 1)); }
tail -n 1 "$cache/test.log" 2>/dev/null | sed 's/^/bare-root: /' >&2 || true
exit $(( fails > 0 ))
