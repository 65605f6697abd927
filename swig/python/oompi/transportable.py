"""Transportable classes: object graphs in wire format v1 (docs/wire-format.md), the bytes the
C++, Java and C# APIs read and write.

    from dataclasses import dataclass, field
    from typing import Optional
    import oompi

    @oompi.transportable
    @dataclass
    class Point:
        x: float                       # float64
        y: float

    @oompi.transportable
    @dataclass
    class Node:
        data: list[oompi.int32] = field(default_factory=list)
        other: Optional["Node"] = None     # a reference (shared and cyclic graphs survive)
        next: Optional["Node"] = None

    world.osend(shape, 1)                       # by value: the fields of shape
    world.osend(head, 1, type=oompi.Ref(Node))  # a reference: id, then the fields
    head = world.orecv(0, type=oompi.Ref(Node))

Field annotations: oompi.int8 ... oompi.uint64, oompi.float32, oompi.float64, oompi.boolean;
int (int64), float (float64), bool, str (UTF-8), bytes (array of u8); list[T] (array of T, a
Python list); oompi.Array(oompi.int32) (array of numbers as a NumPy array); a Transportable
class (nested by value); Optional[T] or oompi.Ref(T) (a reference, None allowed). Only the
fields named in ``transportable(fields=...)`` are transported when given (Motor's opt-in);
others arrive with their dataclass default (None if they have a default factory).

A class whose last field is Optional[Self] and whose other fields are numbers, str, bytes or
arrays of numbers (not bool) is a chain type: a root sent as Ref(cls) goes as a compact chain
(wire 1.1, docs/wire-format.md 2.1), about 4 bytes less per node plus 7 per size.

Each class is compiled once, on first use, into a plan that C++ code executes (oompi_wire.hpp):
no per-object introspection.
"""
import dataclasses as _dc
import sys as _sys
import threading as _threading
import typing as _typing

import importlib as _importlib

# The extension module (oompi_wire.hpp); the package attribute _core names core.py instead.
_native = _importlib.import_module("oompi._core")

if _sys.byteorder != "little":  # pragma: no cover
    raise ImportError("oompi.transportable: wire format v1 is implemented for little-endian hosts")


class _Num:
    __slots__ = ("code", "np")

    def __init__(self, code, np):
        self.code, self.np = code, np

    def __repr__(self):
        return "oompi." + {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                           "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                           "f32": "float32", "f64": "float64", "bool": "boolean"}[self.code]


int8, int16, int32, int64 = _Num("i8", "<i1"), _Num("i16", "<i2"), _Num("i32", "<i4"), \
    _Num("i64", "<i8")
uint8, uint16, uint32, uint64 = _Num("u8", "<u1"), _Num("u16", "<u2"), _Num("u32", "<u4"), \
    _Num("u64", "<u8")
float32, float64, boolean = _Num("f32", "<f4"), _Num("f64", "<f8"), _Num("bool", "?")


class Ref:
    """A reference to a Transportable class (None, or an object that may be shared)."""
    __slots__ = ("cls",)

    def __init__(self, cls):
        self.cls = cls

    def __repr__(self):
        return "oompi.Ref(%s)" % getattr(self.cls, "__name__", self.cls)

    def __eq__(self, other):
        return isinstance(other, Ref) and other.cls is self.cls

    def __hash__(self):
        return hash(("Ref", self.cls))


class Array:
    """An array of numbers (size, then the packed elements), as a NumPy array."""
    __slots__ = ("elem",)

    def __init__(self, elem):
        if not isinstance(elem, _Num):
            raise TypeError("oompi.Array: the element type must be oompi.int32, oompi.float64, ...")
        self.elem = elem

    def __eq__(self, other):
        return isinstance(other, Array) and other.elem is self.elem

    def __hash__(self):
        return hash(("Array", self.elem.code))


class List:
    """An array of any element type, as a Python list (same as list[T])."""
    __slots__ = ("elem",)

    def __init__(self, elem):
        self.elem = elem

    def __eq__(self, other):
        return isinstance(other, List) and other.elem == self.elem

    def __hash__(self):
        return hash(("List", self.elem))


def transportable(cls=None, *, fields=None):
    """Class decorator: declares a (data)class Transportable in wire format v1. ``fields``
    names the transported fields in order (default: every annotated field, in order)."""
    def mark(c):
        if not isinstance(c, type):
            raise TypeError("oompi.transportable: decorate a class")
        c.__oompi_wire__ = _Wire(c, tuple(fields) if fields is not None else None)
        return c
    return mark(cls) if cls is not None else mark


def is_transportable(cls):
    return isinstance(cls, type) and isinstance(cls.__dict__.get("__oompi_wire__"), _Wire)


class _Wire:
    """The compiled form of one class (made on first use, so forward references resolve)."""

    def __init__(self, cls, fields):
        self.cls = cls
        self.fields = fields
        self.plan = None

    def compile(self):
        if self.plan is None:
            self.plan = [self.cls, (), ()]  # registered before the fields: recursion finds it
            try:
                self.plan[1], self.plan[2] = _fields_of(self.cls, self.fields)
            except Exception:
                self.plan = None
                raise
        return self.plan

    def dumps(self, obj):
        return dumps(obj)


def _fields_of(cls, names):
    try:
        hints = _typing.get_type_hints(cls)
    except Exception as e:
        raise TypeError("oompi.transportable: cannot resolve the annotations of %s: %s"
                        % (cls.__name__, e)) from e
    hints = {k: v for k, v in hints.items() if _typing.get_origin(v) is not _typing.ClassVar}
    if names is None:
        names = tuple(hints)
    out = []
    for n in names:
        if n not in hints:
            raise TypeError("oompi.transportable: %s.%s has no annotation" % (cls.__name__, n))
        try:
            out.append((n, _desc(hints[n])))
        except TypeError as e:
            raise TypeError("oompi.transportable: %s.%s: %s" % (cls.__name__, n, e)) from None
    defaults = []
    if _dc.is_dataclass(cls):
        for f in _dc.fields(cls):
            if f.name in names:
                continue
            defaults.append((f.name, f.default if f.default is not _dc.MISSING else None))
    return tuple(out), tuple(defaults)


_descs = {}
# Compiling a class runs Python code (the annotations), so another thread may run meanwhile: it
# must never see a plan whose fields are not filled in yet (the native side would keep that
# empty plan for good). One lock for the compilation; its descriptors are published in _descs
# only when the outermost one is complete.
_lock = _threading.RLock()
_building = {}  # descriptors of the compilation in progress (this thread, under _lock)
_depth = 0


def _desc(t):
    """The descriptor tuple of a type annotation (see oompi_wire.hpp)."""
    global _depth
    try:
        d = _descs.get(t)
    except TypeError:  # an unhashable annotation
        d = None
    if d is not None:
        return d
    with _lock:
        try:
            d = _descs.get(t) or _building.get(t)
        except TypeError:
            pass
        if d is not None:
            return d
        _depth += 1
        ok = False
        try:
            d = _make_desc(t)
            try:
                _building[t] = d
            except TypeError:
                pass
            ok = True
        except RecursionError:
            if _depth > 1:  # said once, by the outermost call
                raise
            raise TypeError("oompi.transportable: a type annotation nested too deeply") from None
        finally:
            _depth -= 1
            if _depth == 0:
                if ok:
                    _descs.update(_building)
                _building.clear()
        return d


def _make_desc(t):
    import numpy as np
    if isinstance(t, _Num):
        return ("num", t.code)
    if t is bool:
        return ("num", "bool")
    if t is int:
        return ("num", "i64")
    if t is float:
        return ("num", "f64")
    if t is str:
        return ("str",)
    if t is bytes:
        return ("bytes",)
    if isinstance(t, Array):
        return ("array", t.elem.code, np.dtype(t.elem.np))
    if isinstance(t, List):
        return ("list", _desc(t.elem))
    if isinstance(t, Ref):
        return ("ref", _plan(t.cls))
    origin = _typing.get_origin(t)
    args = _typing.get_args(t)
    if origin in (list, _typing.List) and len(args) == 1:
        return ("list", _desc(args[0]))
    if origin is _typing.Union or (origin is not None and type(t).__name__ == "UnionType"):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return ("ref", _plan(rest[0]))
    if is_transportable(t):
        return ("struct", _plan(t))
    raise TypeError("no wire v1 form for %r (use oompi.int32 ..., float, str, bytes, list[T], "
                    "oompi.Array(T), Optional[T] of a Transportable class)" % (t,))


def _plan(cls):
    if not is_transportable(cls):
        raise TypeError("%r is not a Transportable class (decorate it with @oompi.transportable)"
                        % (cls,))
    return cls.__oompi_wire__.compile()


def type_desc(t):
    """The descriptor of a type given to osend/orecv (a class: by value; Ref(cls); list...)."""
    return _desc(t)


def dumps(obj, type=None):
    """The wire v1 bytes of obj (by value when type is None: obj's class's fields)."""
    if type is None:
        type = obj.__class__
        if not is_transportable(type):
            raise TypeError("oompi.wire: %s is not Transportable" % type.__name__)
    return _native._wire_dumps(obj, _desc(type))


def loads(data, type):
    """The object of type `type` (a class, Ref(cls), list[...]) from wire v1 bytes."""
    return _native._wire_loads(data, _desc(type))
