# common.sh: the parameter search of the tournament and three helpers,
# sourced by run.sh and episodes.sh.
# grid POLICY L DEG prints one candidate per line, "NAME LBSIM-ARGS",
# the policy's default setting first.  Every balancing policy gets eight
# candidates (fewer only where two coincide), so the search effort is
# the same for each; L is the processes per host, DEG the graph's degree.
grid() {
  g_half=$(( ($2 + 1) / 2 )) g_dbl=$((2 * $2))
  case $1 in
    none) echo "default" ;;
    # C: the paper's default 4, half the average queue, the average, twice
    # it; Tmax: the paper's (2 x the time to the farthest node) or 4 units
    rmtlb|lowest)
      for g_c in 4 "$g_half" "$2" "$g_dbl"; do
        if [ "$1" = rmtlb ]; then
          echo "C$g_c-tpaper -C $g_c"; echo "C$g_c-t4 -C $g_c --tmax 4"
        else
          echo "C$g_c-p3 -C $g_c"; echo "C$g_c-p8 -C $g_c --probes 8"
        fi
      done | awk '!seen[$1]++' ;;
    # the variant starts C at the average queue (L) by default
    rmtlb-drain|rmtlb-drain-oracle)
      for g_c in "$2" 4 "$g_half" "$g_dbl"; do echo "C$g_c-tpaper -C $g_c"; echo "C$g_c-t4 -C $g_c --tmax 4"; done |
        awk '!seen[$1]++' ;;
    # periods in units of the farm's 10 ms quantum; 5 is the farm's
    dasud) for g_p in 5 1 2 3 8 13 20 40; do echo "P$g_p --period $g_p"; done ;;
    cchspmd)
      for g_p in 5 1 2 10; do echo "P$g_p-greedy --period $g_p"; echo "P$g_p-tp --period $g_p --plan transport"; done ;;
    # alpha: Boillat's (1/(deg+1) on these regular graphs) or half of it
    diffusion)
      g_a=$(awk -v d="$3" 'BEGIN { printf "%.6f", 0.5 / (d + 1) }')
      for g_p in 5 1 2 10; do echo "P$g_p-boillat --period $g_p"; echo "P$g_p-half --period $g_p --alpha $g_a"; done ;;
    # beta: beta_opt of the graph, or a milder 1.2
    diffusion2)
      for g_p in 5 1 2 10; do echo "P$g_p-opt --period $g_p"; echo "P$g_p-b1.2 --period $g_p --beta 1.2"; done ;;
  esac
}

# degree of a regular topology spec (ring, complete, torus)
degree() {
  case $1 in
    ring:*) echo 2 ;;
    complete:*) echo $(( ${1#complete:} - 1 )) ;;
    torus:*) echo 4 ;;
    *) echo 4 ;;
  esac
}

# nodes of a topology spec
nodes() { echo "$1" | awk -F'[:x]' '{ print $1 == "torus" ? $2 * $3 : $2 }'; }

# sort_summary SETTINGS: summary.csv on stdin, sorted in the settings'
# order (topologies as listed, then L, workload, start, policy, kind).
sort_summary() {
  awk -F, -v OFS=, 'NR == FNR { split($0, a, " "); if (!(a[1] in r)) r[a[1]] = ++n; next }
    FNR == 1 { print "0," $0; next } { print r[$1] "," $0 }' "$1" - |
    sort -t, -k1,1n -k3,3n -k4,4r -k5,5r -k6,6 -k7,7 | cut -d, -f2-
}
