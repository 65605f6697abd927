"""Parallel checkpoint and restart of a distributed array with collective MPI-IO (the Python
twin of examples/checkpoint_io.cpp).

A global NY x NX grid of doubles is split in blocks over a 2-D process grid. Each rank steps its
block a little, then all ranks write their blocks into ONE file with a single collective call:
the file view (a subarray of the global array) says where each block goes, so the file holds the
global array in row-major order whatever the number of ranks. The run then "restarts": the state
is dropped, read back through the same view, and must match. Finally rank 0 reads the whole file
as a plain array and checks the global layout.

    mpirun -np 4 python3 checkpoint_io.py [directory]
"""
import os
import sys
import tempfile

import numpy as np

import oompi

NY, NX = 24, 30  # global grid


def initial(y, x):
    """The value the global array starts with: a function of the global indices only."""
    return np.sin(0.3 * y) + 0.01 * x


def stepped(v):
    for _ in range(5):  # each point mixes with itself only: no halo needed here
        v = 0.5 * v + 0.25
    return v


with oompi.Environment():
    world = oompi.Comm.world()
    rank, size = world.rank, world.size
    directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.gettempdir()
    run = np.array([os.getpid()], dtype=np.int64)  # one name for all ranks, unique to this run
    world.bcast(run, 0)
    path = os.path.join(directory, f"oompi_checkpoint_py_{run[0]}.bin")

    # This rank's block of the global grid, on a dims[0] x dims[1] process grid.
    dims = list(oompi.CartComm.dims_create(size, [0, 0]))
    cy, cx = divmod(rank, dims[1])
    y0, y1 = NY * cy // dims[0], NY * (cy + 1) // dims[0]
    x0, x1 = NX * cx // dims[1], NX * (cx + 1) // dims[1]
    ys, xs = np.meshgrid(np.arange(y0, y1), np.arange(x0, x1), indexing="ij")
    state = stepped(initial(ys, xs))  # a (y1 - y0) x (x1 - x0) NumPy array

    # The block as a subarray of the global array: the filetype of the view.
    with oompi.Datatype.subarray([NY, NX], [y1 - y0, x1 - x0], [y0, x0], oompi.DOUBLE) as block:
        # Checkpoint: one collective write (the file is closed, collectively, by `with`).
        with oompi.File.open(world, path, oompi.MODE_CREATE | oompi.MODE_WRONLY) as f:
            f.set_view(0, oompi.DOUBLE, block)
            f.write_at_all(0, state)

        # Restart: read the block back through the same view.
        restored = np.full_like(state, -1.0)
        with oompi.File.open(world, path, oompi.MODE_RDONLY) as f:
            file_size = f.size
            f.set_view(0, oompi.DOUBLE, block)
            got = f.read_at_all(0, restored).get_count(oompi.DOUBLE)
            # The file is the global array in row-major order: check it as one plain array.
            f.set_view(0, oompi.DOUBLE, oompi.DOUBLE)  # collective: every rank takes part
            if rank == 0:
                whole = np.zeros((NY, NX))
                f.read_at(0, whole)

    bad = 0
    if file_size != NY * NX * 8 or got != state.size or not np.array_equal(restored, state):
        bad += 1
    if rank == 0:
        gy, gx = np.meshgrid(np.arange(NY), np.arange(NX), indexing="ij")
        bad += int(np.count_nonzero(whole != stepped(initial(gy, gx))))
    world.barrier()
    if rank == 0:
        oompi.File.remove(path)
    total = np.zeros(1, dtype=np.int64)
    world.allreduce(np.array([bad], dtype=np.int64), total, oompi.SUM)
    if rank == 0:
        print(f"checkpoint of a {NY}x{NX} array on a {dims[0]}x{dims[1]} process grid: "
              f"{'restored exactly' if total[0] == 0 else 'MISMATCH'}")
    if total[0] != 0:
        raise SystemExit(f"rank {rank}: the checkpoint did not restore the array")
