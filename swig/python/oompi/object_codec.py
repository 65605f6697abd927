"""The framing codes of the object collectives (C++'s object_failure, tags) and the codec that
writes and reads one collective's objects, wire v1 or pickled (oompi.objects, "collectives")."""
import typing as _typing

from . import transportable as _wire
from .object_frames import _encode_inband, _loads

try:
    import numpy as _np
except ImportError:  # pragma: no cover - NumPy is a dependency of the tests, not of oompi
    _np = None

FAILURE_ARGUMENT, FAILURE_SERIALIZE, LARGE_PATH = 1, 2, 4  # C++'s object_failure
PICKLED = 8            # Python's own: the sender pickles (always with FAILURE_ARGUMENT)
PICKLED_ARGUMENT = 16  # a pickling rank's own argument failure (its FAILURE_ARGUMENT is a marker)
TAG_REDUCE, TAG_REDUCE_FAILED, TAG_FORWARD, TAG_LARGE = 11, 12, 13, 14


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


def _ints(values):
    return [int(v) for v in values]
