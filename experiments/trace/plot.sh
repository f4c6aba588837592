#!/bin/sh
# Draw the space-time diagram of one trace (lbsim --msg-trace or
# lbmaster --trace) as PREFIX.png, PREFIX.svg and PREFIX.pdf, from
# PREFIX.seg.csv (lbtrace segments) and PREFIX.states.csv (lbtrace
# states), with experiments/trace/spacetime.gp.
# Usage: experiments/trace/plot.sh [OPTIONS] TRACE PREFIX
#   --from T, --to T, --types LIST    the messages drawn (lbtrace --help)
#   --topology T [--latency X] [--bandwidth B]   exact lbsim arrivals
#   --offset D                        else arrivals drawn at send + D
#   --title S, --xlabel S             the figure's heading and x label
#   -b BUILDDIR                       where tools/lbtrace is (default .)
set -eu
lb_top=$(cd "$(dirname "$0")/../.." && pwd)
. "$lb_top/scripts/lib.sh"
lb_init
here=$(cd "$(dirname "$0")" && pwd)
build=$(lb_builddir) title= xlabel=time
usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "plot.sh: $*" >&2; exit 2; }
trace= prefix=
set -- "$@" --end--   # the loop moves lbtrace's options after the marker
while [ "$1" != --end-- ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --from|--to|--types|--topology|--latency|--bandwidth|--offset)
      [ "$2" != --end-- ] || die "option '$1' needs an argument"
      set -- "$@" "$1" "$2"; shift 2 ;;
    --title) [ "$2" != --end-- ] || die "--title needs an argument"; title=$2; shift 2 ;;
    --xlabel) [ "$2" != --end-- ] || die "--xlabel needs an argument"; xlabel=$2; shift 2 ;;
    -b) [ "$2" != --end-- ] || die "-b needs an argument"; build=$2; shift 2 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) if [ -z "$trace" ]; then trace=$1; elif [ -z "$prefix" ]; then prefix=$1
       else die "unexpected argument '$1'"; fi
       shift ;;
  esac
done
shift
[ -n "$prefix" ] || die "expected TRACE and PREFIX (see --help)"
lbtrace=$build/tools/lbtrace
[ -x "$lbtrace" ] || die "$lbtrace not built (use -b BUILDDIR)"
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found"
mkdir -p "$(dirname "$prefix")"
seg=$prefix.seg.csv info=$prefix.info.csv states=$prefix.states.csv
"$lbtrace" "$@" -o "$seg" segments "$trace"
"$lbtrace" "$@" -o "$states" states "$trace"
"$lbtrace" "$@" -o "$info" --csv info "$trace"
get() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }' "$info"; }
[ "$(get messages)" -gt 0 ] || die "$trace: no message to draw (check --from, --to, --types)"
off=$(get offset | awk '{ printf "%.3g", $1 }')
case $(get arrival) in
  recv) caption="Each arrow runs from a message's send to its receipt, both recorded." ;;
  exact) caption="Arrival = send + hops x (latency + bytes / bandwidth): lbsim's delivery, computed exactly." ;;
  offset) caption="The trace records send times only: each segment ends at send + $off, a fixed visual offset, not a measured arrival." ;;
  *) caption="$(get arr_recv) arrows end at the message's recorded receipt; $(($(get arr_exact) + $(get arr_offset))) not received in the trace (deliveries to lbmaster among them) end at send + $off." ;;
esac
nstates=$(($(wc -l <"$states") - 1))
nidle=$(grep -c ',idle,' "$states" || true) nbal=$(grep -c ',balancing,' "$states" || true)
[ -n "$title" ] || title="$(get messages) messages of $trace"
q() { printf '%s' "$1" | sed "s/'/''/g"; }   # a gnuplot single-quoted string
for ext in png svg pdf; do
  gnuplot -e "data='$(q "$seg")'; states='$(q "$states")'; nstates=$nstates; nidle=$nidle; nbal=$nbal" \
    -e "output='$(q "$prefix.$ext")'; hosts=$(get hosts); sink=$(get sink)" \
    -e "types='$(get types)'; nmig=$(get migrations); ndeliv=$(get deliveries)" \
    -e "caption='$(q "$caption")'; heading='$(q "$title")'; xlab='$(q "$xlabel")'" "$here/spacetime.gp"
  lb_whole "$prefix.$ext" || die "gnuplot wrote no whole $prefix.$ext (a full disk?)"
done
rm -f "$info"
for f in "$prefix.png" "$prefix.svg" "$prefix.pdf" "$seg" "$states"; do
  echo "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
