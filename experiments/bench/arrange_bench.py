"""The arrangement search against numpy's batched eigvalsh on exactly
the matrices S^-1/2 L S^-1/2 that lbarrange evaluates (building the
batch is not timed, which favours numpy), in the same run; both sides
get the same number of threads (numpy: OpenBLAS threads set to 1, and
for two threads two processes with half the batch each).  One thread:
CPU seconds; two: wall seconds.  Medians of REPS.  Appends rows to
$BENCH_CSV through experiments/bench/lib.sh's format.

Usage: arrange_bench.py LBARRANGE GRAPHFILE REPS   (run by arrange.sh)
"""
import itertools
import multiprocessing as mp
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np


def laplacian(edges, n):
    lap = np.zeros((n, n))
    for i, j in edges:
        lap[i, j] = lap[j, i] = -1.0
    lap[np.diag_indices(n)] = -lap.sum(axis=1)
    return lap


def read_graph(path):
    n, edges = 0, []
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        if line.startswith("nodes"):
            n = int(line.split()[1])
            continue
        head, _, rest = line.partition(":")
        edges += [(int(head) - 1, int(t) - 1) for t in rest.replace(",", " ").split()]
    return laplacian(edges, n)


def mesh(rows, cols):
    edges = []
    for i in range(rows):
        for j in range(cols):
            k = i * cols + j
            if j + 1 < cols:
                edges.append((k, k + 1))
            if i + 1 < rows:
                edges.append((k, k + cols))
    return laplacian(edges, rows * cols)


def matrices(lap, speeds):
    r = 1.0 / np.sqrt(speeds)
    return lap[None, :, :] * r[:, :, None] * r[:, None, :]


def eig_ratio(mats):
    w = np.linalg.eigvalsh(mats)
    p = w[:, -1] / w[:, 1]
    return p.min(), p.max()


def numpy_cpu(mats, reps):
    ts = []
    for _ in range(reps):
        t = time.process_time()
        out = eig_ratio(mats)
        ts.append(time.process_time() - t)
    return statistics.median(ts), out


def numpy_wall2(mats, reps):
    """Two processes, half the batch each (fork: the batch is shared)."""
    global BATCH
    BATCH = mats
    half = len(mats) // 2
    ts = []
    with mp.get_context("fork").Pool(2) as pool:
        pool.map(_part, [(0, 1), (1, 2)])   # start both workers first
        for _ in range(reps):
            t = time.perf_counter()
            parts = pool.map(_part, [(0, half), (half, len(mats))])
            ts.append(time.perf_counter() - t)
    return statistics.median(ts), (min(a for a, _ in parts), max(b for _, b in parts))


def _part(span):
    return eig_ratio(BATCH[span[0]:span[1]])


def ours(lbarrange, args, reps):
    """Median CPU and wall seconds of the whole program, and its p_min, p_max."""
    cpus, walls = [], []
    for _ in range(reps):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        out = subprocess.run([lbarrange] + args, check=True, capture_output=True, text=True).stdout
        walls.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    row = out.strip().splitlines()[1].split(",")
    return statistics.median(cpus), statistics.median(walls), float(row[4]), float(row[5])


def row(bench, metric, o, ref, threads, cmd):
    ratio = ref / o
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    with open(os.environ["BENCH_CSV"], "a") as f:
        bench = bench.replace(",", ";")
        f.write(f'{bench},{metric},{o:.4g},{ref:.4g},{ratio:.2f},{threads},{load},"{cmd}"\n')
    print(f"  {bench} {metric}: ours {o:.4g}, reference {ref:.4g}, ratio {ratio:.2f} (load {load})")


def same(a, b):
    return abs(a[0] - b[0]) <= 1e-9 * abs(b[0]) and abs(a[1] - b[1]) <= 1e-9 * abs(b[1])


def main():
    lbarrange, graph, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    name = os.path.basename(graph)
    # 9! on seed 002's graph 1, speeds 1..9.
    lap = read_graph(graph)
    n = lap.shape[0]
    perms = np.array(list(itertools.permutations(range(n))))
    mats = matrices(lap, np.arange(1, n + 1, dtype=float)[perms])
    t_np, pnp = numpy_cpu(mats, reps)
    c1, _, *p1 = ours(lbarrange, ["-m", "exhaustive", "-t", "1", "--csv", graph], reps)
    ok = same(p1, pnp)
    print(f"  p_min, p_max: numpy {pnp[0]:.10g} {pnp[1]:.10g}, lbarrange {p1[0]:.10g} {p1[1]:.10g}: "
          f"{'identical' if ok else 'DIFFERENT'}")
    if not ok:
        sys.exit("arrange_bench: p_min or p_max differ")
    row(f"exhaustive {n}! {name}", "cpu_s", c1, t_np, 1, f"lbarrange -m exhaustive -t 1 --csv data/graphs/{name}")
    w_np, pnp2 = numpy_wall2(mats, reps)
    _, w2, *p2 = ours(lbarrange, ["-m", "exhaustive", "-t", "2", "--csv", graph], reps)
    if not same(p2, pnp2):
        sys.exit("arrange_bench: p_min or p_max differ (2 threads)")
    row(f"exhaustive {n}! {name}", "wall_s", w2, w_np, 2, f"lbarrange -m exhaustive -t 2 --csv data/graphs/{name}")
    del mats, perms
    # 10! on the 2x5 grid, speeds 1..10: numpy on the first tenth, x10.
    lap = mesh(2, 5)
    perms = np.array(list(itertools.islice(itertools.permutations(range(10)), 362880)))
    mats = matrices(lap, np.arange(1, 11, dtype=float)[perms])
    w_np, _ = numpy_wall2(mats, reps)
    _, w10, *_ = ours(lbarrange, ["-m", "exhaustive", "-t", "2", "--csv", "mesh:2x5"], reps)
    row("exhaustive 10! mesh:2x5 (numpy on 1/10, x10)", "wall_s", w10, 10 * w_np, 2,
        "lbarrange -m exhaustive -t 2 --csv mesh:2x5")
    del mats, perms
    # Monte Carlo: 100000 arrangements of the 8x8 grid against numpy on
    # 10000 such matrices (random speeds in [1, 10]), x10.
    lap = mesh(8, 8)
    s = np.random.default_rng(1).uniform(1, 10, size=(10000, 64))
    t_np, _ = numpy_cpu(matrices(lap, s), 1)
    cmc, _, _, _ = ours(lbarrange, ["-m", "montecarlo", "-n", "100000", "-r", "1,10", "-t", "1", "--csv", "mesh:8x8"], 1)
    row("montecarlo 100000 mesh:8x8 (numpy on 10000, x10)", "cpu_s", cmc, 10 * t_np, 1,
        "lbarrange -m montecarlo -n 100000 -r 1,10 -t 1 --csv mesh:8x8")


if __name__ == "__main__":
    main()
