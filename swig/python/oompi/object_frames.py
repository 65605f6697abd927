"""Pickled objects as messages (oompi.objects): the first frame of an object is its pickle
(protocol 5), or, when large buffers travel out of band, b"OOB1", their count and sizes, then
the pickle; each out-of-band buffer follows as a message of its own. Also the buffer helpers the
collectives share (a writable view for bcast, an in-band pickle)."""
import pickle as _pickle
import struct as _struct

from . import transportable as _wire

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


def _oob_sizes(first):
    """The sizes of the out-of-band buffers that follow a pickled first frame (_encode)."""
    mv = memoryview(first)
    if mv.nbytes >= _HEADER.size and bytes(mv[:4]) == _OOB:
        _, n = _HEADER.unpack_from(mv)
        return _struct.unpack_from("<%dQ" % n, mv, _HEADER.size)
    return ()


def _writable(data):
    # bcast's buffer is writable on every rank (MPI writes it on the others): at the root, give
    # it a writable view without copying when the object allows it.
    mv = memoryview(data)
    if not mv.readonly:
        return mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
    return bytearray(mv)


def _encode_inband(obj):
    return _dumps(obj, _PROTOCOL)
