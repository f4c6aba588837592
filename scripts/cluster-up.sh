#!/bin/sh
# cluster-up.sh: six PVM hosts on one machine.
#
# Creates network namespaces h1..h6, each joined by a veth pair to a
# bridge that lives in a namespace of its own (lbfarm-br), with the
# private addresses 10.77.0.1..6 and a hosts file naming them; then
# starts the master pvmd inside h1 with a hostfile that adds h2..h6.
# Every slave pvmd is started through a PVM_RSH wrapper that enters the
# host's network namespace (ip netns exec), a UTS namespace with the
# host's name, and the host's own PVM_TMP.  Traffic stays on the bridge.
#
# Usage: scripts/cluster-up.sh [--builddir DIR] [--state DIR]
#   --builddir DIR  where lbmaster/lbworker were built (default: this tree)
#   --state DIR     where the hostfile, wrapper and PVM_TMPs go
#                   (default /tmp/lbfarm-cluster)
# Then: scripts/cluster-run.sh pvm          (the console, `conf` lists 6)
#       scripts/cluster-run.sh lbmaster ...  (one worker per host)
#       scripts/cluster-down.sh              (removes everything)
# Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN).  Exit 77 with the reason
# when namespaces cannot be created here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(cd "$here/.." && pwd)
state=/tmp/lbfarm-cluster
while [ $# -gt 0 ]; do
  case $1 in
  --builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
  --state) state=$2; shift 2 ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "cluster-up.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
N=6
BR=lbfarm-br
NET=10.77.0
for b in "$builddir/master/lbmaster" "$builddir/worker/lbworker"; do
  [ -x "$b" ] || { echo "cluster-up.sh: $b not built (run make, or give --builddir)" >&2; exit 2; }
done
command -v ip >/dev/null || { echo "cluster-up.sh: SKIP: no 'ip' command (iproute2)" >&2; exit 77; }
if ip netns list 2>/dev/null | grep -qE "^($BR|h[1-6])( |$)"; then
  echo "cluster-up.sh: namespaces $BR or h1..h6 exist already: run cluster-down.sh first" >&2
  exit 2
fi
if ! ip netns add "$BR" 2>/dev/null; then
  echo "cluster-up.sh: SKIP: cannot create network namespaces here (need root / CAP_SYS_ADMIN)" >&2
  exit 77
fi
mkdir -p "$state"
state=$(cd "$state" && pwd)
echo "$state" >"$state/.lbfarm-cluster"

ip -n "$BR" link add br0 type bridge
ip -n "$BR" link set br0 up
hosts="127.0.0.1 localhost"
for i in $(seq 1 $N); do hosts="$hosts
$NET.$i h$i"; done
for i in $(seq 1 $N); do
  h=h$i
  ip netns add $h
  ip -n "$BR" link add v$i type veth peer name eth0 netns $h
  ip -n "$BR" link set v$i master br0 up
  ip -n $h link set lo up
  ip -n $h addr add $NET.$i/24 dev eth0
  ip -n $h link set eth0 up
  # ip netns exec bind-mounts /etc/netns/NAME/hosts over /etc/hosts.
  mkdir -p /etc/netns/$h "$state/$h/tmp"
  printf '%s\n' "$hosts" >/etc/netns/$h/hosts
  printf '%s\n' "$h" >/etc/netns/$h/hostname
done

# The PVM_RSH wrapper: pvmd calls it as `WRAPPER HOST [-l USER] COMMAND`.
cat >"$state/netns-rsh" <<WRAP
#!/bin/sh
host=\$1; shift
[ "\${1:-}" = -l ] && shift 2
exec "$state/in-host" "\$host" sh -c "\$*"
WRAP
# in-host HOST CMD...: run CMD as if on HOST.
cat >"$state/in-host" <<INHOST
#!/bin/sh
host=\$1; shift
case \$host in h[1-6]) ;; *) echo "in-host: unknown host '\$host'" >&2; exit 2 ;; esac
export PVM_TMP="$state/\$host/tmp" PVM_ALLOW_ROOT=yes PVM_RSH="$state/netns-rsh"
export PVM_ROOT=\${PVM_ROOT:-/usr/lib/pvm3}
exec ip netns exec "\$host" unshare --uts sh -c 'hostname "\$0" && exec "\$@"' "\$host" "\$@"
INHOST
chmod +x "$state/netns-rsh" "$state/in-host"

{
  echo "# lbfarm six-host cluster: ep= is where pvm_spawn finds lbmaster/lbworker"
  echo "* ep=$builddir/master:$builddir/worker"
  for i in $(seq 1 $N); do echo "h$i"; done
} >"$state/hostfile"

# The master pvmd in h1; it adds h2..h6 from the hostfile.
"$state/in-host" h1 /usr/bin/pvmd "$state/hostfile" >"$state/pvmd.out" 2>&1 &
for t in $(seq 1 100); do
  n=$(printf 'conf\nquit\n' | "$state/in-host" h1 /usr/bin/pvm 2>/dev/null | grep -cE '^ +h[1-6] ' || true)
  [ "$n" -ge $N ] && break
  sleep 0.2
done
printf 'conf\nquit\n' | "$state/in-host" h1 /usr/bin/pvm 2>/dev/null | sed -n '/HOST/,$p' | grep -v '^pvm>' || true
if [ "${n:-0}" -lt $N ]; then
  echo "cluster-up.sh: only ${n:-0} of $N hosts joined the virtual machine; pvmd said:" >&2
  cat "$state/pvmd.out" >&2
  exit 1
fi
echo "cluster-up.sh: $N hosts up; state in $state"
