"""Master/worker by spawn: the job started by mpirun spawns worker processes (this script
again, which finds its parent), and its rank 0 hands out tasks one at a time to whichever
worker is free, collects the results and checks them.

    mpirun -np 1 python3 master_worker.py [workers] [tasks]

A task is a number k; its result is the sum of i² for i < k, which the master checks against
(k - 1) k (2k - 1) / 6. Workers leave when told to stop; both sides then disconnect.
"""
import sys
import threading
import time

import numpy as np

import oompi

TASK, STOP, RESULT = 1, 2, 3

# Open MPI 4.1 with Debian's external PMIx 4 sometimes never finishes starting a spawned
# process (openpmix/openpmix#2735, docs/dynamic.md): a spawn that has not returned after 40 s
# aborts the job with exit code 75, which the test registration retries.
_spawn_since = [0.0]


def _watchdog():
    while True:
        time.sleep(0.2)
        if _spawn_since[0] and time.monotonic() - _spawn_since[0] > 40:
            print("master_worker.py: MPI_Comm_spawn hung (openpmix/openpmix#2735); aborting",
                  file=sys.stderr, flush=True)
            oompi.Environment.abort(75)


def worker(parent):
    task = np.zeros(2, dtype=np.int64)  # [task id, k]
    while True:
        st = parent.recv(task, 0, oompi.ANY_TAG)
        if st.tag == STOP:
            break
        k = int(task[1])
        result = np.array([task[0], sum(i * i for i in range(k))], dtype=np.int64)
        parent.send(result, 0, RESULT)
    parent.disconnect()


def master(world, nworkers, ntasks):
    threading.Thread(target=_watchdog, daemon=True).start()
    _spawn_since[0] = time.monotonic()
    workers = world.spawn(sys.executable, [__file__], nworkers, 0)
    _spawn_since[0] = 0.0
    if world.rank == 0:
        ks = [50 + 37 * t for t in range(ntasks)]
        results = {}
        next_task = 0
        # One task to each worker, then the next one to whichever answers first.
        for w in range(workers.remote_size):
            if next_task < ntasks:
                workers.send(np.array([next_task, ks[next_task]], dtype=np.int64), w, TASK)
                next_task += 1
        busy = min(workers.remote_size, ntasks)
        done_by = [0] * workers.remote_size
        got = np.zeros(2, dtype=np.int64)
        while busy:
            st = workers.recv(got, oompi.ANY_SOURCE, RESULT)
            results[int(got[0])] = int(got[1])
            done_by[st.source] += 1
            if next_task < ntasks:
                workers.send(np.array([next_task, ks[next_task]], dtype=np.int64), st.source, TASK)
                next_task += 1
            else:
                busy -= 1
        for w in range(workers.remote_size):
            workers.send(np.zeros(2, dtype=np.int64), w, STOP)
        wrong = [t for t in range(ntasks)
                 if results.get(t) != (ks[t] - 1) * ks[t] * (2 * ks[t] - 1) // 6]
        print(f"{ntasks} tasks done by {workers.remote_size} workers (per worker: {done_by}); "
              f"{len(wrong)} wrong")
        if wrong or len(results) != ntasks:
            raise SystemExit(f"master: wrong or missing results for tasks {wrong}")
    workers.disconnect()


with oompi.Environment():
    parent = oompi.Intercomm.parent()
    if not parent.is_null():
        worker(parent)
    elif "MPICH" in oompi.Environment.library_version():
        print("SKIP: Debian's MPICH 4.0 cannot spawn (docs/dynamic.md)")
        sys.exit(77)
    else:
        master(oompi.Comm.world(), int(sys.argv[1]) if len(sys.argv) > 1 else 3,
               int(sys.argv[2]) if len(sys.argv) > 2 else 20)
