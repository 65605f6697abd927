"""Objects point to point (oompi.objects): osend / orecv (C methods in oompi_fastpath_objects.hpp
that call back into _osend_py, _recv_rest and _wire_loads here), ossend, iosend / iorecv and
their ObjectRequest."""
from . import core as _core
from . import transportable as _wire
from .object_frames import _decode_first, _encode, _unpickle_or_fail


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
