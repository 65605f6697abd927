// Wire format v1 (docs/wire-format.md) for Python Transportable classes, in C++: the plan of
// each class is compiled once in Python (oompi/transportable.py) into nested tuples, turned
// here into a tree of `tdesc`, and every object is written and read by walking that tree: no
// per-object introspection, no Python code per field.
//
// A type descriptor tuple is one of
//   ("num", code)        code: "bool" "i8" "i16" "i32" "i64" "u8" "u16" "u32" "u64" "f32" "f64"
//   ("str",) ("bytes",)  UTF-8 string / array of u8 as Python bytes
//   ("list", elem)       array of elem, as a Python list
//   ("array", code, np)  array of numbers as a NumPy array (np: the dtype), any sequence accepted
//   ("struct", plan)     a Transportable object by value
//   ("ref", plan)        a reference (None, first occurrence with its fields, or back-reference)
// and a plan is a mutable list [cls, ((name, tdesc), ...), defaults] so recursive classes can
// refer to themselves; defaults: ((name, value), ...) for fields that are not transported.
//
// A message's value that is a reference to a chain type (plan::chain) is written as a compact
// chain (wire 1.1, docs/wire-format.md 2.1): writer::chain, reader::chain, chosen in dumps/loads.
#ifndef OOMPI_SWIG_PYTHON_WIRE_HPP
#define OOMPI_SWIG_PYTHON_WIRE_HPP

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

// --- writing ---------------------------------------------------------------------------------
struct writer {
  std::string out;
  std::unordered_map<PyObject*, std::uint32_t> ids;
  std::vector<PyObject*> held;  // objects numbered: kept alive so their addresses stay unique
  bool varint = false;          // sizes as LEB128 varints (inside a compact chain)
  ~writer() {
    for (const auto& f : stack) Py_DECREF(f.obj);
    for (PyObject* o : held) Py_DECREF(o);
  }

  template <class T>
  void put(T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // little-endian host (checked at import)
    out.append(b, sizeof(T));
  }
  void put_size(std::uint64_t n) {
    if (!varint) return put(n);
    for (; n >= 0x80; n >>= 7) out.push_back(static_cast<char>(n | 0x80));
    out.push_back(static_cast<char>(n));
  }

  bool number(PyObject* v, num n) {
    switch (n) {
      case num::b: {
        if (!PyBool_Check(v) && !PyLong_Check(v)) return type_error(v, "a bool");
        const int t = PyObject_IsTrue(v);
        if (t < 0) return false;
        out.push_back(static_cast<char>(t));
        return true;
      }
      case num::f32: case num::f64: {
        const double d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) return false;
        if (n == num::f32) put(static_cast<float>(d)); else put(d);
        return true;
      }
      default: break;
    }
    if (!PyLong_Check(v)) return type_error(v, "an int");
    if (n == num::u64) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(v);
      if (u == static_cast<unsigned long long>(-1) && PyErr_Occurred()) return false;
      put(static_cast<std::uint64_t>(u));
      return true;
    }
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) return false;
    long long lo = 0, hi = 0;
    switch (n) {
      case num::i8: lo = -128; hi = 127; break;
      case num::i16: lo = -32768; hi = 32767; break;
      case num::i32: lo = INT32_MIN; hi = INT32_MAX; break;
      case num::i64: lo = INT64_MIN; hi = INT64_MAX; break;
      case num::u8: hi = 255; break;
      case num::u16: hi = 65535; break;
      case num::u32: hi = UINT32_MAX; break;
      default: break;
    }
    if (overflow || x < lo || x > hi) {
      PyErr_Format(PyExc_OverflowError, "oompi.wire: %R out of range for the field's type", v);
      return false;
    }
    switch (n) {
      case num::i8: case num::u8: out.push_back(static_cast<char>(x)); break;
      case num::i16: case num::u16: put(static_cast<std::uint16_t>(x)); break;
      case num::i32: case num::u32: put(static_cast<std::uint32_t>(x)); break;
      default: put(static_cast<std::uint64_t>(x)); break;
    }
    return true;
  }

  /// An int32 element (the common array element): small ints without the long-integer code.
  bool int32(PyObject* v) {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && !defined(Py_LIMITED_API)
    if (PyLong_CheckExact(v)) {
      const Py_ssize_t nd = Py_SIZE(v);
      if (nd >= -1 && nd <= 1) {  // one 30-bit digit: always within int32
        put(static_cast<std::int32_t>(nd * static_cast<long>(
                                               reinterpret_cast<PyLongObject*>(v)->ob_digit[0])));
        return true;
      }
    }
#endif
    return number(v, num::i32);
  }

  static bool type_error(PyObject* v, const char* want) {
    PyErr_Format(PyExc_TypeError, "oompi.wire: expected %s, got '%.200s'", want,
                 Py_TYPE(v)->tp_name);
    return false;
  }

  /// One number, string, byte string or array.
  bool leaf(PyObject* v, const tdesc& d) {
    switch (d.k) {
      case kind::num: return number(v, d.n);
      case kind::str: {
        if (!PyUnicode_Check(v)) return type_error(v, "a str");
        Py_ssize_t n = 0;
        const char* s = PyUnicode_AsUTF8AndSize(v, &n);
        if (!s) return false;
        put_size(static_cast<std::uint64_t>(n));
        out.append(s, static_cast<std::size_t>(n));
        return true;
      }
      case kind::bytes: {
        Py_buffer b;
        if (PyObject_GetBuffer(v, &b, PyBUF_C_CONTIGUOUS) < 0) return false;
        put_size(static_cast<std::uint64_t>(b.len));
        out.append(static_cast<const char*>(b.buf), static_cast<std::size_t>(b.len));
        PyBuffer_Release(&b);
        return true;
      }
      default: return array(v, d);
    }
  }

  // The stack (see max_depth): an object whose fields are being written, or a list.
  struct frame {
    PyObject* obj;      // owned: the object, or the list as a PySequence_Fast
    const plan* p;      // the object's plan; null for a list
    const tdesc* elem;  // a list's element type
    Py_ssize_t i, n;    // next item, items
  };
  std::vector<frame> stack;

  bool value(PyObject* v, const tdesc& d) {
    Py_INCREF(v);
    if (!item(v, d)) return false;
    while (!stack.empty()) {
      frame& f = stack.back();
      PyObject* x;
      const tdesc* xd;
      if (f.p) {
        xd = f.p->fields[static_cast<std::size_t>(f.i)].second.get();
        x = PyObject_GetAttr(f.obj, f.p->fields[static_cast<std::size_t>(f.i)].first);
        if (!x) return false;
      } else {
        if (f.i >= PySequence_Fast_GET_SIZE(f.obj)) {  // changed by code run for an attribute
          PyErr_SetString(PyExc_RuntimeError, "oompi.wire: a list changed size while written");
          return false;
        }
        xd = f.elem;
        x = PySequence_Fast_ITEMS(f.obj)[f.i];
        Py_INCREF(x);
      }
      if (++f.i == f.n) {  // the last item: its own frame, if any, takes this one's place
        Py_DECREF(f.obj);
        stack.pop_back();
      }
      if (!item(x, *xd)) return false;
    }
    return true;
  }

  /// Writes one value, taking over the reference to v: in place, or as a frame for the fields
  /// of an object or the items of a list.
  bool item(PyObject* v, const tdesc& d) {
    switch (d.k) {
      case kind::strct:
        if (!check_class(v, *d.p)) break;
        return push(v, d.p, nullptr, static_cast<Py_ssize_t>(d.p->fields.size()));
      case kind::ref: {
        int fresh = 0;
        if (!ref_head(v, *d.p, fresh)) break;
        if (fresh) return push(v, d.p, nullptr, static_cast<Py_ssize_t>(d.p->fields.size()));
        Py_DECREF(v);
        return true;
      }
      case kind::list: {
        PyObject* seq = PySequence_Fast(v, "oompi.wire: expected a sequence");
        Py_DECREF(v);
        if (!seq) return false;
        const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        put_size(static_cast<std::uint64_t>(n));
        if (!is_leaf(d.elem->k)) return push(seq, nullptr, d.elem.get(), n);
        PyObject** items = PySequence_Fast_ITEMS(seq);
        bool ok = true;
        if (d.elem->k == kind::num && d.elem->n == num::i32) {
          for (Py_ssize_t i = 0; ok && i < n; ++i) ok = int32(items[i]);
        } else {
          for (Py_ssize_t i = 0; ok && i < n; ++i) ok = leaf(items[i], *d.elem);
        }
        Py_DECREF(seq);
        return ok;
      }
      default: {
        const bool ok = leaf(v, d);
        Py_DECREF(v);
        return ok;
      }
    }
    Py_DECREF(v);
    return false;
  }

  bool push(PyObject* obj, const plan* p, const tdesc* elem, Py_ssize_t n) {
    if (n == 0) {
      Py_DECREF(obj);
      return true;
    }
    if (stack.size() >= max_depth) {
      Py_DECREF(obj);
      PyErr_Format(PyExc_ValueError,
                   "oompi.wire: objects or lists nested more than %zu deep (an object that "
                   "holds itself by value?)", max_depth);
      return false;
    }
    stack.push_back({obj, p, elem, 0, n});
    return true;
  }

  bool array(PyObject* v, const tdesc& d) {
    // A buffer of exactly the element type is copied as is; anything else element by element.
    Py_buffer b;
    if (PyObject_CheckBuffer(v) &&
        PyObject_GetBuffer(v, &b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) == 0) {
      const bool floating = d.n == num::f32 || d.n == num::f64;
      const char* f = b.format ? b.format : "B";
      if (*f == '<' || *f == '=' || *f == '@') ++f;
      const bool is_float = *f == 'f' || *f == 'd' || *f == 'e';
      const bool is_int = std::strchr("bBhHiIlLqQnN?", *f) != nullptr;
      if (b.itemsize == num_size(d.n) && f[1] == '\0' &&
          (floating ? is_float : is_int) && (d.n != num::b || *f == '?')) {
        put_size(static_cast<std::uint64_t>(b.len / b.itemsize));
        out.append(static_cast<const char*>(b.buf), static_cast<std::size_t>(b.len));
        PyBuffer_Release(&b);
        return true;
      }
      PyBuffer_Release(&b);
    }
    PyErr_Clear();
    PyObject* seq = PySequence_Fast(v, "oompi.wire: expected an array or a sequence of numbers");
    if (!seq) return false;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    put_size(static_cast<std::uint64_t>(n));
    PyObject** items = PySequence_Fast_ITEMS(seq);
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < n; ++i) {
      PyObject* x = items[i];
      if (PyIndex_Check(x) && !PyLong_Check(x) && d.n != num::f32 && d.n != num::f64) {
        PyObject* y = PyNumber_Index(x);  // NumPy integer scalars
        ok = y && number(y, d.n);
        Py_XDECREF(y);
      } else {
        ok = number(x, d.n);
      }
    }
    Py_DECREF(seq);
    return ok;
  }

  bool check_class(PyObject* v, const plan& p) {
    if (Py_TYPE(v) == p.cls || PyObject_TypeCheck(v, p.cls)) return true;
    PyErr_Format(PyExc_TypeError, "oompi.wire: expected a %s, got '%.200s'", p.cls->tp_name,
                 Py_TYPE(v)->tp_name);
    return false;
  }

  /// Writes the id of a reference; fresh = 1 when the object's fields must follow.
  bool ref_head(PyObject* v, const plan& p, int& fresh) {
    fresh = 0;
    if (v == Py_None) {
      put(std::uint32_t{0});
      return true;
    }
    if (!check_class(v, p)) return false;
    auto it = ids.find(v);
    if (it != ids.end()) {
      put(it->second);
      return true;
    }
    const auto id = static_cast<std::uint32_t>(ids.size() + 1);
    if (id > 0x7FFFFFFFu) {
      PyErr_SetString(PyExc_OverflowError, "oompi.wire: more than 2^31-1 objects");
      return false;
    }
    ids.emplace(v, id);
    Py_INCREF(v);
    held.push_back(v);
    put(id | 0x80000000u);
    fresh = 1;
    return true;
  }

  /// Writes v (not None, of a chain type) as a compact chain (2.1). The nodes are collected in
  /// `held` in list order while Brent's cycle finding runs over them, so the end or the cycle is
  /// found without an identity table and each link is read once; the hare passes the first
  /// repeated node by at most the cycle's length, so `held` stays within about 2n entries.
  bool chain(PyObject* v, const plan& p) {
    if (!check_class(v, p)) return false;
    PyObject* link = p.fields.back().first;
    Py_INCREF(v);
    held.push_back(v);
    std::size_t tortoise = 0, power = 1, lam = 0;
    bool cycle = false;
    for (;;) {
      PyObject* h = PyObject_GetAttr(held.back(), link);
      if (!h) return false;
      ++lam;
      if (h == Py_None || h == held[tortoise]) {
        cycle = h != Py_None;
        Py_DECREF(h);
        break;
      }
      if (!check_class(h, p) || held.size() >= 0x7FFFFFFFu) {
        if (!PyErr_Occurred())
          PyErr_SetString(PyExc_OverflowError, "oompi.wire: more than 2^31-1 objects");
        Py_DECREF(h);
        return false;
      }
      held.push_back(h);
      if (power == lam) {
        tortoise = held.size() - 1;
        power <<= 1;
        lam = 0;
      }
    }
    // held[i] and held[i + lam] are one node exactly from the first node of the cycle on; the
    // node after the last of held is held[tortoise].
    std::size_t n = held.size(), close = 0;
    if (cycle) {
      std::size_t mu = 0;
      while (mu < tortoise && held[mu] != held[mu + lam]) ++mu;
      n = mu + lam;
      close = mu + 1;
    }
    put(std::uint32_t{0x80000000u});
    put(static_cast<std::uint32_t>(n));
    put(static_cast<std::uint32_t>(close));
    varint = true;
    const std::size_t k = p.fields.size() - 1;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < k; ++j) {  // leaves: item() writes them in place
        PyObject* x = PyObject_GetAttr(held[i], p.fields[j].first);
        if (!x || !item(x, *p.fields[j].second)) return false;
      }
    }
    return true;
  }
};

// --- reading ---------------------------------------------------------------------------------
struct reader {
  const unsigned char* at;
  const unsigned char* end;
  std::vector<PyObject*> objs;  // by id - 1 (strong references while reading)
  // The stack (see max_depth): an object whose fields are being read, or a list being filled.
  struct frame {
    PyObject* obj;      // owned
    const plan* p;      // the object's plan; null for a list
    const tdesc* elem;  // a list's element type
    Py_ssize_t i, n;    // next item, items
    bool placed;        // a referenced object: already stored where it is referenced
    std::uint64_t unit; // a list's claim per element still to come (see claimed)
  };
  std::vector<frame> stack;
  PyObject* root = nullptr;  // the value read (owned until returned)
  bool varint = false;       // sizes as LEB128 varints (inside a compact chain)
  // Bytes the open lists claim for their elements still to come (each element's minimum size):
  // a list nested in the first element cannot count them too, so the lists open at once never
  // describe more than the message (without this, a message nesting lists in their first
  // element, each claiming every byte left, allocated with the square of its size).
  std::uint64_t claimed = 0;

  reader(const unsigned char* begin, const unsigned char* stop) : at(begin), end(stop) {}
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;
  ~reader() {
    for (const auto& f : stack) Py_DECREF(f.obj);
    Py_XDECREF(root);
    for (PyObject* o : objs) Py_DECREF(o);
  }

  bool fail(const char* what) {
    PyErr_Format(PyExc_ValueError, "oompi.wire: corrupt or truncated message: %s", what);
    return false;
  }
  bool need(std::uint64_t n) {
    return static_cast<std::uint64_t>(end - at) >= n || fail("message ends early");
  }
  template <class T>
  bool get(T& v) {
    if (!need(sizeof(T))) return false;
    std::memcpy(&v, at, sizeof(T));
    at += sizeof(T);
    return true;
  }
  /// A size of elements taking at least `unit` bytes each: more than what is left is corrupt
  /// (checked before anything is allocated for them).
  bool size(std::uint64_t& n, std::uint64_t unit = 1) {
    if (!(varint ? get_varint(n) : get(n))) return false;
    const auto rest = static_cast<std::uint64_t>(end - at);
    const auto left = rest > claimed ? rest - claimed : 0;
    return n <= (unit > 1 ? left / unit : left) || fail("size too large");
  }

  /// An unsigned LEB128 varint in its shortest form, at most 2^64 - 1 (so at most 10 bytes).
  bool get_varint(std::uint64_t& v) {
    v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (at == end) return fail("message ends early");
      const unsigned char b = *at++;
      if (shift == 63 && b > 1) return fail("a varint longer than 10 bytes or above 2^64 - 1");
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if (b < 0x80) return b != 0 || shift == 0 || fail("a varint longer than its shortest form");
    }
  }

  PyObject* number(num n) {
    switch (n) {
      case num::b: {
        std::uint8_t b;
        if (!get(b)) return nullptr;
        if (b > 1) return fail("bool byte other than 0 or 1"), nullptr;
        return PyBool_FromLong(b);
      }
      case num::i8: { std::int8_t v; return get(v) ? PyLong_FromLong(v) : nullptr; }
      case num::u8: { std::uint8_t v; return get(v) ? PyLong_FromLong(v) : nullptr; }
      case num::i16: { std::int16_t v; return get(v) ? PyLong_FromLong(v) : nullptr; }
      case num::u16: { std::uint16_t v; return get(v) ? PyLong_FromLong(v) : nullptr; }
      case num::i32: { std::int32_t v; return get(v) ? PyLong_FromLong(v) : nullptr; }
      case num::u32: { std::uint32_t v; return get(v) ? PyLong_FromUnsignedLong(v) : nullptr; }
      case num::i64: { std::int64_t v; return get(v) ? PyLong_FromLongLong(v) : nullptr; }
      case num::u64: {
        std::uint64_t v;
        return get(v) ? PyLong_FromUnsignedLongLong(v) : nullptr;
      }
      case num::f32: { float v; return get(v) ? PyFloat_FromDouble(v) : nullptr; }
      case num::f64: { double v; return get(v) ? PyFloat_FromDouble(v) : nullptr; }
    }
    return nullptr;
  }

  /// One number, string, byte string or array.
  PyObject* leaf(const tdesc& d) {
    switch (d.k) {
      case kind::num: return number(d.n);
      case kind::str: {
        std::uint64_t n;
        if (!size(n)) return nullptr;
        PyObject* s = PyUnicode_DecodeUTF8(reinterpret_cast<const char*>(at),
                                           static_cast<Py_ssize_t>(n), "strict");
        at += n;
        return s;
      }
      case kind::bytes: {
        std::uint64_t n;
        if (!size(n)) return nullptr;
        PyObject* s = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(at),
                                                static_cast<Py_ssize_t>(n));
        at += n;
        return s;
      }
      case kind::array: {
        std::uint64_t n;
        if (!size(n)) return nullptr;
        const std::uint64_t bytes = n * static_cast<std::uint64_t>(num_size(d.n));
        if (!need(bytes)) return nullptr;
        // numpy.frombuffer(bytes, dtype) over a private copy: the array owns its data.
        PyObject* raw = PyBytes_FromStringAndSize(reinterpret_cast<const char*>(at),
                                                  static_cast<Py_ssize_t>(bytes));
        at += bytes;
        if (!raw) return nullptr;
        static PyObject* frombuffer = nullptr;
        if (!frombuffer) {
          PyObject* np = PyImport_ImportModule("numpy");
          if (!np) return Py_DECREF(raw), nullptr;
          frombuffer = PyObject_GetAttrString(np, "frombuffer");
          Py_DECREF(np);
          if (!frombuffer) return Py_DECREF(raw), nullptr;
        }
        PyObject* a = PyObject_CallFunctionObjArgs(frombuffer, raw, d.dtype, nullptr);
        Py_DECREF(raw);
        return a;  // read-only view of an immutable bytes object; copy() to modify
      }
      default: return nullptr;
    }
  }

  PyObject* value(const tdesc& d) {
    PyObject* x;
    if (!item(d, x)) return nullptr;
    root = x;  // null for an object or list held by value: placed here when complete
    while (!stack.empty()) {
      const std::size_t top = stack.size() - 1;
      const frame& f = stack[top];
      if (!f.p) claimed -= f.unit;  // the next element of a list: its claim is read now
      if (!item(f.p ? *f.p->fields[static_cast<std::size_t>(f.i)].second : *f.elem, x))
        return nullptr;
      if (x && !place(top, x)) return nullptr;
      if (!settle(top)) return nullptr;
    }
    x = root;
    root = nullptr;
    return x;
  }

  /// Reads one value: x set (a new reference), or null when a frame was pushed for an object
  /// or list held by value, which settle() places once complete. A new referenced object is
  /// placed at once (its fields follow in its frame): later references to it need it there.
  bool item(const tdesc& d, PyObject*& x) {
    x = nullptr;
    switch (d.k) {
      case kind::strct: {
        PyObject* o = make(*d.p);
        if (!o) return false;
        if (d.p->fields.empty()) return x = o, true;
        return push(o, d.p, nullptr, static_cast<Py_ssize_t>(d.p->fields.size()), false);
      }
      case kind::ref: {
        bool fresh = false;
        PyObject* o = ref_head(*d.p, fresh);
        if (!o) return false;
        if (fresh && !d.p->fields.empty()) {
          Py_INCREF(o);
          if (!push(o, d.p, nullptr, static_cast<Py_ssize_t>(d.p->fields.size()), true))
            return Py_DECREF(o), false;
        }
        return x = o, true;
      }
      case kind::list: {
        std::uint64_t n;
        const std::uint64_t unit = min_bytes(*d.elem);
        if (!size(n, unit)) return false;
        PyObject* l = PyList_New(static_cast<Py_ssize_t>(n));
        if (!l) return false;
        if (n == 0) return x = l, true;
        if (!is_leaf(d.elem->k)) {
          claimed += n * unit;  // n * unit <= bytes left (size)
          return push(l, nullptr, d.elem.get(), static_cast<Py_ssize_t>(n), false, unit);
        }
        for (std::uint64_t i = 0; i < n; ++i) {
          PyObject* e = leaf(*d.elem);
          if (!e) return Py_DECREF(l), false;
          PyList_SET_ITEM(l, static_cast<Py_ssize_t>(i), e);
        }
        return x = l, true;
      }
      default: return (x = leaf(d)) != nullptr;
    }
  }

  bool push(PyObject* o, const plan* p, const tdesc* elem, Py_ssize_t n, bool placed,
            std::uint64_t unit = 0) {
    if (stack.size() >= max_depth) {
      Py_DECREF(o);
      return fail("objects or lists nested too deeply");
    }
    stack.push_back({o, p, elem, 0, n, placed, unit});
    return true;
  }

  /// Stores x (taken over) as the next item of frame k.
  bool place(std::size_t k, PyObject* x) {
    frame& f = stack[k];
    if (f.p) {
      const int rc = PyObject_SetAttr(f.obj, f.p->fields[static_cast<std::size_t>(f.i)].first, x);
      Py_DECREF(x);
      if (rc < 0) return false;
    } else {
      PyList_SET_ITEM(f.obj, f.i, x);
    }
    ++f.i;
    return true;
  }

  /// Drops frame k and those below it while complete, placing each object held by value in
  /// the frame below (or as the root). A frame above k (the item just begun) stays on top.
  bool settle(std::size_t k) {
    for (;;) {
      const frame f = stack[k];
      if (f.i < f.n) return true;
      stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(k));
      if (f.placed) {
        Py_DECREF(f.obj);
      } else if (k == 0) {
        root = f.obj;
      } else if (!place(k - 1, f.obj)) {
        return false;
      }
      if (k == 0) return true;
      --k;
    }
  }

  PyObject* make(const plan& p) {
    static PyObject* empty = PyTuple_New(0);
    PyObject* o = p.cls->tp_new(p.cls, empty, nullptr);  // no __init__: fields come next
    if (!o) return nullptr;
    for (const auto& [name, v] : p.defaults) {
      if (PyObject_SetAttr(o, name, v) < 0) return Py_DECREF(o), nullptr;
    }
    return o;
  }

  /// Reads a reference's id: a new reference to the object (made, fields not read yet, when
  /// fresh), None, or a back-reference.
  PyObject* ref_head(const plan& p, bool& fresh) {
    fresh = false;
    std::uint32_t id;
    if (!get(id)) return nullptr;
    if (id == 0) Py_RETURN_NONE;
    if (id & 0x80000000u) {
      if ((id & 0x7FFFFFFFu) != objs.size() + 1) return fail("new id out of sequence"), nullptr;
      PyObject* o = make(p);
      if (!o) return nullptr;
      objs.push_back(o);
      Py_INCREF(o);
      fresh = true;
      return o;
    }
    if (id > objs.size()) return fail("reference to an object not seen yet"), nullptr;
    PyObject* o = objs[id - 1];
    if (Py_TYPE(o) != p.cls) return fail("reference to an object of another type"), nullptr;
    Py_INCREF(o);
    return o;
  }

  /// Consumes the marker of a compact chain (2.1) if the message starts with one.
  bool compact_marker() {
    std::uint32_t v;
    if (end - at < 4) return false;
    std::memcpy(&v, at, 4);
    if (v != 0x80000000u) return false;
    at += 4;
    return true;
  }

  /// The rest of a compact chain of p's class: n nodes made and linked in one loop (no ids, no
  /// frames); the last node links to None or to node `close`.
  PyObject* chain(const plan& p) {
    if (!p.chain) {
      PyErr_Format(PyExc_ValueError, "oompi.wire: corrupt message: a compact chain (wire 1.1) "
                   "arrived for %s, which is not a chain type", p.cls->tp_name);
      return nullptr;
    }
    std::uint32_t n, close;
    if (!get(n) || !get(close)) return nullptr;
    if (n == 0) return fail("a compact chain of 0 nodes"), nullptr;
    if (close > n) return fail("a compact chain closing on a node past its end"), nullptr;
    if (n > static_cast<std::uint64_t>(end - at))
      return fail("a compact chain of more nodes than bytes left"), nullptr;
    varint = true;
    PyObject* link = p.fields.back().first;
    const std::size_t k = p.fields.size() - 1;
    // root owns the chain; last and target are strong too, whatever a __setattr__ does.
    struct owned {
      PyObject* o = nullptr;
      ~owned() { Py_XDECREF(o); }
      void set(PyObject* x) { Py_XINCREF(x); Py_XDECREF(o); o = x; }
    } last, target;
    for (std::uint32_t i = 0; i < n; ++i) {
      PyObject* o = make(p);
      if (!o) return nullptr;
      if (last.o) {
        const int rc = PyObject_SetAttr(last.o, link, o);
        Py_DECREF(o);
        if (rc < 0) return nullptr;
      } else {
        root = o;
      }
      last.set(o);
      if (i + 1 == close) target.set(o);
      for (std::size_t j = 0; j < k; ++j) {  // leaves: item() reads them in place
        PyObject* x;
        if (!item(*p.fields[j].second, x)) return nullptr;
        const int rc = PyObject_SetAttr(o, p.fields[j].first, x);
        Py_DECREF(x);
        if (rc < 0) return nullptr;
      }
    }
    if (PyObject_SetAttr(last.o, link, target.o ? target.o : Py_None) < 0) return nullptr;
    PyObject* x = root;
    root = nullptr;
    return x;
  }
};

/// dumps(obj, desc) -> bytes
inline PyObject* dumps(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "wire_dumps(obj, desc)");
    return nullptr;
  }
  static std::unordered_map<PyObject*, std::unique_ptr<tdesc>> descs;
  auto it = descs.find(args[1]);
  if (it == descs.end()) {
    auto d = compile_desc(args[1]);
    if (!d) return nullptr;
    Py_INCREF(args[1]);
    it = descs.emplace(args[1], std::move(d)).first;
  }
  writer w;
  // A message's value that is a reference to a chain type goes as a compact chain (2.1).
  const tdesc& d = *it->second;
  const bool compact = d.k == kind::ref && d.p->chain && args[0] != Py_None;
  if (!(compact ? w.chain(args[0], *d.p) : w.value(args[0], d))) return nullptr;
  return PyBytes_FromStringAndSize(w.out.data(), static_cast<Py_ssize_t>(w.out.size()));
}

/// loads(buffer, desc) -> obj
inline PyObject* loads(PyObject*, PyObject* const* args, Py_ssize_t n) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "wire_loads(data, desc)");
    return nullptr;
  }
  static std::unordered_map<PyObject*, std::unique_ptr<tdesc>> descs;
  auto it = descs.find(args[1]);
  if (it == descs.end()) {
    auto d = compile_desc(args[1]);
    if (!d) return nullptr;
    Py_INCREF(args[1]);
    it = descs.emplace(args[1], std::move(d)).first;
  }
  Py_buffer b;
  if (PyObject_GetBuffer(args[0], &b, PyBUF_C_CONTIGUOUS) < 0) return nullptr;
  reader r(static_cast<const unsigned char*>(b.buf),
           static_cast<const unsigned char*>(b.buf) + b.len);
  const tdesc& d = *it->second;
  PyObject* o = d.k == kind::ref && r.compact_marker() ? r.chain(*d.p) : r.value(d);
  const bool left = o && r.at != r.end;
  PyBuffer_Release(&b);
  if (left) {
    Py_DECREF(o);
    r.fail("bytes left over after the object");
    return nullptr;
  }
  return o;
}

}  // namespace oompi::python::wire

#endif  // OOMPI_SWIG_PYTHON_WIRE_HPP
