// Python wire format: type descriptors and class plans (tdesc, plan) from the Python tuples.
// Part of oompi_wire.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_WIRE_PLAN_HPP
#define OOMPI_SWIG_PYTHON_WIRE_PLAN_HPP

#include <Python.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace oompi::python::wire {

enum class kind : std::uint8_t { num, str, bytes, list, array, strct, ref };
enum class num : std::uint8_t { b, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64 };

inline int num_size(num n) {
  switch (n) {
    case num::b: case num::i8: case num::u8: return 1;
    case num::i16: case num::u16: return 2;
    case num::i32: case num::u32: case num::f32: return 4;
    default: return 8;
  }
}

struct plan;
struct tdesc {
  kind k = kind::num;
  num n = num::i32;
  plan* p = nullptr;              // strct, ref
  std::unique_ptr<tdesc> elem;    // list
  PyObject* dtype = nullptr;      // array (owned reference)
};

struct plan {
  PyTypeObject* cls = nullptr;  // owned reference
  std::vector<std::pair<PyObject*, std::unique_ptr<tdesc>>> fields;  // names owned
  std::vector<std::pair<PyObject*, PyObject*>> defaults;             // owned
  long long min_bytes = -1;  // fewest bytes an object takes on the wire (-1: not known yet)
  bool chain = false;        // a chain type (docs/wire-format.md 2.1): roots go as compact chains
};

/// Objects and lists are written and read with an explicit stack of frames, not by recursion,
/// so a graph linked through any field, or lists nested in lists, goes as deep as this without
/// touching the C stack. Deeper (only a cycle of objects held by value, or a corrupt message,
/// in practice) is a ValueError. A frame whose last item is being handled is dropped first, so
/// a chain through last fields (a linked list) keeps the stack at constant depth.
constexpr std::size_t max_depth = std::size_t{1} << 20;

inline bool is_leaf(kind k) {
  return k == kind::num || k == kind::str || k == kind::bytes || k == kind::array;
}

/// A field a chain type may hold besides its link (2.1): a number, a string, an array of
/// numbers that are not bools (oompi.Array or list[number]; bytes are an array of u8).
inline bool chain_leaf(const tdesc& d) {
  switch (d.k) {
    case kind::num: case kind::str: case kind::bytes: return true;
    case kind::array: return d.n != num::b;
    case kind::list: return d.elem->k == kind::num && d.elem->n != num::b;
    default: return false;
  }
}

/// The fewest bytes a value of d takes: a size read from a message is checked against it.
inline std::uint64_t min_bytes(const tdesc& d) {
  switch (d.k) {
    case kind::num: return static_cast<std::uint64_t>(num_size(d.n));
    case kind::ref: return 4;
    case kind::strct: {
      plan& p = *d.p;
      if (p.min_bytes == -2) return 0;  // a class that holds itself by value: no bound
      if (p.min_bytes < 0) {
        p.min_bytes = -2;
        std::uint64_t n = 0;
        for (const auto& f : p.fields) n += min_bytes(*f.second);
        p.min_bytes = static_cast<long long>(n);
      }
      return static_cast<std::uint64_t>(p.min_bytes);
    }
    default: return 8;  // str, bytes, list, array: the size
  }
}

// Plans live for the process (classes are not unloaded in practice); keyed by the plan list.
inline std::unordered_map<PyObject*, plan*>& plans() {
  static auto* m = new std::unordered_map<PyObject*, plan*>();
  return *m;
}

inline bool num_code(PyObject* s, num& out) {
  const char* c = PyUnicode_AsUTF8(s);
  if (!c) return false;
  static const char* names[] = {"bool", "i8", "i16", "i32", "i64", "u8",
                                "u16", "u32", "u64", "f32", "f64"};
  for (int i = 0; i < 11; ++i)
    if (std::strcmp(c, names[i]) == 0) return out = static_cast<num>(i), true;
  PyErr_Format(PyExc_ValueError, "oompi.wire: unknown number type '%s'", c);
  return false;
}

plan* compile_plan(PyObject* lst);

inline std::unique_ptr<tdesc> compile_desc(PyObject* t) {
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 1) {
    PyErr_SetString(PyExc_TypeError, "oompi.wire: bad type descriptor");
    return nullptr;
  }
  auto d = std::make_unique<tdesc>();
  const char* k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
  if (!k) return nullptr;
  const Py_ssize_t n = PyTuple_GET_SIZE(t);
  if (!std::strcmp(k, "num") && n == 2) {
    d->k = kind::num;
    if (!num_code(PyTuple_GET_ITEM(t, 1), d->n)) return nullptr;
  } else if (!std::strcmp(k, "str")) {
    d->k = kind::str;
  } else if (!std::strcmp(k, "bytes")) {
    d->k = kind::bytes;
  } else if (!std::strcmp(k, "list") && n == 2) {
    d->k = kind::list;
    d->elem = compile_desc(PyTuple_GET_ITEM(t, 1));
    if (!d->elem) return nullptr;
  } else if (!std::strcmp(k, "array") && n == 3) {
    d->k = kind::array;
    if (!num_code(PyTuple_GET_ITEM(t, 1), d->n)) return nullptr;
    d->dtype = PyTuple_GET_ITEM(t, 2);
    Py_INCREF(d->dtype);
  } else if ((!std::strcmp(k, "struct") || !std::strcmp(k, "ref")) && n == 2) {
    d->k = k[0] == 's' ? kind::strct : kind::ref;
    d->p = compile_plan(PyTuple_GET_ITEM(t, 1));
    if (!d->p) return nullptr;
  } else {
    PyErr_Format(PyExc_TypeError, "oompi.wire: bad type descriptor '%s'", k);
    return nullptr;
  }
  return d;
}

inline plan* compile_plan(PyObject* lst) {
  auto it = plans().find(lst);
  if (it != plans().end()) return it->second;
  if (!PyList_Check(lst) || PyList_GET_SIZE(lst) != 3) {
    PyErr_SetString(PyExc_TypeError, "oompi.wire: bad plan");
    return nullptr;
  }
  auto* p = new plan();
  Py_INCREF(lst);  // the key stays valid
  plans()[lst] = p;  // before the fields: recursive references find it
  PyObject* cls = PyList_GET_ITEM(lst, 0);
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "oompi.wire: plan without a class");
    return nullptr;
  }
  Py_INCREF(cls);
  p->cls = reinterpret_cast<PyTypeObject*>(cls);
  PyObject* fields = PyList_GET_ITEM(lst, 1);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); ++i) {
    PyObject* f = PyTuple_GET_ITEM(fields, i);
    PyObject* name = PyTuple_GET_ITEM(f, 0);
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    auto d = compile_desc(PyTuple_GET_ITEM(f, 1));
    if (!d) return nullptr;
    p->fields.emplace_back(name, std::move(d));
  }
  PyObject* defaults = PyList_GET_ITEM(lst, 2);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(defaults); ++i) {
    PyObject* f = PyTuple_GET_ITEM(defaults, i);
    PyObject* name = PyTuple_GET_ITEM(f, 0);
    PyObject* value = PyTuple_GET_ITEM(f, 1);
    Py_INCREF(name);
    Py_INCREF(value);
    p->defaults.emplace_back(name, value);
  }
  // Decided once per class, from the declared field types only.
  const auto& f = p->fields;
  p->chain = f.size() >= 2 && f.back().second->k == kind::ref && f.back().second->p == p;
  for (std::size_t i = 0; p->chain && i + 1 < f.size(); ++i) p->chain = chain_leaf(*f[i].second);
  return p;
}

}  // namespace oompi::python::wire

#endif  // OOMPI_SWIG_PYTHON_WIRE_PLAN_HPP
