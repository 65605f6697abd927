"""A closed handle passed as an argument (not as self) raises oompi.ClosedError naming what was
closed, for every kind of handle: communicator, op, group, datatype, request. None or an object
of another class where a handle is expected is a TypeError naming the Python class, not a
message about C++ references."""
import numpy as np
import pytest

import oompi


@pytest.fixture
def world():
    return oompi.Comm.world()


def closed(what, f):
    with pytest.raises(oompi.ClosedError, match=what):
        f()


def test_closed_communicator_argument(world):
    d = world.dup()
    d.close()
    closed("communicator", lambda: world.compare(d))
    closed("communicator", lambda: oompi.Interop.comm_to_fortran(d))
    closed("communicator", lambda: oompi.Comm.self_().create_intercomm(0, d, 0, 1))


def test_closed_op_argument(world):
    op = oompi.Op.create(lambda a, b, t: None, True)
    op.close()
    x, y = np.ones(2), np.zeros(2)
    closed("op", lambda: world.allreduce(x, y, op))
    closed("op", lambda: world.allreduce_in_place(y, op))
    closed("op", lambda: world.reduce(x, y, op, 0))
    closed("op", lambda: world.scan(x, y, op))
    closed("op", lambda: world.exscan(x, y, op))
    closed("op", lambda: world.iallreduce(x, y, op))
    closed("op", lambda: world.reduce_scatter_block(np.ones(2 * world.size), y, op))
    closed("op", lambda: world.oallreduce(1, op))


def test_closed_group_argument(world):
    g = world.get_group()
    other = world.get_group()
    other.close()
    closed("group", lambda: g.compare(other))
    closed("group", lambda: g.set_union(other))
    closed("group", lambda: g.set_intersection(other))
    closed("group", lambda: g.set_difference(other))
    closed("group", lambda: g.translate_ranks([0], other))
    closed("group", lambda: world.create(other))  # every rank raises before any MPI call
    closed("group", lambda: world.create_group(other, 3))
    g.close()


def test_closed_datatype_argument(world):
    t = oompi.Datatype.contiguous(2, oompi.DOUBLE)
    t.close()
    closed("datatype", lambda: oompi.Datatype.contiguous(2, t))
    closed("datatype", lambda: oompi.Datatype.vector(2, 1, 2, t))
    closed("datatype", lambda: oompi.Datatype.resized(t, 0, 32))
    closed("datatype", lambda: world.send([np.zeros(4), t], world.rank, 5))
    st = world.sendrecv(np.zeros(1), world.rank, 6, np.zeros(1), world.rank, 6)
    closed("datatype", lambda: st.get_count(t))


def test_closed_request_argument(world):
    got = np.zeros(1)
    r = world.irecv(got, world.rank, 7)
    world.send(np.ones(1), world.rank, 7)
    r.wait()
    r.close()
    closed("request", lambda: oompi.Request.wait_all([r]))
    closed("request", lambda: oompi.Request.test_all([r]))
    closed("request", lambda: oompi.Request.wait_any([r]))
    closed("request", lambda: oompi.Request.start_all([r]))


def test_none_or_wrong_class_as_a_handle(world):
    x, y = np.ones(1), np.zeros(1)
    cases = [
        (lambda a: world.compare(a), "Comm"),
        (lambda a: world.allreduce(x, y, a), "Op"),
        (lambda a: world.get_group().compare(a), "Group"),
        (lambda a: oompi.Datatype.contiguous(2, a), "Datatype"),
    ]
    for f, cls in cases:
        for bad in (None, 5):
            with pytest.raises(TypeError, match="oompi." + cls) as e:
                f(bad)
            assert "oompi::rt" not in str(e.value)
