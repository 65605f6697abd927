// The hot point-to-point calls of the Python binding, written against CPython's vectorcall
// protocol instead of SWIG's generated wrappers (included into the SWIG module's %wrapper
// section, so it uses SWIG's runtime to find the facade object behind a proxy).
//
// Why: an 8-byte send + recv from Python is dominated by the binding's own work. Measured
// (bench/python, PROC_NULL micro-bench): SWIG's path cost 170 ns per send and 260 ns per recv
// (proxy method → tuple → PyArg parsing → PyObject_GetBuffer → GIL release → struct-sequence
// Status). Here: METH_FASTCALL method descriptors installed on the proxy class (no tuple, no
// Python-level indirection), NumPy arrays read directly from the array object (no
// PyObject_GetBuffer, whose format string building dominated), and Status as a small C type.
// Everything else (bytearray, memoryview, array.array, non-contiguous or read-only arrays and
// their error messages) goes through the generic buffer path of oompi_python.hpp.
//
// The facade call itself is unchanged (oompi::rt::comm::send/recv/...), with the GIL released
// around it as -threads does for the generated wrappers.
#ifndef OOMPI_SWIG_PYTHON_FASTPATH_HPP
#define OOMPI_SWIG_PYTHON_FASTPATH_HPP

#include "oompi_python.hpp"

#include <oompi/buffer.hpp>
#include <oompi/detail/object_match.hpp>
#include <oompi/status.hpp>

#include <structmember.h>

#if __has_include(<numpy/ndarraytypes.h>)
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/ndarraytypes.h>  // struct layout and inline accessors only: no import_array
#define OOMPI_PY_HAVE_NUMPY 1
#endif

#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace oompi::python {

// --- Status: a plain C object with read-only members ----------------------------------------
struct status_object {
  PyObject_HEAD
  int source;
  int tag;
  int error;
  char cancelled;
  long long count_bytes;
};

inline PyObject* status_get_count(PyObject* self, PyObject* type) {
  auto* s = reinterpret_cast<status_object*>(self);
  PyObject* size_obj = PyObject_GetAttrString(type, "size");
  if (!size_obj) return nullptr;
  const long long size = PyLong_AsLongLong(size_obj);
  Py_DECREF(size_obj);
  if (size == -1 && PyErr_Occurred()) return nullptr;
  if (size == 0) return PyLong_FromLong(0);
  if (s->count_bytes % size) {
    PyErr_Format(PyExc_ArithmeticError,
                 "Status.get_count: the message (%lld bytes) is not a whole number of elements "
                 "of %lld bytes",
                 s->count_bytes, size);
    return nullptr;
  }
  return PyLong_FromLongLong(s->count_bytes / size);
}

inline PyObject* status_repr(PyObject* self) {
  auto* s = reinterpret_cast<status_object*>(self);
  return PyUnicode_FromFormat("oompi.Status(source=%d, tag=%d, error=%d, count_bytes=%lld, "
                              "cancelled=%s)",
                              s->source, s->tag, s->error, s->count_bytes,
                              s->cancelled ? "True" : "False");
}

inline PyObject* status_richcompare(PyObject* a, PyObject* b, int op);

inline PyTypeObject* status_type() {
  static PyMemberDef members[] = {
      {const_cast<char*>("source"), T_INT, offsetof(status_object, source), READONLY,
       const_cast<char*>("rank of the sender")},
      {const_cast<char*>("tag"), T_INT, offsetof(status_object, tag), READONLY,
       const_cast<char*>("tag of the message")},
      {const_cast<char*>("error"), T_INT, offsetof(status_object, error), READONLY,
       const_cast<char*>("error code (oompi.SUCCESS)")},
      {const_cast<char*>("count_bytes"), T_LONGLONG, offsetof(status_object, count_bytes),
       READONLY, const_cast<char*>("bytes of data in the message")},
      {const_cast<char*>("cancelled"), T_BOOL, offsetof(status_object, cancelled), READONLY,
       const_cast<char*>("was the operation cancelled")},
      {nullptr, 0, 0, 0, nullptr}};
  static PyMethodDef methods[] = {
      {"get_count", status_get_count, METH_O,
       "get_count(datatype) -> whole elements of datatype in the message (count_bytes / "
       "datatype.size); ArithmeticError when it is not a whole number"},
      {nullptr, nullptr, 0, nullptr}};
  static PyType_Slot slots[] = {
      {Py_tp_doc, const_cast<char*>("The status of a completed receive or probe (a plain "
                                    "value): source, tag, error, count_bytes, cancelled.")},
      {Py_tp_members, members},
      {Py_tp_methods, methods},
      {Py_tp_repr, reinterpret_cast<void*>(status_repr)},
      {Py_tp_richcompare, reinterpret_cast<void*>(status_richcompare)},
      {0, nullptr}};
  static PyType_Spec spec = {"oompi.Status", sizeof(status_object), 0, Py_TPFLAGS_DEFAULT,
                             slots};
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  return type;
}

inline PyObject* status_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || Py_TYPE(b) != Py_TYPE(a)) Py_RETURN_NOTIMPLEMENTED;
  auto* x = reinterpret_cast<status_object*>(a);
  auto* y = reinterpret_cast<status_object*>(b);
  const bool eq = x->source == y->source && x->tag == y->tag && x->error == y->error &&
                  x->cancelled == y->cancelled && x->count_bytes == y->count_bytes;
  return PyBool_FromLong(eq == (op == Py_EQ));
}

inline PyObject* new_status(const rt::status& st) {
  // The last Status made is reused when nobody else holds it any more (a loop of receives that
  // ignores the statuses allocates none): statuses are immutable, so this cannot be observed.
  static status_object* last = nullptr;
  status_object* o;
  if (last && Py_REFCNT(last) == 1) {
    o = last;
    Py_INCREF(o);
  } else {
    o = PyObject_New(status_object, g_status_type);
    if (!o) return nullptr;
    Py_XDECREF(last);
    last = o;
    Py_INCREF(o);
  }
  o->source = st.source();
  o->tag = st.tag();
  o->error = st.error();
  o->cancelled = st.cancelled() ? 1 : 0;
  o->count_bytes = st.count_bytes();
  return reinterpret_cast<PyObject*>(o);
}

// --- buffers ---------------------------------------------------------------------------------
#ifdef OOMPI_PY_HAVE_NUMPY
inline PyTypeObject* g_ndarray = nullptr;  // numpy.ndarray once NumPy is imported, else null

/// A NumPy array read from its fields: true when it is C-contiguous, in native byte order, of a
/// builtin numeric type (and writable if asked). Otherwise false with no exception set: the
/// caller then takes the generic path, which explains what is wrong.
__attribute__((always_inline)) inline bool numpy_buffer(PyObject* obj, bool writable,
                                                          rt::buffer& b) {
  auto* a = reinterpret_cast<PyArrayObject*>(obj);
  const int flags = PyArray_FLAGS(a);
  if (!(flags & NPY_ARRAY_C_CONTIGUOUS)) return false;
  if (writable && !(flags & NPY_ARRAY_WRITEABLE)) return false;
  PyArray_Descr* d = PyArray_DESCR(a);
  // The last accepted descriptor and its translation (a loop sends one dtype over and over).
  // The cache holds a reference, so the address cannot be reused by another descriptor.
  static PyArray_Descr* last_d = nullptr;
  static MPI_Datatype last_type = MPI_DATATYPE_NULL;
  npy_intp n = 1;
  const int nd = PyArray_NDIM(a);
  const npy_intp* dims = PyArray_DIMS(a);
  for (int i = 0; i < nd; ++i) n *= dims[i];
  if (d == last_d) {
    b = rt::buffer(PyArray_DATA(a), n, last_type, d->elsize);
    return true;
  }
  if (d->byteorder == '>' || d->byteorder == '<') {
    const char native = PY_LITTLE_ENDIAN ? '<' : '>';
    if (d->byteorder != native) return false;
  }
  rt::type_kind kind;
  const int es = static_cast<int>(d->elsize);
  switch (d->type_num) {
    case NPY_BOOL: kind = rt::type_kind::boolean; break;
    case NPY_BYTE: case NPY_SHORT: case NPY_INT: case NPY_LONG: case NPY_LONGLONG:
      if (es == 1) kind = rt::type_kind::int8;
      else if (es == 2) kind = rt::type_kind::int16;
      else if (es == 4) kind = rt::type_kind::int32;
      else if (es == 8) kind = rt::type_kind::int64;
      else return false;
      break;
    case NPY_UBYTE: case NPY_USHORT: case NPY_UINT: case NPY_ULONG: case NPY_ULONGLONG:
      if (es == 1) kind = rt::type_kind::uint8;
      else if (es == 2) kind = rt::type_kind::uint16;
      else if (es == 4) kind = rt::type_kind::uint32;
      else if (es == 8) kind = rt::type_kind::uint64;
      else return false;
      break;
    case NPY_FLOAT: kind = rt::type_kind::float32; break;
    case NPY_DOUBLE: kind = rt::type_kind::float64; break;
    case NPY_CFLOAT: kind = rt::type_kind::complex64; break;
    case NPY_CDOUBLE: kind = rt::type_kind::complex128; break;
    default: return false;
  }
  b = rt::buffer(PyArray_DATA(a), n, rt::detail::builtin_type(kind), es);
  Py_INCREF(d);
  Py_XDECREF(last_d);
  last_d = d;
  last_type = b.type;
  return true;
}
#endif

#ifdef OOMPI_PY_HAVE_NUMPY
/// numpy.ndarray once the program has imported NumPy (oompi never imports it itself).
/// A sys.modules look-up while NumPy is not loaded, nothing once it is.
inline void find_numpy() {
  static PyObject* name = PyUnicode_InternFromString("numpy");
  PyObject* np = PyImport_GetModule(name);
  if (!np) {
    PyErr_Clear();
    return;
  }
  PyObject* t = PyObject_GetAttrString(np, "ndarray");
  Py_DECREF(np);
  if (t && PyType_Check(t)) {
    g_ndarray = reinterpret_cast<PyTypeObject*>(t);  // kept for the life of the process
  } else {
    Py_XDECREF(t);
    PyErr_Clear();
  }
}
#endif

/// The buffer of one argument for the duration of one blocking call. NumPy arrays are read
/// directly (the caller's reference keeps the array, and so its memory, alive; NumPy refuses
/// to resize an array that others reference); anything else holds a Py_buffer.
struct fast_view {
  view_guard guard;
  __attribute__((always_inline)) bool get(PyObject* obj, bool writable, rt::buffer& b) {
#ifdef OOMPI_PY_HAVE_NUMPY
    if (!g_ndarray) find_numpy();
    if (Py_TYPE(obj) == g_ndarray && numpy_buffer(obj, writable, b)) return true;
#endif
    if (!writable && PyBytes_CheckExact(obj)) {  // immutable, alive through the caller's reference
      b = rt::buffer(PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj),
                     rt::detail::builtin_type(rt::type_kind::uint8), 1);
      return true;
    }
    return guard.get(obj, writable, b);
  }
};

// --- arguments -------------------------------------------------------------------------------
inline bool int_arg(PyObject* o, const char* fn, const char* name, int& out) {
  if (!PyLong_Check(o)) {
    PyErr_Format(PyExc_TypeError, "%s: %s must be an int, not '%.200s'", fn, name,
                 Py_TYPE(o)->tp_name);
    return false;
  }
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
  // CPython 3.11: an int of at most one 30-bit digit is its sign times that digit (ranks and
  // tags almost always are): no call into the long-integer code.
  const Py_ssize_t ndigits = Py_SIZE(o);
  if (ndigits >= -1 && ndigits <= 1) {
    out = static_cast<int>(ndigits * static_cast<long>(
                                         reinterpret_cast<PyLongObject*>(o)->ob_digit[0]));
    return true;
  }
#endif
  int overflow = 0;
  const long v = PyLong_AsLongAndOverflow(o, &overflow);
  if (overflow || v < INT_MIN || v > INT_MAX) {
    PyErr_Format(PyExc_OverflowError, "%s: %s out of the range of a C int", fn, name);
    return false;
  }
  out = static_cast<int>(v);
  return true;
}

inline bool nargs_ok(Py_ssize_t n, Py_ssize_t lo, Py_ssize_t hi, const char* fn) {
  if (n >= lo && n <= hi) return true;
  if (lo == hi)
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", fn, lo, n);
  else
    PyErr_Format(PyExc_TypeError, "%s() takes %zd to %zd arguments (%zd given)", fn, lo, hi, n);
  return false;
}

/// The facade communicator behind a Comm proxy (or an error), without the cache below.
/// The proxy keeps its SwigPyObject in the instance dict under "this": looked up directly
/// (SWIG_ConvertPtr's SwigPyObject_Check falls back to a strcmp of type names for every proxy).
inline rt::comm* comm_lookup(PyObject* self, swig_type_info* type) {
  // The interned "this" is the instance dict's key: an identical pointer, no string compare.
  static PyObject* this_name = PyUnicode_InternFromString("this");
  PyObject** dictptr = _PyObject_GetDictPtr(self);
  PyObject* obj = dictptr && *dictptr ? PyDict_GetItemWithError(*dictptr, this_name) : nullptr;
  if (obj && Py_TYPE(obj) == SwigPyObject_type()) {
    auto* so = reinterpret_cast<SwigPyObject*>(obj);
    if (so->ty == type && so->ptr) return static_cast<rt::comm*>(so->ptr);
  }
  void* p = nullptr;  // anything unusual: SWIG's own conversion and its error
  if (!SWIG_IsOK(SWIG_ConvertPtr(self, &p, type, 0)) || !p) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "oompi: expected an oompi.Comm");
    return nullptr;
  }
  return static_cast<rt::comm*>(p);
}

/// comm_lookup through a small cache of the last proxies used. The dict look-up was ~80
/// instructions of a ~800-instruction send. An entry holds a weak reference to the proxy:
/// while the proxy lives its "this" (set once, when SWIG made it) and so the facade object stay
/// the same; once it dies the reference reads None and the entry cannot match an object that
/// happens to reuse the address. Runs with the GIL held.
inline rt::comm* comm_of(PyObject* self, swig_type_info* type) {
  struct entry {
    PyObject* ref = nullptr;  // weak reference to the proxy
    rt::comm* comm = nullptr;
    swig_type_info* type = nullptr;
  };
  static entry cache[4];
  static unsigned next = 0;
  for (const entry& e : cache)
    if (e.ref && PyWeakref_GET_OBJECT(e.ref) == self && e.type == type) return e.comm;
  rt::comm* c = comm_lookup(self, type);
  if (!c) return nullptr;
  PyObject* ref = PyWeakref_NewRef(self, nullptr);
  if (!ref) {  // a proxy without weak-reference support: no caching
    PyErr_Clear();
    return c;
  }
  entry& e = cache[next++ % 4];
  Py_XDECREF(e.ref);
  e = {ref, c, type};
  return c;
}

/// True when another thread may want the GIL: the interpreter has more than one thread state.
/// A process with a single Python thread gains nothing from releasing the GIL around a
/// blocking call (~50 ns of mutex and condition-variable work each time); any second thread
/// (threading.Thread, a C thread that has called PyGILState_Ensure) makes every blocking call
/// release it again.
inline bool others_may_run() {
  // OOMPI_PYTHON_RELEASE_GIL=1: always release (for MPI libraries whose own progress threads
  // call into Python, e.g. user ops run asynchronously, without a Python thread state yet).
  static const bool always = [] {
    const char* e = std::getenv("OOMPI_PYTHON_RELEASE_GIL");
    return e && *e && *e != '0';
  }();
  if (always) return true;
  PyThreadState* head = PyInterpreterState_ThreadHead(PyInterpreterState_Get());
  return head && PyThreadState_Next(head);
}

/// Runs f with the GIL released (when another thread could use it); C++ exceptions become
/// Python exceptions. False on error.
template <class F>
inline bool call_released(F&& f) {
  if (!others_may_run()) {
    try {
      f();
      return true;
    } catch (...) {
      translate();
      return false;
    }
  }
  bool ok = true;
  PyThreadState* ts = PyEval_SaveThread();
  try {
    f();
  } catch (...) {
    PyEval_RestoreThread(ts);
    ts = nullptr;
    translate();
    ok = false;
  }
  if (ts) PyEval_RestoreThread(ts);
  return ok;
}

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


// --- objects: osend / orecv of pickled objects without Python-level code ------------------------
// The common case (no type=, no out-of-band buffers on receive) runs here; everything else goes
// to the Python implementation in oompi/objects.py (g_objects_module._osend_py / _recv_rest).
inline PyObject* g_pickle_dumps = nullptr;
inline PyObject* g_pickle_loads = nullptr;
inline PyObject* g_objects = nullptr;  // oompi.objects, set by objects.py at import
constexpr Py_ssize_t oob_min = 64 * 1024;

inline bool pickle_ready() {
  if (g_pickle_dumps) return true;
  PyObject* m = PyImport_ImportModule("pickle");
  if (!m) return false;
  g_pickle_loads = PyObject_GetAttrString(m, "loads");
  g_pickle_dumps = PyObject_GetAttrString(m, "dumps");  // last: the flag other threads test
  Py_DECREF(m);
  return g_pickle_dumps && g_pickle_loads;
}

/// buffer_callback of pickle.dumps: small buffers in band (True), large ones appended to the
/// list bound as `self` and sent out of band (False).
inline PyObject* keep_buffer(PyObject* list, PyObject* pb) {
  PyObject* raw = PyObject_CallMethod(pb, "raw", nullptr);
  if (!raw) return nullptr;
  Py_buffer v;
  if (PyObject_GetBuffer(raw, &v, PyBUF_SIMPLE) < 0) return Py_DECREF(raw), nullptr;
  const Py_ssize_t n = v.len;
  PyBuffer_Release(&v);
  if (n < oob_min) {
    Py_DECREF(raw);
    Py_RETURN_TRUE;
  }
  const int rc = PyList_Append(list, raw);
  Py_DECREF(raw);
  if (rc < 0) return nullptr;
  Py_RETURN_FALSE;
}

/// False when obj is plain data that pickles without PickleBuffers (scanned at most `budget`
/// items deep into dicts, lists and tuples); true for anything else, or when the scan is cut.
/// Only a choice of speed: a buffer the scan misses is pickled in band, which is still correct.
/// So dict keys are not looked at (a large buffer as a key is not worth the time the check
/// takes on every small dict).
inline bool may_hold_buffers(PyObject* o, int& budget, int depth) {
  if (--budget < 0 || depth > 4) return true;
  if (PyUnicode_CheckExact(o) || PyLong_CheckExact(o) || PyFloat_CheckExact(o) || o == Py_None ||
      PyBool_Check(o) || PyBytes_CheckExact(o) || PyComplex_CheckExact(o))
    return false;
  if (PyDict_CheckExact(o)) {
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(o, &pos, &k, &v))
      if (may_hold_buffers(v, budget, depth + 1)) return true;
    return false;
  }
  if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
    PyObject* seq = o;  // exact list/tuple: PySequence_Fast returns it as is
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject** items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < n; ++i)
      if (may_hold_buffers(items[i], budget, depth + 1)) return true;
    return false;
  }
  return true;
}

inline PyObject* call_objects(const char* name, PyObject* const* args, Py_ssize_t n) {
  if (!g_objects) {
    PyErr_SetString(PyExc_RuntimeError, "oompi.objects is not loaded");
    return nullptr;
  }
  PyObject* f = PyObject_GetAttrString(g_objects, name);
  if (!f) return nullptr;
  PyObject* r = PyObject_Vectorcall(f, args, static_cast<size_t>(n), nullptr);
  Py_DECREF(f);
  return r;
}

/// Replaces the exception in flight (an Exception, not KeyboardInterrupt and the like) by a
/// ValueError with `what`, the original as its cause: a corrupt message, or an object nested
/// too deeply to pickle, is bad input, like the same failure in oompi/objects.py.
inline void as_value_error(const char* what) {
  if (!PyErr_ExceptionMatches(PyExc_Exception)) return;
  PyObject *type, *cause, *tb;
  PyErr_Fetch(&type, &cause, &tb);
  PyErr_NormalizeException(&type, &cause, &tb);
  if (tb) PyException_SetTraceback(cause, tb);
  PyErr_Format(PyExc_ValueError, "%s (%S)", what, cause);
  PyObject *t2, *v2, *tb2;
  PyErr_Fetch(&t2, &v2, &tb2);
  PyErr_NormalizeException(&t2, &v2, &tb2);
  PyException_SetCause(v2, cause);  // steals cause
  PyErr_Restore(t2, v2, tb2);
  Py_XDECREF(type);
  Py_XDECREF(tb);
}

inline bool send_bytes(rt::comm* c, PyObject* data, int dest, int tag) {
  fast_view v;
  rt::buffer b;
  if (!v.get(data, false, b)) return false;
  return call_released([&] { c->send(b, dest, tag); });
}

inline PyObject* fast_osend(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  static const char* const names[] = {"obj", "dest", "tag", "type"};
  const char* fn = "Comm.osend";
  PyObject* a[4];
  if (!bind(fn, args, nargs, kwnames, names, 4, 2, a)) return nullptr;
  if (a[3] && a[3] != Py_None) {  // wire v1: the Python implementation
    PyObject* full[5] = {self, a[0], a[1], a[2] ? a[2] : PyLong_FromLong(0), a[3]};
    PyObject* r = call_objects("_osend_py", full, 5);
    if (!a[2]) Py_DECREF(full[3]);
    return r;
  }
  rt::comm* c = comm_of(self, g_comm_type);
  if (!c) return nullptr;
  int dest = 0, tag = 0;
  if (!int_arg(a[1], fn, "dest", dest) || !opt_int(a[2], fn, "tag", tag)) return nullptr;
  if (!pickle_ready()) return nullptr;
  static PyObject* protocol = PyLong_FromLong(5);
  static PyObject* kw = Py_BuildValue("(s)", "buffer_callback");
  static PyMethodDef keep_def = {"keep", keep_buffer, METH_O, nullptr};
  // Plain data (numbers, strings, bytes, None in dicts, lists and tuples: what a quick scan
  // can vouch for) cannot contain a PickleBuffer and is pickled without a buffer_callback,
  // which costs ~8% of a small dumps. Anything else (NumPy arrays, objects of other classes)
  // gets the callback: buffers of 64 KiB and more go out of band.
  int budget = 64;
  const bool plain = !may_hold_buffers(a[0], budget, 0);
  PyObject* oob = plain ? nullptr : PyList_New(0);
  if (!plain && !oob) return nullptr;
  struct done_t {
    PyObject* l;
    ~done_t() { Py_XDECREF(l); }
  } done{oob};
  PyObject* data;
  if (plain) {
    PyObject* call[2] = {a[0], protocol};
    data = PyObject_Vectorcall(g_pickle_dumps, call, 2, nullptr);
  } else {
    PyObject* cb = PyCFunction_New(&keep_def, oob);
    if (!cb) return nullptr;
    PyObject* call[3] = {a[0], protocol, cb};
    data = PyObject_Vectorcall(g_pickle_dumps, call, 2, kw);
    Py_DECREF(cb);
  }
  if (!data) {
    if (PyErr_ExceptionMatches(PyExc_RecursionError))
      as_value_error("oompi: the object is nested too deeply to pickle; send it in parts, or "
                     "as a Transportable class (type=), whose encoder has no depth limit");
    return nullptr;
  }
  bool ok;
  const Py_ssize_t n = oob ? PyList_GET_SIZE(oob) : 0;
  if (n == 0) {
    ok = send_bytes(c, data, dest, tag);
  } else {
    // b"OOB1", u32 n, n * u64 sizes, then the pickle; then one message per buffer.
    std::string head("OOB1", 4);
    const std::uint32_t n32 = static_cast<std::uint32_t>(n);
    head.append(reinterpret_cast<const char*>(&n32), 4);
    ok = true;
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
      Py_buffer v;
      if (PyObject_GetBuffer(PyList_GET_ITEM(oob, i), &v, PyBUF_SIMPLE) < 0) {
        ok = false;
        break;
      }
      const std::uint64_t len = static_cast<std::uint64_t>(v.len);
      PyBuffer_Release(&v);
      head.append(reinterpret_cast<const char*>(&len), 8);
    }
    if (ok) {
      head.append(PyBytes_AS_STRING(data), static_cast<std::size_t>(PyBytes_GET_SIZE(data)));
      PyObject* first = PyBytes_FromStringAndSize(head.data(), static_cast<Py_ssize_t>(head.size()));
      ok = first && send_bytes(c, first, dest, tag);
      Py_XDECREF(first);
      for (Py_ssize_t i = 0; ok && i < n; ++i) {
        // Raw bytes of the buffer (MPI_BYTE): memoryview.cast("B") semantics without a copy.
        Py_buffer v;
        if (PyObject_GetBuffer(PyList_GET_ITEM(oob, i), &v, PyBUF_SIMPLE) < 0) {
          ok = false;
          break;
        }
        rt::buffer b(v.buf, v.len, rt::detail::builtin_type(rt::type_kind::uint8), 1);
        ok = call_released([&] { c->send(b, dest, tag); });
        PyBuffer_Release(&v);
      }
    }
  }
  Py_DECREF(data);
  if (!ok) return nullptr;
  Py_RETURN_NONE;
}

inline PyObject* fast_orecv(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  static const char* const names[] = {"source", "tag", "type", "with_status"};
  const char* fn = "Comm.orecv";
  PyObject* a[4];
  if (!bind(fn, args, nargs, kwnames, names, 4, 0, a)) return nullptr;
  rt::comm* c = comm_of(self, g_comm_type);
  if (!c) return nullptr;
  int source = MPI_ANY_SOURCE, tag = MPI_ANY_TAG;
  if (!opt_int(a[0], fn, "source", source) || !opt_int(a[1], fn, "tag", tag)) return nullptr;
  int with_status = 0;
  if (a[3] && (with_status = PyObject_IsTrue(a[3])) < 0) return nullptr;
  PyObject* type = a[2] && a[2] != Py_None ? a[2] : nullptr;
  if (!type && !pickle_ready()) return nullptr;
  // Small messages (most pickled objects): a matched probe and its receive in one release of
  // the GIL into a per-thread buffer, copied into a bytes object. Larger ones: an exact bytes
  // object first. The matched probe (MPI_Mprobe/MPI_Mrecv) makes concurrent orecv calls from
  // several threads safe: no other receive can take the message between probe and receive.
  constexpr long long small_max = 4096;  // copied out into a bytes object: keep it short
  thread_local std::vector<char> small(small_max);
  // Raw MPI here (no facade message object: this is the pickled-object hot path).
  MPI_Message msg = MPI_MESSAGE_NULL;
  MPI_Status mst;
  long long n = 0;
  bool received = false;
  if (!call_released([&] {
        const MPI_Comm h = c->native(fn);
        oompi::detail::ordered_mprobe(source, tag, h, &msg, &mst);  // after pending iorecv
        n = rt::status(oompi::status(mst)).count_bytes();  // 2 GiB and more too
        if (n <= small_max) {
          OOMPI_CHECK(MPI_Mrecv, (small.data(), static_cast<int>(n), MPI_BYTE, &msg, &mst));
          received = true;
        }
      }))
    return nullptr;
  PyObject* data = PyBytes_FromStringAndSize(received ? small.data() : nullptr,
                                             static_cast<Py_ssize_t>(n));
  if (!data) return nullptr;  // the message stays matched and unreceived: MPI frees it at finalize
  if (!received) {
    // Filled before anyone else sees the bytes object (the documented way to build one).
    char* p = PyBytes_AS_STRING(data);
    const oompi::detail::buffer_desc whole{p, static_cast<std::size_t>(n), MPI_BYTE};
    if (!call_released([&] {
          oompi::detail::with_int_count(whole, [&](void* q, int k, MPI_Datatype t) {
            OOMPI_CHECK(MPI_Mrecv, (q, k, t, &msg, &mst));
          });
        }))
      return Py_DECREF(data), nullptr;
  }
  const rt::status st{oompi::status(mst)};
  PyObject* obj;
  if (type) {
    PyObject* call[2] = {data, type};
    obj = call_objects("_wire_loads", call, 2);
  } else if (n > 0 && static_cast<unsigned char>(PyBytes_AS_STRING(data)[0]) == 0x80) {
    obj = PyObject_Vectorcall(g_pickle_loads, &data, 1, nullptr);
    if (!obj) as_value_error("oompi: the message is not a pickled object");
  } else {
    PyObject* status = new_status(st);
    if (!status) return Py_DECREF(data), nullptr;
    PyObject* call[3] = {self, data, status};
    obj = call_objects("_recv_rest", call, 3);
    Py_DECREF(status);
  }
  Py_DECREF(data);
  if (!obj || !with_status) return obj;
  PyObject* status = new_status(st);
  if (!status) return Py_DECREF(obj), nullptr;
  PyObject* pair = PyTuple_Pack(2, obj, status);
  Py_DECREF(obj);
  Py_DECREF(status);
  return pair;
}

/// Called by oompi/objects.py: the module whose Python helpers the fast paths fall back on.
inline PyObject* set_objects_module(PyObject*, PyObject* m) {
  Py_XDECREF(g_objects);
  Py_INCREF(m);
  g_objects = m;
  Py_RETURN_NONE;
}

/// Installs the calls above on the Comm proxy class as method descriptors (called once from
/// the package's Python code, after SWIG has defined the class).
inline PyObject* install_fast_paths(PyObject*, PyObject* cls) {
  static PyMethodDef defs[] = {
      {"send", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_send<false>)),
       METH_FASTCALL | METH_KEYWORDS,
       "send(buf, dest, tag=0): blocking standard-mode send of a buffer-protocol object"},
      {"ssend", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_send<true>)),
       METH_FASTCALL | METH_KEYWORDS, "ssend(buf, dest, tag=0): synchronous-mode send"},
      {"recv", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_recv)),
       METH_FASTCALL | METH_KEYWORDS,
       "recv(buf, source=ANY_SOURCE, tag=ANY_TAG) -> Status: receive into a writable buffer; "
       "a larger message raises MPIError (ERR_TRUNCATE)"},
      {"sendrecv", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_sendrecv)),
       METH_FASTCALL | METH_KEYWORDS,
       "sendrecv(sendbuf, dest, sendtag, recvbuf, source, recvtag) -> Status"},
      {"osend", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_osend)),
       METH_FASTCALL | METH_KEYWORDS,
       "osend(obj, dest, tag=0, type=None): sends any picklable object (pickle protocol 5, "
       "buffers of 64 KiB and more out of band); with type= (a Transportable class, "
       "oompi.Ref(cls), ...) in wire format v1"},
      {"orecv", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fast_orecv)),
       METH_FASTCALL | METH_KEYWORDS,
       "orecv(source=ANY_SOURCE, tag=ANY_TAG, type=None, with_status=False) -> object (or "
       "(object, Status)): receives an object of any size sent with osend"},
      {nullptr, nullptr, 0, nullptr}};
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "install_fast_paths: expected a class");
    return nullptr;
  }
  for (PyMethodDef* d = defs; d->ml_name; ++d) {
    PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls), d);
    if (!descr) return nullptr;
    const int rc = PyObject_SetAttrString(cls, d->ml_name, descr);
    Py_DECREF(descr);
    if (rc < 0) return nullptr;
  }
  Py_RETURN_NONE;
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_FASTPATH_HPP
