"""MPI-IO from Python (oompi.File over the C++ core's oompi::file): every access mode with the
file's contents checked, views (subarray, darray), short reads at the end of the file,
nonblocking calls, and errors."""
import gc
import os
import tempfile

import numpy as np
import pytest

import oompi


@pytest.fixture
def path(world, request):
    # One name for all ranks: rank 0's pid, unique to this run; removed afterwards.
    pid = np.array([os.getpid()], dtype=np.int64)
    world.bcast(pid, 0)
    p = os.path.join(tempfile.gettempdir(), f"oompi_pyio_{pid[0]}_{request.node.name}.bin")
    yield p
    world.barrier()
    if world.rank == 0 and os.path.exists(p):
        os.remove(p)
    world.barrier()


@pytest.fixture
def open_file(world, path):
    # Files are closed after the ranks have agreed on the test's verdict: closing is collective,
    # and a `with` block left by a failed assertion on one rank would wait for the others.
    files = []

    def opener(mode=oompi.MODE_CREATE | oompi.MODE_RDWR, name=path):
        files.append(oompi.File.open(world, name, mode))
        return files[-1]
    yield opener
    for f in files:
        f.close()


def sync(f, world):
    # MPI's consistency rule for data written by other processes: sync-barrier-sync.
    f.sync()
    world.barrier()
    f.sync()


def test_explicit_offsets(world, path, open_file):
    n, me, size = 5, world.rank, world.size
    f = open_file()
    mine = np.arange(n, dtype=np.int32) + 100 * me
    s = f.write_at(me * n * 4, mine)
    assert s.get_count(oompi.INT32) == n
    sync(f, world)
    assert f.size == size * n * 4
    left = (me - 1) % size
    got = np.zeros(n, dtype=np.int32)
    s = f.read_at_all(left * n * 4, got)
    assert s.get_count(oompi.INT32) == n
    assert list(got) == list(np.arange(n) + 100 * left)
    # The collective write, read back independently and whole. Before it, sync-barrier-sync:
    # the left neighbour's read of this block must be over (MPI orders nothing else here).
    sync(f, world)
    f.write_at_all(me * n * 4, mine * 2)
    sync(f, world)
    whole = np.zeros(size * n, dtype=np.int32)
    assert f.read_at(0, whole).count_bytes == size * n * 4
    assert list(whole) == [2 * (i % n + 100 * (i // n)) for i in range(size * n)]
    # Part of a buffer: a NumPy slice is used in place.
    part = np.full(8, -1, dtype=np.int32)
    f.read_at(me * n * 4, part[2:4])
    assert list(part) == [-1, -1, 200 * me, 200 * me + 2, -1, -1, -1, -1]


def test_individual_pointer(world, path, open_file):
    n, me, size = 4, world.rank, world.size
    f = open_file()
    f.seek(me * n * 8)
    assert f.position == me * n * 8
    f.write(np.arange(n, dtype=np.float64) + me)
    assert f.position == (me + 1) * n * 8
    sync(f, world)
    # A view per rank: from its block on, in doubles; positions are in doubles now.
    f.set_view(me * n * 8, oompi.DOUBLE, oompi.DOUBLE)
    assert f.position == 0
    got = np.zeros(n)
    f.read_all(got)
    assert list(got) == list(np.arange(n) + me)
    assert f.position == n
    f.seek(-2, oompi.SeekFrom.CURRENT)
    assert f.position == n - 2
    f.seek(0)
    f.write_all(np.full(n, -1.0 - me))
    sync(f, world)
    f.set_view(0, oompi.BYTE, oompi.BYTE)
    f.seek(0, oompi.SeekFrom.END)
    assert f.position == size * n * 8
    f.seek(0)
    whole = np.zeros(size * n)
    assert f.read(whole).get_count(oompi.DOUBLE) == size * n
    assert list(whole) == [-1.0 - i // n for i in range(size * n)]


def test_shared_pointer(world, path, open_file):
    me, size = world.rank, world.size
    f = open_file()
    # Ordered: rank r's record r + 1 times, in rank order.
    f.write_ordered(np.full(me + 1, me, dtype=np.int16))
    sync(f, world)
    expected = [r for r in range(size) for _ in range(r + 1)]
    whole = np.zeros(len(expected), dtype=np.int16)
    f.read_at(0, whole)
    assert list(whole) == expected
    assert f.position_shared == len(expected) * 2
    world.barrier()  # everyone has looked before the pointer moves
    f.seek_shared(0)
    world.barrier()  # seek_shared is collective but need not synchronise
    mine = np.zeros(me + 1, dtype=np.int16)
    assert f.read_ordered(mine).get_count(oompi.INT16) == me + 1
    assert list(mine) == [me] * (me + 1)
    # Independent shared-pointer accesses: each record lands once, in some order.
    sync(f, world)
    f.set_size(0)
    world.barrier()  # set_size is collective but need not synchronise
    f.seek_shared(0)
    world.barrier()  # seek_shared is collective but need not synchronise
    f.write_shared(np.array([me, me * me], dtype=np.int64))
    sync(f, world)
    assert f.size == size * 16
    records = np.zeros(2 * size, dtype=np.int64)
    f.read_at(0, records)
    assert sorted(records[0::2]) == list(range(size))
    assert all(records[1::2] == records[0::2] ** 2)
    f.seek_shared(0)
    world.barrier()  # seek_shared is collective but need not synchronise
    one = np.zeros(2, dtype=np.int64)
    f.read_shared(one)
    ranks = np.zeros(size, dtype=np.int64)
    world.allgather(one[:1], ranks)
    assert sorted(ranks) == list(range(size))


def test_subarray_view(world, path, open_file):
    # A 3 x (2 * size) global array of int32; rank r owns columns [2r, 2r + 2).
    me, size = world.rank, world.size
    rows, cols = 3, 2 * size
    block = oompi.Datatype.subarray([rows, cols], [rows, 2], [0, 2 * me], oompi.INT32)
    local = np.array([[10 * y + 2 * me + x for x in range(2)] for y in range(rows)],
                     dtype=np.int32)
    f = open_file()
    f.set_view(0, oompi.INT32, block)
    assert f.write_all(local).get_count(oompi.INT32) == local.size
    sync(f, world)
    f.set_view(0, oompi.BYTE, oompi.BYTE)
    whole = np.zeros((rows, cols), dtype=np.int32)
    f.read_at_all(0, whole)
    assert whole.tolist() == [[10 * y + x for x in range(cols)] for y in range(rows)]
    # Back through the view: the block again.
    f.set_view(0, oompi.INT32, block)
    again = np.zeros_like(local)
    f.read_at_all(0, again)
    assert again.tolist() == local.tolist()
    block.close()


def test_darray_view(world, path, open_file):
    # A size x 3 array of doubles, rows cyclic over the processes: rank r owns row r.
    me, size = world.rank, world.size
    part = oompi.Datatype.darray(size, me, [size, 3],
                                 [oompi.DISTRIBUTE_CYCLIC, oompi.DISTRIBUTE_NONE],
                                 [oompi.DISTRIBUTE_DFLT_DARG, oompi.DISTRIBUTE_DFLT_DARG],
                                 [size, 1], oompi.DOUBLE)
    assert part.size == 3 * 8
    f = open_file()
    f.set_view(0, oompi.DOUBLE, part)
    f.write_all(np.array([me, me + 0.5, me + 0.25]))
    sync(f, world)
    f.set_view(0, oompi.DOUBLE, oompi.DOUBLE)
    whole = np.zeros(3 * size)
    f.read_at_all(0, whole)
    assert list(whole) == [v for r in range(size) for v in (r, r + 0.5, r + 0.25)]
    part.close()
    with pytest.raises(ValueError):  # a grid of size + 1 processes for size processes
        oompi.Datatype.darray(size, me, [4], [oompi.DISTRIBUTE_BLOCK],
                              [oompi.DISTRIBUTE_DFLT_DARG], [size + 1], oompi.DOUBLE)
    with pytest.raises(ValueError):
        oompi.Datatype.darray(size, me, [4], [12345], [oompi.DISTRIBUTE_DFLT_DARG], [size],
                              oompi.DOUBLE)


def test_short_read_at_end_of_file(world, path, open_file):
    # A file of 3 int32; reads of 4 from the second: 2 exist, and every form says so.
    f = open_file()
    if world.rank == 0:
        f.write_at(0, np.array([7, 8, 9], dtype=np.int32))
    sync(f, world)
    assert f.size == 12
    for how in ("read_at", "read_at_all", "iread_at", "read", "read_all", "iread"):
        got = np.full(4, -1, dtype=np.int32)
        if how.endswith("_at") or how.endswith("_at_all"):
            result = getattr(f, how)(4, got)
        else:
            f.seek(4)
            result = getattr(f, how)(got)
        s = result.wait() if how.startswith("i") else result
        assert s.get_count(oompi.INT32) == 2, how
        assert list(got[:2]) == [8, 9], how
    got = np.zeros(2, dtype=np.int32)
    assert f.read_at(100, got).count_bytes == 0  # wholly past the end


def test_nonblocking(world, path, open_file):
    n, me, size = 6, world.rank, world.size
    f = open_file()
    # A temporary array: the request keeps it alive until the write completes.
    r = f.iwrite_at(me * n * 8, np.arange(n, dtype=np.int64) * (me + 1))
    gc.collect()
    assert r.wait().get_count(oompi.INT64) == n
    sync(f, world)
    got = [np.zeros(n, dtype=np.int64) for _ in range(size)]
    reqs = [f.iread_at(i * n * 8, got[i]) for i in range(size)]
    oompi.Request.wait_all(reqs)
    for i in range(size):
        assert list(got[i]) == list(np.arange(n) * (i + 1))
    # The collective and pointer-based forms (each after the others' reads: sync first).
    sync(f, world)
    f.iwrite_at_all(me * n * 8, np.full(n, me, dtype=np.int64)).wait()
    sync(f, world)
    f.seek(((me + 1) % size) * n * 8)
    nxt = np.zeros(n, dtype=np.int64)
    f.iread_all(nxt).wait()
    assert list(nxt) == [(me + 1) % size] * n
    sync(f, world)
    f.seek(me * n * 8)
    f.iwrite(np.full(n, 50 + me, dtype=np.int64)).wait()
    sync(f, world)
    back = np.zeros(n, dtype=np.int64)
    f.iread_at_all(me * n * 8, back).wait()
    assert list(back) == [50 + me] * n
    sync(f, world)
    f.set_size(0)
    world.barrier()  # set_size is collective but need not synchronise
    f.seek_shared(0)
    world.barrier()  # seek_shared is collective but need not synchronise
    f.iwrite_shared(np.array([me], dtype=np.int64)).wait()
    sync(f, world)
    assert f.size == 8 * size
    f.seek_shared(0)
    world.barrier()  # seek_shared is collective but need not synchronise
    one = np.zeros(1, dtype=np.int64)
    f.iread_shared(one).wait()
    ranks = np.zeros(size, dtype=np.int64)
    world.allgather(one, ranks)
    assert sorted(ranks) == list(range(size))


def test_size_atomicity_amode(world, path, open_file):
    f = open_file()
    assert f.amode == oompi.MODE_CREATE | oompi.MODE_RDWR
    f.set_size(1000)
    assert f.size == 1000
    world.barrier()  # everyone has seen 1000 before anyone truncates
    f.set_size(10)
    assert f.size == 10
    assert f.atomicity is False
    f.set_atomicity(True)
    assert f.atomicity is True
    assert f.byte_offset(3) == 3
    # preallocate on a file of its own (docs/io.md: OMPIO hangs on set_size after it)
    g = open_file(oompi.MODE_CREATE | oompi.MODE_RDWR | oompi.MODE_DELETE_ON_CLOSE, path + ".pre")
    g.preallocate(4096)
    assert g.size >= 4096


def test_errors(world, path, open_file):
    missing = path + ".missing"
    with pytest.raises(oompi.MPIError) as e:
        oompi.File.open(world, missing, oompi.MODE_RDONLY)
    assert e.value.error_class == oompi.ERR_NO_SUCH_FILE
    with pytest.raises(oompi.MPIError) as e:
        oompi.File.remove(missing)
    assert e.value.error_class == oompi.ERR_NO_SUCH_FILE
    with pytest.raises(oompi.MPIError) as e:  # contradictory modes
        oompi.File.open(world, path, oompi.MODE_RDONLY | oompi.MODE_RDWR)
    assert e.value.error_class == oompi.ERR_AMODE

    f = open_file()
    with pytest.raises(ValueError):
        f.write_at(-8, np.zeros(1))
    with pytest.raises(ValueError):
        f.read_at(-1, np.zeros(1))
    with pytest.raises(ValueError):
        f.iread_at(-1, np.zeros(1))
    with pytest.raises(ValueError):
        f.set_size(-1)
    f.set_view(0, oompi.DOUBLE, oompi.DOUBLE)
    with pytest.raises(ValueError):  # 4 bytes are not a whole double of the view
        f.write_at(0, np.zeros(1, dtype=np.int32))
    with pytest.raises(TypeError):
        f.write_at(0, "not a buffer")
    f.close()
    f.close()  # idempotent
    assert f.is_null()
    for call in (lambda: f.read_at(0, np.zeros(1)), lambda: f.size, lambda: f.sync(),
                 lambda: f.iwrite_at(0, np.zeros(1)), lambda: f.seek(0),
                 lambda: f.set_view(0, oompi.BYTE, oompi.BYTE)):
        with pytest.raises(oompi.ClosedError):
            call()

    with pytest.raises(oompi.MPIError) as e:  # exclusive create of an existing file
        oompi.File.open(world, path, oompi.MODE_CREATE | oompi.MODE_EXCL | oompi.MODE_WRONLY)
    assert e.value.error_class == oompi.ERR_FILE_EXISTS
    world.barrier()
    r = open_file(oompi.MODE_RDONLY)  # a write to a read-only file
    with pytest.raises(oompi.MPIError) as e:
        r.write_at(0, np.zeros(1))
    assert e.value.error_class in (oompi.ERR_READ_ONLY, oompi.ERR_ACCESS)


def test_context_manager(world, path):
    # `with` closes the file (collectively) on the way out; no assertion inside the block, where
    # a failure on one rank would leave the others waiting in their close.
    with oompi.File.open(world, path, oompi.MODE_CREATE | oompi.MODE_WRONLY) as f:
        f.write_at_all(8 * world.rank, np.array([world.rank], dtype=np.int64))
    assert f.is_null()
    with oompi.File.open(world, path, oompi.MODE_RDONLY) as f:
        got = np.zeros(world.size, dtype=np.int64)
        f.read_at_all(0, got)
    assert f.is_null()
    assert list(got) == list(range(world.size))


def test_hints_at_open(world, path):
    hints = oompi.Info.create()
    hints.set("cb_buffer_size", "1048576")
    hints.set("oompi_unknown_key", "ignored")
    with oompi.File.open(world, path, oompi.MODE_CREATE | oompi.MODE_RDWR, hints) as f:
        f.write_at_all(8 * world.rank, np.array([world.rank], dtype=np.int64))
        got_hints = f.get_info()
        assert all(isinstance(k, str) and got_hints.get(k) for k in got_hints.keys())
        got_hints.close()
    with oompi.File.open(world, path, oompi.MODE_RDONLY, oompi.Info()) as f:  # null: none
        got = np.zeros(world.size, dtype=np.int64)
        f.read_at_all(0, got)
    assert list(got) == list(range(world.size))
    # A closed info on one process only: every process raises (no one is left in the open).
    one = oompi.Info.create()
    if world.rank == 0:
        one.close()
    with pytest.raises(oompi.ClosedError, match="closed"):
        oompi.File.open(world, path, oompi.MODE_RDONLY, one)
    one.close()
    hints.close()
    with pytest.raises(TypeError):
        oompi.File.open(world, path, oompi.MODE_RDONLY, ["cb_buffer_size", "1"])


def test_get_view(world, path, open_file):
    f = open_file()
    v = f.get_view()
    assert v.displacement == 0 and v.datarep == "native"
    assert v.etype.is_builtin() and v.etype.size == 1 and v.filetype.size == 1
    block = oompi.Datatype.vector(2, 1, world.size, oompi.INT32)
    f.set_view(16, oompi.INT32, block)
    v = f.get_view()
    assert v.displacement == 16 and v.datarep == "native"
    assert v.etype.size == 4 and v.etype.element_kind() == int(oompi.TypeKind.INT32)
    ft = v.filetype
    assert not ft.is_builtin() and ft.size == 8 and ft.extent == block.extent
    ft.close()  # a derived handle of its own: closed here, the view's is untouched
    again = f.get_view().filetype
    assert again.size == 8
    block.close()
    f.close()
    with pytest.raises(oompi.ClosedError):
        f.get_view()


def test_split_collectives(world, path, open_file):
    n, me = 4, world.rank
    f = open_file()
    f.set_view(me * n * 8, oompi.INT64, oompi.INT64)
    out = bytearray(np.arange(n, dtype=np.int64).tobytes())
    f.write_all_begin(np.frombuffer(out, dtype=np.int64) + me)  # a temporary: held until end
    with pytest.raises(RuntimeError, match="in progress"):
        f.write_all_begin(np.zeros(1, dtype=np.int64))
    with pytest.raises(RuntimeError, match="read_all_begin"):
        f.read_all_end()
    with pytest.raises(RuntimeError, match="in progress"):
        f.close()
    assert f.write_all_end().get_count(oompi.INT64) == n
    with pytest.raises(RuntimeError, match="write_all_begin"):
        f.write_all_end()
    sync(f, world)
    f.seek(0)
    back = bytearray(n * 8)
    f.read_all_begin(back)
    with pytest.raises(BufferError):  # held by the file until read_all_end
        back.extend(b"x")
    assert f.read_all_end().get_count(oompi.INT64) == n
    back.extend(b"x")  # released at the end
    assert list(np.frombuffer(bytes(back[:n * 8]), dtype=np.int64)) == [me + i for i in range(n)]
    with pytest.raises(ValueError, match="read-only"):
        f.read_all_begin(b"abcdefgh")
