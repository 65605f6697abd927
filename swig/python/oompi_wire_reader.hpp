// Python wire format: the reader.
// Part of oompi_wire.hpp, which includes the parts in order.
#ifndef OOMPI_SWIG_PYTHON_WIRE_READER_HPP
#define OOMPI_SWIG_PYTHON_WIRE_READER_HPP

#include "oompi_wire_writer.hpp"

namespace oompi::python::wire {

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

/// The cyclic garbage collector paused while a message is decoded: every object made is
/// reachable from the result (or released with it on failure), so a collection finds nothing,
/// yet allocating N objects triggers N / 700 of them, each walking the young objects, and full
/// ones as the graph grows: 3-4x the decoding time of a 65,535-node tree, measured. Collection
/// resumes (if it was on) when decoding ends; the objects are then examined once.
class gc_pause {
 public:
#if PY_VERSION_HEX >= 0x030A0000
  gc_pause() : was_enabled_(PyGC_Disable()) {}
  ~gc_pause() {
    if (was_enabled_) PyGC_Enable();
  }
#else
  gc_pause() = default;  // no C API to pause it before Python 3.10: decoding as before
#endif
  gc_pause(const gc_pause&) = delete;
  gc_pause& operator=(const gc_pause&) = delete;

 private:
  int was_enabled_ = 0;
};

/// The compiled form of the descriptor tuple (from transportable.py) that a call of `usage`
/// (value, descriptor) gets: compiled on first use, cached (the tuples live as long as their
/// classes, so they key the cache); nullptr with the error set.
inline const tdesc* call_desc(PyObject* const* args, Py_ssize_t n, const char* usage) {
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, usage);
    return nullptr;
  }
  PyObject* t = args[1];
  static std::unordered_map<PyObject*, std::unique_ptr<tdesc>> descs;
  auto it = descs.find(t);
  if (it == descs.end()) {
    auto d = compile_desc(t);
    if (!d) return nullptr;
    Py_INCREF(t);
    it = descs.emplace(t, std::move(d)).first;
  }
  return it->second.get();
}

/// dumps(obj, desc) -> bytes
inline PyObject* dumps(PyObject*, PyObject* const* args, Py_ssize_t n) {
  const tdesc* desc = call_desc(args, n, "wire_dumps(obj, desc)");
  if (!desc) return nullptr;
  writer w;
  // A message's value that is a reference to a chain type goes as a compact chain (2.1).
  const tdesc& d = *desc;
  const bool compact = d.k == kind::ref && d.p->chain && args[0] != Py_None;
  if (!(compact ? w.chain(args[0], *d.p) : w.value(args[0], d))) return nullptr;
  return PyBytes_FromStringAndSize(w.out.data(), static_cast<Py_ssize_t>(w.out.size()));
}

/// loads(buffer, desc) -> obj
inline PyObject* loads(PyObject*, PyObject* const* args, Py_ssize_t n) {
  const tdesc* desc = call_desc(args, n, "wire_loads(data, desc)");
  if (!desc) return nullptr;
  Py_buffer b;
  if (PyObject_GetBuffer(args[0], &b, PyBUF_C_CONTIGUOUS) < 0) return nullptr;
  gc_pause pause;
  reader r(static_cast<const unsigned char*>(b.buf),
           static_cast<const unsigned char*>(b.buf) + b.len);
  const tdesc& d = *desc;
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

#endif  // OOMPI_SWIG_PYTHON_WIRE_READER_HPP
