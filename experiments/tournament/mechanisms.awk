# mechanisms.awk: the verdict's claims, each with this run's numbers.
# Inputs: summary.csv, then tune.csv.  Columns of summary.csv: 1 topology,
# 2 L, 3 workload, 4 load, 5 policy, 6 kind, 7 cfg, 8 runs, 10 ratio,
# 13 lo, 14 hi, 15 msgs/proc, 16 migrated, 17 hops, 18 episodes,
# 19 placed1, 20 placed, 21 dissolved, 22 floods/episode.  tune.csv: seven
# labels, then lbsim's columns by name.
function nodes(t,  a) { split(t, a, /[:x]/); return a[1] == "torus" ? a[2] * a[3] : a[2] }
function pct(a, b) { return b > 0 ? sprintf("%.0f %%", 100 * a / b) : "n/a" }
function f3(x) { return sprintf("%.3f", x) }
function avg(s, n) { return n ? s / n : 0 }
BEGIN { split("rmtlb lowest dasud cchspmd diffusion diffusion2 rmtlb-drain", PL, " "); for (i in PL) PN[PL[i]] = 1 }
FNR == 1 { if (FILENAME == ARGV[2]) for (i = 8; i <= NF; i++) cx[$i] = i; next }
FILENAME == ARGV[1] && $10 != "nan" {
  k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4; set[k] = 1
  R[k, $5, $6] = $10; LO[k, $5, $6] = $13; HI[k, $5, $6] = $14; MP[k, $5, $6] = $15; CF[k, $5, $6] = $7
  np = nodes($1) * $2
  MIG[k, $5, $6] = $16 / np; HOP[k, $5, $6] = $16 > 0 ? $17 / $16 : 0; HPP[k, $5, $6] = $17 / np
  if ($5 == "rmtlb" && $6 == "default") {
    g = $2 == 4 ? "lo" : "hi"
    if (g == "hi" && !($2 in hiL)) { hiL[$2] = 1; hiLs = hiLs (hiLs == "" ? "" : " and ") $2 }
    ep[g] += $18; p1[g] += $19; pl[g] += $20; ds[g] += $21; mp[g] += $15; fl[g] += $22; ns[g]++
  }
  next
}
FILENAME == ARGV[2] && $cx["ratio"] != "nan" && $cx["violations"] == 0 {
  t = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5 SUBSEP $6 SUBSEP $7; TS[t] += $cx["ratio"]; TN[t]++
}
function tune(topo, L, wl, load, pol, cfg,  t) { t = topo SUBSEP L SUBSEP wl SUBSEP load SUBSEP pol SUBSEP cfg
  return TN[t] ? f3(TS[t] / TN[t]) : "n/a" }
END {
  print "- **RMTLB places a heavy node's excess in one flood when the system has room.**"
  print "  With the paper's C = 4 and 4 processes per host the light nodes have seats:"
  printf "  RMTLB (paper defaults) placed %s of its heavy episodes with one flood (%.0f episodes per run on\n", pct(p1["lo"], ep["lo"]), avg(ep["lo"], ns["lo"])
  printf "  average).  At %s per host every node starts above C + A = 4.4; a heavy node neither\n", hiLs == "" ? "more than 4" : hiLs
  printf "  answers nor forwards an RM (Rule 3), so the floods die at the first ring: %s placed by\n", pct(p1["hi"], ep["hi"])
  printf "  one flood, %s by several, %s dissolved (run down before a flood placed them).\n", pct(pl["hi"] - p1["hi"], ep["hi"]), pct(ds["hi"], ep["hi"])
  n = 0
  for (k in set) { split(k, a, SUBSEP); if (a[4] != "one" || a[2] != 4) continue
    r = R[k, "rmtlb", "best"]; c = R[k, "cchspmd", "best"]; d = R[k, "dasud", "best"]
    if (r == "" || c == "" || d == "") continue
    line[++n] = sprintf("%s %s-like: RMTLB %s, CCHSPMD %s, DASUD %s", a[1], a[3], f3(r), f3(c), f3(d)) }
  if (n) { printf "  One heavy node, room everywhere (all on one node, 4 per host; best settings):"
    for (i = 1; i <= n; i++) printf "%s %s", (i > 1 ? ";" : ""), line[i]; print "." }
  print ""
  print "- **Without room the paper's re-flooding costs messages.**  A round with no answer floods"
  printf "  again at once: RMTLB (paper defaults) sent %.1f messages per process at %s per host\n", avg(mp["hi"], ns["hi"]), hiLs == "" ? "more than 4" : hiLs
  printf "  (%.1f floods per episode) against %.1f at 4 per host (%.1f floods per episode).\n", avg(fl["hi"], ns["hi"]), avg(mp["lo"], ns["lo"]), avg(fl["lo"], ns["lo"])
  print ""
  print "- **A count-based, sender-initiated policy stops when no host is heavy.**  On the held-out"
  print "  seeds, torus:8x8, 32 per host, skewed start, RMTLB with C = 32 (the average queue: one flood"
  printf "  spreads the hot nodes' excess) reached %s primes-like and %s matmul-like; with C = 4,\n", tune("torus:8x8", 32, "primes", "skew", "rmtlb", "C32-A0.4-tpaper"), tune("torus:8x8", 32, "matmul", "skew", "rmtlb", "C32-A0.4-tpaper")
  printf "  %s and %s.  Once every queue is in the normal band nothing moves again, and a count\n", tune("torus:8x8", 32, "primes", "skew", "rmtlb", "C4-A0.4-tpaper"), tune("torus:8x8", 32, "matmul", "skew", "rmtlb", "C4-A0.4-tpaper")
  print "  cannot see that the primes-like ranges cost 0 to 15 units: primes suffer, matmul does not."
  printf "  LOWEST the same: C = 32 %s primes-like, %s matmul-like.\n", tune("torus:8x8", 32, "primes", "skew", "lowest", "C32-A0.4-p3-b0"), tune("torus:8x8", 32, "matmul", "skew", "lowest", "C32-A0.4-p3-b0")
  print ""
  n = 0; for (k in set) if (((k, "dasud", "best") in R) && ((k, "cchspmd", "best") in R) && ((k, "rmtlb", "best") in R)) {
    n++; dm += MP[k, "dasud", "best"]; cm += MP[k, "cchspmd", "best"]; rm += MP[k, "rmtlb", "best"]
    dg += MIG[k, "dasud", "best"]; cg += MIG[k, "cchspmd", "best"]; rg += MIG[k, "rmtlb", "best"] }
  print "- **DASUD's small moves between neighbours cost messages and migrations.**  Every period it exchanges loads"
  printf "  and moves single processes between neighbours: at its best settings it sent %.1f messages and\n", avg(dm, n)
  printf "  made %.2f migrations per process (means over the %d settings), CCHSPMD %.1f and %.2f, RMTLB\n", avg(dg, n), n, avg(cm, n), avg(cg, n)
  printf "  %.1f and %.2f.\n", avg(rm, n), avg(rg, n)
  print ""
  print "- **CCHSPMD plans globally, but only at a synchronisation point.**"
  n = 0; hc = hd = 0
  for (k in set) { if (!((k, "cchspmd", "best") in R)) continue
    split(k, a, SUBSEP); hc += HOP[k, "cchspmd", "best"]; hd += HOP[k, "dasud", "best"]; hr += HOP[k, "rmtlb", "best"]; n++
    if (a[1] == "torus:32x32" && a[2] == 4) line2 = line2 sprintf("%s%s-like %s: CCHSPMD %s, DASUD %s, RMTLB %s", line2 == "" ? "" : "; ",
      a[3], a[4], f3(R[k, "cchspmd", "best"]), f3(R[k, "dasud", "best"]), f3(R[k, "rmtlb", "best"])) }
  printf "  A migration of CCHSPMD crosses %.1f links on average, of RMTLB %.1f, of DASUD %.1f (means over\n", avg(hc, n), avg(hr, n), avg(hd, n)
  printf "  settings, best settings)%s.  Its first plan waits for every node's report", (avg(hc, n) > avg(hr, n)) ? ": its greedy plan matches surpluses to deficits anywhere in the graph" : ""
  if (line2 != "") print "; where the work\n  is short that wait shows (torus:32x32, 4 per host, ideal 40 quanta): " line2 "."
  else print "."
  # torus:32x32 borrows torus:8x8's choice: where that hurt, say so
  tl = ""
  for (k in set) { split(k, a, SUBSEP); if (a[1] != "torus:32x32") continue
    for (p in PN) if (((k, p, "best") in R) && LO[k, p, "best"] + 0 > HI[k, p, "default"] + 0)
      tl = tl (tl == "" ? "" : "; ") sprintf("%s %s/host %s %s (%s: %s vs %s)", p, a[2], a[3], a[4], CF[k, p, "best"], f3(R[k, p, "best"]), f3(R[k, p, "default"])) }
  if (tl != "") {
    print "  The choices made on torus:8x8 do not all carry over to torus:32x32; there the \"best\""
    print "  setting was worse than the default for: " tl "."
  }
  print ""
  n = 0; lr = rr = lh = rh = 0
  for (k in set) { split(k, a, SUBSEP); if (a[4] != "one" || !((k, "lowest", "best") in R)) continue
    n++; lr += R[k, "lowest", "best"]; rr += R[k, "rmtlb", "best"]; lh += HOP[k, "lowest", "best"]; rh += HOP[k, "rmtlb", "best"] }
  print "- **LOWEST probes at random and sends to one light node per round.**  From the all-on-one"
  printf "  starts its mean ratio was %.3f against RMTLB's %.3f (best settings, %d settings); its migrations\n", avg(lr, n), avg(rr, n), n
  printf "  cross %.1f links against RMTLB's %.1f%s\n", avg(lh, n), avg(rh, n), (avg(rh, n) < avg(lh, n)) ? ": RMTLB's flood finds the nearest light nodes first." : \
    " (from a single heavy node RMTLB's flood fills the nearest nodes first, but the excess runs\n  on past them to farther ones, while LOWEST's targets are spread at random)."
  print ""
  n = 0; d1 = d2 = h1 = h2 = 0
  for (k in set) if (((k, "diffusion", "best") in R) && ((k, "diffusion2", "best") in R)) {
    n++; d1 += R[k, "diffusion", "best"]; d2 += R[k, "diffusion2", "best"]; h1 += HPP[k, "diffusion", "best"]; h2 += HPP[k, "diffusion2", "best"] }
  printf "- **Second-order diffusion** reached a mean ratio of %.3f against first order's %.3f, at %.2f\n", avg(d2, n), avg(d1, n), avg(h2, n)
  printf "  process-hops per process against %.2f%s\n", avg(h1, n), (avg(h2, n) > avg(h1, n)) ? ": its momentum converges faster but overshoots on integer loads." : "."
  print ""
  # the paper's Fig. 3/4 claim on six hosts
  n = w = 0; lost = ""
  for (k in set) { split(k, a, SUBSEP); if (nodes(a[1]) != 6) continue
    n++; b = "rmtlb"
    split("lowest dasud cchspmd", Q, " ")
    for (i = 1; i <= 3; i++) if (((k, Q[i], "default") in R) && R[k, Q[i], "default"] + 0 < R[k, b, "default"] + 0) b = Q[i]
    if (b == "rmtlb") w++; else cnt[b]++ }
  printf "- **The paper's claim** (Fig. 3/4: RMTLB ahead of LOWEST, DASUD and CCHSPMD on six hosts): at\n"
  printf "  the paper's settings RMTLB had the lowest mean of the four in %d of the %d six-host settings;\n", w, n
  printf "  CCHSPMD was lowest in %d, DASUD in %d, LOWEST in %d.\n", cnt["cchspmd"], cnt["dasud"], cnt["lowest"]
  print ""
  # the variant
  n = win = lose = 0; m1 = m2 = 0; wl = ll = ""
  for (k in set) { if (!((k, "rmtlb-drain", "best") in R) || !((k, "rmtlb", "best") in R)) continue
    split(k, a, SUBSEP); n++; m1 += MP[k, "rmtlb", "best"]; m2 += MP[k, "rmtlb-drain", "best"]
    s = a[1] " " a[2] "/host " a[3] " " a[4] " (" f3(R[k, "rmtlb-drain", "best"]) " vs " f3(R[k, "rmtlb", "best"]) ")"
    if (HI[k, "rmtlb-drain", "best"] + 0 < LO[k, "rmtlb", "best"] + 0) { win++; wl = wl (wl == "" ? "" : "; ") s }
    else if (LO[k, "rmtlb-drain", "best"] + 0 > HI[k, "rmtlb", "best"] + 0) { lose++; ll = ll (ll == "" ? "" : "; ") s } }
  print "- **The variant RMTLB-drain** (`lbsim --drain 2`): the load index is the work left in mean"
  print "  processes, as a host can estimate it (the mean process less the work each has run,"
  print "  docs/RMTLB.md), and C starts at the average queue and falls by one per mean process's work a"
  print "  node runs, so the band follows the average as the system drains: the sender-initiated search"
  print "  keeps working after the first placement, and work, not counts, is balanced.  Against RMTLB,"
  printf "  both at their best settings, its interval lies below RMTLB's in %d of %d settings, above in\n", win, n
  printf "  %d, and overlaps in the other %d; messages per process %.1f against %.1f (means).\n", lose, n - win - lose, avg(m2, n), avg(m1, n)
  if (wl != "") print "  Better: " wl "."
  if (ll != "") print "  Worse: " ll "."
}
