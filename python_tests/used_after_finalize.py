"""A program that keeps using its communicator after `with oompi.Environment()` has ended: every
call (NumPy arrays of each size, slices, bytearrays, nonblocking ones, collectives, objects,
probes) must raise an exception that says MPI is finalized; none may reach MPI, which aborts
the job after MPI_Finalize (orecv did, through its matched probe). Registered as
python.after_finalize: exit code 0 when every call raised, 1 with the list otherwise.
-v names each call before it runs (which one took the job down)."""
import sys

import numpy as np

import oompi

with oompi.Environment():
    world = oompi.Comm.world()
    rank, peer = world.rank, (world.rank + 1) % world.size
    world.barrier()
assert oompi.Environment.finalized()

wrong = []


def check(what, call):
    if "-v" in sys.argv:
        print("calling", what, file=sys.stderr, flush=True)
    try:
        call()
        wrong.append(what + ": returned")
    except Exception as e:  # the message must say why
        if "finalized" not in str(e):
            wrong.append(f"{what}: {e!r}")


for n in (8, 4096, 65536, 1 << 20):
    a, b, d = np.zeros(n, np.uint8), bytearray(n), np.zeros(n // 8 + 1)
    check(f"send(ndarray {n} B)", lambda: world.send(a, peer, 1))
    check(f"recv(ndarray {n} B)", lambda: world.recv(a, peer, 1))
    check(f"send(slice of {n} B)", lambda: world.send(a[3:], peer, 1))
    check(f"recv(bytearray {n} B)", lambda: world.recv(b, peer, 1))
    check(f"isend({n} B)", lambda: world.isend(a, peer, 1))
    check(f"irecv({n} B)", lambda: world.irecv(a, peer, 1))
    check(f"bcast({n} B)", lambda: world.bcast(d, 0))
    check(f"allreduce({n} B)", lambda: world.allreduce(d, d.copy(), oompi.SUM))
check("osend", lambda: world.osend({"a": 1}, peer, 1))
check("orecv", lambda: world.orecv(peer, 1))
check("iosend", lambda: world.iosend({"a": 1}, peer, 1))
check("iorecv", lambda: world.iorecv(peer, 1))
check("mprobe", lambda: world.mprobe(peer, 1))
check("barrier", world.barrier)
check("probe", lambda: world.probe(peer, 1))
check("iprobe", lambda: world.iprobe(peer, 1))
if wrong:
    print(f"rank {rank}: {len(wrong)} calls after MPI_Finalize did not raise:\n  " + "\n  ".join(wrong))
    sys.exit(1)
print(f"rank {rank}: every call after MPI_Finalize raised")
