"""One-sided communication (RMA): windows over NumPy arrays and MPI's memory, every operation
under fence, post-start-complete-wait, lock and lock_all, and the bad input."""
import numpy as np
import pytest

import oompi
from conftest import ring


def test_create_put_get_fence(world):
    right, left = ring(world)
    local = np.full(4, -1.0)
    with oompi.Window.create(world, local) as win:
        assert win.disp_unit == 8 and win.size == 32 and win.group_size == world.size
        assert win.rank == world.rank
        win.fence(oompi.RmaMode.NOPRECEDE)
        win.put(np.array([world.rank + 0.5, world.rank + 1.5]), right, 1)  # a temporary: held
        win.fence()
        assert list(local) == [-1.0, left + 0.5, left + 1.5, -1.0]
        got = np.zeros(2)
        win.get(got, left, 1)
        win.fence()
        assert list(got) == [((left - 1) % world.size) + 0.5, ((left - 1) % world.size) + 1.5]
        win.get(got[1:], right, 3)  # a slice: in place
        win.fence(oompi.RmaMode.NOSUCCEED | oompi.RmaMode.NOSTORE)
        assert got[1] == -1.0
    assert win.is_null()


def test_hints_and_no_locks(world):
    """Window.create with hints (an overload of the two-argument form); a window made with
    no_locks=true refuses lock (the caller promised not to use it); get_info/set_info."""
    local = np.zeros(2, np.int32)
    hints = oompi.Info.create()
    hints.set("no_locks", "true")
    with oompi.Window.create(world, local, hints) as win:
        with pytest.raises(oompi.MPIError, match="no_locks") as e:
            with win.lock(world.rank, oompi.LockType.EXCLUSIVE):
                pass
        assert e.value.error_class == oompi.ERR_RMA_SYNC
        win.fence()
        win.put(np.array([world.rank + 7], np.int32), world.rank, 1)
        win.fence()
        assert local[1] == world.rank + 7
        assert win.get_info() is not None
    with pytest.raises(TypeError, match="buffer protocol"):
        oompi.Window.create(world, "not a buffer", hints)
    hints.close()


def test_window_over_a_slice(world):
    """A window over arr[1:] (8 bytes past a 16-byte boundary: MPICH 4.0.2 over UCX 1.13 moved
    such a base, pmodels/mpich#6140) reaches the slice's own elements; a floating-point
    fetch_and_op sums values (Open MPI 4.1's osc/ucx added bit patterns)."""
    right, left = ring(world)
    whole = np.full(8, -1.0)
    local = whole[1:7]
    with oompi.Window.create(world, local) as win:
        assert win.address() == local.ctypes.data
        win.fence()
        win.put(np.array([world.rank + 0.5]), right, 0)
        win.fence()
        assert list(whole[:3]) == [-1.0, left + 0.5, -1.0]
        world.barrier()
        old = np.zeros(1)
        with win.lock(right, oompi.LockType.EXCLUSIVE):
            win.fetch_and_op(np.array([2.0]), old, right, 5, oompi.SUM)
        assert old[0] == -1.0
        world.barrier()
        assert whole[6] == 1.0 and whole[7] == -1.0


def test_allocate_accumulate(world):
    with oompi.Window.allocate(world, 3, oompi.TypeKind.INT64) as win:
        mem = np.frombuffer(win.memory, dtype=np.int64)
        assert list(mem) == [0, 0, 0]
        win.fence()
        win.accumulate(np.array([world.rank, 1, 2], dtype=np.int64), 0, 0, oompi.SUM)
        win.fence()
        n = world.size
        if world.rank == 0:
            assert list(mem) == [n * (n - 1) // 2, n, 2 * n]
        win.fence()
        win.accumulate(np.array([world.rank], dtype=np.int64), 0, 2, oompi.MAX)
        win.fence()
        if world.rank == 0:
            assert mem[2] == max(2 * n, n - 1)
        del mem


def test_get_accumulate_fetch_and_op_lock(world):
    with oompi.Window.allocate(world, 2, oompi.TypeKind.INT32) as win:
        win.fence()
        old = np.zeros(1, dtype=np.int32)
        with win.lock(0, oompi.LockType.EXCLUSIVE):
            win.fetch_and_op(np.array([1], dtype=np.int32), old, 0, 0, oompi.SUM)
        # every rank got a distinct ticket 0 .. n-1
        tickets = np.zeros(world.size, dtype=np.int32)
        world.allgather(old, tickets)
        assert sorted(tickets) == list(range(world.size))
        res = np.zeros(1, dtype=np.int32)
        with win.lock(0, oompi.LockType.SHARED) as e:
            win.get_accumulate(np.array([0], dtype=np.int32), res, 0, 0, oompi.NO_OP)
            e.flush()
            assert res[0] == world.size  # flushed: valid before the unlock
        world.barrier()
        swapped = np.zeros(1, dtype=np.int32)
        with win.lock(0):
            win.compare_and_swap(np.array([100 + world.rank], dtype=np.int32),
                                 np.array([0], dtype=np.int32), swapped, 0, 1)
        winners = np.zeros(world.size, dtype=np.int32)
        world.allgather(swapped, winners)
        # exactly one rank saw 0 and wrote its value
        assert list(winners).count(0) == 1
        final = np.zeros(1, dtype=np.int32)
        with win.lock(0, oompi.LockType.SHARED):
            win.get(final, 0, 1)
        assert final[0] == 100 + list(winners).index(0)
        win.fence()


def test_lock_all_flush_get_accumulate(world):
    right, left = ring(world)
    with oompi.Window.allocate(world, world.size, oompi.TypeKind.FLOAT64) as win:
        mem = np.frombuffer(win.memory, dtype=np.float64)
        world.barrier()
        with win.lock_all():
            win.put(np.array([world.rank * 2.0]), right, world.rank)
            win.flush(right)
            prev = np.zeros(1)
            win.get_accumulate(np.array([1.0]), prev, right, world.rank, oompi.SUM)
            win.flush_all()
            assert prev[0] == world.rank * 2.0
        world.barrier()
        with win.lock(world.rank):  # see the public copy
            pass
        assert mem[left] == left * 2.0 + 1.0
        del mem


def test_pscw(world):
    right, left = ring(world)
    local = np.zeros(2, dtype=np.int16)
    with oompi.Window.create(world, local) as win:
        wg = world.get_group()
        to, frm = wg.incl([right]), wg.incl([left])
        with win.post(frm):
            with win.start(to):
                win.put(np.array([world.rank, 7], dtype=np.int16), right, 0)
        assert list(local) == [left, 7]
        exposure = win.post(frm)
        access = win.start(to)
        win.get(local[1:], right, 0)
        access.close()
        assert not access.is_active()
        while not exposure.test():
            pass
        assert local[1] == world.rank  # right's element 0 holds its left neighbour: us
        for g in (to, frm, wg):
            g.close()


def test_bad_input(world):
    with oompi.Window.allocate(world, 4, oompi.TypeKind.FLOAT64) as win:
        win.fence()
        with pytest.raises(IndexError, match="rank"):
            win.put(np.zeros(1), world.size, 0)
        with pytest.raises(IndexError, match="window"):
            win.put(np.zeros(2), 0, 3)
        with pytest.raises(IndexError):
            win.get(np.zeros(5), 0, 0)
        with pytest.raises(IndexError):
            win.put(np.zeros(1), 0, -1)
        user = oompi.Op.create(lambda a, b, t: None, True)
        with pytest.raises(ValueError, match="predefined"):
            win.accumulate(np.zeros(1), 0, 0, user)
        with pytest.raises(ValueError, match="predefined"):
            win.fetch_and_op(np.zeros(1), np.zeros(1), 0, 0, user)
        user.close()
        with pytest.raises(ValueError, match="read-only"):
            win.get(np.zeros(1)[:0].tobytes(), 0, 0)
        with pytest.raises(TypeError):
            win.put(42, 0, 0)
        with pytest.raises(ValueError, match="assertion"):
            win.fence(64)
        win.fence()
    with pytest.raises(oompi.ClosedError):
        win.put(np.zeros(1), 0, 0)
    with pytest.raises(oompi.ClosedError):
        win.fence()
    win.close()  # idempotent
    with pytest.raises(ValueError, match="read-only"):
        oompi.Window.create(world, b"abc")


def test_memory_released_on_close(world):
    win = oompi.Window.allocate(world, 2, oompi.TypeKind.INT32)
    mv = win.memory
    assert len(mv) == 8
    win.close()
    with pytest.raises(ValueError):  # released: no access to freed memory
        mv[0]


def test_origin_held_until_synchronisation(world):
    # A bytearray cannot be resized while a buffer of it is held: the window holds the origin
    # (MPI may read it until the fence) and lets it go at the fence.
    right, left = ring(world)
    with oompi.Window.allocate(world, 1, oompi.TypeKind.UINT8) as win:
        win.fence()
        origin = bytearray(b"x")
        win.put(origin, right, 0)
        with pytest.raises(BufferError):
            origin.extend(b"y")
        win.fence(oompi.RmaMode.NOSUCCEED)  # no fence epoch follows: the lock below may
        origin.extend(b"y")
        assert bytes(win.memory) == b"x"
        world.barrier()  # everyone has looked before the locks below write again
        # the end of a lock epoch releases it too
        held = bytearray(b"z")
        with win.lock(right):
            win.put(held, right, 0)
            with pytest.raises(BufferError):
                held.extend(b"!")
        held.extend(b"!")


def test_request_forms(world):
    right, left = ring(world)
    n = world.size
    with oompi.Window.allocate(world, 2 * n, oompi.TypeKind.INT64) as win:
        mem = np.frombuffer(win.memory, dtype=np.int64)
        world.barrier()
        with win.lock_all():
            origin = bytearray(np.array([world.rank + 10], dtype=np.int64).tobytes())
            r = win.rput(np.frombuffer(origin, dtype=np.int64), right, world.rank)
            r.wait()
            acc = win.raccumulate(np.array([1], dtype=np.int64), right, n + world.rank, oompi.SUM)
            acc.wait()
            win.flush(right)
            got = np.zeros(1, dtype=np.int64)
            g = win.rget(got, right, world.rank)
            g.wait()  # complete locally: the data is in `got`
            assert got[0] == world.rank + 10
            old = np.zeros(1, dtype=np.int64)
            ga = win.rget_accumulate(np.array([5], dtype=np.int64), old, right, n + world.rank,
                                     oompi.SUM)
            ga.wait()
            assert old[0] == 1
        world.barrier()
        with win.lock(world.rank):  # see the public copy
            pass
        assert mem[left] == left + 10 and mem[n + left] == 6
        del mem


def test_request_holds_origin_until_completion(world):
    right, _ = ring(world)
    with oompi.Window.allocate(world, 1, oompi.TypeKind.UINT8) as win:
        world.barrier()
        with win.lock(right):
            origin = bytearray(b"q")
            req = win.rput(origin, right, 0)
            result = bytearray(1)
            rg = win.rget(result, right, 0)
            with pytest.raises(BufferError):  # held by the pending requests
                origin.extend(b"y")
            req.wait()
            rg.wait()
            origin.extend(b"y")  # released when the request completed
            result.extend(b"!")
        world.barrier()


def test_request_forms_bad_input(world):
    with oompi.Window.allocate(world, 2, oompi.TypeKind.FLOAT64) as win:
        with win.lock_all():
            with pytest.raises(IndexError, match="rank"):
                win.rput(np.zeros(1), world.size, 0)
            with pytest.raises(IndexError, match="window"):
                win.rget(np.zeros(3), 0, 0)
            user = oompi.Op.create(lambda a, b, t: None, True)
            with pytest.raises(ValueError, match="predefined"):
                win.raccumulate(np.zeros(1), 0, 0, user)
            with pytest.raises(ValueError, match="predefined"):
                win.rget_accumulate(np.zeros(1), np.zeros(1), 0, 0, user)
            user.close()
            with pytest.raises(TypeError):
                win.rput(None, 0, 0)
    with pytest.raises(oompi.ClosedError):
        win.rput(np.zeros(1), 0, 0)


def test_shared_window(world):
    node = world.split_shared()
    with oompi.Window.allocate_shared(node, 2, oompi.TypeKind.INT32) as win:
        mine = np.frombuffer(win.shared_memory(node.rank), dtype=np.int32)
        assert list(mine) == [0, 0]
        got = np.zeros(1, dtype=np.int32)
        # Load/store under a lock_all epoch, with sync-barrier-sync (MPI_Win_sync belongs in
        # a passive-target epoch: MPICH refuses it outside one).
        with win.lock_all(oompi.RmaMode.NOCHECK):
            mine[:] = [node.rank, 100 + node.rank]
            win.sync()
            node.barrier()
            win.sync()
            for r in range(node.size):  # every process's part, by load
                other = np.frombuffer(win.shared_memory(r), dtype=np.int32)
                assert list(other) == [r, 100 + r]
                del other
            assert len(win.shared_memory(0)) == 8
            win.get(got, node.size - 1, 1)  # RMA works on it too
            win.flush(node.size - 1)
        assert got[0] == 100 + node.size - 1
        with pytest.raises(IndexError):
            win.shared_memory(node.size)
        node.barrier()
        del mine
    with oompi.Window.allocate(world, 1, oompi.TypeKind.INT32) as plain:
        with pytest.raises(RuntimeError, match="shared"):
            plain.shared_memory(0)
    with pytest.raises(oompi.ClosedError):
        win.shared_memory(0)
    node.close()


def test_shared_views_released_on_close(world):
    node = world.split_shared()
    win = oompi.Window.allocate_shared(node, 1, oompi.TypeKind.INT64)
    mv = win.shared_memory(0)
    win.close()
    node.close()
    with pytest.raises(ValueError):
        mv[0]


def test_dynamic_window(world):
    right, left = ring(world)
    with oompi.Window.create_dynamic(world) as win:
        assert win.disp_unit == 1
        local = bytearray(np.full(3, -1.0).tobytes())  # a bytearray shows the hold
        addr = win.attach(local)
        addrs = np.zeros(world.size, dtype=np.int64)
        world.allgather(np.array([addr], dtype=np.int64), addrs)
        world.barrier()
        with win.lock(right):
            win.put(np.array([world.rank + 0.25]), right, int(addrs[right]) + 8)
        world.barrier()
        with win.lock(world.rank):
            pass
        assert list(np.frombuffer(bytes(local))) == [-1.0, left + 0.25, -1.0]
        with pytest.raises(BufferError):  # held while attached
            local.extend(b"x")
        with pytest.raises(ValueError, match="already attached"):
            win.attach(local)
        with pytest.raises(ValueError, match="attached"):
            win.detach(addr + 8)
        with pytest.raises(ValueError, match="read-only"):
            win.attach(b"abc")
        arr = np.zeros(2)
        assert win.attach(arr) == arr.ctypes.data  # the displacement is the address
        win.detach(arr.ctypes.data)
        world.barrier()
        win.detach(addr)
        local.extend(b"x")  # released at detach
        with pytest.raises(ValueError, match="attached"):
            win.detach(addr)
        kept = bytearray(8)
        win.attach(kept)  # still attached at close: released by close
    kept.extend(b"x")
    with oompi.Window.allocate(world, 1, oompi.TypeKind.INT32) as plain:
        with pytest.raises(RuntimeError, match="dynamic"):
            plain.attach(np.zeros(1))
