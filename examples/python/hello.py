"""mpirun -np 4 python3 hello.py"""
import numpy as np

import oompi

with oompi.Environment():
    world = oompi.Comm.world()
    print(f"hello from rank {world.rank} of {world.size} on {oompi.Environment.processor_name()}")
    total = np.zeros(1, dtype=np.int32)
    world.allreduce(np.ones(1, dtype=np.int32), total, oompi.SUM)
    if total[0] != world.size:
        raise SystemExit(f"wrong count {total[0]}")  # leaving the with-block aborts the job
