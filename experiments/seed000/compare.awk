# Seed 000 beside the paper, for experiments/report.sh (with
# report/lib.awk).  -v fig34=fig34.csv (lbmaster rows of fig34.sh),
# claim=claim.csv (proto/claim.sh), four=four.csv (seed000/four.sh: the
# paper's four in the tournament's six-host settings, with paired
# tests); medians=FILE (optional) gets workload,size,policy,
# makespan_s,ratio_received medians, then ratio_received's lowest and
# highest and the number of runs, for received.gp.  Figs. 3 and 4 print
# no numbers: the paper's values are its claims (section 2.3) put as an
# order and as ratios of 1.
function name(p) { return toupper(p) }
# The paper's order at a small or a large size: (1) CCHSPMD beats LOWEST
# when small and is last when large; (2) DASUD and RMTLB beat LOWEST;
# (3) RMTLB beats LOWEST and DASUD.
function paper_order(small) { return small ? "RMTLB < DASUD < CCHSPMD < LOWEST" : "RMTLB < DASUD < LOWEST < CCHSPMD" }
function size_label(w, s) { return w == "primes" ? sprintf("to %ge6", s / 1e6) : sprintf("n = %d", s) }
BEGIN {
  np = split("lowest dasud cchspmd rmtlb", pol, " ")
  n = csv(fig34, F)
  byrecv = has(F, n, "ratio_received")
  for (r = 1; r <= n; r++) {
    if (F[r, "verified"] != "yes") continue
    if (has(F, n, "results") && F[r, "results"] != "origin") continue
    w = F[r, "workload"]; s = F[r, "size"] + 0; p = F[r, "policy"]
    k = w SUBSEP s SUBSEP p
    T[k, ++cnt[k]] = F[r, "makespan_s"]
    if (byrecv) R[k, cnt[k]] = F[r, "ratio_received"]
    if (!((w, s) in seen)) { seen[w, s] = 1; sizes[w] = sizes[w] " " s }
  }
  nw = split("matmul primes", wl, " ")
  for (i = 1; i <= nw; i++) {
    w = wl[i]; group = w == "matmul" ? "Fig. 3 (matmul)" : "Fig. 4 (primes)"
    ns = split(sizes[w], sz, " ")
    for (a = 2; a <= ns; a++) for (b = a; b > 1 && sz[b - 1] + 0 > sz[b] + 0; b--) { t = sz[b]; sz[b] = sz[b - 1]; sz[b - 1] = t }
    for (j = 1; j <= ns; j++) {
      s = sz[j]; item = size_label(w, s)
      # Medians per policy; the order by makespan; RMTLB against the best.
      ok = 1
      for (q = 1; q <= np; q++) {
        k = w SUBSEP s SUBSEP pol[q]
        if (!(k in cnt)) { ok = 0; continue }
        for (m = 1; m <= cnt[k]; m++) { V[m] = T[k, m]; U[m] = R[k, m] }
        med[pol[q]] = median(V, cnt[k])
        if (byrecv) recv[pol[q]] = median(U, cnt[k])
        lo = hi = U[1]
        for (m = 2; m <= cnt[k]; m++) { if (U[m] + 0 < lo + 0) lo = U[m]; if (U[m] + 0 > hi + 0) hi = U[m] }
        if (medians != "")
          print w "," s "," pol[q] "," med[pol[q]] "," (byrecv ? recv[pol[q]] "," lo "," hi : ",,") "," cnt[k] > medians
        row("detail", group, item, name(pol[q]) " makespan (s)", "-", num(med[pol[q]]), "not-printed")
        if (byrecv) row("detail", group, item, name(pol[q]) " makespan / ideal at the CPU share received", "-", num(recv[pol[q]]), "not-printed")
      }
      if (!ok) continue
      for (q = 1; q <= np; q++) o[q] = pol[q]
      for (a = 2; a <= np; a++) for (b = a; b > 1 && med[o[b - 1]] > med[o[b]]; b--) { t = o[b]; o[b] = o[b - 1]; o[b - 1] = t }
      ours = name(o[1]); for (q = 2; q <= np; q++) ours = ours " < " name(o[q])
      best = med[o[1]]; rbest = recv["rmtlb"]
      for (q = 1; q <= np; q++) if (byrecv && recv[pol[q]] < rbest) rbest = recv[pol[q]]
      fastest = o[1] == "rmtlb"; bestrecv = byrecv && recv["rmtlb"] == rbest
      why = fastest ? "rmtlb-fastest" : near(med["rmtlb"], best, 0.05) ? "near" : bestrecv ? "load" : \
            w == "primes" ? "primes-count" : "matmul-origin"
      row("main", group, item, "fastest first (makespan)", paper_order(j == 1), ours, "order")
      row("main", group, item, "RMTLB makespan / fastest", 1, num(med["rmtlb"] / best), why)
      if (byrecv) row("main", group, item, "RMTLB / best at the CPU share received", 1, num(recv["rmtlb"] / rbest),
                      bestrecv ? "received-best" : near(recv["rmtlb"], rbest, 0.05) ? "near" : \
                      w == "primes" ? "primes-count" : "matmul-origin")
    }
  }
  # The claim of few runs: one flood for RMTLB, one light node per run for
  # LOWEST (each light node here has 4 free seats).
  n = csv(claim, C)
  for (r = 1; r <= n; r++) {
    e = C[r, "epn"] + 0; t = C[r, "topology"]
    if (e != 10 && e != C[r, "room"] + 0 && !(e == 80 && C[r, "room"] + 0 > 80)) continue
    item = t " EPN " e (e == C[r, "room"] + 0 ? " (all the room)" : "")
    runs = C[r, "runs_per_episode"] + 0
    if (C[r, "policy"] == "rmtlb")
      row("main", "few runs (simulator)", item, "RMTLB runs", 1, runs, runs <= 2 ? "claim-holds" : "claim-unexplained")
    else if (C[r, "policy"] == "lowest")
      row("main", "few runs (simulator)", item, "LOWEST runs", int((e + 3) / 4), runs, "lowest-runs")
  }
  # The claim that RMTLB beats the other three, in the simulator as the
  # tournament compares policies (seed000/four.sh): per setting, the best
  # of the four by mean, RMTLB against it by the paired test, and RMTLB's
  # mean over the best's.
  n = csv(four, S)
  for (r = 1; r <= n; r++) {
    k = S[r, "setting"]
    if (!(k in fw)) { fw[k] = S[r, "winner"]; fm[k] = S[r, "winner_mean"] + 0; forder[++nk] = k }
    p = S[r, "policy"]; fmean[k, p] = S[r, "mean"] + 0
    fv[k, p] = S[r, "verdict"]; fp[k, p] = S[r, "p_holm"] + 0; fq[k, p] = S[r, "median_ratio"] + 0
  }
  for (i = 1; i <= nk; i++) {
    k = forder[i]; w = fw[k]
    if (w == "rmtlb") {
      # RMTLB best by mean: the others the test cannot tell from it
      ours = "RMTLB"; over = 1; tied = ""
      for (q = 1; q <= np; q++) if (fv[k, pol[q]] == "tie") tied = tied (tied ? " and " : "") name(pol[q]) sprintf(" (p = %.2g)", fp[k, pol[q]])
      if (tied != "") ours = ours "; tied with " tied
      why = tied == "" ? "four-rmtlb-best" : "four-rmtlb-best-tie"
    } else if (!((k, "rmtlb") in fv)) continue
    else {
      ours = name(w) (fv[k, "rmtlb"] == "tie" ? "; RMTLB tied" : "; RMTLB worse") sprintf(" (p = %.2g)", fp[k, "rmtlb"])
      why = fv[k, "rmtlb"] == "tie" ? "four-rmtlb-tied" : "four-other-best"; over = fmean[k, "rmtlb"] / fm[k]
    }
    row("main", "beats the other three (simulator)", k, "best of the four (mean makespan / ideal; paired test)", "RMTLB", ours, why)
    row("main", "beats the other three (simulator)", k, "RMTLB's mean makespan / ideal over the best's", 1, num(over), why)
    for (q = 1; q <= np; q++) {
      p = pol[q]
      if (p == w) { row("detail", "the four (simulator)", k, name(p) " mean makespan / ideal (best of the four)", "-", num(fm[k]), "four-detail"); continue }
      if (!((k, p) in fv)) continue
      row("detail", "the four (simulator)", k, name(p) " mean makespan / ideal", "-", num(fmean[k, p]), "four-detail")
      row("detail", "the four (simulator)", k, name(p) " over " name(w) ": median of seeds; paired test", "-",
          num(fq[k, p]) "; " fv[k, p] " (p = " sprintf("%.2g", fp[k, p]) ")", "four-detail")
    }
  }
}
