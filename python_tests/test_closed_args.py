"""A closed handle passed as an argument (not as self) raises oompi.ClosedError naming what was
closed, for every kind of handle: Comm, Op, Group, Datatype, Request. None or an object of
another class where a handle is expected is a TypeError naming the Python class, not a message
about C++ references. Every message names Python's classes and methods (Window.put,
File.write_at), never the C++ facade's (oompi::rt::window, window.put)."""
import numpy as np
import pytest

import oompi


def closed(what, f):
    with pytest.raises(oompi.ClosedError, match=what):
        f()


def test_closed_communicator_argument(world):
    d = world.dup()
    d.close()
    closed("Comm", lambda: world.compare(d))
    closed("Comm", lambda: oompi.Interop.comm_to_fortran(d))
    closed("Comm", lambda: oompi.Comm.self_().create_intercomm(0, d, 0, 1))


def test_closed_op_argument(world):
    op = oompi.Op.create(lambda a, b, t: None, True)
    op.close()
    x, y = np.ones(2), np.zeros(2)
    closed("Op", lambda: world.allreduce(x, y, op))
    closed("Op", lambda: world.allreduce_in_place(y, op))
    closed("Op", lambda: world.reduce(x, y, op, 0))
    closed("Op", lambda: world.scan(x, y, op))
    closed("Op", lambda: world.exscan(x, y, op))
    closed("Op", lambda: world.iallreduce(x, y, op))
    closed("Op", lambda: world.reduce_scatter_block(np.ones(2 * world.size), y, op))
    closed("Op", lambda: world.oallreduce(1, op))


def test_closed_group_argument(world):
    g = world.get_group()
    other = world.get_group()
    other.close()
    closed("Group", lambda: g.compare(other))
    closed("Group", lambda: g.set_union(other))
    closed("Group", lambda: g.set_intersection(other))
    closed("Group", lambda: g.set_difference(other))
    closed("Group", lambda: g.translate_ranks([0], other))
    closed("Group", lambda: world.create(other))  # every rank raises before any MPI call
    closed("Group", lambda: world.create_group(other, 3))
    g.close()


def test_closed_datatype_argument(world):
    t = oompi.Datatype.contiguous(2, oompi.DOUBLE)
    t.close()
    closed("Datatype", lambda: oompi.Datatype.contiguous(2, t))
    closed("Datatype", lambda: oompi.Datatype.vector(2, 1, 2, t))
    closed("Datatype", lambda: oompi.Datatype.resized(t, 0, 32))
    closed("Datatype", lambda: world.send([np.zeros(4), t], world.rank, 5))
    st = world.sendrecv(np.zeros(1), world.rank, 6, np.zeros(1), world.rank, 6)
    closed("Datatype", lambda: st.get_count(t))


def test_closed_request_argument(world):
    got = np.zeros(1)
    r = world.irecv(got, world.rank, 7)
    world.send(np.ones(1), world.rank, 7)
    r.wait()
    r.close()
    closed("Request", lambda: oompi.Request.wait_all([r]))
    closed("Request", lambda: oompi.Request.test_all([r]))
    closed("Request", lambda: oompi.Request.wait_any([r]))
    closed("Request", lambda: oompi.Request.start_all([r]))


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


def python_names(exc_info, starts):
    """The message starts with Python's Class.method and names no C++ type."""
    text = str(exc_info.value)
    assert text.startswith(starts), text
    assert "oompi::rt" not in text and "oompi::" not in text, text


def test_messages_name_python_classes_and_methods(world, tmp_path):
    d = world.dup()
    d.close()
    with pytest.raises(oompi.ClosedError) as e:
        d.barrier()
    python_names(e, "Comm.barrier: this Comm has been closed")
    with pytest.raises(oompi.ClosedError) as e:
        world.compare(d)
    python_names(e, "Comm.compare: this Comm has been closed")

    local = np.zeros(4)
    win = oompi.Window.create(world, local)
    win.close()
    with pytest.raises(oompi.ClosedError) as e:
        win.put(np.ones(1), world.rank, 0)
    python_names(e, "Window.put: this Window has been closed")
    with pytest.raises(oompi.ClosedError) as e:
        win.fence()
    python_names(e, "Window.fence: this Window has been closed")

    f = oompi.File.open(oompi.Comm.self_(), str(tmp_path / f"closed-{world.rank}.bin"),
                        oompi.MODE_CREATE | oompi.MODE_RDWR)
    f.close()
    with pytest.raises(oompi.ClosedError) as e:
        f.write_at(0, np.ones(2, dtype=np.int32))
    python_names(e, "File.write_at: this File has been closed")

    # other facade messages: the leading Class.method in Python's names
    with pytest.raises(ValueError) as e:
        oompi.Datatype.contiguous(-1, oompi.INT32)
    python_names(e, "Datatype.contiguous: negative count")
    # an argument of the wrong class: the Python class and method
    with pytest.raises(TypeError) as e:
        world.compare(5)
    python_names(e, "Comm.compare: expected an oompi.Comm")
    with pytest.raises(TypeError) as e:
        world.get_group().compare("x")
    python_names(e, "Group.compare: expected an oompi.Group")
    # a list of handles with something else in it
    with pytest.raises(TypeError) as e:
        oompi.Datatype.create_struct([1, 1], [0, 8], [oompi.INT32, 5])
    python_names(e, "Datatype.create_struct: expected an oompi.Datatype, not 'int'")
    # no container classes: sequences in, Python's names in every message about them (SWIG's
    # DatatypeVector, IntVector, ... named std::vector types)
    assert not hasattr(oompi.core, "DatatypeVector") and not hasattr(oompi.core, "IntVector")
    with pytest.raises(TypeError) as e:
        oompi.Datatype.create_struct([1, 1], [0, 8], 5)
    python_names(e, "Datatype.create_struct: expected a sequence of oompi.Datatype, not 'int'")
    with pytest.raises(TypeError) as e:
        oompi.Datatype.indexed([1, "a"], [0, 2], oompi.INT32)
    python_names(e, "Datatype.indexed: expected a sequence of integers, item 1 is 'str'")
    with pytest.raises(OverflowError) as e:
        oompi.Datatype.indexed([1, 1 << 40], [0, 2], oompi.INT32)
    python_names(e, "Datatype.indexed: item 1 (1099511627776) does not fit in a C int")
    done = world.irecv(np.zeros(1), world.rank, 8)
    world.send(np.ones(1), world.rank, 8)
    done.wait()
    with pytest.raises(TypeError) as e:
        oompi.Request.wait_all([done, 5])
    python_names(e, "Request.wait_all: expected an oompi.Request, not 'int'")
    with pytest.raises(TypeError) as e:
        world.create_cart("22", [0, 0])
    python_names(e, "Comm.create_cart: expected a sequence of integers, not 'str'")
    # a number, bool or str of another type: the parameter and the Python type expected
    with pytest.raises(TypeError) as e:
        oompi.Datatype.contiguous("2", oompi.INT32)
    python_names(e, "Datatype.contiguous: count must be an int (a C int), not 'str'")
    with pytest.raises(OverflowError) as e:
        oompi.Datatype.contiguous(1 << 40, oompi.INT32)
    python_names(e, "Datatype.contiguous: count = 1099511627776 is out of range for an int")
    with oompi.Info.create() as info:
        with pytest.raises(TypeError) as e:
            info.set("key", 5)
        python_names(e, "Info.set: value must be a str, not 'int'")
        info.set("key", "v")
        assert info.keys() == ("key",)
    # results are tuples
    t = oompi.Datatype.contiguous(2, oompi.DOUBLE)
    contents = t.contents()
    assert isinstance(contents.integers(), tuple) and contents.integers() == (2,)
    assert [d.size for d in contents.types()] == [8]
    t.close()
