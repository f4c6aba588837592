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
# With --ssh the slave pvmds start through ssh, as on real machines: an
# sshd in each host (on its own address and port 2207, reachable only
# from the namespaces made here) with the cluster's own host key and
# authorized key, sshd -f with a config of its own, and PVM_RSH an ssh
# wrapper that uses the cluster's key, config and known hosts; nothing
# of the machine's own ssh set-up changes.  The hostfile then says what
# a user writes for real machines (dx= pvmd's path, ep= the programs').
#
# Usage: scripts/cluster-up.sh [--ssh] [--ns PREFIX] [--builddir DIR] [--state DIR]
#   --ssh           start the slave pvmds through ssh (see above)
#   --ns PREFIX     name the namespaces PREFIXh1..PREFIXh6 and PREFIXbr
#                   (default h1..h6 and lbfarm-br), so that clusters of
#                   different names can run side by side; the hosts are
#                   called h1..h6 in every cluster
#   --builddir DIR  where lbmaster/lbworker were built (default: this tree)
#   --state DIR     where the hostfile, wrapper, keys and PVM_TMPs go
#                   (default /tmp/lbfarm-cluster)
# Then: scripts/cluster-run.sh pvm          (the console, `conf` lists 6)
#       scripts/cluster-run.sh lbmaster ...  (one worker per host)
#       scripts/cluster-down.sh              (removes everything)
# Needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN).  Exit 77 with the reason
# when namespaces cannot be created here.
set -eu
lb_top=$(cd "$(dirname "$0")/.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(cd "$here/.." && pwd)
state=/tmp/lbfarm-cluster
ssh=0
prefix=
while [ $# -gt 0 ]; do
  case $1 in
  --ssh) ssh=1; shift ;;
  --ns) prefix=$2; shift 2 ;;
  --builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
  --state) state=$2; shift 2 ;;
  -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  *) echo "cluster-up.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
N=6
case $prefix in *[!A-Za-z0-9_-]*) echo "cluster-up.sh: --ns: letters, digits, _ and - only" >&2; exit 2 ;; esac
BR=${prefix:+${prefix}br}
BR=${BR:-lbfarm-br}
NET=10.77.0
PORT=2207
for b in "$builddir/master/lbmaster" "$builddir/worker/lbworker"; do
  [ -x "$b" ] || { echo "cluster-up.sh: $b not built (run make, or give --builddir)" >&2; exit 2; }
done
command -v ip >/dev/null || { echo "cluster-up.sh: SKIP: no 'ip' command (iproute2)" >&2; exit 77; }
if [ $ssh = 1 ]; then
  for b in /usr/sbin/sshd ssh ssh-keygen; do
    command -v $b >/dev/null || { echo "cluster-up.sh: SKIP: no $b (apt-get install openssh-server openssh-client)" >&2; exit 77; }
  done
fi
if ip netns list 2>/dev/null | grep -qE "^($BR|${prefix}h[1-6])( |$)"; then
  echo "cluster-up.sh: namespaces $BR or ${prefix}h1..${prefix}h6 exist already: run cluster-down.sh first" >&2
  exit 2
fi
if ! ip netns add "$BR" 2>/dev/null; then
  echo "cluster-up.sh: SKIP: cannot create network namespaces here (need root / CAP_SYS_ADMIN)" >&2
  exit 77
fi
mkdir -p "$state"
state=$(cd "$state" && pwd)
echo "$state" >"$state/.lbfarm-cluster"
# What cluster-down.sh removes: these namespaces and their /etc/netns.
echo "$BR $(for i in $(seq 1 $N); do printf '%sh%s ' "$prefix" $i; done)" >"$state/namespaces"

ip -n "$BR" link add br0 type bridge
ip -n "$BR" link set br0 up
hosts="127.0.0.1 localhost"
for i in $(seq 1 $N); do hosts="$hosts
$NET.$i h$i"; done
for i in $(seq 1 $N); do
  h=${prefix}h$i
  ip netns add $h
  ip -n "$BR" link add v$i type veth peer name eth0 netns $h
  ip -n "$BR" link set v$i master br0 up
  ip -n $h link set lo up
  ip -n $h addr add $NET.$i/24 dev eth0
  ip -n $h link set eth0 up
  # ip netns exec bind-mounts /etc/netns/NAME/hosts over /etc/hosts.
  mkdir -p /etc/netns/$h "$state/h$i/tmp"
  printf '%s\n' "$hosts" >/etc/netns/$h/hosts
  printf '%s\n' "h$i" >/etc/netns/$h/hostname
done

# The PVM_RSH wrapper: pvmd calls it as `WRAPPER HOST [-l USER] COMMAND`.
cat >"$state/netns-rsh" <<WRAP
#!/bin/sh
host=\$1; shift
[ "\${1:-}" = -l ] && shift 2
exec "$state/in-host" "\$host" sh -c "\$*"
WRAP
rsh=$state/netns-rsh
[ $ssh = 1 ] && rsh=$state/ssh/rsh
# in-host HOST CMD...: run CMD as if on HOST.
cat >"$state/in-host" <<INHOST
#!/bin/sh
host=\$1; shift
case \$host in h[1-6]) ;; *) echo "in-host: unknown host '\$host'" >&2; exit 2 ;; esac
export PVM_TMP="$state/\$host/tmp" PVM_ALLOW_ROOT=yes PVM_RSH="$rsh"
export PVM_ROOT=\${PVM_ROOT:-/usr/lib/pvm3}
exec ip netns exec "$prefix\$host" unshare --uts sh -c 'hostname "\$0" && exec "\$@"' "\$host" "\$@"
INHOST
chmod +x "$state/netns-rsh" "$state/in-host"

if [ $ssh = 1 ]; then
  # The cluster's keys and configs, all under $state/ssh.
  k=$state/ssh
  mkdir -p "$k"
  chmod 700 "$k"
  ssh-keygen -q -t ed25519 -N '' -C lbfarm-cluster-host -f "$k/host_key"
  ssh-keygen -q -t ed25519 -N '' -C lbfarm-cluster-user -f "$k/id_ed25519"
  cp "$k/id_ed25519.pub" "$k/authorized_keys"
  for i in $(seq 1 $N); do echo "[h$i]:$PORT,[$NET.$i]:$PORT $(cat "$k/host_key.pub")"; done >"$k/known_hosts"
  cat >"$k/sshd_config" <<SSHD
# sshd of the lbfarm cluster: the cluster's key only, no passwords.
Port $PORT
HostKey $k/host_key
AuthorizedKeysFile $k/authorized_keys
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
X11Forwarding no
AllowTcpForwarding no
PrintMotd no
SSHD
  cat >"$k/ssh_config" <<SSHC
# ssh to the lbfarm cluster's hosts: the cluster's key and known hosts.
Host h1 h2 h3 h4 h5 h6
  Port $PORT
  IdentityFile $k/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $k/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 5
  LogLevel ERROR
SSHC
  # pvmd runs PVM_RSH as rsh: HOST [-l USER] COMMAND, which ssh takes too.
  cat >"$k/rsh" <<RSH
#!/bin/sh
exec ssh -F "$k/ssh_config" "\$@"
RSH
  chmod +x "$k/rsh"
  # One sshd per host, in the host's namespaces, on its own address.
  # sshd wants /run/sshd: a tmpfs over /run in the mount namespace that
  # ip netns exec made, so the machine's /run is left alone.  What a
  # user's profile would set on a real machine, SetEnv sets here.
  for i in $(seq 1 $N); do
    "$state/in-host" h$i sh -c 'mount -t tmpfs -o mode=755 lbfarm-run /run && mkdir -m 755 /run/sshd && exec "$@"' sshd \
      /usr/sbin/sshd -f "$k/sshd_config" -E "$state/h$i/sshd.log" -o ListenAddress=$NET.$i \
      -o PidFile="$state/h$i/sshd.pid" \
      -o "SetEnv=PVM_ROOT=/usr/lib/pvm3 PVM_TMP=$state/h$i/tmp PVM_ALLOW_ROOT=yes" || {
      echo "cluster-up.sh: sshd did not start on h$i:" >&2; cat "$state/h$i/sshd.log" >&2; exit 1; }
  done
  for i in $(seq 2 $N); do
    for t in $(seq 1 50); do
      "$state/in-host" h1 "$k/rsh" h$i true 2>/dev/null && break
      sleep 0.1
    done
  done
fi

if [ $ssh = 1 ]; then
  {
    echo "# lbfarm six-host cluster, slave pvmds started by ssh as on real machines:"
    echo "# dx= where pvmd is on every host, ep= where lbmaster and lbworker are"
    echo "* dx=/usr/lib/pvm3/lib/pvmd ep=$builddir/master:$builddir/worker"
    for i in $(seq 1 $N); do echo "h$i"; done
  } >"$state/hostfile"
else
  {
    echo "# lbfarm six-host cluster: ep= is where pvm_spawn finds lbmaster/lbworker"
    echo "* ep=$builddir/master:$builddir/worker"
    for i in $(seq 1 $N); do echo "h$i"; done
  } >"$state/hostfile"
fi

# The master pvmd in h1; it adds h2..h6 from the hostfile.
"$state/in-host" h1 /usr/bin/pvmd "$state/hostfile" >"$state/pvmd.out" 2>&1 &
joined() { printf 'conf\nquit\n' | "$state/in-host" h1 /usr/bin/pvm 2>/dev/null | grep -oE '^ +h[1-6] ' | tr -d ' '; }
for t in $(seq 1 100); do
  n=$(joined | grep -c . || true)
  [ "$n" -ge $N ] && break
  # A slave pvmd that did not start in time (a loaded machine) is not
  # retried by the master pvmd: add the missing hosts again, twice at
  # most; only when the console answered (h1 listed).  At the first
  # retry a host with a pvmd in its namespace is left to finish; at the
  # second, after 15 s, that pvmd has failed to join and is stopped (it
  # is this cluster's: nothing else runs in its namespace) before the
  # host is added again.
  if [ "$t" = 50 ] || [ "$t" = 75 ]; then
    have=$(joined)
    printf '%s\n' "$have" | grep -qx h1 &&
    for i in $(seq 2 $N); do
      printf '%s\n' "$have" | grep -qx "h$i" && continue
      for p in $(ip netns pids "${prefix}h$i" 2>/dev/null); do
        [ "$(cat "/proc/$p/comm" 2>/dev/null)" = pvmd ] || continue
        [ "$t" = 50 ] && continue 2
        kill "$p" 2>/dev/null || true
      done
      printf 'add h%s\nquit\n' "$i" | "$state/in-host" h1 /usr/bin/pvm >/dev/null 2>&1 || true
    done
  fi
  sleep 0.2
done
printf 'conf\nquit\n' | "$state/in-host" h1 /usr/bin/pvm 2>/dev/null | sed -n '/HOST/,$p' | grep -v '^pvm>' || true
if [ "${n:-0}" -lt $N ]; then
  echo "cluster-up.sh: only ${n:-0} of $N hosts joined the virtual machine; pvmd said:" >&2
  cat "$state/pvmd.out" >&2
  # what each host was running, for the next one to read
  for i in $(seq 1 $N); do
    printf 'h%s:' "$i" >&2
    for p in $(ip netns pids "${prefix}h$i" 2>/dev/null); do printf ' %s(%s)' "$(cat "/proc/$p/comm" 2>/dev/null)" "$p" >&2; done
    echo >&2
  done
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  exit 1
fi
echo "cluster-up.sh: $N hosts up$([ $ssh = 1 ] && echo ', slave pvmds started by ssh'); state in $state"
