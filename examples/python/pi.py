"""π by the midpoint rule, each rank integrating 4 / (1 + x²) over its share of the intervals:
a broadcast of the interval count, then a reduction. mpirun -np 4 python3 pi.py [intervals]"""
import math
import sys

import numpy as np

import oompi

with oompi.Environment():
    world = oompi.Comm.world()
    n = np.array([int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000], dtype=np.int64)
    world.bcast(n, 0)
    h = 1.0 / n[0]
    x = h * (np.arange(world.rank, n[0], world.size) + 0.5)   # this rank's midpoints
    mine = np.array([h * np.sum(4.0 / (1.0 + x * x))])
    pi = np.zeros(1)
    world.allreduce(mine, pi, oompi.SUM)
    if world.rank == 0:
        print(f"pi ~ {pi[0]:.12f}, error {abs(pi[0] - math.pi):.2e} ({n[0]} intervals, "
              f"{world.size} ranks)")
    if abs(pi[0] - math.pi) > 1e-9:
        raise SystemExit(f"rank {world.rank}: pi = {pi[0]} is wrong")
