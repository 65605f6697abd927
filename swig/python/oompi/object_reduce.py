"""oreduce and oallreduce on objects (oompi.objects): C++'s reduction tree towards rank 0 (tags
11 to 13), a Python callable or an oompi.Op as the operation, failures reported to every rank."""
import operator as _operator

from . import core as _core
from .object_codec import (FAILURE_SERIALIZE, TAG_FORWARD, TAG_REDUCE, TAG_REDUCE_FAILED,
                           SerializationError, _Codec, _failed, _u64)
from .object_frames import _writable


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
