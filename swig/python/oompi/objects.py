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
import operator as _operator
import pickle as _pickle
import struct as _struct
import typing as _typing

from . import core as _core
from . import transportable as _wire

try:
    import numpy as _np
except ImportError:  # pragma: no cover - NumPy is a dependency of the tests, not of oompi
    _np = None

OOB_MIN = 64 * 1024  # buffers smaller than this are cheaper to copy into the pickle
_HEADER = _struct.Struct("<4sI")
_OOB = b"OOB1"
_loads = _pickle.loads
_PROTOCOL = 5


def _dumps(obj, protocol, buffer_callback=None):
    try:
        return _pickle.dumps(obj, protocol, buffer_callback=buffer_callback)
    except RecursionError as e:  # bad input, not a bug in the caller's code
        raise ValueError("oompi: the object is nested too deeply to pickle; send it in parts, "
                         "or as a Transportable class (type=), whose encoder has no depth "
                         "limit") from e


def _encode(obj, wire_type=None):
    """bytes-like first frame and the list of out-of-band buffers (memoryviews)."""
    if wire_type is not None:
        return _wire.dumps(obj, wire_type), ()
    oob = []

    def keep(pb):
        raw = pb.raw()
        if raw.nbytes < OOB_MIN:
            return True  # in band
        oob.append(raw)
        return False

    data = _dumps(obj, _PROTOCOL, buffer_callback=keep)
    if not oob:
        return data, ()
    head = _HEADER.pack(_OOB, len(oob)) + _struct.pack("<%dQ" % len(oob),
                                                       *(b.nbytes for b in oob))
    return head + data, oob


def _decode_first(data):
    """(object, None) or (None, (sizes, pickle memoryview)) when out-of-band buffers follow."""
    mv = memoryview(data)
    if mv.nbytes >= 4 and mv[0] != 0x80:
        if bytes(mv[:4]) == _OOB:
            n = _HEADER.unpack_from(mv)[1] if mv.nbytes >= _HEADER.size else 0
            if n == 0 or _HEADER.size + 8 * n > mv.nbytes:
                raise ValueError("oompi: corrupt message: an out-of-band header for %d buffers "
                                 "in a first frame of %d bytes" % (n, mv.nbytes))
            sizes = _struct.unpack_from("<%dQ" % n, mv, _HEADER.size)
            return None, (sizes, mv[_HEADER.size + 8 * n:])
    return _unpickle_or_fail(mv), None


def _unpickle_or_fail(mv, buffers=None):
    try:
        return _loads(mv, buffers=buffers)
    except Exception as e:
        raise ValueError("oompi: the message is not a pickled object (%s); a Transportable "
                         "object or a C++ osend is read with orecv(..., type=TheClass) or "
                         "type=oompi.Ref(TheClass)" % e) from e


# --- point to point ----------------------------------------------------------------------------

def _osend_py(self, obj, dest, tag=0, type=None):
    """Sends any picklable object, or with ``type=`` an object in wire format v1 (a
    Transportable class: by value; ``oompi.Ref(cls)``: a reference, as C++ shared_ptr)."""
    data, oob = _encode(obj, type)
    self.send(data, dest, tag)
    for b in oob:
        self.send(b, dest, tag)


def ossend(self, obj, dest, tag=0, type=None):
    """osend in synchronous mode (returns once the receiver has started receiving)."""
    data, oob = _encode(obj, type)
    self.ssend(data, dest, tag)
    for b in oob:
        self.ssend(b, dest, tag)


def _wire_loads(data, type):
    return _wire.loads(data, type)


def _recv_rest(self, first, st):
    obj, rest = _decode_first(first)
    if rest is None:
        return obj
    sizes, pickled = rest
    # Each buffer is its own message, received at the size it has (matched first): a corrupt
    # header cannot make us allocate a size nobody sent, nor leave frames behind.
    bufs = []
    for n in sizes:
        msg = self.mprobe(st.source, st.tag)
        b = bytearray(msg.count_bytes)
        msg.recv(b)
        bufs.append(b)
    got = [len(b) for b in bufs]
    if got != list(sizes):
        raise ValueError("oompi: corrupt message: out-of-band buffers of %s bytes announced, "
                         "%s received" % (list(sizes), got))
    return _unpickle_or_fail(pickled, bufs)


def _orecv_py(self, source=_core.ANY_SOURCE, tag=_core.ANY_TAG, type=None, with_status=False):
    """Receives an object sent with osend (pickled; or wire v1 of ``type``: a Transportable
    class by value, oompi.Ref(cls), list[...]); ``(obj, status)`` when with_status is true."""
    # after the pending iorecv, in posting order (the rest of a pickled message: mprobe)
    return _orecv_message(self, self.object_mprobe(source, tag), type, with_status)


def _orecv_message(comm, msg, type, with_status=True):
    # A matched message (mprobe/improbe): no other receive, on any thread, can take it.
    first = bytearray(msg.count_bytes)
    st = msg.recv(first)
    obj = _wire.loads(first, type) if type is not None else _recv_rest(comm, first, st)
    return (obj, st) if with_status else obj


class ObjectRequest:
    """The request of iosend / iorecv: wait() returns the object (iorecv) or None (iosend);
    test() returns (done, object). Object receives take their messages in the order they were
    posted, as MPI's receives do: of two iorecv for the same source and tag, the first posted
    gets the first message, whichever is waited on first; cancel() (or dropping the request)
    lets later receives take its place."""

    _ticket = 0

    def __init__(self, comm, requests=None, source=None, tag=None, type=None):
        self._comm = comm
        self._type = type
        self._requests = requests  # iosend: the pending sends (they hold their buffers)
        self._source, self._tag = source, tag
        self._done = False
        self._value = None
        self.status = None
        if requests is None:
            self._ticket = comm.post_object_recv(source, tag)

    def cancel(self):
        """Withdraws a receive whose message was not taken yet (one already assigned to it in
        posting order is received and dropped, as a matched MPI receive cannot be cancelled)."""
        t, self._ticket = self._ticket, 0
        if t:
            self._comm.cancel_object_recv(t)
            self._done = True

    def __del__(self):
        if self._ticket:
            try:
                self.cancel()
            except Exception:  # MPI finalized, interpreter shutting down: nothing to withdraw
                pass

    def wait(self):
        if not self._done:
            if self._requests is not None:
                for r in self._requests:
                    r.wait()
            else:
                t, self._ticket = self._ticket, 0
                msg = self._comm.wait_object_recv(t)
                self._value, self.status = _orecv_message(self._comm, msg, self._type)
            self._done = True
        return self._value

    def test(self):
        if not self._done:
            if self._requests is not None:
                if all(r.test() is not None for r in self._requests if r.is_pending()):
                    self._done = True
            else:
                msg = self._comm.test_object_recv(self._ticket)
                if msg is not None:
                    self._ticket = 0
                    # The message is there, matched to us: receive it (and any out-of-band
                    # frames after it).
                    self._value, self.status = _orecv_message(self._comm, msg, self._type)
                    self._done = True
        return self._done, self._value

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.wait()
        return False


def iosend(self, obj, dest, tag=0, type=None):
    """Nonblocking osend: the request keeps the serialized data alive until it completes."""
    data, oob = _encode(obj, type)
    reqs = [self.isend(data, dest, tag)] + [self.isend(b, dest, tag) for b in oob]
    return ObjectRequest(self, reqs)


def iorecv(self, source=_core.ANY_SOURCE, tag=_core.ANY_TAG, type=None):
    """Nonblocking receive of an object of unknown size: nothing is allocated until the
    message is there (test() probes; wait() blocks)."""
    return ObjectRequest(self, None, source, tag, type)


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

FAILURE_ARGUMENT, FAILURE_SERIALIZE, LARGE_PATH = 1, 2, 4  # C++'s object_failure
PICKLED = 8            # Python's own: the sender pickles (always with FAILURE_ARGUMENT)
PICKLED_ARGUMENT = 16  # a pickling rank's own argument failure (its FAILURE_ARGUMENT is a marker)
TAG_REDUCE, TAG_REDUCE_FAILED, TAG_FORWARD, TAG_LARGE = 11, 12, 13, 14
# Above this many bytes the split collectives and oalltoall move their slices point to point
# (C++'s detail::object_int_limit); every rank of a job must use the same value (tests lower it).
OBJECT_INT_LIMIT = 0x7FFFFFFF


class SerializationError(RuntimeError):
    """Another rank of an object collective could not write (or fold) its objects."""


def _u64(values):
    return _np.asarray(values, dtype=_np.uint64)


def _failed(code):
    """True when the code reports a real failure (the sender moves no bytes after it)."""
    if code & PICKLED:
        return bool(code & (FAILURE_SERIALIZE | PICKLED_ARGUMENT))
    return bool(code & (FAILURE_ARGUMENT | FAILURE_SERIALIZE))


class _Codec:
    """How one collective writes and reads its objects: wire v1 of `type`, or pickle."""

    def __init__(self, op, type, many=False):
        self.op, self.type = op, type
        self.pickled = type is None
        self.mark = PICKLED | FAILURE_ARGUMENT if self.pickled else 0
        elem, self.many = type, many
        if isinstance(type, _wire.List):
            elem, self.many = type.elem, True
        elif _typing.get_origin(type) is list:
            elem, self.many = _typing.get_args(type)[0], True
        self.slice_type = None if self.pickled else _wire.List(elem)

    def argument(self):
        return PICKLED_ARGUMENT if self.pickled else FAILURE_ARGUMENT

    def dumps(self, obj):
        return _encode_inband(obj) if self.pickled else _wire.dumps(obj, self.type)

    def loads(self, data, source):
        if not self.pickled:
            return _wire.loads(data, self.type)
        try:
            return _loads(memoryview(data))
        except Exception as e:
            raise ValueError("oompi: %s: rank %d sent something that is not a pickle (%s): "
                             "pass the same type= on every rank" % (self.op, source, e)) from e

    def dumps_slice(self, items):
        if self.pickled:
            return _encode_inband(list(items))
        return _wire.dumps(list(items), self.slice_type)

    def loads_slice(self, data, source):
        if not self.pickled:
            return _wire.loads(data, self.slice_type)
        got = self.loads(data, source)
        if not isinstance(got, list):
            raise ValueError("oompi: %s: rank %d sent a pickle that is not a slice" % (self.op,
                                                                                     source))
        return got

    def mismatch(self, code, source):
        """The TypeError for a rank that frames its objects the other way, else None."""
        if bool(code & PICKLED) == self.pickled:
            return None
        if self.pickled:
            return TypeError("oompi: %s: rank %d sends wire format v1 (a C++, Java or C# rank, "
                             "or type= there) but this rank pickles: pass type= on every rank"
                             % (self.op, source))
        return TypeError("oompi: %s: rank %d pickles its objects (no type= there) but this rank "
                         "has type=: pass type= on every rank" % (self.op, source))

    def remote(self, code):
        argument = PICKLED_ARGUMENT if code & PICKLED else FAILURE_ARGUMENT
        if code & argument:
            return ValueError("oompi: %s: invalid arguments on another rank" % self.op)
        return SerializationError("oompi: %s: another rank could not serialize its objects "
                                  "(it threw there)" % self.op)

    def check(self, codes, local):
        """After an exchange of {size, code} pairs ((rank, code) heard): this rank's own error
        first, then a rank framing the other way, then another rank's failure."""
        if local is not None:
            raise local
        for source, code in codes:
            e = self.mismatch(code, source)
            if e is not None:
                raise e
        for source, code in codes:
            if _failed(code):
                raise self.remote(code)


def _oob_sizes(first):
    """The sizes of the out-of-band buffers that follow a pickled first frame (_encode)."""
    mv = memoryview(first)
    if mv.nbytes >= _HEADER.size and bytes(mv[:4]) == _OOB:
        _, n = _HEADER.unpack_from(mv)
        return _struct.unpack_from("<%dQ" % n, mv, _HEADER.size)
    return ()


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


def _writable(data):
    # bcast's buffer is writable on every rank (MPI writes it on the others): at the root, give
    # it a writable view without copying when the object allows it.
    mv = memoryview(data)
    if not mv.readonly:
        return mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    return bytearray(mv)


def _encode_inband(obj):
    return _dumps(obj, _PROTOCOL)


def _ints(values):
    return [int(v) for v in values]


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


_PY_OPS = {
    "SUM": _operator.add, "PROD": _operator.mul, "MAX": max, "MIN": min,
    "LAND": lambda a, b: a and b, "LOR": lambda a, b: a or b,
    "LXOR": lambda a, b: bool(a) != bool(b), "BAND": _operator.and_, "BOR": _operator.or_,
    "BXOR": _operator.xor,
}


def _py_op(op):
    if isinstance(op, _core.Op):
        if op.is_user():  # (ClosedError for a closed op)
            raise ValueError("oreduce: a user Op works on buffers; pass a Python callable "
                             "f(a, b) for objects")
        from . import OpKind
        name = OpKind(op.kind()).name
        if name not in _PY_OPS:
            raise ValueError("oreduce: %s has no meaning for Python objects" % name)
        return _PY_OPS[name]
    if callable(op):
        return op
    raise TypeError("oreduce: op must be an oompi.Op (SUM, MAX, ...) or a callable f(a, b)")


class _Reduction:
    """What _reduce_to_zero leaves on a rank (C++'s detail::object_ops::reduction)."""
    __slots__ = ("value", "has", "failed", "local")

    def __init__(self):
        self.value, self.has, self.failed, self.local = None, False, False, None


def _take(oc, msg, c, read):
    """Receives a matched message; its object when read is true (else None)."""
    buf = bytearray(msg.count_bytes)
    msg.recv(buf)
    return c.loads(buf, msg.source) if read else None


def _reduce_to_zero(oc, me, p, obj, fn, c):
    # C++'s reduce_to_zero: a binomial tree towards rank 0 that keeps rank order. At step mask
    # a rank that is a multiple of 2 * mask holds x[r .. r + mask) and receives x[r + mask ..
    # r + 2 * mask) from r + mask (tag 11, or an empty tag-12 message when that subtree
    # failed), then folds it on the right: fn(mine, theirs). A rank that failed still receives
    # from all its children (so none blocks) and reports upwards. MPI errors propagate at once.
    red = _Reduction()
    if isinstance(fn, BaseException):  # a bad op: take part as a failed rank, raise afterwards
        red.local, red.failed = fn, True
    current = obj
    mask = 1
    while mask < p:
        if me & mask:
            if not red.failed:
                try:
                    data = c.dumps(current)
                except Exception as e:  # could not serialize: tell the parent instead
                    red.local, red.failed = e, True
                else:
                    oc.send(data, me - mask, TAG_REDUCE)
            if red.failed:
                oc.send(bytearray(0), me - mask, TAG_REDUCE_FAILED)
            return red
        if me + mask < p:
            msg = oc.mprobe(me + mask, _core.ANY_TAG)
            other = None
            if msg.tag == TAG_REDUCE_FAILED:
                _take(oc, msg, c, False)
                red.failed = True
            else:
                try:
                    other = _take(oc, msg, c, not red.failed)
                except _core.MPIError:
                    raise
                except Exception as e:
                    if red.local is None:
                        red.local = e
                    red.failed = True
            if not red.failed:
                try:
                    red.value = fn(current, other)
                    red.has = True
                    current = red.value
                except Exception as e:  # the function raised: re-raised after the collective
                    red.local, red.failed = e, True
        mask <<= 1
    if me == 0 and not red.failed and not red.has:
        try:  # one rank: the result is its object (a copy of it in wire v1, as in C++)
            red.value = obj if c.pickled else c.loads(c.dumps(obj), 0)
            red.has = True
        except Exception as e:
            red.local, red.failed = e, True
    return red


def _reduce_op(op):
    try:
        return _py_op(op)
    except (TypeError, ValueError) as e:
        return e


def _reduce_failure(c):
    return SerializationError("oompi: %s: the reduction failed on another rank (or the ranks "
                              "disagree on type=)" % c.op)


def oreduce(self, obj, op, root=0, type=None):
    """op applied over every rank's object in rank order (op(op(x0, x1), x2) ...), at the root;
    None elsewhere. op: oompi.SUM/PROD/MAX/MIN/L*/B* or any callable f(a, b). C++'s reduction
    tree: with ``type=`` (wire v1) C++, Java and C# ranks may take part."""
    p, me = self.size, self.rank
    if not isinstance(root, int) or not 0 <= root < p:
        raise ValueError("oompi: oreduce: root %r is not a rank of this communicator (size %d)"
                         % (root, p))
    c = _Codec("oreduce", type)
    oc = self.object_comm()
    red = _reduce_to_zero(oc, me, p, obj, _reduce_op(op), c)
    if root != 0:
        if me == 0:
            data = None
            if not red.failed:
                try:
                    data = c.dumps(red.value)
                except Exception as e:  # the result cannot be written: the root hears of it
                    red.local, red.failed = e, True
            if red.failed:
                oc.send(bytearray(0), root, TAG_REDUCE_FAILED)
            else:
                oc.send(data, root, TAG_FORWARD)
        elif me == root:
            msg = oc.mprobe(0, _core.ANY_TAG)
            if msg.tag == TAG_REDUCE_FAILED:
                _take(oc, msg, c, False)
                red.failed = True
            else:
                try:
                    red.value = _take(oc, msg, c, red.local is None)
                except _core.MPIError:
                    raise
                except Exception as e:
                    red.local, red.failed = e, True
    if red.local is not None:
        raise red.local
    if me != root:
        return None
    if red.failed:
        raise _reduce_failure(c)
    return red.value


def oallreduce(self, obj, op, type=None):
    """oreduce whose result every rank gets (rank 0 broadcasts it, as C++'s oallreduce)."""
    p, me = self.size, self.rank
    c = _Codec("oallreduce", type)
    oc = self.object_comm()
    red = _reduce_to_zero(oc, me, p, obj, _reduce_op(op), c)
    meta = _u64([0, c.mark | (FAILURE_SERIALIZE if red.failed else 0)])
    data = b""
    if me == 0 and not red.failed:
        try:
            data = c.dumps(red.value)
            meta[0] = len(data)
        except Exception as e:
            if red.local is None:
                red.local = e
            meta[1] = c.mark | FAILURE_SERIALIZE
    oc.bcast(meta, 0)
    code = int(meta[1])
    if red.local is not None:
        raise red.local
    if _failed(code):
        raise _reduce_failure(c)
    buf = _writable(data) if me == 0 else bytearray(int(meta[0]))
    oc.bcast(buf, 0)
    c.check([(0, code)], None)
    return red.value if me == 0 else c.loads(buf, 0)


def _install():
    # osend / orecv are C methods (oompi_fastpath.hpp) that call back into this module.
    _importlib.import_module("oompi._core")._set_objects_module(_sys.modules[__name__])
    for f in (ossend, iosend, iorecv, obcast, oscatter, oscatterv, ogather, oallgather,
              oalltoall, oreduce, oallreduce):
        setattr(_core.Comm, f.__name__, f)


_install()
