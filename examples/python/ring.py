"""A token goes round the ring, each rank adding its rank; then every rank passes a NumPy
array to its right neighbour with nonblocking calls. mpirun -np 4 python3 ring.py"""
import numpy as np

import oompi

with oompi.Environment():
    world = oompi.Comm.world()
    rank, size = world.rank, world.size
    nxt, prv = (rank + 1) % size, (rank - 1) % size

    token = np.zeros(1, dtype=np.int64)
    if rank == 0:
        # Send and receive in one call: on one rank the token goes to rank 0 itself, and a
        # blocking send with no receive posted may wait for ever (MPICH's does).
        back = np.zeros(1, dtype=np.int64)
        world.sendrecv(token, nxt, 0, back, prv, 0)
        expected = size * (size - 1) // 2
        print(f"token came back with {back[0]} (expected {expected})")
        if back[0] != expected:
            raise SystemExit("wrong token")
    else:
        world.recv(token, prv)
        token += rank
        world.send(token, nxt)

    out = rank + np.arange(3) / 10
    got = np.empty(3)
    r = world.irecv(got, prv, 1)
    s = world.isend(out, nxt, 1)
    r.wait()
    s.wait()
    if not np.array_equal(got, prv + np.arange(3) / 10):
        raise SystemExit(f"rank {rank}: wrong values {got}")
