"""Python objects over MPI: pickle (protocol 5) or, for declared Transportable classes, wire
format v1 (oompi.transportable). Installed on Comm as the o-prefixed methods that the C++, Java
and C# APIs also have (the plain names are the buffer calls):

    world.osend({"a": 1}, 1)             obj = world.orecv(0)
    obj = world.obcast(obj, root=0)      part = world.oscatter(items, root=0)
    items = world.ogather(obj, root=0)   items = world.oallgather(obj)
    got = world.oalltoall(items)         total = world.oreduce(x, oompi.SUM, root=0)
    req = world.iorecv(0); obj = req.wait()
    part = world.oscatterv(items, counts, root=0)
    nodes = world.oallgather(mine, type=list[oompi.Ref(Node)])   # wire v1: any language

Point-to-point messages: the pickle of the object. Large buffers inside it (NumPy arrays,
PickleBuffer, bytearray of at least OOB_MIN bytes) travel out of band, each as its own message
right after a small header, without being copied into the pickle. Receives of unknown size probe
first and allocate exactly (no guessed buffer). Sizes are 64-bit throughout: no 2 GiB limit on
point-to-point and broadcast messages.

Frames (one tag, in order, from one sender; the non-overtaking rule keeps them together):
  pickle bytes                                 (first byte 0x80: no out-of-band buffers)
  b"OOB1" u32 n, n * u64 size, pickle bytes    then n messages, one per out-of-band buffer
An object sent with ``type=`` (a Transportable class: by value; oompi.Ref(cls): a reference;
list[...]...) is one message of wire v1 bytes and nothing else, exactly what C++ osend/orecv
exchange; the receiver names the same type (``orecv(source, tag, type=Shape)``). Without
``type=`` on both sides, objects are pickled.

The collectives follow C++'s framing message for message (see "collectives" below), so with
``type=`` Python ranks take part with C++, Java and C# ranks; pickled collectives use the same
framing and fail fast, instead of hanging, against a rank that does not pickle.
"""

import importlib as _importlib
import sys as _sys

from . import core as _core
from . import transportable as _wire
from .object_codec import (  # noqa: F401  (the codes: part of this module's documented framing)
    FAILURE_ARGUMENT, FAILURE_SERIALIZE, LARGE_PATH, PICKLED, PICKLED_ARGUMENT, TAG_FORWARD,
    TAG_LARGE, TAG_REDUCE, TAG_REDUCE_FAILED, SerializationError, _Codec, _failed, _ints, _u64)
from .object_frames import (  # noqa: F401  (_decode_first: also the fuzz tests')
    OOB_MIN, _decode_first, _encode, _loads, _oob_sizes, _writable)
# The point-to-point calls; _osend_py, _recv_rest and _wire_loads are what the C methods osend
# and orecv (oompi_fastpath_objects.hpp) call back into, on this module.
from .object_p2p import (  # noqa: F401
    ObjectRequest, _orecv_py, _osend_py, _recv_rest, _wire_loads, iorecv, iosend, ossend)
from .object_reduce import oallreduce, oreduce

try:
    import numpy as _np
except ImportError:  # pragma: no cover - NumPy is a dependency of the tests, not of oompi
    _np = None


# --- collectives -------------------------------------------------------------------------------
#
# C++'s framing (include/oompi/object_ops.hpp; docs/wire-format.md section 3), message for
# message, so Python ranks take part with C++, Java and C# ranks: the private duplicate
# comm.object_comm(), {size, code} pairs of uint64 first (Bcast / Scatter / Allgather /
# Alltoall), then the bytes in one Bcast / Scatterv / Gatherv / Allgatherv / Alltoallv (above
# OBJECT_INT_LIMIT: point to point, tag 14, or one Bcast per rank), the split representation
# (each rank's slice a list of elements, its own graph), C++'s reduction tree (tags 11 to 13),
# and failures carried in the codes so that every rank raises and none is left waiting.
#
# With ``type=`` the objects are wire v1. Without it they are pickled in the same framing, and
# the code carries PICKLED | FAILURE_ARGUMENT: a C++/Java/C# rank (or a Python rank with type=)
# refuses at once ("invalid arguments on another rank"), and a pickling rank that hears a code
# without PICKLED raises a TypeError that says to pass type= everywhere.

# Above this many bytes the split collectives and oalltoall move their slices point to point
# (C++'s detail::object_int_limit); every rank of a job must use the same value (tests lower it).
OBJECT_INT_LIMIT = 0x7FFFFFFF


def obcast(self, obj, root=0, type=None):
    """Returns root's object on every rank: wire v1 of ``type`` (C++'s obcast, so any language
    may be the root or a receiver), or pickled (large NumPy buffers out of band)."""
    c = _Codec("obcast", type)
    oc = self.object_comm()
    at_root = self.rank == root
    meta = _u64([0, c.mark])
    data, oob, local = b"", (), None
    if at_root:
        try:
            data, oob = _encode(obj, type)
            meta[0] = len(data)
        except Exception as e:
            local = e
            meta[1] = c.mark | FAILURE_SERIALIZE
    oc.bcast(meta, root)
    code = int(meta[1])
    if _failed(code):  # nothing follows
        c.check([(root, code)], local)
    first = _writable(data) if at_root else bytearray(int(meta[0]))
    oc.bcast(first, root)
    bufs = []
    if code & PICKLED:  # the root's out-of-band buffers follow (a typed receiver takes them too)
        for i, n in enumerate(_oob_sizes(first)):
            b = _writable(oob[i]) if at_root else bytearray(n)
            oc.bcast(b, root)
            bufs.append(b)
    if at_root:
        return obj
    c.check([(root, code)], None)
    if not c.pickled:
        return _wire.loads(first, type)
    got, rest = _decode_first(first)
    return got if rest is None else _loads(rest[1], buffers=bufs)


def oscatter(self, items, root=0, type=None):
    """Root's items[i] goes to rank i (items: self.size objects at the root). With
    ``type=list[T]`` (a list of wire v1 elements, as C++/Java/C# oscatter) the root's list is cut
    into size blocks as even as possible (the first len % size ranks get one more) and each rank
    gets its block as a list."""
    c = _Codec("oscatter", type)
    counts = None
    if c.many and self.rank == root and items is not None:
        n, p = len(items), self.size
        counts = [n // p + (i < n % p) for i in range(p)]
    return _scatter(self, c, items, counts, root)


def oscatterv(self, items, counts, root=0, type=None):
    """Rank i gets the list of the next counts[i] of the root's items (items, counts: at the
    root only); ``type=`` the element type (wire v1, C++'s oscatterv) or none (pickled)."""
    c = _Codec("oscatterv", None if type is None else _wire.List(type), True)
    return _scatter(self, c, items, counts if self.rank == root else None, root)


def _scatter(self, c, items, counts, root):
    oc = self.object_comm()
    p, me = self.size, self.rank
    at_root = me == root
    meta = _u64([0] * (2 * p) if at_root else [])
    offs, data, local = [0] * (p + 1), b"", None
    if at_root:
        code = c.mark
        try:
            if items is None:
                raise ValueError("oompi: %s: the root needs its items" % c.op)
            if not c.many:
                if len(items) != p:
                    raise ValueError("oompi: %s: the root needs a sequence of %d objects (one "
                                     "per rank), not %d" % (c.op, p, len(items)))
                counts = [1] * p
            elif (counts is None or len(counts) != p or any(int(k) < 0 for k in counts)
                  or sum(counts) != len(items)):
                raise ValueError("oompi: %s: counts must have one entry per rank (%d) and add up "
                                 "to the number of items (%d)" % (c.op, p, len(items)))
        except (ValueError, TypeError) as e:
            local, code = e, code | c.argument()
        if local is None:
            try:
                parts, first = [], 0
                for k in counts:
                    parts.append(c.dumps_slice(items[first:first + int(k)]))
                    first += int(k)
                for i, part in enumerate(parts):
                    offs[i + 1] = offs[i] + len(part)
                data = b"".join(parts)
                if len(data) > OBJECT_INT_LIMIT:
                    code |= LARGE_PATH
            except Exception as e:
                local, code = e, code | FAILURE_SERIALIZE
        for i in range(p):
            meta[2 * i] = offs[i + 1] - offs[i]
            meta[2 * i + 1] = code
    mine = _u64([0, 0])
    oc.scatter(meta, mine, root)
    code = int(mine[1])
    if _failed(code):
        c.check([(root, code)], local)
    if at_root:
        send = _np.frombuffer(data, dtype=_np.uint8)
        sizes = _ints(meta[0::2])
        if not code & LARGE_PATH:
            recv = bytearray(sizes[me])
            oc.scatterv(send, sizes, offs[:p], recv, root)
        else:  # C++'s large path: one message per rank, tag 14
            for i in range(p):
                if i != me:
                    oc.send(send[offs[i]:offs[i + 1]], i, TAG_LARGE)
            recv = memoryview(data)[offs[me]:offs[me + 1]]
    else:
        recv = bytearray(int(mine[0]))
        if not code & LARGE_PATH:
            oc.scatterv(_np.empty(0, _np.uint8), [], [], recv, root)
        else:
            oc.recv(recv, root, TAG_LARGE)
    c.check([(root, code)], None)
    got = c.loads_slice(recv, root)
    if c.many:
        return got
    if len(got) != 1:
        raise ValueError("oompi: %s: the root sent %d objects to this rank (one expected: "
                         "type=list[...] takes a list)" % (c.op, len(got)))
    return got[0]


def ogather(self, obj, root=0, type=None):
    """A list of every rank's object at the root (rank order), None elsewhere. With
    ``type=list[T]`` obj is this rank's list of elements (C++/Java/C# ogather) and the result
    their concatenation; with ``type=T`` one element per rank."""
    return _gather(self, _Codec("ogather", type), obj, root, False)


def oallgather(self, obj, type=None):
    """A list of every rank's object, on every rank (``type=`` as in ogather)."""
    return _gather(self, _Codec("oallgather", type), obj, 0, True)


def _gather(self, c, obj, root, everyone):
    oc = self.object_comm()
    p, me = self.size, self.rank
    local, data = None, b""
    my = _u64([0, c.mark])
    try:
        data = c.dumps_slice(obj if c.many else [obj])
        my[0] = len(data)
    except Exception as e:
        local = e
        my[1] = c.mark | FAILURE_SERIALIZE
    meta = _np.zeros(2 * p, dtype=_np.uint64)
    oc.allgather(my, meta)
    sizes = _ints(meta[0::2])
    c.check(list(enumerate(_ints(meta[1::2]))), local)
    offs = [0] * (p + 1)
    for i in range(p):
        offs[i + 1] = offs[i] + sizes[i]
    receives = everyone or me == root
    send = _np.frombuffer(data, dtype=_np.uint8)
    if offs[p] <= OBJECT_INT_LIMIT:
        recv = bytearray(offs[p] if receives else 0)
        if everyone:
            oc.allgatherv(send, recv, sizes, offs[:p])
        else:
            oc.gatherv(send, recv, sizes if receives else [], offs[:p] if receives else [], root)
        mv = memoryview(recv)
        slices = [mv[offs[i]:offs[i + 1]] for i in range(p)] if receives else None
    elif everyone:  # C++'s large path: one Bcast per rank
        slices = []
        for i in range(p):
            b = _writable(data) if i == me else bytearray(sizes[i])
            oc.bcast(b, i)
            slices.append(b)
    elif me == root:  # one message per rank to the root, tag 14
        slices = []
        for i in range(p):
            b = data if i == me else bytearray(sizes[i])
            if i != me:
                oc.recv(b, i, TAG_LARGE)
            slices.append(b)
    else:
        oc.send(send, root, TAG_LARGE)
        slices = None
    if not receives:
        return None
    out = []
    for i in range(p):
        out.extend(c.loads_slice(slices[i], i))
    return out


def oalltoall(self, items, type=None):
    """items[i] goes to rank i; returns the list of what each rank sent to this one (each
    element its own graph; wire v1 of ``type`` as C++/Java/C# oalltoall, or pickled)."""
    c = _Codec("oalltoall", type)
    oc = self.object_comm()
    p = self.size
    code, local, parts = c.mark, None, [b""] * p
    if items is None or len(items) != p:
        local = ValueError("oompi: oalltoall: expected a sequence of %d objects (one per rank)"
                           % p)
        code |= c.argument()
    else:
        try:
            parts = [c.dumps(x) for x in items]
        except Exception as e:
            local, code, parts = e, code | FAILURE_SERIALIZE, [b""] * p
    smeta = _u64([v for part in parts for v in (len(part), code)])
    rmeta = _np.zeros(2 * p, dtype=_np.uint64)
    oc.alltoall(smeta, rmeta)
    rsizes = _ints(rmeta[0::2])
    c.check(list(enumerate(_ints(rmeta[1::2]))), local)
    ssizes = [len(x) for x in parts]
    soffs, roffs = [0] * (p + 1), [0] * (p + 1)
    for i in range(p):
        soffs[i + 1] = soffs[i] + ssizes[i]
        roffs[i + 1] = roffs[i] + rsizes[i]
    large = _np.array([int(soffs[p] > OBJECT_INT_LIMIT or roffs[p] > OBJECT_INT_LIMIT)],
                      dtype=_np.int32)
    any_large = _np.zeros(1, dtype=_np.int32)
    oc.allreduce(large, any_large, _core.Op.MAX)
    send = _np.frombuffer(b"".join(parts), dtype=_np.uint8)
    recv = bytearray(roffs[p])
    mv = memoryview(recv)
    if not any_large[0]:
        oc.alltoallv(send, ssizes, soffs[:p], recv, rsizes, roffs[:p])
    else:  # C++'s large path: every receive posted, then every send, tag 14
        reqs = [oc.irecv(mv[roffs[i]:roffs[i + 1]], i, TAG_LARGE) for i in range(p)]
        reqs += [oc.isend(send[soffs[i]:soffs[i + 1]], i, TAG_LARGE) for i in range(p)]
        for r in reqs:
            r.wait()
    return [c.loads(mv[roffs[i]:roffs[i + 1]], i) for i in range(p)]


def _install():
    # osend / orecv are C methods (oompi_fastpath.hpp) that call back into this module.
    _importlib.import_module("oompi._core")._set_objects_module(_sys.modules[__name__])
    for f in (ossend, iosend, iorecv, obcast, oscatter, oscatterv, ogather, oallgather,
              oalltoall, oreduce, oallreduce):
        setattr(_core.Comm, f.__name__, f)


_install()
