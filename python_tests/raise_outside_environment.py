"""An uncaught exception on one rank outside `with oompi.Environment()` aborts the whole job
(non-zero exit, promptly) instead of leaving the other ranks waiting in a collective until the
launcher's timeout. Registered as python.raise_outside_environment.<mode> (WILL_FAIL, short
timeout) at 2 and 4 ranks; the last rank raises, the others wait in a barrier they never leave.

Modes: open    MPI initialised by an Environment() kept open without `with`
       mpi4py  MPI initialised on import (mpi4py's), oompi used without an Environment"""
import sys

import oompi

mode = sys.argv[1]
if mode == "open":
    env = oompi.Environment()
    world = oompi.Comm.world()
    world.barrier()
    if world.rank == world.size - 1:
        raise RuntimeError("raise_outside_environment: deliberate failure on the last rank")
    world.barrier()  # never completes: the last rank is gone
    print("raise_outside_environment: the barrier completed", file=sys.stderr)
    sys.exit(0)
elif mode == "mpi4py":
    from mpi4py import MPI  # initialises MPI

    world = oompi.Comm.world()
    MPI.COMM_WORLD.Barrier()
    if world.rank == world.size - 1:
        raise RuntimeError("raise_outside_environment: deliberate failure on the last rank")
    MPI.COMM_WORLD.Barrier()  # never completes
    print("raise_outside_environment: the barrier completed", file=sys.stderr)
    sys.exit(0)
else:
    sys.exit(f"unknown mode {mode}")
