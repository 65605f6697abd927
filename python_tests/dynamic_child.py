"""The child's side of test_dynamic.py: started by comm.spawn, never by pytest."""
import os
import sys

import numpy as np

import oompi


def main(scenario, args):
    world = oompi.Comm.world()
    parent = oompi.Intercomm.parent()
    if parent.is_null():
        print("dynamic_child.py: no parent", file=sys.stderr)
        return 2
    if scenario in ("echo", "echo_cwd"):
        # Report, then a collective over parents and children merged (children last).
        # echo_cwd (spawn_multiple's test) adds the working directory and the application
        # number (MPI_APPNUM: which command started this process).
        report = [world.rank, world.size, args]
        if scenario == "echo_cwd":
            report += [os.getcwd()]
        parent.osend(report, 0, 0)
        merged = parent.merge(True)
        total = np.zeros(1, dtype=np.int64)
        merged.allreduce(np.array([merged.rank], dtype=np.int64), total, oompi.SUM)
        parent.send(total, 0, 1)
        merged.disconnect()
    elif scenario == "connect":
        server = world.connect(args[0] if world.rank == 0 else "", 0)
        n = np.zeros(1, dtype=np.int64)
        server.recv(n, 0, 7)
        server.send(n + world.rank + 1, 0, 8)
        server.disconnect()
    parent.disconnect()
    return 0


if __name__ == "__main__":
    with oompi.Environment():
        rc = main(sys.argv[1], sys.argv[2:])
    sys.exit(rc)
