// Python entry file: package oompi, extension module oompi._core (wrapped by oompi/core.py),
// built with threads (the GIL is released in every call except the trivial ones below).
// Naming: snake_case functions (the facade's own names), PascalCase classes, UPPER_CASE
// constants and enum items.
%module(package="oompi", directors="1", threads="1") core

%{
#include "oompi_fastpath.hpp"
#include "oompi_wire.hpp"
#include "oompi_sequences.hpp"
%}

%define OOMPI_TRANSLATE_EXCEPTION oompi::python::translate() %enddef
%define OOMPI_FAIL SWIG_fail; %enddef
%define OOMPI_AFTER_ACTION %enddef

// One wrapper per function with optional arguments (no overload dispatch on the hot path).
// Positional arguments only: SWIG's keyword parsing (PyArg_ParseTupleAndKeywords) cost ~20% of
// an 8-byte sendrecv here. A faster calling convention (-builtin / vectorcall) can bring
// keywords back.
%feature("compactdefaultargs");

// --- naming ------------------------------------------------------------------------------
%rename("%(camelcase)s", %$isclass) "";
%rename("%(camelcase)s", %$isenum) "";
%rename("%(upper)s", %$isenumitem) "";
%rename("%(upper)s", %$isconstant) "";
// `self` names the instance in Python methods; PEP 8's trailing underscore for the clash.
%rename(self_) oompi::rt::comm::self;
// Python slices buffers itself (a[2:5], memoryview(b)[2:5]): no offset/count variants.
%ignore oompi::rt::comm::send_part;
%ignore oompi::rt::comm::recv_part;
// recv returns a Status by value already (one reused object, no allocation in a loop).
%ignore oompi::rt::comm::recv_ignore_status;

// Calls too short to be worth releasing the GIL (~30 ns each way).
%feature("nothreadallow") oompi::rt::comm::rank;
%feature("nothreadallow") oompi::rt::comm::size;
%feature("nothreadallow") oompi::rt::comm::is_null;
%feature("nothreadallow") oompi::rt::comm::world;
%feature("nothreadallow") oompi::rt::comm::self;
%feature("nothreadallow") oompi::rt::status::source;
%feature("nothreadallow") oompi::rt::status::tag;
%feature("nothreadallow") oompi::rt::status::error;
%feature("nothreadallow") oompi::rt::datatype::of;
%feature("nothreadallow") oompi::rt::datatype::is_null;
%feature("nothreadallow") oompi::rt::op::of;
%feature("nothreadallow") oompi::rt::request::is_pending;
%feature("nothreadallow") oompi::rt::environment::wtime;
%feature("nothreadallow") oompi::rt::environment::wtick;
%feature("nothreadallow") oompi::rt::environment::initialized;
%feature("nothreadallow") oompi::rt::environment::finalized;
%feature("nothreadallow") oompi::rt::environment::receive_guard;
%feature("nothreadallow") oompi::rt::environment::set_receive_guard;
%feature("nothreadallow") oompi::rt::environment::cuda_aware;

// --- arguments of the wrong type ------------------------------------------------------------
// A number, bool or str argument of another type names the Python method, the parameter and
// the Python type expected, "Comm.send: dest must be an int, not 'str'", instead of SWIG's
// "in method 'Comm_send', argument 3 of type 'int'" (or 'std::string const &').
%{
namespace oompi::python {
inline void wrong_scalar(const char* sym, const char* param, const char* expected, PyObject* input,
                         int code) {
  const std::string w = where(sym);
  if (SWIG_ArgError(code) == SWIG_OverflowError)
    PyErr_Format(PyExc_OverflowError, "%s: %s = %R is out of range for %s", w.c_str(), param,
                 input, expected);
  else
    PyErr_Format(PyExc_TypeError, "%s: %s must be %s, not '%.200s'", w.c_str(), param, expected,
                 Py_TYPE(input)->tp_name);
}
}  // namespace oompi::python
%}
%define OOMPI_PY_SCALAR_ARG(CTYPE, EXPECTED)
%typemap(in, fragment=SWIG_AsVal_frag(CTYPE), noblock=1) CTYPE (CTYPE val, int ecode = 0) {
  ecode = SWIG_AsVal(CTYPE)($input, &val);
  if (!SWIG_IsOK(ecode)) {
    oompi::python::wrong_scalar("$symname", "$1_name", EXPECTED, $input, ecode);
    SWIG_fail;
  }
  $1 = static_cast<$1_ltype>(val);
}
%enddef
OOMPI_PY_SCALAR_ARG(int, "an int (a C int)")
OOMPI_PY_SCALAR_ARG(long long, "an int (64 bits)")
OOMPI_PY_SCALAR_ARG(bool, "a bool")
OOMPI_PY_SCALAR_ARG(double, "a float")
%include <std_string.i>  // first: its typemaps for std::string would replace this one
%typemap(in, fragment="SWIG_AsPtr_std_string") const std::string& (int res = SWIG_OLDOBJ) {
  std::string* ptr = nullptr;
  res = SWIG_AsPtr_std_string($input, &ptr);
  if (!SWIG_IsOK(res) || !ptr) {
    oompi::python::wrong_scalar("$symname", "$1_name", "a str", $input, res);
    SWIG_fail;
  }
  $1 = ptr;
}

// --- sequences: no container classes (oompi_sequences.hpp) ----------------------------------
// Every std::vector parameter takes a Python sequence (counts and displacements: any sequence of
// integers, NumPy arrays too; handles: a list of Datatype/Request/Info; strings: a list of str)
// and every std::vector result is a tuple. oompi.i makes no IntVector, DatatypeVector, ...
// classes for Python: a user never handles them, and their methods' messages named C++ types
// ("argument 2 of type 'std::vector< oompi::rt::datatype >::value_type const &'").
%define OOMPI_VECTOR_CLASS(NAME, T) %enddef

// Request sets (Request.wait_all(reqs), start_all, wait_some, ...): any sequence of Requests.
// The vector holds copies that share each request's state, so completion shows in the list.
%typemap(in) std::vector<oompi::rt::request>& (std::vector<oompi::rt::request> tmp) %{
  if (!oompi::python::handle_vector($input, $descriptor(oompi::rt::request*), "$symname", tmp))
    SWIG_fail;
  $1 = &tmp;
%}
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) std::vector<oompi::rt::request>& %{
  $1 = PySequence_Check($input) ? 1 : 0;
%}

// (applied by oompi.i after its vector declarations)
%define OOMPI_VECTOR_TYPEMAPS
%typemap(in) const std::vector<int>& (std::vector<int> tmp) %{
  if (!oompi::python::int_sequence($input, "$symname", tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) const std::vector<long long>& (std::vector<long long> tmp) %{
  if (!oompi::python::int_sequence($input, "$symname", tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) const std::vector<std::string>& (std::vector<std::string> tmp) %{
  if (!oompi::python::string_vector($input, "$symname", tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) const std::vector<std::vector<std::string> >& (std::vector<std::vector<std::string> > tmp) %{
  if (!oompi::python::string_vectors($input, "$symname", tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(freearg) const std::vector<int>&, const std::vector<long long>&,
                  const std::vector<std::string>&, const std::vector<std::vector<std::string> >& ""
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) const std::vector<int>&,
                                                      const std::vector<long long>&,
                                                      const std::vector<std::string>&,
                                                      const std::vector<std::vector<std::string> >& %{
  $1 = PySequence_Check($input) && !PyUnicode_Check($input) ? 1 : 0;
%}
%typemap(out) std::vector<int>, std::vector<long long> %{
  $result = oompi::python::int_tuple($1);
  if (!$result) SWIG_fail;
%}
%typemap(out) std::vector<std::string> %{
  $result = oompi::python::str_tuple($1);
  if (!$result) SWIG_fail;
%}
%enddef

// A list of handles (Datatype.create_struct's types, alltoallw's, spawn_multiple's infos): any
// sequence of the class, out as a tuple of new proxies; anything else a TypeError naming the
// Python class and method.
%define OOMPI_HANDLE_VECTOR_TYPEMAPS(TYPE)
%typemap(in) const std::vector<TYPE>& (std::vector<TYPE> tmp) %{
  if (!oompi::python::handle_vector($input, $descriptor(TYPE*), "$symname", tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(freearg) const std::vector<TYPE>& ""
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) const std::vector<TYPE>& %{
  $1 = PySequence_Check($input) ? 1 : 0;
%}
%typemap(out) std::vector<TYPE> %{
  $result = oompi::python::tuple_of(static_cast<const std::vector<TYPE>&>($1), [](const TYPE& x) {
    return SWIG_NewPointerObj(new TYPE(x), $descriptor(TYPE*), SWIG_POINTER_OWN);
  });
  if (!$result) SWIG_fail;
%}
%enddef

// --- user functions (directors) ---------------------------------------------------------------
// The Python exception raised in call() is carried out of MPI as oompi::python::python_error
// and restored where the collective returns, on whatever thread call() ran.
%feature("director:except") oompi::rt::user_function::call {
  if ($error != NULL) throw oompi::python::python_error();
}
%feature("nothreadallow") oompi::rt::user_function::fail;
// The datatype handed to a user function: the module constant (oompi.DOUBLE, ...) when it is a
// registered predefined type, so no proxy object is made per upcall.
%typemap(directorin) const oompi::rt::datatype& {
  $input = oompi::python::known_datatype($1);
  if (!$input) $input = SWIG_NewPointerObj(SWIG_as_voidptr(&$1), $descriptor(oompi::rt::datatype*), 0);
}
%feature("nothreadallow") oompi::rt::_memory_view;
%typemap(out) PyObject* oompi::rt::_memory_view %{
  if (!$1) SWIG_fail;
  $result = $1;
%}
%inline %{
namespace oompi { namespace rt {
/// A memoryview of MPI's memory for a user function (valid only during the call).
inline PyObject* _memory_view(std::int64_t address, std::int64_t nbytes, bool writable) {
  return oompi::python::memory_view(address, nbytes, writable);
}
}}
%}

// --- run-time buffers: anything with the buffer protocol ----------------------------------
%typemap(in) const oompi::rt::buffer& (oompi::rt::buffer tmp, oompi::python::view_guard view) %{
  if (!view.get($input, false, tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::buffer& (oompi::rt::buffer tmp, oompi::python::view_guard view) %{
  if (!view.get($input, true, tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) const oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::python::get_async($input, false, tmp)) SWIG_fail;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::python::get_async($input, true, tmp)) SWIG_fail;
  $1 = &tmp;
%}
// Overloads that differ in their argument count (Window.create with and without hints) dispatch
// on it: a buffer argument matches any object there, and the in typemap above says what is
// wrong with one that is not a buffer (SWIG's default check wants an async_buffer proxy).
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) const oompi::rt::async_buffer&,
                                                       oompi::rt::async_buffer& %{ $1 = 1; %}

// --- statuses: a struct sequence (oompi.Status), no SWIG proxy --------------------------------
%typemap(out) oompi::rt::status %{
  $result = oompi::python::new_status($1);
  if (!$result) SWIG_fail;
%}
%typemap(out) oompi::rt::status* %{
  if ($1) {
    $result = oompi::python::new_status(*$1);
    delete $1;
    if (!$result) SWIG_fail;
  } else {
    $result = SWIG_Py_Void();
  }
%}

// --- exceptions ----------------------------------------------------------------------------
%init %{
  oompi::python::g_mpi_error = PyErr_NewExceptionWithDoc(
      "oompi.MPIError",
      "An MPI call failed: error_class (compare with oompi.ERR_*), error_code, routine.",
      PyExc_RuntimeError, NULL);
  oompi::python::g_closed_error = PyErr_NewExceptionWithDoc(
      "oompi.ClosedError", "A handle was used after close().", PyExc_RuntimeError, NULL);
  oompi::python::g_status_type = oompi::python::status_type();
  oompi::python::g_comm_type = SWIGTYPE_p_oompi__rt__comm;
  oompi::python::g_datatype_type = SWIGTYPE_p_oompi__rt__datatype;
  {
    static PyMethodDef install = {"_install_fast_paths", oompi::python::install_fast_paths,
                                  METH_O, "Puts the vectorcall send/recv/... on Comm."};
    PyObject* f = PyCFunction_New(&install, NULL);
    if (f) PyModule_AddObject(m, "_install_fast_paths", f);
    static PyMethodDef wire_defs[] = {
        {"_register_datatype", oompi::python::register_datatype, METH_O,
         "Makes a predefined Datatype constant the object user functions receive for it"},
        {"_set_dtype_hook", oompi::python::set_dtype_hook, METH_O,
         "The function giving the struct Datatype of a NumPy structured array"},
        {"_set_objects_module", oompi::python::set_objects_module, METH_O,
         "The module with the Python side of osend/orecv"},
        {"_wire_dumps", reinterpret_cast<PyCFunction>(
             reinterpret_cast<void (*)()>(oompi::python::wire::dumps)), METH_FASTCALL,
         "_wire_dumps(obj, desc) -> bytes in wire format v1"},
        {"_wire_loads", reinterpret_cast<PyCFunction>(
             reinterpret_cast<void (*)()>(oompi::python::wire::loads)), METH_FASTCALL,
         "_wire_loads(buffer, desc) -> object"}};
    for (PyMethodDef& d : wire_defs) {
      PyObject* w = PyCFunction_New(&d, NULL);
      if (w) PyModule_AddObject(m, d.ml_name, w);
    }
  }
  if (oompi::python::g_status_type) {
    Py_INCREF(oompi::python::g_status_type);
    PyModule_AddObject(m, "Status", (PyObject*)oompi::python::g_status_type);
  }
  if (oompi::python::g_mpi_error) {
    Py_INCREF(oompi::python::g_mpi_error);
    PyModule_AddObject(m, "MPIError", oompi::python::g_mpi_error);
  }
  if (oompi::python::g_closed_error) {
    Py_INCREF(oompi::python::g_closed_error);
    PyModule_AddObject(m, "ClosedError", oompi::python::g_closed_error);
  }
%}

// --- context managers ------------------------------------------------------------------------
%define OOMPI_PY_CLOSEABLE(CLASS)
%extend CLASS {
%pythoncode %{
  def __enter__(self):
      return self

  def __exit__(self, exc_type, exc, tb):
      self.close()
      return False
%}
}
%enddef
OOMPI_PY_CLOSEABLE(oompi::rt::comm)
OOMPI_PY_CLOSEABLE(oompi::rt::group)
OOMPI_PY_CLOSEABLE(oompi::rt::info)
// Info objects are also mappings, as a Python user expects of string key/value pairs:
// info[key] (KeyError when missing), key in info, len, iteration over keys, del info[key], and
// get(key, default=None) as dict.get.
%rename(_get) oompi::rt::info::get;
%extend oompi::rt::info {
%pythoncode %{
  def get(self, key, default=None):
      """The value of `key`, or `default` when it is not set (as dict.get)."""
      return self._get(key) if self.contains(key) else default

  def __getitem__(self, key):
      if not self.contains(key):
          raise KeyError(key)
      return self._get(key)

  def __setitem__(self, key, value):
      self.set(key, value)

  def __delitem__(self, key):
      if not self.remove(key):
          raise KeyError(key)

  def __contains__(self, key):
      return isinstance(key, str) and self.contains(key)

  def __len__(self):
      return self.size

  def __iter__(self):
      return iter(self.keys())

  def items(self):
      return [(k, self._get(k)) for k in self.keys()]
%}
}
OOMPI_PY_CLOSEABLE(oompi::rt::keyval)
OOMPI_PY_CLOSEABLE(oompi::rt::datatype)
OOMPI_PY_CLOSEABLE(oompi::rt::request)
OOMPI_PY_CLOSEABLE(oompi::rt::op)
OOMPI_PY_CLOSEABLE(oompi::rt::epoch)

// Windows: `memory` is a memoryview of the local window memory (allocate: MPI's; create: the
// caller's buffer), released by close() so that it cannot reach freed memory.
%rename(_close) oompi::rt::window::close;
%extend oompi::rt::window {
%pythoncode %{
  @property
  def memory(self):
      """The local window memory as a writable memoryview of bytes (cast it, or
      numpy.frombuffer(win.memory, dtype)); released when the window is closed."""
      views = self.__dict__.setdefault("_views", [])
      mv = _memory_view(self.address(), self.size, True)
      views.append(mv)
      return mv

  def shared_memory(self, rank):
      """Shared-memory windows (allocate_shared): `rank`'s part as a writable memoryview of
      bytes, read and written by load and store; released when the window is closed."""
      size = self.shared_size(rank)  # checks the rank and the window's kind
      views = self.__dict__.setdefault("_views", [])
      mv = _memory_view(self.shared_address(rank), size, True)
      views.append(mv)
      return mv

  def close(self):
      for mv in self.__dict__.pop("_views", []):
          try:
              mv.release()
          except BufferError:  # exported further (a NumPy array): do not use it after close
              pass
      self._close()

  def __enter__(self):
      return self

  def __exit__(self, exc_type, exc, tb):
      self.close()
      return False
%}
}
// MPI-IO (issue 15): `with oompi.File.open(comm, path, oompi.MODE_CREATE | oompi.MODE_WRONLY) as f:`
OOMPI_PY_CLOSEABLE(oompi::rt::file)
%feature("nothreadallow") oompi::rt::file::is_null;

%extend oompi::rt::environment {
%pythoncode %{
  def __enter__(self):
      return self

  def __exit__(self, exc_type, exc, tb):
      # sys.exit() with a number (or none) is a deliberate exit: finalize and keep the code.
      deliberate = (exc_type is not None and issubclass(exc_type, SystemExit)
                    and (exc.code is None or isinstance(exc.code, int)))
      if (exc_type is not None and not deliberate and Environment.initialized()
              and not Environment.finalized()):
          # Leaving by an exception: finalizing would leave the other ranks waiting in their
          # next collective. Say why, then abort the whole job (like the C++ environment).
          import sys, traceback
          traceback.print_exception(exc_type, exc, tb)
          sys.stderr.flush()
          Environment.abort(1)
      self.close()
      return False

  finalize = close
%}
}
%pythonappend oompi::rt::environment::environment %{
    _environments.append(self)
%}
%pythoncode %{
MPIError = _core.MPIError
ClosedError = _core.ClosedError
Status = _core.Status


import atexit as _atexit

_environments = []


@_atexit.register
def _finalize_at_exit():
    # An environment nobody closed: finalize MPI at interpreter exit.
    for env in reversed(_environments):
        env.close()


import sys as _sys

# An uncaught exception outside `with Environment()` (MPI initialised by an Environment() left
# open): the interpreter would finalize at exit and leave the other ranks waiting in their next
# call until the launcher's timeout. Abort the job instead, as `with Environment()`, C++, Java
# and C# do. Set to False to let such a rank finalize and exit alone.
abort_on_uncaught_exception = True
_previous_excepthook = _sys.excepthook


def _abort_on_uncaught(exc_type, exc, tb):
    _previous_excepthook(exc_type, exc, tb)  # the traceback first
    if (abort_on_uncaught_exception and Environment.initialized()
            and not Environment.finalized()):
        _sys.stderr.flush()
        Environment.abort(1)


_sys.excepthook = _abort_on_uncaught
%}

// An argument SWIG cannot convert (not an instance of the class, None for a reference) names
// the Python class and method, "Comm.dup: expected an oompi.Comm, not 'int'", instead of SWIG's
// "in method 'Comm_dup', argument 1 of type 'oompi::rt::comm const *'" (binding_names.hpp).
%{
namespace oompi::python {
/// Raises TypeError (ValueError for None where a reference is needed) for argument `input` of
/// the wrapper `sym` that is not a `type`.
inline void wrong_argument(swig_type_info* type, const char* sym, PyObject* input, bool null_ref) {
  std::string cls = "handle";
  auto* cd = type ? static_cast<SwigPyClientData*>(type->clientdata) : nullptr;
  if (cd && cd->klass) {
    if (PyObject* n = PyObject_GetAttrString(cd->klass, "__name__")) {
      if (const char* u = PyUnicode_AsUTF8(n)) cls = u;
      Py_DECREF(n);
    }
    PyErr_Clear();
  }
  const std::string where = oompi::binding::symbol_where(sym, python_names);
  PyErr_Format(null_ref ? PyExc_ValueError : PyExc_TypeError, "%s: expected an oompi.%s, not '%.200s'",
               where.c_str(), cls.c_str(), Py_TYPE(input)->tp_name);
}
}  // namespace oompi::python
%}
%{
namespace oompi::python {
/// The handles of `in` (a sequence of proxies of `elem`) into `out`; false with a TypeError
/// naming the Python class and method.
template <class T>
bool handle_vector(PyObject* in, swig_type_info* elem, const char* sym, std::vector<T>& out) {
  std::string what = "oompi.handles";
  if (auto* cd = elem ? static_cast<SwigPyClientData*>(elem->clientdata) : nullptr; cd && cd->klass)
    if (PyObject* n = PyObject_GetAttrString(cd->klass, "__name__")) {
      if (const char* u = PyUnicode_AsUTF8(n)) what = std::string("oompi.") + u;
      Py_DECREF(n);
    }
  PyErr_Clear();
  PyObject* seq = fast_sequence(in, sym, what.c_str());  // "expected a sequence of oompi.Datatype"
  if (!seq) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out.clear();
  out.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    void* p = nullptr;
    if (!SWIG_IsOK(SWIG_ConvertPtr(item, &p, elem, 0)) || !p) {
      wrong_argument(elem, sym, item, false);  // "expected an oompi.Datatype, not 'int'"
      Py_DECREF(seq);
      return false;
    }
    out.push_back(*static_cast<T*>(p));
  }
  Py_DECREF(seq);
  return true;
}
}  // namespace oompi::python
%}
%typemap(in, noblock=1) SWIGTYPE * (void* argp = 0, int res = 0) {
  res = SWIG_ConvertPtr($input, &argp, $descriptor, $disown | %convertptr_flags);
  if (!SWIG_IsOK(res)) {
    oompi::python::wrong_argument($descriptor, "$symname", $input, false);
    SWIG_fail;
  }
  $1 = %reinterpret_cast(argp, $ltype);
}
%typemap(in, noblock=1) SWIGTYPE & (void* argp = 0, int res = 0),
                         const SWIGTYPE & (void* argp = 0, int res = 0) {
  res = SWIG_ConvertPtr($input, &argp, $descriptor, %convertptr_flags);
  if (!SWIG_IsOK(res) || !argp) {
    oompi::python::wrong_argument($descriptor, "$symname", $input, SWIG_IsOK(res));
    SWIG_fail;
  }
  $1 = %reinterpret_cast(argp, $ltype);
}
%typemap(in, fragment=SWIG_AsVal_frag(int), noblock=1) enum SWIGTYPE (int val, int ecode = 0) {
  ecode = SWIG_AsVal(int)($input, &val);
  if (!SWIG_IsOK(ecode)) {
    PyErr_Format(PyExc_TypeError, "%s: expected an int (an oompi enum item), not '%.200s'",
                 oompi::binding::symbol_where("$symname", oompi::python::python_names).c_str(),
                 Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
  $1 = static_cast<$1_ltype>(val);
}
%typemap(in) SWIGTYPE (void* argp, int res = 0) {
  res = SWIG_ConvertPtr($input, &argp, $&descriptor, %convertptr_flags);
  if (!SWIG_IsOK(res) || !argp) {
    oompi::python::wrong_argument($&descriptor, "$symname", $input, SWIG_IsOK(res));
    SWIG_fail;
  }
  $1 = *(%reinterpret_cast(argp, $&ltype));
  if (SWIG_IsNewObj(res)) %delete(%reinterpret_cast(argp, $&ltype));
}

// A handle argument that is None, or not a handle of its class: a TypeError naming the Python
// class (SWIG's own error names a C++ reference type: "invalid null reference ... of type
// 'oompi::rt::comm const &'"). A closed handle passes here and the facade raises ClosedError
// naming what was closed.
%define OOMPI_PY_HANDLE_ARG(TYPE, PYNAME)
%typemap(in) const TYPE& (void* argp = 0) %{
  if (!SWIG_IsOK(SWIG_ConvertPtr($input, &argp, $descriptor(TYPE*), 0)) || !argp) {
    PyErr_Format(PyExc_TypeError, "%s: expected an oompi." PYNAME ", not '%.200s'",
                 oompi::binding::symbol_where("$symname", oompi::python::python_names).c_str(),
                 Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
  $1 = reinterpret_cast<TYPE*>(argp);
%}
%enddef
OOMPI_PY_HANDLE_ARG(oompi::rt::comm, "Comm")
OOMPI_PY_HANDLE_ARG(oompi::rt::op, "Op")
OOMPI_PY_HANDLE_ARG(oompi::rt::group, "Group")
OOMPI_PY_HANDLE_ARG(oompi::rt::datatype, "Datatype")
OOMPI_PY_HANDLE_ARG(oompi::rt::info, "Info")

%include "../oompi.i"

// --- mpi4py interop: an mpi4py.MPI.Comm wherever a communicator is expected ------------------
%typemap(in) const oompi::rt::comm& (void* argp = 0, int res = 0, oompi::rt::comm foreign) {
  res = SWIG_ConvertPtr($input, &argp, $descriptor(oompi::rt::comm*), 0);
  if (SWIG_IsOK(res) && argp) {
    $1 = reinterpret_cast<oompi::rt::comm*>(argp);
  } else if (oompi::python::foreign_comm(
                 $input, foreign,
                 oompi::binding::symbol_where("$symname", oompi::python::python_names).c_str())) {
    $1 = &foreign;
  } else {
    SWIG_fail;
  }
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) const oompi::rt::comm& {
  void* vptr = 0;
  $1 = SWIG_IsOK(SWIG_ConvertPtr($input, &vptr, $descriptor(oompi::rt::comm*), SWIG_POINTER_NO_NULL)) ||
       PyObject_HasAttrString($input, "py2f");
}
%include <oompi/rt/interop.hpp>

// The hot point-to-point calls replaced by vectorcall methods (oompi_fastpath.hpp).
%pythoncode %{
_core._install_fast_paths(Comm)


def _comm_from_mpi4py(comm):
    """An oompi.Comm over an mpi4py.MPI.Comm (same MPI communicator, not owned: closing the
    oompi handle does not free it)."""
    return Interop.comm_from_fortran(comm.py2f())


def _comm_to_mpi4py(self):
    """This communicator as an mpi4py.MPI.Intracomm (same MPI communicator; oompi keeps
    owning what it created: close it in oompi, not with mpi4py's Free)."""
    from mpi4py import MPI
    return MPI.Intracomm(MPI.Comm.f2py(Interop.comm_to_fortran(self)))


Comm.from_mpi4py = staticmethod(_comm_from_mpi4py)
Comm.to_mpi4py = _comm_to_mpi4py
%}
