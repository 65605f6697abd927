"""A 2-D torus of ranks (rows x columns, as square as the rank count allows): every rank holds a
tile and shifts it one step east and one step south with sendrecv, wrapping around.
mpirun -np 4 python3 torus_shift.py"""
import numpy as np

import oompi


def dims_of(size):
    rows = int(size ** 0.5)
    while size % rows:
        rows -= 1
    return rows, size // rows


with oompi.Environment():
    world = oompi.Comm.world()
    rows, cols = dims_of(world.size)
    r, c = divmod(world.rank, cols)
    rank_at = lambda rr, cc: (rr % rows) * cols + (cc % cols)  # noqa: E731 (the torus wrap)

    tile = np.full((4, 4), world.rank, dtype=np.int32)
    got = np.empty_like(tile)
    # East: send to (r, c+1), receive from (r, c-1).
    world.sendrecv(tile, rank_at(r, c + 1), 1, got, rank_at(r, c - 1), 1)
    if not (got == rank_at(r, c - 1)).all():
        raise SystemExit(f"rank {world.rank}: east shift got {got[0, 0]}")
    # South: send to (r+1, c), receive from (r-1, c).
    world.sendrecv(tile, rank_at(r + 1, c), 2, got, rank_at(r - 1, c), 2)
    if not (got == rank_at(r - 1, c)).all():
        raise SystemExit(f"rank {world.rank}: south shift got {got[0, 0]}")
    if world.rank == 0:
        print(f"torus {rows} x {cols}: east and south shifts ok")
