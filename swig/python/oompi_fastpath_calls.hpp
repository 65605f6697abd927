// Python fast paths: the point-to-point calls (send, recv, sendrecv, ...).
// Part of oompi_fastpath.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_FASTPATH_CALLS_HPP
#define OOMPI_SWIG_PYTHON_FASTPATH_CALLS_HPP

#include "oompi_fastpath_args.hpp"

namespace oompi::python {

// --- the calls -----------------------------------------------------------------------------
inline swig_type_info* g_comm_type = nullptr;      // SWIGTYPE_p_oompi__rt__comm, set at init
inline swig_type_info* g_datatype_type = nullptr;  // SWIGTYPE_p_oompi__rt__datatype
inline PyObject* g_dtype_hook = nullptr;  // oompi.structs._buffer_datatype(obj) -> Datatype|None

/// The struct datatype of a NumPy structured array's buffer (built once per dtype and cached by
/// oompi/structs.py, so the MPI handle outlives the call).
inline int struct_describe(const Py_buffer& view, rt::buffer& b) {
  if (!g_dtype_hook || !view.obj) return -1;
  PyObject* dt = PyObject_CallOneArg(g_dtype_hook, view.obj);
  if (!dt) return 0;
  if (dt == Py_None) {
    Py_DECREF(dt);
    return -1;
  }
  void* p = nullptr;
  const int res = SWIG_ConvertPtr(dt, &p, g_datatype_type, 0);
  Py_DECREF(dt);  // the cache keeps it
  if (!SWIG_IsOK(res) || !p) {
    PyErr_SetString(PyExc_TypeError, "oompi: the dtype hook did not return a Datatype");
    return 0;
  }
  try {
    b.type = static_cast<rt::datatype*>(p)->native("buffer");
  } catch (...) {
    translate();
    return 0;
  }
  b.data = view.buf;
  b.extent = view.itemsize;
  b.count = view.itemsize ? view.len / view.itemsize : 0;
  return 1;
}

/// Predefined datatype constants by MPI handle (a handful; a linear search is fastest).
inline std::vector<std::pair<MPI_Datatype, PyObject*>>& known_datatypes() {
  static auto* v = new std::vector<std::pair<MPI_Datatype, PyObject*>>();
  return *v;
}

/// A new reference to the registered constant for this datatype, or null (no error set).
inline PyObject* known_datatype(const rt::datatype& t) {
  MPI_Datatype h;
  try {
    h = t.native("user function");
  } catch (...) {
    return nullptr;
  }
  for (const auto& [k, obj] : known_datatypes()) {
    if (k == h) {
      Py_INCREF(obj);
      return obj;
    }
  }
  return nullptr;
}

inline PyObject* register_datatype(PyObject*, PyObject* dt) {
  void* p = nullptr;
  if (!SWIG_IsOK(SWIG_ConvertPtr(dt, &p, g_datatype_type, 0)) || !p) {
    PyErr_SetString(PyExc_TypeError, "_register_datatype: expected a Datatype");
    return nullptr;
  }
  auto* t = static_cast<rt::datatype*>(p);
  if (!t->is_builtin()) {
    PyErr_SetString(PyExc_ValueError, "_register_datatype: only predefined datatypes");
    return nullptr;
  }
  Py_INCREF(dt);
  known_datatypes().emplace_back(t->native("register"), dt);
  Py_RETURN_NONE;
}

inline PyObject* set_dtype_hook(PyObject*, PyObject* f) {
  Py_XDECREF(g_dtype_hook);
  Py_INCREF(f);
  g_dtype_hook = f;
  g_struct_describe = struct_describe;
  Py_RETURN_NONE;
}

/// Binds positional and keyword arguments to `names` (the first `required` are required).
/// slot[i] is a borrowed reference or null when not given.
inline bool bind(const char* fn, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                 const char* const* names, Py_ssize_t count, Py_ssize_t required,
                 PyObject** slot) {
  if (!kwnames && nargs >= required && nargs <= count) {  // positional only: the usual call
    Py_ssize_t i = 0;
    for (; i < nargs; ++i) slot[i] = args[i];
    for (; i < count; ++i) slot[i] = nullptr;
    return true;
  }
  if (nargs > count) {
    PyErr_Format(PyExc_TypeError, "%s() takes at most %zd arguments (%zd given)", fn, count,
                 nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < count; ++i) slot[i] = i < nargs ? args[i] : nullptr;
  if (kwnames) {
    const Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
      const char* key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
      if (!key) return false;
      Py_ssize_t i = 0;
      while (i < count && std::strcmp(key, names[i]) != 0) ++i;
      if (i == count) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fn, key);
        return false;
      }
      if (slot[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fn, key);
        return false;
      }
      slot[i] = args[nargs + k];
    }
  }
  for (Py_ssize_t i = 0; i < required; ++i) {
    if (!slot[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fn, names[i]);
      return false;
    }
  }
  return true;
}

inline bool opt_int(PyObject* o, const char* fn, const char* name, int& out) {
  return !o || int_arg(o, fn, name, out);
}

template <bool Sync>
inline PyObject* fast_send(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                           PyObject* kwnames) {
  static const char* const names[] = {"buf", "dest", "tag"};
  const char* fn = Sync ? "Comm.ssend" : "Comm.send";
  PyObject* a[3];
  if (!bind(fn, args, nargs, kwnames, names, 3, 2, a)) return nullptr;
  rt::comm* c = comm_of(self, g_comm_type);
  if (!c) return nullptr;
  int dest = 0, tag = 0;
  if (!int_arg(a[1], fn, "dest", dest) || !opt_int(a[2], fn, "tag", tag)) return nullptr;
  fast_view v;
  rt::buffer b;
  if (!v.get(a[0], false, b)) return nullptr;
  const bool ok = call_released([&] {
    if (Sync)
      c->ssend(b, dest, tag);
    else
      c->send(b, dest, tag);
  });
  if (!ok) return nullptr;
  Py_RETURN_NONE;
}

inline PyObject* fast_recv(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                           PyObject* kwnames) {
  static const char* const names[] = {"buf", "source", "tag"};
  PyObject* a[3];
  if (!bind("Comm.recv", args, nargs, kwnames, names, 3, 1, a)) return nullptr;
  rt::comm* c = comm_of(self, g_comm_type);
  if (!c) return nullptr;
  int source = MPI_ANY_SOURCE, tag = MPI_ANY_TAG;
  if (!opt_int(a[1], "Comm.recv", "source", source) || !opt_int(a[2], "Comm.recv", "tag", tag))
    return nullptr;
  fast_view v;
  rt::buffer b;
  if (!v.get(a[0], true, b)) return nullptr;
  rt::status st;
  if (!call_released([&] { st = c->recv(b, source, tag); })) return nullptr;
  return new_status(st);
}

inline PyObject* fast_sendrecv(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  static const char* const names[] = {"sendbuf", "dest", "sendtag", "recvbuf", "source",
                                      "recvtag"};
  const char* fn = "Comm.sendrecv";
  PyObject* a[6];
  if (!bind(fn, args, nargs, kwnames, names, 6, 6, a)) return nullptr;
  rt::comm* c = comm_of(self, g_comm_type);
  if (!c) return nullptr;
  int dest, sendtag, source, recvtag;
  if (!int_arg(a[1], fn, "dest", dest) || !int_arg(a[2], fn, "sendtag", sendtag) ||
      !int_arg(a[4], fn, "source", source) || !int_arg(a[5], fn, "recvtag", recvtag))
    return nullptr;
  fast_view sv, rv;
  rt::buffer sb, rb;
  if (!sv.get(a[0], false, sb) || !rv.get(a[3], true, rb)) return nullptr;
  rt::status st;
  if (!call_released([&] { st = c->sendrecv(sb, dest, sendtag, rb, source, recvtag); }))
    return nullptr;
  return new_status(st);
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_FASTPATH_CALLS_HPP
