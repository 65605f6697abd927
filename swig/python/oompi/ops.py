"""User-defined reduction operations.

    add = oompi.Op.create(lambda invec, inoutvec, datatype: invec + inoutvec, commute=True)
    world.allreduce(a, b, add)

or subclass :class:`UserFunction` and override ``apply``. The arrays handed to the function
are NumPy views of MPI's own memory (plain memoryviews for datatypes NumPy has no dtype for),
valid only during the call: copy what you want to keep. The function may write the result
into ``inoutvec`` or return it. An exception raised in it surfaces from the collective (also
when MPI ran the function on another thread), on the ranks where it ran.
"""

import numpy as _np

from . import core as _core

_native_create = _core.Op.create

_DTYPES = {
    "MPI_BYTE": _np.uint8, "MPI_INT8_T": _np.int8, "MPI_UINT8_T": _np.uint8,
    "MPI_INT16_T": _np.int16, "MPI_UINT16_T": _np.uint16, "MPI_INT32_T": _np.int32,
    "MPI_UINT32_T": _np.uint32, "MPI_INT64_T": _np.int64, "MPI_UINT64_T": _np.uint64,
    "MPI_FLOAT": _np.float32, "MPI_DOUBLE": _np.float64, "MPI_C_BOOL": _np.bool_,
    "MPI_C_FLOAT_COMPLEX": _np.complex64, "MPI_C_DOUBLE_COMPLEX": _np.complex128,
    "MPI_C_COMPLEX": _np.complex64, "MPI_INT": _np.intc, "MPI_LONG": _np.int_,
    "MPI_CHAR": _np.int8, "MPI_UNSIGNED_CHAR": _np.uint8, "MPI_SHORT": _np.short,
    "MPI_UNSIGNED": _np.uintc, "MPI_UNSIGNED_LONG": _np.uint, "MPI_LONG_LONG_INT": _np.longlong,
    "MPI_LONG_LONG": _np.longlong,
}


# name -> (NumPy dtype, item size): looked up once per upcall, nothing else computed there.
_INFO = {name: (_np.dtype(t), _np.dtype(t).itemsize) for name, t in _DTYPES.items()}
_NONE = (None, 0)
_BY_OBJECT = {}  # Datatype constant -> (dtype, size); filled by the package __init__
_CONSTANTS = {
    "BYTE": _np.uint8, "INT8": _np.int8, "UINT8": _np.uint8, "INT16": _np.int16,
    "UINT16": _np.uint16, "INT32": _np.int32, "UINT32": _np.uint32, "INT64": _np.int64,
    "UINT64": _np.uint64, "FLOAT": _np.float32, "DOUBLE": _np.float64, "BOOL": _np.bool_,
    "COMPLEX": _np.complex64, "DOUBLE_COMPLEX": _np.complex128,
}


def _register_constant(datatype, name):
    t = _np.dtype(_CONSTANTS[name])
    _BY_OBJECT[datatype] = (t, t.itemsize)
_memory_view = _core._memory_view
_frombuffer = _np.frombuffer


def _dtype_of(datatype):
    try:
        return _INFO.get(datatype.name, _NONE)[0]
    except Exception:  # an unnamed derived type
        return None


class UserFunction(_core.UserFunction):
    """Base class of reduction functions: override ``apply(invec, inoutvec, datatype)`` and
    combine ``inoutvec[i] = invec[i] (op) inoutvec[i]`` (or return the result)."""

    def call(self, in_address, inout_address, count, extent, datatype):
        # Called by MPI through the C++ director: wrap MPI's memory without copying.
        nbytes = count * extent
        vin = _memory_view(in_address, nbytes, False)
        vio = _memory_view(inout_address, nbytes, True)
        info = _BY_OBJECT.get(datatype)  # a registered constant (oompi.DOUBLE, ...)
        if info is None:
            try:
                info = _INFO.get(datatype.name, _NONE)
            except Exception:  # an unnamed derived type
                info = _NONE
        dtype, size = info
        if dtype is not None and extent == size:
            a, b = _frombuffer(vin, dtype), _frombuffer(vio, dtype)
        else:
            a, b = vin, vio
        try:
            result = self.apply(a, b, datatype)
            if result is not None and result is not b:
                b[...] = result
        finally:
            del a, b
            try:
                vin.release()  # a view kept past the call then raises instead of reading freed memory
            except BufferError:
                pass  # a NumPy array still refers to it: documented, copy what you keep
            try:
                vio.release()
            except BufferError:
                pass

    def apply(self, invec, inoutvec, datatype):
        raise NotImplementedError("UserFunction.apply: override it in a subclass")


class _CallableFunction(UserFunction):
    def __init__(self, fn):
        super().__init__()
        self._fn = fn

    def apply(self, invec, inoutvec, datatype):
        return self._fn(invec, inoutvec, datatype)


def _create(fn, commute=False):
    """Op.create(fn, commute=False): a user op from a callable ``fn(invec, inoutvec, datatype)``
    or a :class:`UserFunction`. Not commutative unless ``commute`` is true."""
    if not isinstance(fn, _core.UserFunction):
        if not callable(fn):
            raise TypeError("Op.create: expected a callable or a UserFunction, got %s"
                            % type(fn).__name__)
        fn = _CallableFunction(fn)
    op = _native_create(fn, bool(commute))
    object.__setattr__(op, "_function", fn)  # the Op keeps its function alive
    return op


def _keeping_op(method):
    # A nonblocking reduction's request keeps the Op (and so the function) alive until it
    # completes, even when the caller drops the Op first.
    def wrapper(self, *args):
        request = method(self, *args)
        op = next((a for a in args if isinstance(a, _core.Op)), None)
        if op is not None:
            object.__setattr__(request, "_op", op)
        return request
    wrapper.__name__ = method.__name__
    wrapper.__doc__ = method.__doc__
    return wrapper


def _install():
    _core.Op.create = staticmethod(_create)
    for name in ("ireduce", "iallreduce", "iallreduce_in_place", "ireduce_scatter_block",
                 "iscan", "iexscan"):
        setattr(_core.Comm, name, _keeping_op(getattr(_core.Comm, name)))


_install()
