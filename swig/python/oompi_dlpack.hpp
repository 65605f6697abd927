// Buffers from arrays that do not have the buffer protocol: any object with `__dlpack__`
// (DLPack: NumPy >= 1.22, PyTorch, JAX, CuPy, ...) or `__cuda_array_interface__` (Numba, CuPy,
// PyTorch). oompi_python.hpp tries the buffer protocol first and comes here only without it.
//
// DLPack, as the Python specification says a consumer does: ask `__dlpack_device__()` first
// (refuse a device MPI cannot read before anything is exported), call
// `__dlpack__(max_version=(1, 0))` and fall back to `__dlpack__()` for producers that predate
// versioned tensors (TypeError: NumPy < 2.1); take the capsule by renaming it to
// "used_dltensor[_versioned]" (its destructor then leaves the tensor alone) and call the
// tensor's deleter once MPI is done with the memory. The managed tensor keeps the producer's
// memory alive until then. No stream is passed: for CUDA that means the legacy default stream,
// with which a CUDA-aware MPI's blocking copies synchronise.
//
// Host memory (kDLCPU, kDLCUDAHost, kDLROCMHost) is used in place; CUDA device and managed
// memory (kDLCUDA, kDLCUDAManaged, and every `__cuda_array_interface__`) is passed through when
// the MPI library is CUDA-aware (oompi::environment::cuda_aware()), otherwise refused with a
// ValueError naming the device. The layout must be compact row-major (C-contiguous).
#ifndef OOMPI_SWIG_PYTHON_DLPACK_HPP
#define OOMPI_SWIG_PYTHON_DLPACK_HPP

#include <Python.h>

#include <oompi/rt/environment.hpp>
#include <oompi/rt/rt.hpp>

#include "oompi_int_kind.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace oompi::python {

namespace dlpack {
// The DLPack ABI (dlpack.h, v1.0; the unversioned layout of v0.x is DLManagedTensor). Declared
// here: Debian ships no dlpack.h, and the layout is frozen by the ABI.
struct DLDevice { std::int32_t device_type, device_id; };
struct DLDataType { std::uint8_t code, bits; std::uint16_t lanes; };
struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; NULL: compact row-major
  std::uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor*);
};
struct DLManagedTensorVersioned {
  struct { std::uint32_t major, minor; } version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned*);
  std::uint64_t flags;
  DLTensor dl_tensor;
};
enum : std::int32_t { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLROCM = 10, kDLROCMHost = 11,
                      kDLCUDAManaged = 13 };
enum : std::uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5,
                      kDLBool = 6 };
constexpr std::uint64_t flag_read_only = 1;

inline const char* device_name(std::int32_t t) {
  static const char* const names[] = {
      "unknown", "CPU", "CUDA", "CUDA host", "OpenCL", "unknown", "unknown", "Vulkan", "Metal",
      "VPI", "ROCm", "ROCm host", "ext_dev", "CUDA managed", "oneAPI", "WebGPU", "Hexagon",
      "MAIA"};
  return t > 0 && t < static_cast<std::int32_t>(sizeof names / sizeof *names) ? names[t]
                                                                             : "unknown";
}
}  // namespace dlpack

/// Memory taken from a `__dlpack__` or `__cuda_array_interface__` exporter: what must stay
/// alive while MPI uses it, released (GIL held) by release().
struct foreign_array {
  void* managed = nullptr;             // a consumed DLPack tensor, freed by its deleter
  void (*deleter)(void*) = nullptr;
  PyObject* owner = nullptr;           // the `__cuda_array_interface__` exporter

  void release() noexcept {
    if (!managed && !owner) return;
    // A deleter may run Python code (a producer's, or a decref reaching __del__): never with
    // an exception pending, and without losing the one that is (a refused array's error).
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (managed && deleter) deleter(managed);
    managed = nullptr;
    Py_CLEAR(owner);
    PyErr_Restore(type, value, traceback);
  }
};

namespace detail_dlpack {

/// The element kind of a DLPack dtype; false when MPI has no builtin for it.
inline bool kind_of(const dlpack::DLDataType& t, rt::type_kind& kind) {
  using namespace dlpack;
  if (t.lanes != 1) return false;
  switch (t.code) {
    case kDLInt: case kDLUInt:
      return t.bits % 8 == 0 && int_kind(t.bits / 8, t.code == kDLInt, kind);
    case kDLFloat:
      if (t.bits == 32) return kind = rt::type_kind::float32, true;
      if (t.bits == 64) return kind = rt::type_kind::float64, true;
      return false;
    case kDLComplex:
      if (t.bits == 64) return kind = rt::type_kind::complex64, true;
      if (t.bits == 128) return kind = rt::type_kind::complex128, true;
      return false;
    case kDLBool:
      return t.bits == 8 ? (kind = rt::type_kind::boolean, true) : false;
  }
  return false;
}

/// Elements of a compact row-major array of `shape`, or -1 when `strides` (in elements, or
/// NULL) describe another layout. Dimensions of extent 1 may have any stride.
inline std::int64_t contiguous_count(int ndim, const std::int64_t* shape,
                                     const std::int64_t* strides) {
  std::int64_t n = 1, expected = 1;
  for (int i = ndim - 1; i >= 0; --i) {
    if (strides && shape[i] != 1 && strides[i] != expected) return shape[i] == 0 ? 0 : -1;
    expected *= shape[i];
    n *= shape[i];
  }
  return n;
}

/// True for device memory MPI can use: host memory always, CUDA memory when MPI is CUDA-aware;
/// otherwise sets a ValueError naming the device.
inline bool device_ok(std::int32_t type, std::int32_t id, const char* via) {
  using namespace dlpack;
  if (type == kDLCPU || type == kDLCUDAHost || type == kDLROCMHost) return true;
  const bool cuda = type == kDLCUDA || type == kDLCUDAManaged;
  if (cuda && rt::environment::cuda_aware()) return true;
  PyErr_Format(PyExc_ValueError,
               "oompi: the array (%s) is in %s memory (device %d)%s; copy it to host memory "
               "first (e.g. numpy.asarray(x.cpu()), cupy.asnumpy(x))",
               via, device_name(type), static_cast<int>(id),
               cuda ? " and this MPI library is not CUDA-aware (MPIX_Query_cuda_support)"
                    : ", which MPI cannot read");
  return false;
}

/// Synchronises a CUDA stream named by `__cuda_array_interface__` (v3) through the driver API
/// that a CUDA-aware MPI has loaded; false with an error when that is not possible.
inline bool sync_stream(PyObject* stream) {
  if (!stream || stream == Py_None) return true;
  const unsigned long long s = PyLong_AsUnsignedLongLong(stream);
  if (PyErr_Occurred()) return false;
  using sync_fn = int (*)(void*);
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  auto* fn = lib ? reinterpret_cast<sync_fn>(dlsym(lib, "cuStreamSynchronize")) : nullptr;
  if (!fn || fn(reinterpret_cast<void*>(static_cast<std::uintptr_t>(s))) != 0) {
    PyErr_SetString(PyExc_RuntimeError, "oompi: cannot synchronise the CUDA stream of a "
                    "__cuda_array_interface__ (libcuda.so.1 not loaded or cuStreamSynchronize "
                    "failed)");
    return false;
  }
  return true;
}

inline bool fill(rt::buffer& b, void* data, std::int64_t n, rt::type_kind kind, int bytes) {
  b.data = data;
  b.type = rt::detail::builtin_type(kind);
  b.extent = bytes;
  b.count = n;
  return true;
}

/// A consumed DLPack capsule → b; the tensor is handed to `keep` before anything can fail.
inline bool from_dlpack(PyObject* obj, PyObject* method, bool writable, foreign_array& keep,
                        rt::buffer& b) {
  using namespace dlpack;
  // The device first: nothing is exported for memory MPI cannot use.
  PyObject* dev = PyObject_CallMethod(obj, "__dlpack_device__", nullptr);
  if (dev) {
    int type = 0, id = 0;
    const bool ok = PyArg_ParseTuple(dev, "ii;__dlpack_device__() must return (type, id)",
                                     &type, &id);
    Py_DECREF(dev);
    if (!ok || !device_ok(type, id, "__dlpack__")) return false;
  } else if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();  // optional for old producers: the tensor's own device is checked below
  } else {
    return false;
  }
  PyObject* kwargs = Py_BuildValue("{s:(ii)}", "max_version", 1, 0);
  if (!kwargs) return false;
  PyObject* empty = PyTuple_New(0);
  PyObject* cap = empty ? PyObject_Call(method, empty, kwargs) : nullptr;
  Py_DECREF(kwargs);
  if (!cap && PyErr_ExceptionMatches(PyExc_TypeError)) {  // no max_version: a v0.x producer
    PyErr_Clear();
    cap = PyObject_Call(method, empty, nullptr);
  }
  Py_XDECREF(empty);
  if (!cap) return false;
  DLTensor* t = nullptr;
  bool read_only = false;
  if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(cap,
                                                                         "dltensor_versioned"));
    if (m->version.major != 1) {  // unknown ABI: leave it to the capsule's destructor
      PyErr_Format(PyExc_BufferError, "oompi: unsupported DLPack version %u.%u",
                   m->version.major, m->version.minor);
      Py_DECREF(cap);
      return false;
    }
    PyCapsule_SetName(cap, "used_dltensor_versioned");
    keep.managed = m;
    keep.deleter = reinterpret_cast<void (*)(void*)>(m->deleter);
    t = &m->dl_tensor;
    read_only = (m->flags & flag_read_only) != 0;
  } else if (PyCapsule_IsValid(cap, "dltensor")) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(cap, "dltensor"));
    PyCapsule_SetName(cap, "used_dltensor");
    keep.managed = m;
    keep.deleter = reinterpret_cast<void (*)(void*)>(m->deleter);
    t = &m->dl_tensor;
  } else {
    PyErr_Format(PyExc_TypeError, "oompi: %.200s.__dlpack__() did not return a DLPack capsule",
                 Py_TYPE(obj)->tp_name);
    Py_DECREF(cap);
    return false;
  }
  Py_DECREF(cap);  // renamed: its destructor no longer frees the tensor (keep does)
  if (!device_ok(t->device.device_type, t->device.device_id, "__dlpack__")) return false;
  if (writable && read_only) {
    PyErr_Format(PyExc_ValueError, "oompi: cannot receive into a read-only array ('%.200s')",
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  rt::type_kind kind;
  if (!kind_of(t->dtype, kind)) {
    PyErr_Format(PyExc_ValueError,
                 "oompi: unsupported DLPack dtype (code %d, %d bits, %d lanes); use an array of "
                 "a builtin numeric type",
                 t->dtype.code, t->dtype.bits, t->dtype.lanes);
    return false;
  }
  const std::int64_t n = contiguous_count(t->ndim, t->shape, t->strides);
  if (n < 0) {
    PyErr_SetString(PyExc_ValueError,
                    "oompi: the array (__dlpack__) is not C-contiguous; pass a contiguous copy");
    return false;
  }
  return fill(b, static_cast<char*>(t->data) + t->byte_offset, n, kind, t->dtype.bits / 8);
}

/// A `__cuda_array_interface__` dict → b (the exporter kept alive in `keep`).
inline bool from_cai(PyObject* obj, PyObject* cai, bool writable, foreign_array& keep,
                     rt::buffer& b) {
  if (!PyDict_Check(cai)) {
    PyErr_SetString(PyExc_TypeError, "oompi: __cuda_array_interface__ must be a dict");
    return false;
  }
  // The pointer is CUDA device (or managed) memory by definition.
  if (!device_ok(dlpack::kDLCUDA, 0, "__cuda_array_interface__")) return false;
  PyObject* shape = PyDict_GetItemString(cai, "shape");
  PyObject* typestr = PyDict_GetItemString(cai, "typestr");
  PyObject* data = PyDict_GetItemString(cai, "data");
  PyObject* strides = PyDict_GetItemString(cai, "strides");
  PyObject* mask = PyDict_GetItemString(cai, "mask");
  unsigned long long ptr = 0;
  int read_only = 0;
  if (!shape || !PyTuple_Check(shape) || !typestr || !PyUnicode_Check(typestr) || !data ||
      !PyArg_ParseTuple(data, "Kp", &ptr, &read_only)) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "oompi: __cuda_array_interface__ needs shape (tuple), "
                    "typestr (str) and data ((pointer, read_only))");
    return false;
  }
  if (mask && mask != Py_None) {
    PyErr_SetString(PyExc_ValueError, "oompi: masked __cuda_array_interface__ arrays are not "
                    "supported");
    return false;
  }
  if (writable && read_only) {
    PyErr_Format(PyExc_ValueError, "oompi: cannot receive into a read-only array ('%.200s')",
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  // typestr: byte order, kind, item size (NumPy's array interface: "<f8", "|u1").
  const char* ts = PyUnicode_AsUTF8(typestr);
  rt::type_kind kind;
  const int bytes = ts && ts[0] && ts[1] ? std::atoi(ts + 2) : 0;
  dlpack::DLDataType dt{0, static_cast<std::uint8_t>(bytes * 8), 1};
  const char order = ts ? ts[0] : 0;
  const char k = ts && ts[0] ? ts[1] : 0;
  dt.code = k == 'i' ? dlpack::kDLInt : k == 'u' ? dlpack::kDLUInt : k == 'f' ? dlpack::kDLFloat
          : k == 'c' ? dlpack::kDLComplex : k == 'b' ? dlpack::kDLBool : 255;
  if (order == (PY_LITTLE_ENDIAN ? '>' : '<') || !kind_of(dt, kind)) {
    PyErr_Format(PyExc_ValueError, "oompi: unsupported __cuda_array_interface__ typestr '%s'",
                 ts ? ts : "?");
    return false;
  }
  const int ndim = static_cast<int>(PyTuple_GET_SIZE(shape));
  std::int64_t dims[64], steps[64];  // strides in elements
  if (ndim > 64) return PyErr_SetString(PyExc_ValueError, "oompi: too many dimensions"), false;
  const bool strided = strides && strides != Py_None;
  if (strided && (!PyTuple_Check(strides) || PyTuple_GET_SIZE(strides) != ndim)) {
    PyErr_SetString(PyExc_TypeError, "oompi: __cuda_array_interface__ strides must be a tuple "
                    "of one int per dimension");
    return false;
  }
  for (int i = 0; i < ndim; ++i) {
    dims[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(shape, i));
    if (strided) {
      const long long s = PyLong_AsLongLong(PyTuple_GET_ITEM(strides, i));
      steps[i] = s % bytes ? -1 : s / bytes;
    }
    if (PyErr_Occurred()) return false;
  }
  const std::int64_t n = contiguous_count(ndim, dims, strided ? steps : nullptr);
  if (n < 0) {
    PyErr_SetString(PyExc_ValueError, "oompi: the array (__cuda_array_interface__) is not "
                    "C-contiguous; pass a contiguous copy");
    return false;
  }
  if (!sync_stream(PyDict_GetItemString(cai, "stream"))) return false;
  Py_INCREF(obj);
  keep.owner = obj;
  return fill(b, reinterpret_cast<void*>(static_cast<std::uintptr_t>(ptr)), n, kind, bytes);
}

}  // namespace detail_dlpack

/// b from `__dlpack__` or `__cuda_array_interface__`: 1 on success (memory held by `keep`),
/// -1 with an exception set, 0 when obj has neither.
inline int foreign_buffer(PyObject* obj, bool writable, foreign_array& keep, rt::buffer& b) {
  static PyObject* dlpack_name = PyUnicode_InternFromString("__dlpack__");
  static PyObject* cai_name = PyUnicode_InternFromString("__cuda_array_interface__");
  if (PyObject* method = PyObject_GetAttr(obj, dlpack_name)) {
    const bool ok = detail_dlpack::from_dlpack(obj, method, writable, keep, b);
    Py_DECREF(method);
    if (!ok) keep.release();
    return ok ? 1 : -1;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
  PyErr_Clear();
  if (PyObject* cai = PyObject_GetAttr(obj, cai_name)) {
    const bool ok = detail_dlpack::from_cai(obj, cai, writable, keep, b);
    Py_DECREF(cai);
    if (!ok) keep.release();
    return ok ? 1 : -1;
  }
  if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
  PyErr_Clear();
  return 0;
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_DLPACK_HPP
