"""Several Python threads on one communicator (THREAD_MULTIPLE), each with its own tag: NumPy
arrays small and large with send/recv, dicts and Transportable objects with osend/orecv, all
at once. Ranks pair up (0-1, 2-3, ...); a rank without a partner talks to itself.

OOMPI_THREAD_ROUND_TRIPS sets the round trips per thread (default 3,000: a small array, a dict
and a Transportable graph in turn, a large array or a dict with a large array every 50th time;
about 1.5 minutes at 2 ranks on a loaded 2-core machine)."""
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Optional

import numpy as np
import pytest

import oompi

THREADS = 4
ROUND_TRIPS = int(os.environ.get("OOMPI_THREAD_ROUND_TRIPS", "3000"))
LARGE = 256 * 1024  # doubles: 2 MiB, rendezvous protocol and out-of-band pickle buffers
LARGE_EVERY = 50    # round trips between two large messages


@oompi.transportable
@dataclass(eq=False)
class Item:
    id: oompi.int32 = 0
    name: str = ""
    values: oompi.Array(oompi.float64) = field(default_factory=lambda: np.zeros(0))
    link: Optional["Item"] = None


def partner(world):
    p = world.rank ^ 1
    return p if p < world.size else world.rank


def exchange(world, peer, first, send, recv):
    """One message each way: the lower rank sends first (blocking calls on both sides); alone,
    a nonblocking send to itself."""
    if peer == world.rank:
        req = send(nonblocking=True)
        got = recv()
        req.wait()
        return got
    if first:
        send()
        return recv()
    got = recv()
    send()
    return got


def worker(world, t, errors, done):
    peer = partner(world)
    first = world.rank < peer
    tag = 100 + t
    small = np.zeros(1, dtype=np.float64)
    small_in = np.zeros(1, dtype=np.float64)
    large_in = np.zeros(LARGE, dtype=np.float64)
    trips = 0
    try:
        i = -1
        while trips < ROUND_TRIPS:
            i += 1
            trips += 3 + (i % LARGE_EVERY == 0)
            # A small array (the 8-byte hot path) and, now and then, a large one.
            small[0] = world.rank * 1e6 + t * 1e5 + i
            exchange(world, peer, first,
                     lambda nonblocking=False: (world.isend if nonblocking else world.send)(
                         small, peer, tag),
                     lambda: world.recv(small_in, peer, tag))
            assert small_in[0] == peer * 1e6 + t * 1e5 + i
            if i % LARGE_EVERY == 0:
                large = np.full(LARGE, world.rank + t + i, dtype=np.float64)
                exchange(world, peer, first,
                         lambda nonblocking=False: (world.isend if nonblocking else world.send)(
                             large, peer, tag),
                         lambda: world.recv(large_in, peer, tag))
                assert large_in[0] == peer + t + i and large_in[-1] == peer + t + i
            # A dict (pickled; out-of-band buffers when large) ...
            d = {"rank": world.rank, "t": t, "i": i}
            if i % LARGE_EVERY == 1:
                d["big"] = np.arange(LARGE // 2, dtype=np.float64)
            got = exchange(world, peer, first,
                           lambda nonblocking=False: (world.iosend if nonblocking
                                                      else world.osend)(d, peer, tag),
                           lambda: world.orecv(peer, tag))
            assert (got["rank"], got["t"], got["i"]) == (peer, t, i)
            if i % LARGE_EVERY == 1:
                assert got["big"][-1] == LARGE // 2 - 1
            # ... and a Transportable graph in wire format v1.
            a = Item(i, "t%d" % t, np.full(3, float(world.rank)))
            a.link = Item(-i, "b", np.zeros(0), a)
            got = exchange(world, peer, first,
                           lambda nonblocking=False: (world.iosend if nonblocking
                                                      else world.osend)(
                               a, peer, tag, type=oompi.Ref(Item)),
                           lambda: world.orecv(peer, tag, type=oompi.Ref(Item)))
            assert got.id == i and got.name == "t%d" % t and got.values[0] == peer
            assert got.link.link is got and got.link.id == -i
        done.append(trips)
    except BaseException as e:  # noqa: B902 - reported by the main thread
        errors.append((t, repr(e)))


def test_first_use_from_threads():
    # Four threads use a Transportable class for the first time at once (its plan is compiled
    # then, running Python code that lets other threads in): each must encode every field.
    # Before the compilation had a lock, a thread could take the plan before its fields were
    # filled in and the native side kept that empty plan for good.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    bad = []
    try:
        for k in range(60):
            ns = {"oompi": oompi}
            exec("from typing import Optional\n"
                 "class C%d:\n"
                 "    a: oompi.int32 = 0\n"
                 "    s: str = ''\n"
                 "    n: Optional['C%d'] = None\n" % (k, k), ns)
            cls = ns["C%d" % k]
            cls = oompi.transportable(dataclass(eq=False)(cls))
            cls.__module__ = __name__
            globals()[cls.__name__] = cls
            start = threading.Barrier(4)

            def use():
                start.wait()
                try:
                    x = cls(7, "x")
                    x.n = x
                    y = oompi.wire.loads(oompi.wire.dumps(x, oompi.Ref(cls)), oompi.Ref(cls))
                    if (y.a, y.s) != (7, "x") or y.n is not y:
                        bad.append((k, "fields lost"))
                except Exception as e:  # noqa: B902
                    bad.append((k, repr(e)))

            threads = [threading.Thread(target=use) for _ in range(4)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
    finally:
        sys.setswitchinterval(old)
    assert bad == []


def test_threads_round_trips():
    world = oompi.Comm.world()
    errors, done = [], []
    threads = [threading.Thread(target=worker, args=(world, t, errors, done))
               for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(600)
    if any(th.is_alive() for th in threads):
        # A thread stuck in MPI would keep the interpreter (and the job) from ending.
        print("test_threads: a thread is stuck; aborting", file=sys.stderr, flush=True)
        oompi.Environment.abort(3)
    assert errors == []
    assert len(done) == THREADS and min(done) >= ROUND_TRIPS
    print("rank %d: %d threads x %d round trips" % (world.rank, THREADS, min(done)))
    world.barrier()
