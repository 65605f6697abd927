"""Struct datatypes from NumPy structured dtypes.

    particle = np.dtype([("x", "f8"), ("y", "f8"), ("id", "i4")], align=True)
    a = np.zeros(100, dtype=particle)
    world.send(a, 1)                       # MPI_Type_create_struct, resized to the itemsize
    t = oompi.Datatype.from_dtype(particle)

Each dtype's datatype is built and committed once and cached (never freed: dtypes live as long
as the program in practice). Fields may be arrays (``("pos", "f8", (3,))``) and nested
structured dtypes; padding and field order follow the dtype's offsets.
"""
import importlib as _importlib

from . import core as _core

_KINDS = {
    ("b", 1): "INT8", ("i", 1): "INT8", ("i", 2): "INT16", ("i", 4): "INT32", ("i", 8): "INT64",
    ("u", 1): "UINT8", ("u", 2): "UINT16", ("u", 4): "UINT32", ("u", 8): "UINT64",
    ("f", 4): "FLOAT32", ("f", 8): "FLOAT64", ("c", 8): "COMPLEX64", ("c", 16): "COMPLEX128",
}
_cache = {}


def from_dtype(dtype):
    """The MPI datatype of a NumPy dtype (builtin for plain numbers, a committed struct resized
    to dtype.itemsize for structured ones). ValueError for what MPI cannot describe."""
    import numpy as np
    dtype = np.dtype(dtype)
    got = _cache.get(dtype)
    if got is not None:
        return got
    if dtype.fields is None:
        if dtype.subdtype is not None:
            base, shape = dtype.subdtype
            n = int(np.prod(shape))
            t = _core.Datatype.contiguous(n, from_dtype(base))
        else:
            if not dtype.isnative:
                raise ValueError("oompi: non-native byte order in %s" % dtype)
            if dtype.kind == "b":
                t = _core.Datatype.of(_kind("BOOLEAN"))
            else:
                name = _KINDS.get((dtype.kind, dtype.itemsize))
                if name is None:
                    raise ValueError("oompi: no MPI datatype for NumPy type %s" % dtype)
                t = _core.Datatype.of(_kind(name))
    else:
        fields = sorted(((off, sub) for sub, off, *_ in dtype.fields.values()),
                        key=lambda f: f[0])
        if not fields:
            raise ValueError("oompi: a structured dtype without fields")
        lengths, displs, types = [], [], []
        for off, sub in fields:
            lengths.append(1)
            displs.append(off)
            types.append(from_dtype(sub))
        s = _core.Datatype.create_struct(lengths, displs, types)
        t = _core.Datatype.resized(s, 0, dtype.itemsize)
        s.close()
    _cache[dtype] = t
    return t


def _kind(name):
    from . import TypeKind
    return getattr(TypeKind, name)


def _buffer_datatype(obj):
    # Called by the buffer typemaps for a buffer whose format is a struct ("T{...}").
    dtype = getattr(obj, "dtype", None)
    if dtype is None or dtype.fields is None:
        return None
    return from_dtype(dtype)


_core.Datatype.from_dtype = staticmethod(from_dtype)
_importlib.import_module("oompi._core")._set_dtype_hook(_buffer_datatype)
