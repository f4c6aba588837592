# decompose.awk: where the prediction's error comes from, run by run.
# Input, in this order: fit.csv and replay.csv of holdout.sh (each host
# at its own share), replay.csv of holdout.sh --mean-share (the same
# runs, every host at the mean share; /dev/null if none), and the farm's
# runs.csv.  At the candidate fit.csv chose for the workload, each run's
# error e = sim / farm - 1 is split, as logarithms that add up, into
#   noise  cell mean / farm: the farm against itself (the cell's mean
#          ratio over all its runs, every seed; no prediction of a
#          single run can know this part),
#   shares sim at each host's share / sim at the mean share: what the
#          per-host replay changed,
#   model  sim at the mean share / cell mean: what is left, the model's
#          own error against the farm's repeatable behaviour.
# Writes decompose.csv (one row per run) to the file `out`, and prints
# a summary per workload and half, then the model's error by the run's
# mid-run migrations (processes that had started when they moved).
function abs(x) { return x < 0 ? -x : x }
function med(arr, n,   i, j, v, a) {
  for (i = 1; i <= n; i++) a[i] = arr[i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : 0 }
function pc(a, b) { return b ? sprintf("%d of %d (%.0f %%)", a, b, 100 * a / b) : "-" }
function in10(x) { return abs(x - 1) <= 0.10 }
function bin(m) { return m < 5 ? "0-4" : m < 10 ? "5-9" : "10+" }
# (which file is which by its header: an empty one has none)
FNR == 1 { delete c; for (i = 1; i <= NF; i++) if (!($i in c)) c[$i] = i
  f = ("chosen" in c) ? 1 : ("sim_ratio" in c) ? (nrep++ ? 3 : 2) : 4; next }
f == 1 { if ($c["chosen"] == "yes") ch[$c["workload"]] = $c["setup_ms"] "," $c["byte_ns"] "," $c["bw_mbs"]; next }
f <= 3 { if ($c["setup_ms"] "," $c["byte_ns"] "," $c["bw_mbs"] != ch[$c["workload"]]) next
  k = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7
  if (f == 2) { key[++nk] = k; sim[k] = $c["sim_ratio"]; farm[k] = $c["farm_ratio"]; half[k] = $c["half"]
    wl[k] = $3; cell[k] = $1 "," $2 "," $3 "," $4 "," $5 "," $6; shares[k] = $c["shares"] }
  else simm[k] = $c["sim_ratio"]
  next }
$c["verified"] == "yes" && $c["ratio_received"] != "" {
  k = $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $c["seed"]
  cl = $2 "," $3 "," $4 "," $5 "," $6 "," $7; nc[cl]++; sc[cl] += $c["ratio_received"]
  mst[k] = $c["migrated_started"]; ctx[k] = $c["ctx_bytes"] }
END {
  print "topology,L,workload,start,policy,cfg,seed,half,farm_ratio,cell_mean,sim_host,sim_mean,migrated_started,ctx_bytes,error,noise,shares,model" >out
  for (i = 1; i <= nk; i++) { k = key[i]; cl = cell[k]; m = nc[cl] ? sc[cl] / nc[cl] : farm[k]
    sm = (k in simm) ? simm[k] : sim[k]
    e = log(sim[k] / farm[k]); en = log(m / farm[k]); es = log(sim[k] / sm); em = log(sm / m)
    printf "%s,%s,%.4f,%.4f,%.4f,%.4f,%d,%d,%.4f,%.4f,%.4f,%.4f\n", k, half[k], farm[k], m, sim[k], sm, mst[k], ctx[k],
      exp(e) - 1, exp(en) - 1, exp(es) - 1, exp(em) - 1 >out
    g = wl[k] SUBSEP half[k]; if (!(g in gn)) G[++ng] = g
    n = ++gn[g]; if (in10(sim[k] / farm[k])) a10[g]++; if (in10(sm / farm[k])) m10[g]++
    if (in10(m / farm[k])) o10[g]++; if (in10(sim[k] / m)) h10[g]++
    N[g, n] = abs(exp(en) - 1); S[g, n] = abs(exp(es) - 1); M[g, n] = abs(sim[k] / m - 1); T[g, n] = abs(sim[k] / farm[k] - 1)
    b = g SUBSEP bin(mst[k])
    x = ++bn[b]; BE[b, x] = sim[k] / m - 1; if (in10(sim[k] / m)) b10[b]++ }
  print "| workload | half | runs | lbsim within 10 % of the run | at the mean share | the cell's mean (oracle, noise only) | lbsim within 10 % of the cell's mean (no noise) | median abs: error | noise | shares | model |"
  print "|---|---|---|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= ng; i++) { g = G[i]; split(g, a, SUBSEP); n = gn[g]
    delete t1; delete t2; delete t3; delete t4
    for (j = 1; j <= n; j++) { t1[j] = T[g, j]; t2[j] = N[g, j]; t3[j] = S[g, j]; t4[j] = M[g, j] }
    printf "| %s | %s | %d | %s | %s | %s | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", a[1], a[2], n,
      pc(a10[g], n), pc(m10[g], n), pc(o10[g], n), pc(h10[g], n), 100 * med(t1, n), 100 * med(t2, n), 100 * med(t3, n), 100 * med(t4, n) }
  print ""
  print "The model's error (lbsim at each host's share against the cell's mean) by the run's mid-run migrations:"
  print ""
  print "| workload | half | mid-run migrations | runs | within 10 % of the cell's mean | median error |"
  print "|---|---|---|---|---|---|"
  split("0-4 5-9 10+", BIN, " ")
  for (i = 1; i <= ng * 3; i++) { b = G[int((i - 1) / 3) + 1] SUBSEP BIN[(i - 1) % 3 + 1]; if (!(b in bn)) continue
    split(b, a, SUBSEP); n = bn[b]; delete t1
    for (j = 1; j <= n; j++) t1[j] = BE[b, j]
    printf "| %s | %s | %s | %d | %s | %+.1f %% |\n", a[1], a[2], a[3], n, pc(b10[b], n), 100 * med(t1, n) } }
