"""The Python program of the slurm.python.* tests (tests/slurm/run.sh), run by the job script
tests/slurm/jobs/python.sbatch: each rank prints its node and checks an allreduce. With the
argument "fail" the last rank exits with status 3 while the others wait in a barrier that can
never complete: the launcher must end them."""
import os
import sys

import numpy as np

import oompi

with oompi.Environment():
    world = oompi.Comm.world()
    rank, size = world.rank, world.size
    sys.stdout.write(f"rank {rank} of {size} on {oompi.Environment.processor_name()}\n")  # one write: lines of
    sys.stdout.flush()  # ranks sharing a pipe must not interleave
    if sys.argv[1:] == ["fail"]:
        if rank == size - 1:
            print(f"rank {rank}: failing on purpose", file=sys.stderr, flush=True)
            os._exit(3)
        world.barrier()  # never completes
    total = np.zeros(1, dtype=np.int32)
    world.allreduce(np.array([rank + 1], dtype=np.int32), total, oompi.SUM)
    if total[0] != size * (size + 1) // 2:
        raise SystemExit(f"rank {rank}: allreduce gave {total[0]}")  # aborts the job
    sys.stdout.write(f"rank {rank}: ok\n")
    sys.stdout.flush()
