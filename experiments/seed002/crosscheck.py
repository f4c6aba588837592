"""Second route to Table 1: recompute p_min, p_max and the counts
N<, N=, N> of every graph with numpy's LAPACK eigvalsh over all 9!
arrangements, from the p1 values in table1.csv, and compare.

Usage: crosscheck.py TABLE1_CSV GRAPH_DIR
"""
import csv
import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from arrange_bench import read_graph  # noqa: E402

TIE = 1e-9


def main():
    table, gdir = sys.argv[1], sys.argv[2]
    speeds = np.arange(1, 10, dtype=float)
    perms = np.array(list(itertools.permutations(range(9))))
    r = 1.0 / np.sqrt(speeds[perms])
    bad = 0
    print("graph,p_min,p_max,N_below,N_equal,N_above,agrees")
    for row in csv.DictReader(open(table)):
        lap = read_graph(os.path.join(gdir, "seed002-g%s.graph" % row["no"]))
        w = np.linalg.eigvalsh(lap[None] * r[:, :, None] * r[:, None, :])
        p = w[:, -1] / w[:, 1]
        p1 = float(row["p1"])
        below = int((p < p1 * (1 - TIE)).sum())
        above = int((p > p1 * (1 + TIE)).sum())
        equal = len(p) - below - above
        ok = (abs(p.min() - float(row["p_min"])) < 1e-8 * p.min()
              and abs(p.max() - float(row["p_max"])) < 1e-8 * p.max()
              and (below, equal, above) == (int(row["N_below"]), int(row["N_equal"]), int(row["N_above"])))
        bad += not ok
        print("%s,%.10g,%.10g,%d,%d,%d,%s" % (row["no"], p.min(), p.max(), below, equal, above,
                                              "yes" if ok else "NO"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
