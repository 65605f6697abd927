"""packaging.install's Python consumer, run with PYTHONPATH at the installed package only: an
allreduce and an object ring, and the module it imported (and its native part) must lie under
sys.argv[1], the prefix."""
import os
import sys

import numpy as np
import oompi

prefix = os.path.realpath(sys.argv[1])
with oompi.Environment():
    world = oompi.Comm.world()
    rank, n = world.rank, world.size
    total = np.zeros(1, dtype=np.int64)
    world.allreduce(np.array([rank + 1], dtype=np.int64), total, oompi.SUM)
    req = world.iorecv((rank - 1) % n)
    sent = world.iosend({"from": rank}, (rank + 1) % n)
    got = req.wait()
    sent.wait()
    with open("/proc/self/maps") as maps:
        libs = {line[line.index("/"):].strip() for line in maps if "/_core." in line}
    error = (f"allreduce gave {total[0]}" if total[0] != n * (n + 1) // 2
             else f"object ring gave {got}" if got != {"from": (rank - 1) % n}
             else f"oompi from {oompi.__file__}"
             if not os.path.realpath(oompi.__file__).startswith(prefix + os.sep)
             else f"native module from {libs}"
             if not libs or not all(os.path.realpath(l).startswith(prefix + os.sep) for l in libs)
             else None)
    if error:
        print(f"rank {rank}: {error}", file=sys.stderr, flush=True)
        oompi.Environment.abort(1)
    if rank == 0:
        print("python consumer: ok,", os.path.dirname(oompi.__file__))
