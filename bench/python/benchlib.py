"""Shared pieces of the Python benches (conventions of docs/bench.md): --key=value options,
JSON-lines records printed at the end, the per-round shuffled order of systems, and the
interleaved runner (one short block of each system per case and round, ratios within a round).
"""
import json
import random
import sys


def options(argv=None):
    opts = {}
    for a in (sys.argv[1:] if argv is None else argv):
        if a.startswith("--"):
            k, _, v = a[2:].partition("=")
            opts[k] = v if _ else "1"
    return opts


def round_order(n, rnd):
    order = list(range(n))
    random.Random(rnd * 7919 + 17).shuffle(order)  # same order on every rank
    return order


class Sink:
    """Collects records during the run; printed at the end (no I/O inside measurements)."""

    def __init__(self):
        self.records = []

    def add(self, **rec):
        self.records.append(rec)

    def sample(self, bench, case, system, rnd, metric, value):
        self.add(type="sample", bench=bench, case=str(case), system=system, round=rnd,
                 metric=metric, value=value)

    def flush(self):
        for r in self.records:
            print(json.dumps(r))
        sys.stdout.flush()


def run_interleaved(rank, bcast_flag, cases, systems, block, sink, bench, metric, rounds,
                    first_round, max_seconds, calibrate, to_value):
    """For each round and case, one block of every system in a shuffled order.

    systems: list of (name, fn, applies(case)); block(fn, case, iters) -> seconds (rank 0's figure) runs
    `iters` repetitions. calibrate(case) -> iters per block (same on all ranks). to_value turns
    (seconds, iters, case) into the metric's value. Rank 0 records, rank 0 decides when to stop.
    """
    import time
    iters = {c: calibrate(c) for c in cases}
    start = time.monotonic()
    done = 0
    for r in range(-1, rounds):
        if r > 0:
            go = rank != 0 or time.monotonic() - start < max_seconds
            if not bcast_flag(go):
                break
        rnd = first_round + r
        if r >= 0:
            done += 1
        for c in cases:
            here = [s for s in systems if s[2](c)]
            for k in round_order(len(here), max(rnd, 0)):
                name, fn, _ = here[k]
                t = block(fn, c, iters[c])
                if rank == 0 and r >= 0:
                    sink.sample(bench, c, name, rnd, metric, to_value(t, iters[c], c))
    return done
