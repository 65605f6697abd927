// Python sequences for the facade's std::vector parameters and results (python.i's typemaps).
// Python has no container classes (IntVector, DatatypeVector, ...): a list, tuple or NumPy array
// goes in, a tuple comes out, and a bad argument is a TypeError naming the Python class and
// method ("Comm.spawn: expected a sequence of str, not 'int'"), never a C++ type.
#ifndef OOMPI_SWIG_PYTHON_SEQUENCES_HPP
#define OOMPI_SWIG_PYTHON_SEQUENCES_HPP

#include <Python.h>

#include <limits>
#include <string>
#include <vector>

#include "oompi_python.hpp"

namespace oompi::python {

/// "Class.method" of a SWIG wrapper's symbol (Comm_spawn -> Comm.spawn).
inline std::string where(const char* sym) { return binding::symbol_where(sym, python_names); }

/// The items of `in`, a sequence but not a str or bytes (a str would split into characters);
/// nullptr with a TypeError naming `sym` and `what` otherwise.
inline PyObject* fast_sequence(PyObject* in, const char* sym, const char* what) {
  if (!PyUnicode_Check(in) && !PyBytes_Check(in) && PySequence_Check(in))
    if (PyObject* seq = PySequence_Fast(in, "")) return seq;
  PyErr_Clear();
  PyErr_Format(PyExc_TypeError, "%s: expected a sequence of %s, not '%.200s'", where(sym).c_str(),
               what, Py_TYPE(in)->tp_name);
  return nullptr;
}

/// A sequence of str into `out`.
inline bool string_vector(PyObject* in, const char* sym, std::vector<std::string>& out) {
  PyObject* seq = fast_sequence(in, sym, "str");
  if (!seq) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out.clear();
  out.reserve(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    Py_ssize_t len = 0;
    const char* s = PyUnicode_Check(item) ? PyUnicode_AsUTF8AndSize(item, &len) : nullptr;
    if (!s) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "%s: expected a sequence of str, item %zd is '%.200s'",
                     where(sym).c_str(), i, Py_TYPE(item)->tp_name);
      Py_DECREF(seq);
      return false;
    }
    out.emplace_back(s, static_cast<std::size_t>(len));
  }
  Py_DECREF(seq);
  return true;
}

/// A sequence of sequences of str (spawn_multiple's argument lists) into `out`.
inline bool string_vectors(PyObject* in, const char* sym, std::vector<std::vector<std::string>>& out) {
  PyObject* seq = fast_sequence(in, sym, "lists of str");
  if (!seq) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out.assign(static_cast<std::size_t>(n), {});
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < n; ++i)
    ok = string_vector(PySequence_Fast_GET_ITEM(seq, i), sym, out[static_cast<std::size_t>(i)]);
  Py_DECREF(seq);
  return ok;
}

/// A sequence of integers (list, tuple, range, NumPy array) into `out`; the message names the
/// method and the item that is not an integer or does not fit.
template <class T>
bool int_sequence(PyObject* in, const char* sym, std::vector<T>& out) {
  PyObject* seq = fast_sequence(in, sym, "integers");
  if (!seq) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  out.resize(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    PyObject* index = PyNumber_Index(item);
    long long x = index ? PyLong_AsLongLong(index) : -1;
    Py_XDECREF(index);
    if (!index || (x == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s: expected a sequence of integers, item %zd is '%.200s'",
                   where(sym).c_str(), i, Py_TYPE(item)->tp_name);
    } else if (x < static_cast<long long>(std::numeric_limits<T>::min()) ||
               x > static_cast<long long>(std::numeric_limits<T>::max())) {
      PyErr_Format(PyExc_OverflowError, "%s: item %zd (%lld) does not fit in a C %s",
                   where(sym).c_str(), i, x, sizeof(T) == 4 ? "int" : "long long");
    } else {
      out[static_cast<std::size_t>(i)] = static_cast<T>(x);
      continue;
    }
    Py_DECREF(seq);
    return false;
  }
  Py_DECREF(seq);
  return true;
}

/// The tuple of a vector, each item made by `make` (nullptr with the error set on failure).
template <class V, class F>
PyObject* tuple_of(const V& v, F make) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
  for (std::size_t i = 0; t && i < v.size(); ++i) {
    PyObject* x = make(v[i]);
    if (!x) {
      Py_CLEAR(t);
      break;
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), x);
  }
  return t;
}

inline PyObject* int_tuple(const std::vector<int>& v) {
  return tuple_of(v, [](int x) { return PyLong_FromLong(x); });
}
inline PyObject* int_tuple(const std::vector<long long>& v) {
  return tuple_of(v, [](long long x) { return PyLong_FromLongLong(x); });
}
inline PyObject* str_tuple(const std::vector<std::string>& v) {
  return tuple_of(v, [](const std::string& s) {
    return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  });
}

}  // namespace oompi::python

#endif  // OOMPI_SWIG_PYTHON_SEQUENCES_HPP
