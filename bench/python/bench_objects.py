"""Python objects between ranks 0 and 1: oompi vs mpi4py in one process, interleaved.

Benches reported (JSON lines, docs/bench.md):
  python_objects       ping-pong of a pickled object (a small dict; a dict holding a 1 MiB NumPy
                       array, which oompi sends out of band); baseline mpi4py's send/recv
                       (issue 7: oompi's pickled-object latency <= mpi4py's)
  python_objects_list  round trip of a linked list of N nodes (4 KiB of int32 in all, seed 004's
                       experiment): oompi Transportable (wire v1) vs oompi pickle vs mpi4py pickle;
                       baseline mpi4py pickle (issue 7: Transportable >= 2x faster at N >= 256)

Options: --rounds=N --first-round=R --max-seconds=S --sizes=1,16,... --quick
"""
import os
import sys
from dataclasses import dataclass, field
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import oompi  # noqa: E402
from benchlib import Sink, options, run_interleaved  # noqa: E402
from objectlib import Peers, run_on_big_stack  # noqa: E402

peers = Peers()
MPI = peers.MPI

import oompi_bench_rawc as rawc  # noqa: E402

world = peers.world
rank = world.rank
first = peers.first
rt_oompi_wire_of, rt_oompi_pickle_of, rt_mpi4py_of = peers.round_trips()


@oompi.transportable
@dataclass(eq=False)
class Node:
    data: list[oompi.int32] = field(default_factory=list)
    next: Optional["Node"] = None


NODE = oompi.Ref(Node)


def make_list(n):
    per = [1024 // n + (1 if i < 1024 % n else 0) for i in range(n)]
    head = None
    for i in reversed(range(n)):
        head = Node(list(range(per[i])), head)
    return head


def list_ok(head, n):
    count = ints = 0
    while head is not None:
        count += 1
        ints += len(head.data)
        head = head.next
    return count == n and ints == 1024


# Each system: `iters` round trips of obj (rank 0 sends, rank 1 sends back what it got).
def rt_oompi_pickle(obj, iters):
    return rt_oompi_pickle_of(obj, iters)


def rt_oompi_wire(obj, iters):
    return rt_oompi_wire_of(obj, iters, NODE)


def rt_mpi4py(obj, iters):
    return rt_mpi4py_of(obj, iters)


def bcast_int(n):
    a = np.array([n], dtype=np.int64)
    world.bcast(a, 0)
    return int(a[0])


def run(opt, sink):
    quick = "quick" in opt
    rounds = int(opt.get("rounds", 3 if quick else 40))
    first_round = int(opt.get("first-round", 0))
    max_seconds = float(opt.get("max-seconds", 15 if quick else 60))
    mpi = MPI.Get_library_version().splitlines()[0]

    # --- pickled objects ------------------------------------------------------------------
    objs = {"dict": {"step": 17, "x": 0.25, "name": "particle", "ids": [1, 2, 3]},
            "dict_1MiB_array": {"step": 17, "a": np.arange(1 << 17, dtype=np.float64)}}
    psys = [("oompi", rt_oompi_pickle, "oompi world.osend(obj, peer, 0) / world.orecv(peer, 0)"),
            ("mpi4py", rt_mpi4py, "mpi4py comm.send(obj, peer, 0) / comm.recv(None, peer, 0)")]
    if rank == 0:
        sink.add(type="meta", bench="python_objects", title="Python pickled objects, ping-pong "
                 "between 2 ranks", baseline="mpi4py", systems=[s[0] for s in psys],
                 system_labels={s[0]: s[2] for s in psys}, case_label="object",
                 metrics={"latency_us": {"label": "one-way latency", "unit": "µs",
                                         "better": "lower"}}, mpi=mpi,
                 notes=["Pickle protocol 5 in both; oompi sends buffers of 64 KiB and more out "
                        "of band (no copy into the pickle); mpi4py pickles them in band."],
                 targets=[{"metric": "latency_us", "case": "dict", "system": "oompi",
                           "max_ratio": 1.0,
                           "text": "issue 7: pickled-object latency ≤ mpi4py's"}])
    block_ms = 2.0

    def calib_p(case):
        per = 0.0
        for _, fn, _ in psys:
            fn(objs[case], 2)
            per = max(per, fn(objs[case], 10)[0] / 10)
        return bcast_int(max(1, min(20000, int(block_ms * 1e-3 / max(per, 1e-8)))))

    run_interleaved(rank, rawc.bcast_flag, list(objs), [(n, f, lambda c: True) for n, f, _ in psys],
                    lambda fn, case, it: fn(objs[case], it)[0], sink, "python_objects",
                    "latency_us", rounds, first_round, max_seconds / 2, calib_p,
                    lambda t, it, case: t / (2 * it) * 1e6)

    # --- linked lists ---------------------------------------------------------------------
    sizes = ([int(s) for s in opt["sizes"].split(",")] if "sizes" in opt else
             [1, 16, 256, 4096] if quick else [1, 16, 256, 1024, 4096, 16384])
    lists = {n: make_list(n) for n in sizes}
    lsys = [("oompi_wire", rt_oompi_wire, "oompi Transportable (wire v1): world.osend(head, "
             "peer, 0, oompi.Ref(Node)) / world.orecv(peer, 0, oompi.Ref(Node))"),
            ("oompi_pickle", rt_oompi_pickle, "oompi pickle: world.osend(head, peer, 0) / "
             "world.orecv(peer, 0)"),
            ("mpi4py", rt_mpi4py, "mpi4py pickle protocol 5: comm.send(head, peer, 0) / "
             "comm.recv(...)")]
    if rank == 0:
        sink.add(type="meta", bench="python_objects_list", title="Python linked list of N nodes "
                 "(4 KiB of int32 in all), round trip between 2 ranks", baseline="mpi4py",
                 systems=[s[0] for s in lsys], system_labels={s[0]: s[2] for s in lsys},
                 case_label="nodes", metrics={"roundtrip_us": {
                     "label": "round trip", "unit": "µs", "better": "lower", "plot": "loglog"}},
                 mpi=mpi, notes=["Serialization, allocation of the received list and the "
                                 "release of the previous one included (the same in every "
                                 "system). Pickle recursion needs a deep stack: everything runs "
                                 "on a thread with a 512 MiB stack."],
                 targets=[{"metric": "roundtrip_us", "case": str(n), "system": "oompi_wire",
                           "max_ratio": 0.5, "text": "issues 7, 16: Transportable list ≤ 0.5× "
                           "pickle-5 + mpi4py (N = %d)" % n} for n in sizes if n >= 256])

    def calib_l(n):
        per = 0.0
        for _, fn, _ in lsys:
            fn(lists[n], 1)
            per = max(per, fn(lists[n], 2)[0] / 2)
        return bcast_int(max(1, min(2000, int(4e-3 / max(per, 1e-8)))))

    def block_l(fn, n, iters):
        t, got = fn(lists[n], iters)
        if first and not list_ok(got, n):
            raise RuntimeError("bench_objects: the list came back wrong")
        return t

    run_interleaved(rank, rawc.bcast_flag, sizes, [(n, f, lambda c: True) for n, f, _ in lsys],
                    block_l, sink, "python_objects_list", "roundtrip_us", rounds, first_round,
                    max_seconds, calib_l, lambda t, it, n: t / it * 1e6)


def main():
    opt = options()
    if world.size != 2:
        if rank == 0:
            print("bench_objects: run with exactly 2 ranks", file=sys.stderr)
        return 2
    sink = Sink()
    run_on_big_stack(lambda: run(opt, sink))
    if rank == 0:
        sink.flush()
    return 0


rc = main()
world.barrier()
peers.env.close()
sys.exit(rc)
