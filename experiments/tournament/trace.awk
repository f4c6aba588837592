# trace.awk: one tournament load as lbsim 'time node work' lines.
# Variables: n (nodes), np (processes), wl (primes|matmul), load
# (skew|one), seed, w (mean work).  Each line declares its work as the
# estimate too (the fourth column): the farm's workloads declare their
# cost model's work, which the simulated work here is, and a node
# chooses which process leaves by it (lb_node_take_movable).
#   primes: process k tests the k-th of np equal ranges of integers, and
#     trial division costs ~sqrt(m), so its work is 1.5 w sqrt((k+.5)/np)
#     (mean w, from ~0 to 1.5 w);
#   matmul: every process has work w (equal blocks of rows).
#   skew: the first 80 % of the processes (the cheapest ranges) in
#     contiguous blocks on an eighth of the nodes (at least one), as the
#     farm hands out ranges in order; the rest on nodes drawn at random;
#   one: every process on node 0.
# Park-Miller's generator: exact in any awk's doubles, so mawk and gawk
# write the same file for the same seed.
function rnd() { x = (16807 * x) % 2147483647; return x / 2147483647 }
BEGIN {
  x = (seed % 2147483646) + 1
  for (j = 0; j < 5; j++) rnd()
  nhot = int(n / 8); if (nhot < 1) nhot = 1
  for (i = 0; i < n; i++) perm[i] = i
  for (i = n - 1; i > 0; i--) { j = int(rnd() * (i + 1)); t = perm[i]; perm[i] = perm[j]; perm[j] = t }
  nh = int(0.8 * np); if (nh < 1) nh = 1
  for (k = 0; k < np; k++) {
    if (load == "one") node = 0
    else if (k < nh) node = perm[int(k * nhot / nh)]
    else node = int(rnd() * n)
    work = wl == "primes" ? 1.5 * w * sqrt((k + 0.5) / np) : w
    printf "0 %d %.6f %.6f\n", node, work, work
  }
}
