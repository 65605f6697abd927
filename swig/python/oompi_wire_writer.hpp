// Python wire format: the writer.
// Part of oompi_wire.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_WIRE_WRITER_HPP
#define OOMPI_SWIG_PYTHON_WIRE_WRITER_HPP

#include "oompi_wire_plan.hpp"

namespace oompi::python::wire {

// --- writing ---------------------------------------------------------------------------------
/// The ids of the objects written so far, by address: open addressing with linear probing, at
/// most half full, so an object met once costs a probe or two and no allocation of its own
/// (std::unordered_map allocated a node per object: a fifth of a tree's encoding).
class identity_table {
 public:
  /// The id `o` has, or 0 after giving it `id` (ids start at 1).
  std::uint32_t find_or_add(PyObject* o, std::uint32_t id) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = index(o, mask);; i = (i + 1) & mask) {
      slot& s = slots_[i];
      if (s.key == o) return s.id;
      if (s.key == nullptr) {
        s = {o, id};
        ++count_;
        return 0;
      }
    }
  }
  std::size_t size() const { return count_; }

 private:
  struct slot {
    PyObject* key = nullptr;
    std::uint32_t id = 0;
  };
  static std::size_t index(PyObject* o, std::size_t mask) {
    // Fibonacci hashing of the address (objects are 16-byte aligned: the low bits say nothing)
    return static_cast<std::size_t>((reinterpret_cast<std::uintptr_t>(o) >> 4) *
                                    0x9E3779B97F4A7C15ull >> 32) & mask;
  }
  void grow() {
    std::vector<slot> old(slots_.empty() ? 64 : 2 * slots_.size());
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const slot& s : old) {
      if (!s.key) continue;
      std::size_t i = index(s.key, mask);
      while (slots_[i].key) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<slot> slots_;
  std::size_t count_ = 0;
};

struct writer {
  std::string out;
  identity_table ids;
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
    const auto id = static_cast<std::uint32_t>(ids.size() + 1);
    if (const std::uint32_t known = ids.find_or_add(v, id)) {
      put(known);
      return true;
    }
    if (id > 0x7FFFFFFFu) {
      PyErr_SetString(PyExc_OverflowError, "oompi.wire: more than 2^31-1 objects");
      return false;
    }
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

}  // namespace oompi::python::wire

#endif  // OOMPI_SWIG_PYTHON_WIRE_WRITER_HPP
