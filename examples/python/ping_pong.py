"""Ping-pong between ranks 0 and 1 with a NumPy buffer; prints the one-way latency. A sanity
figure, not a benchmark (see bench/). mpirun -np 2 python3 ping_pong.py [iterations] [bytes]"""
import sys

import numpy as np

import oompi

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
nbytes = int(sys.argv[2]) if len(sys.argv) > 2 else 8

with oompi.Environment():
    world = oompi.Comm.world()
    rank = world.rank
    if world.size < 2:
        print("ping-pong needs 2 ranks; nothing to do")
    else:
        buf = np.zeros(nbytes, dtype=np.uint8)
        send, recv = world.send, world.recv
        best = float("inf")
        for _ in range(5):
            world.barrier()
            t0 = oompi.wtime()
            if rank == 0:
                for _ in range(iters):
                    send(buf, 1, 0)
                    recv(buf, 1, 0)
            elif rank == 1:
                for _ in range(iters):
                    recv(buf, 0, 0)
                    send(buf, 0, 0)
            best = min(best, (oompi.wtime() - t0) / iters / 2)
        if rank == 0:
            print(f"python numpy {nbytes} B: {best * 1e6:.3f} us one way (best of 5 x {iters})")
