"""Python objects over MPI: pickle (protocol 5) or, for declared Transportable classes, wire
format v1 (oompi.transportable). Installed on Comm as the o-prefixed methods that the C++, Java
and C# APIs also have (the plain names are the buffer calls):

    world.osend({"a": 1}, 1)             obj = world.orecv(0)
    obj = world.obcast(obj, root=0)      part = world.oscatter(items, root=0)
    items = world.ogather(obj, root=0)   items = world.oallgather(obj)
    got = world.oalltoall(items)         total = world.oreduce(x, oompi.SUM, root=0)
    req = world.iorecv(0); obj = req.wait()

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
``type=`` on both sides, objects are pickled. Collectives other than obcast
pickle their objects (Transportable classes are plain dataclasses, so they pickle too).
"""
import functools as _functools
import importlib as _importlib
import sys as _sys
import operator as _operator
import pickle as _pickle
import struct as _struct

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
    return _orecv_message(self, self.mprobe(source, tag), type, with_status)


def _orecv_message(comm, msg, type, with_status=True):
    # A matched message (mprobe/improbe): no other receive, on any thread, can take it.
    first = bytearray(msg.count_bytes)
    st = msg.recv(first)
    obj = _wire.loads(first, type) if type is not None else _recv_rest(comm, first, st)
    return (obj, st) if with_status else obj


class ObjectRequest:
    """The request of iosend / iorecv: wait() returns the object (iorecv) or None (iosend);
    test() returns (done, object)."""

    def __init__(self, comm, requests=None, source=None, tag=None, type=None):
        self._comm = comm
        self._type = type
        self._requests = requests  # iosend: the pending sends (they hold their buffers)
        self._source, self._tag = source, tag
        self._done = False
        self._value = None
        self.status = None

    def wait(self):
        if not self._done:
            if self._requests is not None:
                for r in self._requests:
                    r.wait()
            else:
                self._value, self.status = self._comm.orecv(self._source, self._tag, self._type,
                                                            True)
            self._done = True
        return self._value

    def test(self):
        if not self._done:
            if self._requests is not None:
                if all(r.test() is not None for r in self._requests if r.is_pending()):
                    self._done = True
            else:
                msg = self._comm.improbe(self._source, self._tag)
                if msg is not None:
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

def _i64(values):
    return _np.asarray(values, dtype=_np.int64)


def _offsets(sizes):
    displs = [0] * len(sizes)
    for i in range(1, len(sizes)):
        displs[i] = displs[i - 1] + sizes[i - 1]
    return displs


def _check_int(sizes, what):
    if sum(sizes) > 0x7FFFFFFF:
        raise OverflowError("%s: more than 2 GiB of pickled data in one collective; use "
                            "osend/orecv or obcast for larger objects" % what)


def obcast(self, obj, root=0, type=None):
    """Returns root's object on every rank (pickled once, broadcast, unpickled; wire v1 of
    ``type`` when given, on every rank)."""
    if self.rank == root:
        data, oob = _encode(obj, type)
        head = _i64([len(data)] + [len(oob)] + [b.nbytes for b in oob])
        n = _i64([head.size])
        self.bcast(n, root)
        self.bcast(head, root)
        self.bcast(_writable(data), root)
        for b in oob:
            self.bcast(_writable(b), root)
        return obj
    n = _i64([0])
    self.bcast(n, root)
    head = _np.empty(int(n[0]), dtype=_np.int64)
    self.bcast(head, root)
    first = bytearray(int(head[0]))
    self.bcast(first, root)
    bufs = []
    for size in head[2:]:
        b = bytearray(int(size))
        self.bcast(b, root)
        bufs.append(b)
    if type is not None:
        return _wire.loads(first, type)
    got, rest = _decode_first(first)
    if rest is None:
        return got
    return _loads(rest[1], buffers=bufs)


def _writable(data):
    # bcast's buffer is writable on every rank (MPI writes it on the others): at the root, give
    # it a writable view without copying when the object allows it.
    mv = memoryview(data)
    if not mv.readonly:
        return mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    return bytearray(mv)


def _pickles(items):
    return [_encode_inband(x) for x in items]


def _encode_inband(obj):
    return _dumps(obj, _PROTOCOL)


def _unpickle(mv):
    obj, rest = _decode_first(mv)
    return obj


def oscatter(self, items, root=0):
    """Root's items[i] goes to rank i (items: a sequence of self.size objects at the root)."""
    size = self.size
    if self.rank == root:
        if items is None or len(items) != size:
            raise ValueError("oscatter: the root needs a sequence of %d objects (one per rank)"
                             % size)
        parts = _pickles(items)
        sizes = [len(p) for p in parts]
        _check_int(sizes, "oscatter")
        send = _np.frombuffer(b"".join(parts), dtype=_np.uint8)
        counts = _i64(sizes)
    else:
        sizes, send, counts = None, _np.empty(0, _np.uint8), _np.empty(0, _np.int64)
    mine = _i64([0])
    self.scatter(counts if self.rank == root else _np.empty(0, _np.int64), mine, root)
    recv = bytearray(int(mine[0]))
    if self.rank == root:
        self.scatterv(send, sizes, _offsets(sizes), recv, root)
    else:
        self.scatterv(send, [], [], recv, root)
    return _unpickle(recv)


def _gathered(recv, sizes):
    mv = memoryview(recv)
    out, at = [], 0
    for n in sizes:
        out.append(_unpickle(mv[at:at + n]))
        at += n
    return out


def ogather(self, obj, root=0):
    """A list of every rank's object at the root (rank order), None elsewhere."""
    data = _encode_inband(obj)
    mine = _i64([len(data)])
    is_root = self.rank == root
    sizes = _np.zeros(self.size if is_root else 0, dtype=_np.int64)
    self.gather(mine, sizes, root)
    send = _np.frombuffer(data, dtype=_np.uint8)
    if is_root:
        sizes = [int(s) for s in sizes]
        _check_int(sizes, "ogather")
        recv = bytearray(sum(sizes))
        self.gatherv(send, recv, sizes, _offsets(sizes), root)
        return _gathered(recv, sizes)
    self.gatherv(send, bytearray(0), [], [], root)
    return None


def oallgather(self, obj):
    """A list of every rank's object, on every rank."""
    data = _encode_inband(obj)
    sizes = _np.zeros(self.size, dtype=_np.int64)
    self.allgather(_i64([len(data)]), sizes)
    sizes = [int(s) for s in sizes]
    _check_int(sizes, "oallgather")
    recv = bytearray(sum(sizes))
    self.allgatherv(_np.frombuffer(data, dtype=_np.uint8), recv, sizes, _offsets(sizes))
    return _gathered(recv, sizes)


def oalltoall(self, items):
    """items[i] goes to rank i; returns the list of what each rank sent to this one."""
    size = self.size
    if items is None or len(items) != size:
        raise ValueError("oalltoall: expected a sequence of %d objects (one per rank)" % size)
    parts = _pickles(items)
    sizes = [len(p) for p in parts]
    _check_int(sizes, "oalltoall")
    rsizes = _np.zeros(size, dtype=_np.int64)
    self.alltoall(_i64(sizes), rsizes)
    rsizes = [int(s) for s in rsizes]
    _check_int(rsizes, "oalltoall")
    recv = bytearray(sum(rsizes))
    send = _np.frombuffer(b"".join(parts), dtype=_np.uint8)
    self.alltoallv(send, sizes, _offsets(sizes), recv, rsizes, _offsets(rsizes))
    return _gathered(recv, rsizes)


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


def oreduce(self, obj, op, root=0):
    """op applied over every rank's object in rank order (op(op(x0, x1), x2) ...), at the root;
    None elsewhere. op: oompi.SUM/PROD/MAX/MIN/L*/B* or any callable f(a, b)."""
    fn = _py_op(op)
    items = ogather(self, obj, root)
    return _functools.reduce(fn, items) if items is not None else None


def oallreduce(self, obj, op):
    """oreduce whose result every rank gets."""
    fn = _py_op(op)
    return _functools.reduce(fn, oallgather(self, obj))


def _install():
    # osend / orecv are C methods (oompi_fastpath.hpp) that call back into this module.
    _importlib.import_module("oompi._core")._set_objects_module(_sys.modules[__name__])
    for f in (ossend, iosend, iorecv, obcast, oscatter, ogather, oallgather,
              oalltoall, oreduce, oallreduce):
        setattr(_core.Comm, f.__name__, f)


_install()
