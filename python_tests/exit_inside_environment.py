"""sys.exit(n) inside `with oompi.Environment()` on every rank is a deliberate exit: MPI is
finalized and the job ends with code n (an exception, or sys.exit("message"), aborts instead).
Registered as python.exit_inside_environment with the code the launcher must return."""
import atexit
import os
import sys

import numpy as np

import oompi

code = int(sys.argv[1])


def finalized_at_exit():
    if not oompi.Environment.finalized():
        print("exit_inside_environment: MPI was not finalized", file=sys.stderr, flush=True)
        os._exit(1)


atexit.register(finalized_at_exit)
with oompi.Environment():
    world = oompi.Comm.world()
    total = np.zeros(1, dtype=np.int64)
    world.allreduce(np.ones(1, dtype=np.int64), total, oompi.SUM)
    if total[0] != world.size:
        raise AssertionError(f"allreduce gave {total[0]}, not {world.size}")
    sys.exit(code)
print("exit_inside_environment: sys.exit did not leave the block", file=sys.stderr)
sys.exit(1)
