"""User reduction functions: Op.create from a callable or a UserFunction subclass over NumPy
views of MPI's memory; the Op keeps its function alive; an exception raised in the function
surfaces from the collective, also when MPI ran it on another thread."""
import gc
import threading

import numpy as np
import pytest

import oompi


class AbsMax(oompi.UserFunction):
    def apply(self, invec, inoutvec, datatype):
        np.maximum(np.abs(invec), np.abs(inoutvec), out=inoutvec)


class Boom(oompi.UserFunction):
    def apply(self, invec, inoutvec, datatype):
        raise KeyError("boom from the user function")


def test_callable_and_director(world):
    n, me = world.size, world.rank
    add = oompi.Op.create(lambda a, b, dt: a + b, commute=True)
    out = np.zeros(3)
    world.allreduce(np.full(3, me + 1.0), out, add)
    assert (out == n * (n + 1) / 2).all()
    op = oompi.Op.create(AbsMax(), commute=True)
    del add
    gc.collect()  # the Op holds its function: nothing may be collected under MPI
    got = np.zeros(2, dtype=np.int32)
    world.allreduce(np.array([-me, me], dtype=np.int32), got, op)
    assert list(got) == [n - 1, n - 1]


def test_noncommutative_order(world):
    # Non-commutative: MPI combines in rank order; "keep the left operand" gives rank 0's value.
    left = oompi.Op.create(lambda a, b, dt: a, commute=False)
    out = np.zeros(1, dtype=np.int64)
    world.allreduce(np.array([world.rank + 7], dtype=np.int64), out, left)
    assert out[0] == 7


def test_exception_surfaces(world):
    op = oompi.Op.create(Boom(), commute=True)
    out = np.zeros(1)
    if world.size == 1:
        world.allreduce(np.ones(1), out, op)  # one rank: MPI need not call the function
        return
    # Only ranks where the function ran see the error (documented): agree on it.
    raised = False
    try:
        world.allreduce(np.ones(1), out, op)
    except KeyError as e:
        raised = "boom" in str(e)
    flag = np.array([1 if raised else 0], dtype=np.int32)
    world.allreduce_in_place(flag, oompi.MAX)
    assert flag[0] == 1


def test_exception_from_another_thread(world):
    # The collective waited on in another Python thread: the error comes out of wait() there.
    op = oompi.Op.create(Boom(), commute=True)
    errors = []
    out = np.zeros(1)
    req = world.iallreduce(np.ones(1), out, op)

    def waiter():
        try:
            req.wait()
        except KeyError as e:
            errors.append(e)

    t = threading.Thread(target=waiter)
    t.start()
    t.join(30)
    assert not t.is_alive()
    flag = np.array([len(errors)], dtype=np.int32)
    world.allreduce_in_place(flag, oompi.MAX)
    assert world.size == 1 or flag[0] == 1


def test_context_manager_and_closed_op(world):
    with oompi.Op.create(lambda a, b, dt: a + b, commute=True) as op:
        assert op.is_user() and op.is_commutative()
        out = np.zeros(1)
        world.allreduce(np.ones(1), out, op)
        assert out[0] == world.size
    assert op.is_null()
    with pytest.raises(oompi.ClosedError):
        world.allreduce(np.ones(1), np.zeros(1), op)  # refused on every rank before MPI
    oompi.SUM.close()  # predefined: nothing happens
    assert not oompi.SUM.is_null()


def test_bad_inputs():
    with pytest.raises(TypeError):
        oompi.Op.create(42)


# A struct with tail padding: MPI's temporary buffers hold only the data span of the last
# element (20 of 24 bytes), while the function sees count * extent bytes: the facade hands it
# copies (found by ASan in the C++ core's trampolines; the facade had the same overrun).
STATS = np.dtype([("sum", "f8"), ("max", "f8"), ("count", "i4")], align=True)


def _combine_stats(a, b, dt):
    a = a if isinstance(a, np.ndarray) else np.frombuffer(a, STATS)
    b = b if isinstance(b, np.ndarray) else np.frombuffer(b, STATS)
    b["sum"] += a["sum"]
    b["max"] = np.maximum(a["max"], b["max"])
    b["count"] += a["count"]


@pytest.mark.parametrize("count", [1, 3, 1000])
def test_user_op_on_padded_struct(world, count):
    assert STATS.itemsize == 24
    n, me = world.size, world.rank
    mine = np.zeros(count, dtype=STATS)
    mine["sum"] = np.arange(count) + me
    mine["max"] = me * 10.0 - np.arange(count)
    mine["count"] = 1
    out = np.zeros(count, dtype=STATS)
    with oompi.Op.create(_combine_stats, commute=True) as op:
        world.allreduce(mine, out, op)
    assert (out["sum"] == n * np.arange(count) + n * (n - 1) / 2).all()
    assert (out["max"] == (n - 1) * 10.0 - np.arange(count)).all()
    assert (out["count"] == n).all()
