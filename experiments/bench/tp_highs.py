"""HiGHS (scipy.optimize.linprog, method='highs') on transport instances
written by `bench_planners --dump`: optimal cost and CPU seconds of the
linprog call (the sparse constraint matrix is built beforehand and not
timed), median of REPS.  Benchmark only (experiments/bench/transport.sh).

Usage: tp_highs.py REPS FILE...   CSV on stdout.
"""
import statistics
import sys
import time

import numpy as np
import scipy
from scipy.optimize import linprog
from scipy.sparse import coo_matrix


def load(path):
    with open(path, "rb") as f:
        m, n = (int(v) for v in np.fromfile(f, dtype=np.uint64, count=2))
        c = np.fromfile(f, dtype=np.float64, count=m * n)
        s = np.fromfile(f, dtype=np.int64, count=m).astype(float)
        d = np.fromfile(f, dtype=np.int64, count=n).astype(float)
    return m, n, c, s, d


def main():
    reps = int(sys.argv[1])
    print("file,m,n,cost_highs,cpu_highs,scipy")
    for path in sys.argv[2:]:
        m, n, c, s, d = load(path)
        rows = np.repeat(np.arange(m), n)
        cols = np.tile(np.arange(n), m)
        k = np.arange(m * n)
        R = coo_matrix((np.ones(m * n), (rows, k)), shape=(m, m * n)).tocsr()
        C = coo_matrix((np.ones(m * n), (cols, k)), shape=(n, m * n)).tocsr()
        # Ship min(S, D): the short side in full, the long side up to capacity.
        if s.sum() <= d.sum():
            kw = dict(A_eq=R, b_eq=s, A_ub=C, b_ub=d)
        else:
            kw = dict(A_eq=C, b_eq=d, A_ub=R, b_ub=s)
        times, cost = [], None
        for _ in range(reps):
            t = time.process_time()
            res = linprog(c, bounds=(0, None), method="highs", **kw)
            times.append(time.process_time() - t)
            if res.status != 0:
                sys.exit(f"{path}: HiGHS status {res.status}: {res.message}")
            cost = res.fun
        print(f"{path},{m},{n},{cost:.0f},{statistics.median(times):.6f},{scipy.__version__}")


if __name__ == "__main__":
    main()
