# common.sh: the parameter search of the tournament and three helpers,
# sourced by run.sh and episodes.sh.
# grid POLICY L DEG prints one candidate per line, "NAME LBSIM-ARGS",
# the policy's default setting first.  L is the processes per host, DEG
# the graph's degree.  The same search for every policy: each parameter
# a policy has is searched over the same values as in every other policy
# that has it, or fixed to its paper's value for all alike:
#   C (capacity; rmtlb, rmtlb-drain, lowest, dasud-ring, pool): the
#     paper's default 4, half the average queue L, L, twice it;
#   A (threshold; the same, and cchspmd): the paper's 10 % of C, or 0.4
#     (CCHSPMD's default, 10 % of its default C = 4); CCHSPMD has no C,
#     so its "10 % of C" is 10 % of L, its share;
#   the exchange period (dasud, cchspmd, diffusion, diffusion2), in the
#     farm's 10 ms quanta: 5 (the farm's 50 ms), 1, 2, 10 (dasud, with
#     no second parameter: also 3, 8, 13, 20, 40);
#   each policy's own: RMTLB's Tmax (the paper's 2 x hop time x
#     eccentricity, or 4) and RMTLB-drain's estimate of work left (the
#     mean process's, or the declared work, less the work run); LOWEST's probes (3, 8) and back-off (none, as
#     seed 000; or 5 doublings); DASUD-RING's widest ring (the whole
#     graph, as the paper; or 1); CCHSPMD's plan (greedy, transport);
#     diffusion's alpha (Boillat's, half of it); diffusion2's beta
#     (beta_opt, 1.2); steal's amount (half, one), threshold (asks when
#     idle, or below 2) and retry wait (none, 1 quantum); pool's chunks
#     (factoring, gss).
# Candidates whose values coincide (C = 4 = L at 4 per host; A = 0.4 =
# 10 % of 4) are run once.
grid() {
  g_half=$(( ($2 + 1) / 2 )) g_dbl=$((2 * $2))
  case $1 in
    none) echo "default" ;;
    rmtlb|rmtlb-drain|rmtlb-drain-oracle|lowest|dasud-ring|pool)
      # the variant starts C at the average queue (L) by default
      g_cs="4 $g_half $2 $g_dbl"
      case $1 in rmtlb-drain*) g_cs="$2 4 $g_half $g_dbl" ;; esac
      for g_c in $g_cs; do
        g_pa=$(awk -v c="$g_c" 'BEGIN { printf "%g", 0.1 * c }')
        for g_a in "$g_pa" 0.4; do
          g_n="C$g_c-A$g_a" g_o="-C $g_c -A $g_a"
          case $1 in
            rmtlb-drain)
              for g_e in mean declared; do
                echo "$g_n-tpaper-$g_e $g_o --rmtlb-estimate $g_e"; echo "$g_n-t4-$g_e $g_o --tmax 4 --rmtlb-estimate $g_e"
              done ;;
            rmtlb*) echo "$g_n-tpaper $g_o"; echo "$g_n-t4 $g_o --tmax 4" ;;
            lowest)
              for g_p in 3 8; do
                echo "$g_n-p$g_p-b0 $g_o --probes $g_p"; echo "$g_n-p$g_p-b5 $g_o --probes $g_p --backoff-max 5"
              done ;;
            dasud-ring) echo "$g_n-rall $g_o"; echo "$g_n-r1 $g_o --dasud-ring-max-ring 1" ;;
            pool) echo "$g_n-factoring $g_o"; echo "$g_n-gss $g_o --pool-chunk gss" ;;
          esac
        done
      done | awk '!seen[$1]++' ;;
    dasud) for g_p in 5 1 2 3 8 13 20 40; do echo "P$g_p --period $g_p"; done ;;
    cchspmd)
      g_pa=$(awk -v c="$2" 'BEGIN { printf "%g", 0.1 * c }')
      for g_a in 0.4 "$g_pa"; do
        for g_p in 5 1 2 10; do
          echo "P$g_p-greedy-A$g_a --period $g_p -A $g_a"; echo "P$g_p-tp-A$g_a --period $g_p --plan transport -A $g_a"
        done
      done | awk '!seen[$1]++' ;;
    # alpha: Boillat's (1/(deg+1) on these regular graphs) or half of it
    diffusion)
      g_a=$(awk -v d="$3" 'BEGIN { printf "%.6f", 0.5 / (d + 1) }')
      for g_p in 5 1 2 10; do echo "P$g_p-boillat --period $g_p"; echo "P$g_p-half --period $g_p --alpha $g_a"; done ;;
    # beta: beta_opt of the graph, or a milder 1.2
    diffusion2)
      for g_p in 5 1 2 10; do echo "P$g_p-opt --period $g_p"; echo "P$g_p-b1.2 --period $g_p --beta 1.2"; done ;;
    steal)
      for g_m in half one; do for g_b in 1 2; do for g_r in 0 1; do
        echo "$g_m-below$g_b-retry$g_r --steal-amount $g_m --steal-below $g_b --steal-retry $g_r"
      done; done; done ;;
  esac
}

# The farm cells of experiments/tournament/farm.sh, shared with
# experiments/calibrate/holdout.sh (which replays them in lbsim).
# The simulator's load for a farm cell: the farm's start (lbmaster's
# distribute(): contiguous blocks, host k's share 2^-k, largest
# remainders; or all on host 0), each process's work in CPU quanta by
# the workload's cost model (primes: range k of [2, N] costs ~ its
# length x sqrt(m) / ln(m) at its middle; matmul: equal blocks),
# scaled to a mean of MEAN quanta, declared as its estimate too.
simtrace() {   # workload start processes size mean
  awk -v w="$1" -v st="$2" -v np="$3" -v N="$4" -v mean="$5" 'BEGIN {
    h = 6
    for (k = 0; k < h; k++) { sh[k] = 1 / 2 ^ k; s += sh[k] }
    for (k = 0; k < h; k++) { c[k] = int(np * sh[k] / s); g += c[k] }
    while (g < np) { b = 0; br = -1
      for (k = 0; k < h; k++) { r = np * sh[k] / s - c[k]; if (r > br) { br = r; b = k } }
      c[b]++; g++ }
    i = 0; for (k = 0; k < h; k++) for (e = 0; e < c[k]; e++) node[i++] = st == "one" ? 0 : k
    for (i = 0; i < np; i++) {
      if (w == "primes") { lo = 2 + (N - 1) * i / np; hi = 2 + (N - 1) * (i + 1) / np; m = (lo + hi) / 2
        x[i] = (hi - lo) * sqrt(m) / log(m) } else x[i] = 1
      t += x[i] }
    for (i = 0; i < np; i++) { v = x[i] * mean * np / t; printf "0 %d %.6f %.6f\n", node[i], v, v } }'
}
# A farm run's name (farm.sh's hosts/TAG.csv, read by holdout.sh).
runtag() {   # topology L workload start policy cfg seed
  echo "$1-$2-$3-$4-$5-$6-s$7" | tr ':/ ' '___'
}
# A tuned setting's lbsim arguments in farm units: times (periods,
# Tmax, retry waits, ring timeouts) from quanta to seconds.
farmargs() {   # quantum_ms args...
  local q=$1; shift
  echo "$*" | awk -v q="$q" '{ for (i = 1; i <= NF; i++) {
    if ($i ~ /^--(period|tmax|steal-retry|dasud-ring-timeout)$/ && i < NF) { printf "%s %g ", $i, $(i + 1) * q / 1000; i++ }
    else printf "%s ", $i } }'
}
polarg() {   # policy -> lbmaster/lbsim --policy and its fixed options
  case $1 in
    rmtlb-drain) echo "rmtlb --drain 2" ;;
    *) echo "$1" ;;
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
