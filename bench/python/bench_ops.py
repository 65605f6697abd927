"""User-op allreduce on 2 ranks: a reduction function written in Python with oompi
(Op.create(callable), a UserFunction subclass) and with mpi4py (Op.Create), against the same
function written in C (MPI_Op_create, the loop timed in C), in one process, interleaved.

Bench python_ops (baseline raw_c), cases: 1 and 1024 doubles. Options: --rounds=N --quick
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import oompi  # noqa: E402
from benchlib import Sink, options, run_interleaved  # noqa: E402

env = oompi.Environment(oompi.ThreadLevel.MULTIPLE)
from mpi4py import MPI  # noqa: E402

import oompi_bench_rawc as rawc  # noqa: E402

world = oompi.Comm.world()
comm4py = MPI.COMM_WORLD
clock = time.perf_counter


class Add(oompi.UserFunction):
    def apply(self, invec, inoutvec, datatype):
        inoutvec += invec


def _add4py(inbuf, inoutbuf, datatype):
    a = np.frombuffer(inbuf, dtype=np.float64)
    b = np.frombuffer(inoutbuf, dtype=np.float64)
    b += a


op_callable = oompi.Op.create(lambda a, b, dt: np.add(a, b, out=b), commute=True)
op_director = oompi.Op.create(Add(), commute=True)
op_mpi4py = MPI.Op.Create(_add4py, commute=True)

bufs = {n: (np.arange(n, dtype=np.float64), np.zeros(n)) for n in (1, 1024)}


def block_raw_c(n, iters):
    return rawc.allreduce_user(bufs[n][0], iters)


def make_oompi(op):
    def block(n, iters):
        a, b = bufs[n]
        t0 = clock()
        for _ in range(iters):
            world.allreduce(a, b, op)
        return clock() - t0
    return block


def block_mpi4py(n, iters):
    a, b = bufs[n]
    t0 = clock()
    for _ in range(iters):
        comm4py.Allreduce(a, b, op_mpi4py)
    return clock() - t0


SYSTEMS = [("raw_c", block_raw_c, "C user function (MPI_Op_create), loop in C"),
           ("oompi", make_oompi(op_callable), "oompi Op.create(lambda a, b, dt: np.add(a, b, out=b))"),
           ("oompi_director", make_oompi(op_director), "oompi UserFunction subclass (director)"),
           ("mpi4py", block_mpi4py, "mpi4py MPI.Op.Create(fn) over np.frombuffer views")]


def main():
    opt = options()
    quick = "quick" in opt
    rounds = int(opt.get("rounds", 3 if quick else 100))
    sink = Sink()
    if world.rank == 0:
        sink.add(type="meta", bench="python_ops", title="Python user-op allreduce (2 ranks)",
                 baseline="raw_c", systems=[s[0] for s in SYSTEMS],
                 system_labels={s[0]: s[2] for s in SYSTEMS}, case_label="doubles",
                 metrics={"allreduce_us": {"label": "allreduce", "unit": "µs",
                                           "better": "lower"}},
                 mpi=MPI.Get_library_version().splitlines()[0],
                 notes=["The reduction runs on the rank that MPI picks; with 2 ranks one "
                        "upcall per allreduce."])

    def calibrate(n):
        per = 0.0
        for _, fn, _ in SYSTEMS:
            fn(n, 4)
            per = max(per, fn(n, 20) / 20)
        a = np.array([max(1, min(20000, int(1e-3 / max(per, 1e-8))))], dtype=np.int64)
        world.bcast(a, 0)
        return int(a[0])

    check = np.zeros(4)
    world.allreduce(np.ones(4), check, op_director)
    assert (check == world.size).all()
    run_interleaved(world.rank, rawc.bcast_flag, [1, 1024],
                    [(n, f, lambda c: True) for n, f, _ in SYSTEMS],
                    lambda fn, n, it: fn(n, it), sink, "python_ops", "allreduce_us", rounds,
                    int(opt.get("first-round", 0)), float(opt.get("max-seconds", 30)),
                    calibrate, lambda t, it, n: t / it * 1e6)
    if world.rank == 0:
        sink.flush()


main()
world.barrier()
env.close()
