// Python fast paths: the Status type, buffers and arguments read without SWIG.
// Part of oompi_fastpath.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_FASTPATH_ARGS_HPP
#define OOMPI_SWIG_PYTHON_FASTPATH_ARGS_HPP

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
      if (!int_kind(es, true, kind)) return false;
      break;
    case NPY_UBYTE: case NPY_USHORT: case NPY_UINT: case NPY_ULONG: case NPY_ULONGLONG:
      if (!int_kind(es, false, kind)) return false;
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

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_FASTPATH_ARGS_HPP
