// Python fast paths: osend / orecv of pickled objects.
// Part of oompi_fastpath.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_FASTPATH_OBJECTS_HPP
#define OOMPI_SWIG_PYTHON_FASTPATH_OBJECTS_HPP

#include "oompi_fastpath_calls.hpp"

namespace oompi::python {

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

#endif  // OOMPI_SWIG_PYTHON_FASTPATH_OBJECTS_HPP
