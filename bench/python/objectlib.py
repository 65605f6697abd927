"""Shared pieces of the Python object benches (bench_objects.py, bench_object_graphs.py): MPI
started for oompi and mpi4py in one process, the round trips of the three systems, the local
encode + decode loop, and a thread with a big stack to run the bench on.
"""
import threading
import time

import oompi

clock = time.perf_counter


class Peers:
    """oompi's world and mpi4py's COMM_WORLD between ranks 0 and 1 (MPI initialised by oompi
    with THREAD_MULTIPLE, mpi4py pickling with protocol 5, the peer of issues 16 and 28)."""

    def __init__(self):
        self.env = oompi.Environment(oompi.ThreadLevel.MULTIPLE)
        from mpi4py import MPI
        MPI.pickle.PROTOCOL = 5  # mpi4py's default on Python >= 3.8, made explicit
        self.MPI = MPI
        self.world = oompi.Comm.world()
        self.comm4py = MPI.COMM_WORLD
        self.rank = self.world.rank
        self.peer = 1 - self.rank
        self.first = self.rank == 0

    def round_trips(self):
        """(oompi wire, oompi pickle, mpi4py): fn(obj, iters, type) runs `iters` round trips of
        obj (rank 0 sends, rank 1 sends back what it got) -> (seconds, rank 0's last copy)."""
        world, comm, peer, first = self.world, self.comm4py, self.peer, self.first

        def oompi_wire(obj, iters, t):
            t0 = clock()
            for _ in range(iters):
                if first:
                    world.osend(obj, peer, 0, t)
                    obj = world.orecv(peer, 0, t)
                else:
                    world.osend(world.orecv(peer, 0, t), peer, 0, t)
            return clock() - t0, obj

        def oompi_pickle(obj, iters, t=None):
            t0 = clock()
            for _ in range(iters):
                if first:
                    world.osend(obj, peer, 0)
                    obj = world.orecv(peer, 0)
                else:
                    world.osend(world.orecv(peer, 0), peer, 0)
            return clock() - t0, obj

        def mpi4py(obj, iters, t=None):
            t0 = clock()
            for _ in range(iters):
                if first:
                    comm.send(obj, peer, 0)
                    obj = comm.recv(None, peer, 0)
                else:
                    comm.send(comm.recv(None, peer, 0), peer, 0)
            return clock() - t0, obj

        return oompi_wire, oompi_pickle, mpi4py


def local_loop(encode, decode):
    """fn(obj, iters, type): `iters` times obj = decode(encode(obj, type), type), on one rank."""
    def run(obj, iters, t):
        t0 = clock()
        for _ in range(iters):
            obj = decode(encode(obj, t), t)
        return clock() - t0, obj
    return run


def run_on_big_stack(body, stack_bytes=512 << 20):
    """body() on a thread with a big stack (pickle recurses once per level of a deep graph) and
    the recursion limit raised; returns its result, or raises its exception here."""
    import sys
    sys.setrecursionlimit(1 << 20)
    result = []

    def run():
        try:
            result.append((True, body()))
        except BaseException as e:  # re-raised after the thread ends
            result.append((False, e))

    threading.stack_size(stack_bytes)
    t = threading.Thread(target=run)
    t.start()
    t.join()
    ok, value = result[0]
    if not ok:
        raise value
    return value
