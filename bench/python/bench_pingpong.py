"""Python ping-pong between ranks 0 and 1: raw C, oompi and mpi4py in one process, interleaved.

Benches reported (JSON lines, docs/bench.md):
  python_pingpong          NumPy buffers, 1 B ... 4 MiB; baseline raw C (MPI_Send/MPI_Recv
                           timed in C, same process); systems oompi, mpi4py
  python_pingpong_mpi4py   the same samples as ratios to mpi4py (issue 7: oompi <= 0.5x at 8 B)

Options: --rounds=N --first-round=R --block-ms=T --max-seconds=S --sizes=a,b --quick
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import oompi  # noqa: E402
from benchlib import Sink, options, run_interleaved  # noqa: E402

env = oompi.Environment(oompi.ThreadLevel.MULTIPLE)
from mpi4py import MPI  # noqa: E402  (MPI already initialised: mpi4py adopts it)

import oompi_bench_rawc as rawc  # noqa: E402

world = oompi.Comm.world()
comm4py = MPI.COMM_WORLD
rank = world.rank
if world.size != 2:
    if rank == 0:
        print("bench_pingpong: run with exactly 2 ranks", file=sys.stderr)
    sys.exit(2)
peer = 1 - rank
first = rank == 0
clock = time.perf_counter


# Each system's block: `iters` round trips written the way a user of that system writes them.
def block_raw_c(buf, iters):
    return rawc.pingpong(buf, peer, iters, first)


def block_oompi(buf, iters):
    t0 = clock()
    if first:
        for _ in range(iters):
            world.send(buf, peer, 0)
            world.recv(buf, peer, 0)
    else:
        for _ in range(iters):
            world.recv(buf, peer, 0)
            world.send(buf, peer, 0)
    return clock() - t0


def block_mpi4py(buf, iters):
    t0 = clock()
    if first:
        for _ in range(iters):
            comm4py.Send(buf, peer, 0)
            comm4py.Recv(buf, peer, 0)
    else:
        for _ in range(iters):
            comm4py.Recv(buf, peer, 0)
            comm4py.Send(buf, peer, 0)
    return clock() - t0


SYSTEMS = [
    ("raw_c", block_raw_c, "raw C MPI_Send/MPI_Recv (timed in C, same process)"),
    ("oompi", block_oompi, "oompi world.send(a, peer, 0) / world.recv(a, peer, 0), NumPy uint8"),
    ("mpi4py", block_mpi4py, "mpi4py comm.Send(a, peer, 0) / comm.Recv(a, peer, 0), NumPy uint8"),
]


def main():
    opt = options()
    quick = "quick" in opt
    rounds = int(opt.get("rounds", 3 if quick else 200))
    first_round = int(opt.get("first-round", 0))
    block_ms = float(opt.get("block-ms", 0.5 if quick else 1.0))
    max_seconds = float(opt.get("max-seconds", 10 if quick else 60))
    if "sizes" in opt:
        sizes = [int(s) for s in opt["sizes"].split(",")]
    elif quick:
        sizes = [8, 1024, 1 << 20]
    else:
        sizes = [1, 8, 64, 1024, 16384, 1 << 18, 1 << 22]
    bufs = {s: np.full(s, 7, dtype=np.uint8) for s in sizes}

    def calibrate(size):
        # Round trips per block from the slowest system, so every block lasts about block_ms.
        per = 0.0
        for _, fn, _ in SYSTEMS:
            fn(bufs[size], 4)
            per = max(per, fn(bufs[size], 20) / 20)
        n = max(1, min(100000, int(block_ms * 1e-3 / max(per, 1e-8))))
        return _bcast_int(n)

    sink = Sink()
    labels = {name: label for name, _, label in SYSTEMS}
    metrics = {"latency_us": {"label": "one-way latency", "unit": "µs", "better": "lower",
                              "plot": "loglog"}}
    notes = ["Rank 0 times a block of round trips per system; latency = block time / (2 × round "
             "trips). raw C is a loop in C (MPI_Send/MPI_Recv) called once per block from the "
             "same Python process; oompi and mpi4py loops are Python code as a user writes it.",
             "Systems interleaved block by block, order shuffled every round; the median of "
             "per-round ratios is reported."]
    if rank == 0:
        sink.add(type="meta", bench="python_pingpong", title="Python ping-pong (NumPy) between "
                 "2 ranks", baseline="raw_c", systems=[s[0] for s in SYSTEMS],
                 system_labels=labels, case_label="message size", case_format="bytes",
                 metrics=metrics, notes=notes, mpi=MPI.Get_library_version().splitlines()[0],
                 targets=[{"metric": "latency_us", "case": "8", "system": "oompi",
                           "max_ratio": 2.5, "text": "issue 7: 8-byte NumPy latency ≤ 2.5× raw C"}])
        sink.add(type="meta", bench="python_pingpong_mpi4py", title="Python ping-pong (NumPy), "
                 "relative to mpi4py", baseline="mpi4py", systems=["mpi4py", "oompi", "raw_c"],
                 system_labels=labels, case_label="message size", case_format="bytes",
                 metrics=metrics, notes=["The samples of python_pingpong, as ratios to mpi4py."],
                 targets=[{"metric": "latency_us", "case": "8", "system": "oompi",
                           "max_ratio": 0.5,
                           "text": "issue 7: 8-byte NumPy latency ≤ 0.5× mpi4py's"}])

    systems = [(name, fn, lambda s: True) for name, fn, _ in SYSTEMS]

    def block(fn, size, iters):
        return fn(bufs[size], iters)

    def value(t, iters, size):
        return t / (2 * iters) * 1e6

    inner = Sink()
    done = run_interleaved(rank, rawc.bcast_flag, sizes, systems, block, inner,
                           "python_pingpong", "latency_us", rounds, first_round, max_seconds,
                           calibrate, value)
    for r in inner.records:
        sink.records.append(r)
        sink.records.append(dict(r, bench="python_pingpong_mpi4py"))
    if rank == 0:
        if done < rounds:
            print(f"bench_pingpong: stopped after {done} of {rounds} rounds", file=sys.stderr)
        sink.flush()


def _bcast_int(n):
    a = np.array([n], dtype=np.int64)
    world.bcast(a, 0)
    return int(a[0])


main()
world.barrier()
env.close()
