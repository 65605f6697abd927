"""Array interchange: buffers from objects that have only `__dlpack__` / `__dlpack_device__`
(NumPy's DLPack export, and hand-made capsules for the versioned ABI, flags and devices NumPy
1.x cannot produce) or only `__cuda_array_interface__` (no GPU here: a fake device pointer must
be refused with a clear error, never dereferenced)."""
import ctypes
import sys

import numpy as np
import pytest

import oompi
from conftest import ring


class DLPackOnly:
    """Exposes a NumPy array through DLPack alone (no buffer protocol); counts exports."""

    def __init__(self, a):
        self._a = a
        self.exports = 0
        self.capsules = []

    def __dlpack__(self, stream=None):  # NumPy 1.x: no max_version (oompi falls back)
        self.exports += 1
        cap = self._a.__dlpack__(stream=stream)
        self.capsules.append(cap)
        return cap

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def test_numpy_dlpack_send_recv(world):
    right, left = ring(world)
    out = DLPackOnly(np.arange(6, dtype=np.float64).reshape(2, 3) + world.rank)
    got_a = np.zeros((2, 3))
    got = DLPackOnly(got_a)
    base = sys.getrefcount(got_a)
    world.sendrecv(out, right, 1, got, left, 1)
    assert (got_a == np.arange(6).reshape(2, 3) + left).all()
    # Consumed per the protocol (renamed), and released: the tensor's deleter dropped NumPy's
    # reference to the array when the call returned.
    assert [_get_name(c) for c in got.capsules] == [b"used_dltensor"]
    assert sys.getrefcount(got_a) == base


def test_nonblocking_keeps_the_tensor(world):
    right, left = ring(world)
    got_a = np.zeros(4, dtype=np.int32)
    base = sys.getrefcount(got_a)
    r = world.irecv(DLPackOnly(got_a), left, 2)
    assert sys.getrefcount(got_a) == base + 1  # held by the pending request
    s = world.isend(DLPackOnly(np.full(4, world.rank, dtype=np.int32)), right, 2)
    oompi.Request.wait_all([r, s])
    assert list(got_a) == [left] * 4
    assert sys.getrefcount(got_a) == base


def test_collectives_and_specs(world):
    out = np.zeros(3, dtype=np.int64)
    world.allreduce(DLPackOnly(np.array([world.rank, 1, 2], dtype=np.int64)), DLPackOnly(out),
                    oompi.SUM)
    n = world.size
    assert list(out) == [n * (n - 1) // 2, n, 2 * n]
    buf = np.zeros(4, dtype=np.int32)
    if world.rank == 0:
        buf[:] = [7, 8, 9, 10]
    world.bcast([DLPackOnly(buf), 2, oompi.INT32], 0)  # a message spec around a DLPack array
    assert list(buf) == ([7, 8, 9, 10] if world.rank == 0 else [7, 8, 0, 0])


def test_numpy_dlpack_refusals(world):
    strided = DLPackOnly(np.arange(10.0)[::2])
    with pytest.raises(ValueError, match="not C-contiguous"):
        world.send(strided, oompi.PROC_NULL, 3)
    assert [_get_name(c) for c in strided.capsules] == [b"used_dltensor"]  # freed by oompi
    half = DLPackOnly(np.zeros(3, dtype=np.float16))
    with pytest.raises(ValueError, match="unsupported DLPack dtype"):
        world.send(half, oompi.PROC_NULL, 3)
    ro = np.zeros(3)
    ro.flags.writeable = False
    # NumPy 1.x cannot say "read-only" in DLPack and refuses the export; a versioned producer
    # marks it (the hand-made capsules below).
    with pytest.raises((BufferError, ValueError)):
        world.recv(DLPackOnly(ro), oompi.PROC_NULL, 3)
    with pytest.raises(TypeError, match="__dlpack__"):
        world.send(object(), oompi.PROC_NULL, 3)


# --- hand-made DLPack capsules (ctypes): the versioned ABI, flags, devices -------------------
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
    ("deleter", _DELETER), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]

_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Versioned:
    """A DLPack 1.0 producer over a NumPy array's memory (max_version required), recording how
    often the consumer called the deleter."""

    def __init__(self, a, device=(1, 0), flags=0, major=1, strides=None, offset=0, dtype=None):
        self.a, self.device, self.deleted = a, device, 0
        self._shape = (ctypes.c_int64 * a.ndim)(*a.shape)
        self._strides = (ctypes.c_int64 * a.ndim)(*strides) if strides else None
        self._deleter = _DELETER(self._delete)
        code, bits = dtype or ({"i": 0, "u": 1, "f": 2, "c": 5}[a.dtype.kind], a.itemsize * 8)
        t = DLTensor(a.ctypes.data - offset, DLDevice(*device), a.ndim, DLDataType(code, bits, 1),
                     self._shape, self._strides, offset)
        self._m = DLManagedTensorVersioned(major, 0, None, self._deleter, flags, t)

    def _delete(self, _):
        self.deleted += 1

    def __dlpack__(self, *, max_version, stream=None):
        return _new_capsule(ctypes.addressof(self._m), b"dltensor_versioned", None)

    def __dlpack_device__(self):
        return self.device


def test_versioned_capsules(world):
    right, left = ring(world)
    got = np.zeros(3, dtype=np.int32)
    src = Versioned(np.array([world.rank] * 3, dtype=np.int32), flags=1)  # read-only: a send
    dst = Versioned(got)
    world.sendrecv(src, right, 4, dst, left, 4)
    assert list(got) == [left] * 3
    assert (src.deleted, dst.deleted) == (1, 1)
    # byte_offset is added to data; unit strides of a compact layout are accepted.
    got2 = np.zeros((2, 2))
    dst = Versioned(got2, strides=(2, 1), offset=16)
    world.sendrecv(np.full((2, 2), 1.0 + world.rank), right, 5, dst, left, 5)
    assert (got2 == 1.0 + left).all() and dst.deleted == 1


@pytest.mark.parametrize("kw, exc, match", [
    (dict(flags=1), ValueError, "read-only"),
    (dict(strides=(1, 2)), ValueError, "not C-contiguous"),
    (dict(dtype=(4, 16)), ValueError, "unsupported DLPack dtype"),  # bfloat16
    (dict(major=2), BufferError, "DLPack version 2.0"),
    (dict(device=(4, 0)), ValueError, "OpenCL memory"),
])
def test_versioned_refusals(world, kw, exc, match):
    p = Versioned(np.zeros((2, 2), dtype=np.float32), **kw)
    with pytest.raises(exc, match=match):
        world.recv(p, oompi.PROC_NULL, 6)
    # Every tensor oompi took is released once; an unknown ABI version is not taken at all
    # (its capsule's destructor owns it) and a refused device is never exported.
    assert p.deleted == (0 if "major" in kw or "device" in kw else 1)


def test_cuda_device_memory_refused(world):
    if oompi.Environment.cuda_aware():
        pytest.skip("this MPI is CUDA-aware: device pointers are passed through")
    p = Versioned(np.zeros(2), device=(2, 0))  # kDLCUDA
    with pytest.raises(ValueError, match="CUDA memory .*not CUDA-aware"):
        world.send(p, oompi.PROC_NULL, 7)

    class CudaOnly:  # a fake device pointer: must never be dereferenced
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0xdead0000, False),
                                    "version": 3, "strides": None, "stream": None}

    with pytest.raises(ValueError, match="CUDA memory .*not CUDA-aware"):
        world.send(CudaOnly(), oompi.PROC_NULL, 7)
    with pytest.raises(ValueError, match="CUDA"):
        world.isend(CudaOnly(), oompi.PROC_NULL, 7)
