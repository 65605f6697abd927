"""Message specs [buf, datatype] / [buf, count, datatype] (mpi4py's form): derived datatypes and
MAXLOC pairs over NumPy memory, bounds checked against the buffer."""
import numpy as np
import pytest

import oompi


@pytest.fixture
def world():
    return oompi.Comm.world()


def test_vector_block_bcast(world):
    # Seed 000, Fig. 8: the leading 3x3 block of a 5x5 matrix.
    a = np.arange(25.0) if world.rank == 0 else np.full(25, -1.0)
    with oompi.Datatype.vector(3, 3, 5, oompi.DOUBLE) as blk:
        world.bcast([a, 1, blk], 0)
    m = a.reshape(5, 5)
    assert (m[:3, :3] == np.arange(25.0).reshape(5, 5)[:3, :3]).all()
    if world.rank != 0:
        assert (m[3:, :] == -1).all() and (m[:, 3:] == -1).all()


def test_ring_with_spec_and_default_count(world):
    # [buf, datatype]: as many whole elements as fit (3 pairs of int32 in 6 ints).
    pair = oompi.Datatype.contiguous(2, oompi.INT32)
    try:
        out = np.arange(6, dtype=np.int32) + 10 * world.rank
        got = np.zeros(6, dtype=np.int32)
        right, left = (world.rank + 1) % world.size, (world.rank - 1) % world.size
        st = world.sendrecv((out, pair), right, 3, [got, pair], left, 3)
        assert (got == np.arange(6) + 10 * left).all()
        assert st.get_count(pair) == 3
        req = world.irecv([got, 2, pair], left, 4)
        world.send([out, 2, pair], right, 4)
        req.wait()
        assert (got[:4] == np.arange(4) + 10 * left).all()
    finally:
        pair.close()


def test_maxloc_pairs(world):
    # Seed 000, Fig. 11: 30 value-index pairs per rank, MAXLOC keeps the largest and its rank.
    pair_dtype = np.dtype([("v", "f8"), ("i", "i4")], align=True)
    di = oompi.Datatype.value_index(oompi.TypeKind.FLOAT64)
    assert di.extent == pair_dtype.itemsize
    ain = np.zeros(30, dtype=pair_dtype)
    ain["v"] = [((world.rank + 1) * (k + 3)) % 7 for k in range(30)]
    ain["i"] = world.rank
    aout = np.zeros(30, dtype=pair_dtype)
    world.allreduce([ain.view(np.uint8), 30, di], [aout.view(np.uint8), 30, di], oompi.MAXLOC)
    for k in range(30):
        vals = [((r + 1) * (k + 3)) % 7 for r in range(world.size)]
        assert aout["v"][k] == max(vals)
        assert aout["i"][k] == vals.index(max(vals))  # the lowest rank on ties


def test_bad_specs(world):
    a = np.zeros(12, dtype=np.float64)
    blk = oompi.Datatype.vector(3, 3, 5, oompi.DOUBLE)  # spans 13 doubles
    try:
        with pytest.raises(IndexError):
            world.bcast([a, 1, blk], 0)  # would write past the array
        with pytest.raises(IndexError):
            world.send([np.zeros(25), 2, blk], world.rank, 0)  # 2 blocks span 26 doubles
        with pytest.raises(ValueError):
            world.bcast([a, -1, blk], 0)
        with pytest.raises(TypeError):
            world.bcast([a, 1, "double"], 0)
        with pytest.raises(TypeError):
            world.bcast([a], 0)
        with pytest.raises(TypeError):
            world.bcast([a, 1, blk, 0], 0)
    finally:
        blk.close()
    with pytest.raises(oompi.ClosedError):
        world.bcast([np.zeros(25), 1, blk], 0)
