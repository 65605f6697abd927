"""Python object graphs other than the linked list: binary trees, flat records and a DAG of shared
subtrees, between ranks 0 and 1, oompi vs pickle protocol 5 + mpi4py in one process, interleaved.
The same shapes as bench/bench_object_graphs.cpp (C++), JavaGraphsBench.java, ObjectShapes.cs.

Benches reported (JSON lines, docs/bench.md):
  python_objects_tree     a complete binary tree of N = 255, 4095, 65535 nodes
                          {int32 id; float value; 8-12 char str; left; right}, sent as its root
  python_objects_records  a list of N = 1000, 100000 records {int key; 10-20 char str;
                          4 floats; bool}, no references
  python_objects_dag      the tree's node linked as a DAG: a binary tree for 7 levels (127 nodes),
                          then levels of 64 where node j links to nodes 2j and 2j+1 (mod 64) of the
                          next, so every node below level 7 has two parents (N = 255, 4095, 65535)
Systems:
  oompi_wire    Transportable classes (wire v1, shared references kept): world.osend(root, peer,
                0, T) / world.orecv(peer, 0, T); local: oompi.wire.dumps / loads
  oompi_pickle  world.osend(root, peer, 0) / world.orecv(peer, 0) (pickle protocol 5); round trip
                only (its local work is pickle's)
  mpi4py        (baseline) comm.send / comm.recv, pickle protocol 5 (pickle keeps shared
                references too); local: pickle.dumps(obj, 5) / pickle.loads, what they run
Metrics: roundtrip_us (rank 0 -> 1 -> 0, serialization, allocation and release included) and
local_us (encode + decode on rank 0 alone while rank 1 sleeps). Target (issue 28): oompi_wire
<= 0.5x pickle-5 on every shape, size and metric.

Options: --shapes=tree,records,dag --sizes=... (with one shape) --rounds=N --first-round=R
         --block-ms=T --max-seconds=S (per shape) --quick
"""
import os
import pickle
import sys
import time
from dataclasses import dataclass, field
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import oompi  # noqa: E402
from benchlib import Sink, options, round_order  # noqa: E402
from objectlib import Peers, local_loop, run_on_big_stack  # noqa: E402

peers = Peers()
MPI = peers.MPI

import oompi_bench_rawc as rawc  # noqa: E402

world = peers.world
first = peers.first


@oompi.transportable
@dataclass(eq=False)
class TreeNode:
    id: oompi.int32 = 0
    value: float = 0.0
    name: str = ""
    left: Optional["TreeNode"] = None
    right: Optional["TreeNode"] = None


@oompi.transportable
@dataclass(eq=False)
class Record:
    key: int = 0
    name: str = ""
    v: list[float] = field(default_factory=list)
    flag: bool = False


def name_of(i, shortest, spread):
    n = shortest + i % spread
    return ("n%d" % i).ljust(n, "_")[:n]


def make_tree(n):
    nodes = [TreeNode(i, i * 0.5, name_of(i, 8, 5)) for i in range(n)]
    for i, x in enumerate(nodes):
        if 2 * i + 1 < n:
            x.left = nodes[2 * i + 1]
        if 2 * i + 2 < n:
            x.right = nodes[2 * i + 2]
    return nodes[0] if nodes else None


DAG_WIDTH, DAG_TREE_LEVELS = 64, 7  # 127 nodes of tree, then levels of 64


def make_dag(n):
    levels, made, level = [], 0, 0
    while made < n:
        width = min(1 << level if level < DAG_TREE_LEVELS else DAG_WIDTH, n - made)
        levels.append([TreeNode(made + j, (made + j) * 0.5, name_of(made + j, 8, 5))
                       for j in range(width)])
        made += width
        level += 1
    for upper, nxt in zip(levels, levels[1:]):
        for j, x in enumerate(upper):
            if 2 * j < len(nxt) or len(upper) == DAG_WIDTH:
                x.left = nxt[(2 * j) % len(nxt)]
            if 2 * j + 1 < len(nxt) or len(upper) == DAG_WIDTH:
                x.right = nxt[(2 * j + 1) % len(nxt)]
    return levels[0][0] if levels else None


def check_graph(root, n):
    """N distinct nodes reached (a DAG copied as a tree has more), each as built."""
    seen, todo, ids = set(), [root], 0
    while todo:
        x = todo.pop()
        if x is None or id(x) in seen:
            continue
        seen.add(id(x))
        ids += x.id
        if x.value != x.id * 0.5 or x.name != name_of(x.id, 8, 5):
            return False
        todo.append(x.left)
        todo.append(x.right)
    return len(seen) == n and ids == n * (n - 1) // 2


def make_records(n):
    return [Record(i * 1000003, name_of(i, 10, 11), [i, i + 0.25, i + 0.5, i + 0.75], i % 3 == 0)
            for i in range(n)]


def check_records(got, n):
    return len(got) == n and all(
        r.key == i * 1000003 and r.name == name_of(i, 10, 11) and r.flag == (i % 3 == 0)
        and r.v == [i, i + 0.25, i + 0.5, i + 0.75] for i, r in enumerate(got))


SHAPES = {  # bench, title, case label, make, check, wire type, sizes, quick sizes
    "tree": ("python_objects_tree", "Python binary tree of N nodes {int32; float; 8-12 char str; "
             "left; right}, round trip between 2 ranks", "nodes", make_tree, check_graph,
             oompi.Ref(TreeNode), [255, 4095, 65535], [255, 4095]),
    "records": ("python_objects_records", "Python list of N flat records {int; 10-20 char str; "
                "4 floats; bool}, round trip between 2 ranks", "records", make_records,
                check_records, list[Record], [1000, 100000], [1000]),
    "dag": ("python_objects_dag", "Python DAG of N tree nodes, subtrees shared by two parents "
            "below level 7, round trip between 2 ranks", "DAG nodes", make_dag, check_graph,
            oompi.Ref(TreeNode), [255, 4095, 65535], [255, 4095]),
}


# --- the systems ------------------------------------------------------------------------------
rt_oompi_wire, rt_oompi_pickle, rt_mpi4py = peers.round_trips()
local_wire = local_loop(oompi.wire.dumps, oompi.wire.loads)
local_pickle = local_loop(lambda obj, t: pickle.dumps(obj, 5), lambda data, t: pickle.loads(data))

SYSTEMS = [  # name, round trip, local (None: not measured), label
    ("oompi_wire", rt_oompi_wire, local_wire,
     "oompi Transportable (wire v1): world.osend(root, peer, 0, T) / world.orecv(peer, 0, T); "
     "local: oompi.wire.dumps / loads"),
    ("oompi_pickle", rt_oompi_pickle, None,
     "oompi pickle protocol 5: world.osend(root, peer, 0) / world.orecv(peer, 0)"),
    ("mpi4py", rt_mpi4py, local_pickle,
     "pickle protocol 5 + mpi4py: comm.send(root, peer, 0) / comm.recv(None, peer, 0); local: "
     "pickle.dumps(root, 5) / pickle.loads"),
]


def bcast_int(n):
    return int(peers.comm4py.bcast(int(n), 0))


def polite_barrier():
    """A barrier rank 1 waits in asleep (rank 0's local timing has the CPU to itself)."""
    req = world.ibarrier()
    while req.test() is None:
        time.sleep(0.0005)


def iterations(seconds_per_iter, block_ms):
    return max(1, min(100000, int(block_ms * 1e-3 / max(seconds_per_iter, 1e-7)) + 1))


def run_shape(which, opt, sink, only):
    bench, title, label, make, check, wtype, sizes, quick_sizes = SHAPES[which]
    quick = "quick" in opt
    rounds = int(opt.get("rounds", 3 if quick else 40))
    first_round = int(opt.get("first-round", 0))
    block_ms = float(opt.get("block-ms", 2 if quick else 10))
    seconds = float(opt.get("max-seconds", 10 if quick else 90))
    if only and "sizes" in opt:
        sizes = [int(s) for s in opt["sizes"].split(",")]
    elif quick:
        sizes = quick_sizes
    if first:
        sink.add(type="meta", bench=bench, title=title, baseline="mpi4py",
                 systems=[s[0] for s in SYSTEMS], system_labels={s[0]: s[3] for s in SYSTEMS},
                 case_label=label, mpi=MPI.Get_library_version().splitlines()[0],
                 metrics={"roundtrip_us": {"label": "round trip", "unit": "µs", "better": "lower",
                                           "plot": "loglog"},
                          "local_us": {"label": "encode + decode on one rank, no MPI", "unit": "µs",
                                       "better": "lower", "plot": "loglog"}},
                 notes=["Round trip = rank 0 sends its value, rank 1 receives it (a new one), "
                        "sends that back, rank 0 receives it; encoding, allocation and release "
                        "included. Systems interleaved block by block, order shuffled every "
                        "round; ratios are medians of per-round ratios.",
                        "local_us: encode + decode on rank 0 while rank 1 sleeps (oompi_pickle's "
                        "is pickle's, measured as mpi4py's).",
                        "Everything runs on a thread with a 512 MiB stack (pickle recurses once "
                        "per level of the DAG, about 1,000 levels at 65535 nodes)."],
                 targets=[{"metric": m, "case": str(n), "system": "oompi_wire", "max_ratio": 0.5,
                           "text": "issue 28: %s of %d, %s, ≤ 0.5× pickle-5" % (
                               which, n, "round trip" if m == "roundtrip_us" else
                               "encode + decode")}
                          for n in sizes for m in ("roundtrip_us", "local_us")])
    ok = True
    for n in sizes:
        value = make(n)
        # calibration and warm-up: every system once, the slowest sets the block length
        per = max(fn(value, 2, wtype)[0] / 2 for _, fn, _, _ in SYSTEMS)
        iters = bcast_int(iterations(per, block_ms))
        local_iters = 1
        if first:
            per = max(fn(value, 2, wtype)[0] / 2 for _, _, fn, _ in SYSTEMS if fn)
            local_iters = iterations(per, block_ms)
        polite_barrier()
        start = time.monotonic()
        for r in range(rounds):  # at least 3 rounds a size, then while its share of the time lasts
            go = not first or r < 3 or time.monotonic() - start < seconds / len(sizes)
            if not rawc.bcast_flag(go):
                break
            rnd = first_round + r
            rt, loc = {}, {}
            for k in round_order(len(SYSTEMS), rnd):
                name, fn, _, _ = SYSTEMS[k]
                rt[name], got = fn(value, iters, wtype)
                if first and r == 0 and not check(got, n):
                    ok = False
                    sink.add(type="error", bench=bench,
                             text="%s: the value came back wrong at N = %d" % (name, n))
                del got
            if first:
                for k in round_order(len(SYSTEMS), rnd + 1000):
                    name, _, fn, _ = SYSTEMS[k]
                    if fn:
                        loc[name], got = fn(value, local_iters, wtype)
                        if r == 0 and not check(got, n):
                            ok = False
                            sink.add(type="error", bench=bench, text="%s: the local copy is "
                                     "wrong at N = %d" % (name, n))
                        del got
            polite_barrier()
            if not first:
                continue
            for name, t in rt.items():
                sink.sample(bench, n, name, rnd, "roundtrip_us", t / iters * 1e6)
            for name, t in loc.items():
                sink.sample(bench, n, name, rnd, "local_us", t / local_iters * 1e6)
    return ok


def main():
    opt = options()
    if world.size != 2:
        if first:
            print("bench_object_graphs: run with exactly 2 ranks", file=sys.stderr)
        return 2
    shapes = opt.get("shapes", "tree,records,dag").split(",")
    bad = [s for s in shapes if s not in SHAPES]
    if bad:
        if first:
            print("bench_object_graphs: unknown shape(s) %s (tree, records, dag)" % bad,
                  file=sys.stderr)
        return 2
    sink = Sink()
    ok = run_on_big_stack(lambda: all([run_shape(s, opt, sink, len(shapes) == 1) for s in shapes]))
    if first:
        sink.flush()
    return 0 if ok else 1


rc = main()
world.barrier()
peers.env.close()
sys.exit(rc)
