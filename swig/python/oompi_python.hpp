// Support code compiled into the Python extension (oompi/_core): run-time buffers from
// buffer-protocol objects, exception translation.
//
// Any object with the buffer protocol (NumPy arrays incl. slices, bytearray, memoryview,
// array.array), else with `__dlpack__` or `__cuda_array_interface__` (oompi_dlpack.hpp), is used
// in place: PyObject_GetBuffer(C_CONTIGUOUS | FORMAT [| WRITABLE]), the
// datatype inferred from the format. Blocking calls hold the Py_buffer for the call (released
// by the typemap's local); nonblocking calls move it into the request, which releases it (with
// the GIL) when the operation completes.
#ifndef OOMPI_SWIG_PYTHON_HPP
#define OOMPI_SWIG_PYTHON_HPP

#include <Python.h>

#include <limits>
#include <memory>
#include <vector>

#include <oompi/rt/rt.hpp>

#include "oompi_dlpack.hpp"
#include "../binding_names.hpp"

#include <string>

namespace oompi::python {

// Exception classes, created when the module initialises (see python.i).
inline PyObject* g_mpi_error = nullptr;     // oompi.MPIError(RuntimeError)
inline PyObject* g_closed_error = nullptr;  // oompi.ClosedError(RuntimeError)
inline PyTypeObject* g_status_type = nullptr;  // oompi.Status (oompi_fastpath.hpp)

/// The element kind of a buffer format (struct module syntax); false when unsupported.
inline bool kind_of_format(const char* fmt, Py_ssize_t itemsize, rt::type_kind& kind) {
  if (!fmt) {
    kind = rt::type_kind::uint8;  // plain bytes
    return itemsize == 1;
  }
  char order = '@';
  if (*fmt == '@' || *fmt == '=' || *fmt == '<' || *fmt == '>' || *fmt == '!') order = *fmt++;
  const bool little = PY_LITTLE_ENDIAN;
  if ((order == '>' || order == '!') && little) return false;
  if (order == '<' && !little) return false;
  if (fmt[0] == 'Z' && fmt[2] == '\0') {
    if (fmt[1] == 'f' && itemsize == 8) return kind = rt::type_kind::complex64, true;
    if (fmt[1] == 'd' && itemsize == 16) return kind = rt::type_kind::complex128, true;
    return false;
  }
  if (fmt[0] == '\0' || fmt[1] != '\0') return false;  // structured formats: not yet
  const char c = fmt[0];
  switch (c) {
    case 'f': return itemsize == 4 ? (kind = rt::type_kind::float32, true) : false;
    case 'd': return itemsize == 8 ? (kind = rt::type_kind::float64, true) : false;
    case '?': return itemsize == 1 ? (kind = rt::type_kind::boolean, true) : false;
    case 'c': return itemsize == 1 ? (kind = rt::type_kind::byte, true) : false;
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
      return int_kind(itemsize, true, kind);
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
      return int_kind(itemsize, false, kind);
  }
  return false;
}

/// Gets a C-contiguous buffer with its format; on failure sets a clear Python exception.
inline bool get_view(PyObject* obj, bool writable, Py_buffer& view) {
  const int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj, &view, flags) == 0) return true;
  if (!PyObject_CheckBuffer(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "oompi: expected an object with the buffer protocol (NumPy array, bytearray, "
                 "memoryview), __dlpack__ or __cuda_array_interface__, not '%.200s'",
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  // Say why: read-only, or not contiguous.
  PyErr_Clear();
  Py_buffer probe;
  if (writable && PyObject_GetBuffer(obj, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
    PyBuffer_Release(&probe);
    PyErr_Format(PyExc_ValueError,
                 "oompi: cannot receive into a read-only buffer ('%.200s'); use a bytearray or a "
                 "writable NumPy array",
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  PyErr_Clear();
  PyErr_SetString(PyExc_ValueError,
                  "oompi: the buffer is not C-contiguous; pass a contiguous array "
                  "(numpy.ascontiguousarray) or a contiguous slice");
  return false;
}

/// Struct datatypes for NumPy structured arrays (oompi_fastpath.hpp sets it): true with b.type
/// set, false with an exception set, or -1 when the buffer is not a structured array.
inline int (*g_struct_describe)(const Py_buffer& view, rt::buffer& b) = nullptr;

/// Fills b from a held view; false (with ValueError) for an unsupported format.
inline bool describe(const Py_buffer& view, rt::buffer& b) {
  rt::type_kind kind;
  if (!kind_of_format(view.format, view.itemsize, kind)) {
    if (g_struct_describe && view.format && view.format[0] == 'T') {
      const int r = g_struct_describe(view, b);
      if (r >= 0) return r == 1;
    }
    PyErr_Format(PyExc_ValueError,
                 "oompi: unsupported buffer format '%.50s' (item size %zd); use a buffer of a "
                 "builtin numeric type in native byte order",
                 view.format ? view.format : "B", view.itemsize);
    return false;
  }
  b.data = view.buf;
  b.type = rt::detail::builtin_type(kind);
  b.extent = view.itemsize;
  b.count = view.itemsize ? view.len / view.itemsize : 0;
  return true;
}

void translate();

/// mpi4py's message specs: `[buf, datatype]` or `[buf, count, datatype]` (list or tuple) give
/// the buffer an explicit datatype (derived, a MAXLOC pair, or another builtin); without a
/// count, as many whole elements of the datatype as fit in the buffer. 1: a spec (`buf` set),
/// 0: not a spec, -1: a bad spec (exception set).
inline int message_spec(PyObject* obj, PyObject*& buf, PyObject*& type, PyObject*& count) {
  if (!PyList_Check(obj) && !PyTuple_Check(obj)) return 0;
  PyObject* seq = PySequence_Fast(obj, "");
  if (!seq) return -1;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  Py_DECREF(seq);  // obj (the caller's argument) keeps the items alive
  if (n != 2 && n != 3) {
    PyErr_SetString(PyExc_TypeError,
                    "oompi: a message spec is [buffer, datatype] or [buffer, count, datatype]");
    return -1;
  }
  buf = items[0];
  count = n == 3 ? items[1] : nullptr;
  type = items[n - 1];
  return 1;
}

/// Applies a spec's datatype and count to b (described from the spec's buffer).
inline bool apply_spec(PyObject* type, PyObject* count, rt::buffer& b) {
  static swig_type_info* dt = SWIG_TypeQuery("oompi::rt::datatype *");
  void* p = nullptr;
  if (!SWIG_IsOK(SWIG_ConvertPtr(type, &p, dt, 0)) || !p) {
    PyErr_Format(PyExc_TypeError, "oompi: the datatype of a message spec must be an "
                 "oompi.Datatype, not '%.200s'", Py_TYPE(type)->tp_name);
    return false;
  }
  const auto& t = *static_cast<rt::datatype*>(p);
  try {
    std::int64_t n;
    if (count) {
      n = PyLong_AsLongLong(count);
      if (n == -1 && PyErr_Occurred()) return false;
    } else {
      const std::int64_t ext = t.extent();
      n = ext > 0 ? b.count * b.extent / ext : 0;
    }
    rt::retype(b, t, n, "oompi: message spec");
    return true;
  } catch (...) {
    translate();
    return false;
  }
}

/// The memory of one buffer argument: a Py_buffer, or else an array taken through
/// `__dlpack__` / `__cuda_array_interface__` (oompi_dlpack.hpp). The one place where an object
/// becomes an rt::buffer; release() with the GIL held.
struct held_memory {
  Py_buffer view;
  bool has_view = false;
  foreign_array foreign;

  bool get(PyObject* obj, bool writable, rt::buffer& b) {
    PyObject *type = nullptr, *count = nullptr;
    const int spec = message_spec(obj, obj, type, count);
    if (spec < 0) return false;
    if (!PyObject_CheckBuffer(obj)) {
      const int r = foreign_buffer(obj, writable, foreign, b);
      if (r < 0) return false;
      if (r > 0) return !spec || apply_spec(type, count, b);
    }
    if (!get_view(obj, writable, view)) return false;
    has_view = true;
    return describe(view, b) && (!spec || apply_spec(type, count, b));
  }
  void release() noexcept {
    if (has_view) PyBuffer_Release(&view);
    has_view = false;
    foreign.release();
  }
};

/// The memory of a buffer argument for the duration of one blocking call (a typemap local).
struct view_guard {
  held_memory mem;
  view_guard() = default;
  view_guard(const view_guard&) = delete;
  view_guard& operator=(const view_guard&) = delete;
  ~view_guard() { mem.release(); }  // the wrapper holds the GIL again here
  bool get(PyObject* obj, bool writable, rt::buffer& b) { return mem.get(obj, writable, b); }
};

/// The memory of a buffer argument owned by a pending request; released with the GIL when it
/// completes.
struct held_view final : rt::keep_alive {
  held_memory mem;
  ~held_view() override {
    if (!Py_IsInitialized()) return;  // interpreter gone: nothing to release into
    PyGILState_STATE g = PyGILState_Ensure();
    mem.release();
    PyGILState_Release(g);
  }
};

inline bool get_async(PyObject* obj, bool writable, rt::async_buffer& b) {
  auto keep = std::make_unique<held_view>();
  if (!keep->mem.get(obj, writable, b)) return false;  // keep's destructor releases it
  b.keep = std::move(keep);
  return true;
}

inline void raise_mpi(const oompi::error& e) {
  PyObject* exc = PyObject_CallFunction(g_mpi_error, "s", e.what());
  if (!exc) return;
  PyObject* cls = PyLong_FromLong(e.error_class());
  PyObject* code = PyLong_FromLong(e.code());
  PyObject* routine = PyUnicode_FromString(e.routine().c_str());
  if (cls) PyObject_SetAttrString(exc, "error_class", cls);
  if (code) PyObject_SetAttrString(exc, "error_code", code);
  if (routine) PyObject_SetAttrString(exc, "routine", routine);
  Py_XDECREF(cls);
  Py_XDECREF(code);
  Py_XDECREF(routine);
  PyErr_SetObject(g_mpi_error, exc);
  Py_DECREF(exc);
}

/// A Python exception raised by a director (a user function called by MPI, possibly on another
/// thread): fetched out of that thread's state while its GIL was held, carried through the
/// C++ code as a C++ exception, and restored where the collective returns (trap 2 of the
/// prototype: SWIG's default would leave it in the wrong thread's state).
class python_error : public std::exception {
public:
  python_error() : st_(std::make_shared<held>()) {
    PyErr_Fetch(&st_->type, &st_->value, &st_->traceback);
    PyErr_NormalizeException(&st_->type, &st_->value, &st_->traceback);
  }
  const char* what() const noexcept override { return "Python exception in a user function"; }
  /// Sets the exception as the current Python error (GIL held).
  void restore() const {
    Py_XINCREF(st_->type);
    Py_XINCREF(st_->value);
    Py_XINCREF(st_->traceback);
    PyErr_Restore(st_->type, st_->value, st_->traceback);
  }

private:
  struct held {
    PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
    held() = default;
    held(const held&) = delete;
    held& operator=(const held&) = delete;
    ~held() {  // possibly without the GIL (an exception_ptr dropped anywhere)
      if (!Py_IsInitialized()) return;
      PyGILState_STATE g = PyGILState_Ensure();
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(traceback);
      PyGILState_Release(g);
    }
  };
  std::shared_ptr<held> st_;
};

/// A memoryview of `nbytes` at `address` (MPI's memory handed to a user function).
inline PyObject* memory_view(std::int64_t address, std::int64_t nbytes, bool writable) {
  if (nbytes < 0) {
    PyErr_SetString(PyExc_ValueError, "oompi: negative size");
    return nullptr;
  }
  return PyMemoryView_FromMemory(reinterpret_cast<char*>(static_cast<std::intptr_t>(address)),
                                 static_cast<Py_ssize_t>(nbytes),
                                 writable ? PyBUF_WRITE : PyBUF_READ);
}

/// An mpi4py.MPI.Comm (anything with py2f()) as a facade communicator that does not own it.
/// False with a Python exception set otherwise.
inline bool foreign_comm(PyObject* obj, rt::comm& out, const char* where = "oompi") {
  PyObject* f = PyObject_HasAttrString(obj, "py2f") ? PyObject_CallMethod(obj, "py2f", nullptr)
                                                    : nullptr;
  if (!f) {
    if (!PyErr_Occurred())
      PyErr_Format(PyExc_TypeError, "%s: expected an oompi.Comm or an mpi4py.MPI.Comm, not '%.200s'",
                   where, Py_TYPE(obj)->tp_name);
    return false;
  }
  const long long h = PyLong_AsLongLong(f);
  Py_DECREF(f);
  if (h == -1 && PyErr_Occurred()) return false;
  try {
    out = rt::interop::comm_from_fortran(h);
    return true;
  } catch (...) {
    translate();
    return false;
  }
}

/// Python's names for the facade's (python.i: snake_case methods, CamelCase classes).
using oompi::binding::python_names;
/// A facade exception's message in Python's names ("File.write_at: ...").
inline std::string message(const std::exception& e) {
  return oompi::binding::message(e, python_names);
}

/// Turns the C++ exception in flight into a Python exception (called with the GIL held).
inline void translate() {
  try {
    throw;
  } catch (const python_error& e) {
    e.restore();
  } catch (const oompi::error& e) {
    raise_mpi(e);
  } catch (const rt::closed_error& e) {
    PyErr_SetString(g_closed_error, message(e).c_str());
  } catch (const std::out_of_range& e) {
    PyErr_SetString(PyExc_IndexError, message(e).c_str());
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, message(e).c_str());
  } catch (const std::length_error& e) {
    PyErr_SetString(PyExc_ValueError, message(e).c_str());
  } catch (const std::domain_error& e) {
    PyErr_SetString(PyExc_ValueError, message(e).c_str());
  } catch (const std::logic_error& e) {
    PyErr_SetString(PyExc_RuntimeError, message(e).c_str());
  } catch (const std::range_error& e) {
    PyErr_SetString(PyExc_ArithmeticError, message(e).c_str());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, message(e).c_str());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "oompi: unknown C++ exception");
  }
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_HPP
