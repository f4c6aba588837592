"""Reference timings for the arrangement search: batched numpy eigvalsh
on exactly the matrices lbarrange evaluates, timed in the same run.

Usage: arrange_bench.py LBARRANGE GRAPHFILE [REPEATS]
"""
import itertools
import subprocess
import sys
import time

import numpy as np


def read_graph(path):
    n, adj = 0, []
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line.startswith("nodes"):
            n = int(line.split()[1])
            continue
        head, _, rest = line.partition(":")
        i = int(head) - 1
        for tok in rest.replace(",", " ").split():
            adj.append((i, int(tok) - 1))
    lap = np.zeros((n, n))
    for i, j in adj:
        lap[i, j] = -1.0
    lap[np.diag_indices(n)] = -lap.sum(axis=1)
    return lap


def best_of(fn, repeats):
    best, out = float("inf"), None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def ours(lbarrange, args, repeats):
    def run():
        return subprocess.run([lbarrange] + args, check=True, capture_output=True, text=True).stdout
    t, out = best_of(run, repeats)
    row = out.strip().splitlines()[1].split(",")
    return t, float(row[4]), float(row[5])


def main():
    lbarrange, graph = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    lap = read_graph(graph)
    n = lap.shape[0]
    speeds = np.arange(1, n + 1, dtype=float)
    perms = np.array(list(itertools.permutations(range(n))))
    r = 1.0 / np.sqrt(speeds[perms])                      # (n!, n)
    mats = lap[None, :, :] * r[:, :, None] * r[:, None, :]  # S^-1/2 L S^-1/2
    t_np, w = best_of(lambda: np.linalg.eigvalsh(mats), repeats)
    p = w[:, -1] / w[:, 1]
    print(f"exhaustive {n}! = {len(perms)} matrices of {n}x{n}, best of {repeats}:")
    print(f"  numpy {np.__version__} batched eigvalsh: {t_np:.3f} s  (p_min {p.min():.10g}, p_max {p.max():.10g})")
    for th in (1, 2):
        t, pmin, pmax = ours(lbarrange, ["-m", "exhaustive", "-t", str(th), "--csv", graph], repeats)
        ok = abs(pmin - p.min()) < 1e-8 * p.min() and abs(pmax - p.max()) < 1e-8 * p.max()
        print(f"  lbarrange -m exhaustive -t {th} (whole run, greedy included): {t:.3f} s  "
              f"speed-up {t_np / t:.2f}x  p_min/p_max agree: {'yes' if ok else 'NO'}")

    # Monte Carlo: 100000 arrangements on the 8x8 grid against numpy on
    # 10000 of the same kind of matrix (random speeds in [1,10]).
    rows = cols = 8
    m = rows * cols
    lap = np.zeros((m, m))
    for i in range(rows):
        for j in range(cols):
            k = i * cols + j
            for di, dj in ((0, 1), (1, 0)):
                if i + di < rows and j + dj < cols:
                    q = (i + di) * cols + j + dj
                    lap[k, q] = lap[q, k] = -1.0
    lap[np.diag_indices(m)] = -lap.sum(axis=1)
    rng = np.random.default_rng(1)
    s = rng.uniform(1, 10, size=(10000, m))
    r = 1.0 / np.sqrt(s)
    mats = lap[None, :, :] * r[:, :, None] * r[:, None, :]
    t_np, _ = best_of(lambda: np.linalg.eigvalsh(mats), 1)
    t_np *= 10   # per 100000
    t2, _, _ = ours(lbarrange, ["-m", "montecarlo", "-n", "100000", "-r", "1,10", "--csv", "mesh:8x8"], 1)
    print(f"Monte Carlo 100000 arrangements, 8x8 grid (64x64):")
    print(f"  numpy batched eigvalsh on 10000, scaled x10: {t_np:.2f} s")
    print(f"  lbarrange -m montecarlo -n 100000 (2 threads, greedy included): {t2:.2f} s  "
          f"speed-up {t_np / t2:.2f}x  target < 10 s: {'met' if t2 < 10 else 'MISSED'}")


if __name__ == "__main__":
    main()
