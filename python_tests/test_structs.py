"""Struct datatypes from NumPy structured dtypes: sent and received in place, padding and
nested fields kept, bad dtypes refused."""
import numpy as np
import pytest

import oompi

PARTICLE = np.dtype([("x", "f8"), ("id", "i4"), ("pos", "f4", (3,)), ("flag", "?")], align=True)
NESTED = np.dtype([("p", PARTICLE), ("w", "i2")])


@pytest.fixture
def world():
    return oompi.Comm.world()


def fill(a, base):
    a["x"] = np.arange(len(a)) + base
    a["id"] = base
    a["pos"] = np.arange(3) * base
    a["flag"] = base % 2 == 1


def test_struct_datatype(world):
    t = oompi.Datatype.from_dtype(PARTICLE)
    assert t.extent == PARTICLE.itemsize
    assert t.size == 8 + 4 + 12 + 1  # data bytes only: the padding is not sent
    assert oompi.Datatype.from_dtype(PARTICLE) is t  # built once


def test_send_structured_arrays(world):
    nxt, prv = (world.rank + 1) % world.size, (world.rank - 1) % world.size
    out = np.zeros(5, dtype=PARTICLE)
    fill(out, world.rank)
    got = np.zeros(5, dtype=PARTICLE)
    st = world.sendrecv(out, nxt, 1, got, prv, 1)
    expect = np.zeros(5, dtype=PARTICLE)
    fill(expect, prv)
    assert (got == expect).all()
    assert st.get_count(oompi.Datatype.from_dtype(PARTICLE)) == 5

    nout = np.zeros(2, dtype=NESTED)
    fill(nout["p"], world.rank + 1)
    nout["w"] = -world.rank
    ngot = np.zeros(2, dtype=NESTED)
    world.sendrecv(nout, nxt, 2, ngot, prv, 2)
    assert (ngot["w"] == -prv).all() and (ngot["p"]["id"] == prv + 1).all()


def test_bad_dtypes():
    with pytest.raises(ValueError):
        oompi.Datatype.from_dtype(np.dtype([("s", "U3")]))
    with pytest.raises(ValueError):
        oompi.Datatype.from_dtype(np.dtype(">i4"))
