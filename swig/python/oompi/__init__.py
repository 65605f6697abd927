"""oompi: object-oriented MPI for Python, on the same C++ core as the C++, Java and C# APIs.

::

    import numpy as np, oompi
    with oompi.Environment():
        world = oompi.Comm.world()
        data = np.arange(4.0)
        world.send(data, (world.rank + 1) % world.size)  # buffer, dest[, tag]

Run with ``mpirun -np 4 python3 app.py``. Buffers are anything with the buffer protocol (NumPy
arrays and their contiguous slices, bytearray, memoryview), or else with ``__dlpack__`` or
``__cuda_array_interface__`` (host memory; CUDA memory only with a CUDA-aware MPI), used in
place; the MPI datatype comes from the buffer's format or dtype. Errors: MPI failures raise ``oompi.MPIError`` (with
``error_class``), bad input raises ValueError / IndexError / TypeError, a closed handle
``oompi.ClosedError``.
"""

from .core import (  # noqa: F401
    ANY_SOURCE,
    ANY_TAG,
    PROC_NULL,
    ROOT,
    SUCCESS,
    UNDEFINED,
    CartComm,
    CartShift,
    ClosedError,
    Comm,
    CommFuture,
    DatatypeContents,
    DistGraphComm,
    GraphComm,
    Info,
    Keyval,
    Group,
    Intercomm,
    TopoComm,
    Datatype,
    Environment,
    File,
    Interop,
    MPIError,
    BufferAttachment,
    Message,
    Op,
    Request,
    Status,
    TestSupport,
    Window,
    Epoch,
)
from . import core as _core
from .ops import UserFunction  # noqa: F401  (also installs Op.create)
from . import ops as _ops_module
from . import objects as _objects  # noqa: F401  (installs Comm.osend, orecv, obcast, ...)
from . import structs as _structs  # noqa: F401  (Datatype.from_dtype, structured arrays)
from .objects import ObjectRequest, SerializationError  # noqa: F401
from . import transportable as wire  # noqa: F401  (oompi.wire.dumps / loads; before the next line)
from .transportable import (  # noqa: F401
    Array, List, Ref, transportable, is_transportable,
    int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64, boolean,
)
import enum as _enum

# Every call takes a list (or tuple, or NumPy array) where C++ takes a std::vector, and returns
# a tuple: there are no container classes. The names of the former ones stay for old code.
IntVector = Int64Vector = DatatypeVector = list


def _enum_of(name):
    # SWIG gives a C++ enum class as flat constants (TypeKind_FLOAT64): make it an IntEnum.
    prefix = name + "_"
    members = {k[len(prefix):]: v for k, v in vars(_core).items() if k.startswith(prefix)}
    return _enum.IntEnum(name, members, module=__name__)


ThreadLevel = _enum_of("ThreadLevel")
TypeKind = _enum_of("TypeKind")
OpKind = _enum_of("OpKind")
Comparison = _enum_of("Comparison")
TopologyKind = _enum_of("TopologyKind")
LockType = _enum_of("LockType")
RmaMode = _enum_of("RmaMode")
SeekFrom = _enum_of("SeekFrom")  # File.seek(offset, SeekFrom.END)


def _returning(enum, method):
    def wrapper(self, *args):
        return enum(method(self, *args))
    wrapper.__name__, wrapper.__doc__ = method.__name__, method.__doc__
    return wrapper


Comm.compare = _returning(Comparison, Comm.compare)
Group.compare = _returning(Comparison, Group.compare)
Comm.topology = _returning(TopologyKind, Comm.topology)

# MPI error classes: oompi.ERR_TRUNCATE, ...
globals().update({k: v for k, v in vars(_core).items() if k.startswith("ERR_")})
# MPI-IO: file access modes (oompi.MODE_CREATE | oompi.MODE_WRONLY) and darray distributions.
globals().update({k: v for k, v in vars(_core).items()
                  if k.startswith("MODE_") or k.startswith("DISTRIBUTE_")})
# Datatype combiners (Datatype.combiner(), DatatypeContents.combiner): oompi.COMBINER_VECTOR.
globals().update({k: v for k, v in vars(_core).items() if k.startswith("COMBINER_")})

# Predefined datatypes and ops, as module and class attributes: oompi.DOUBLE, Datatype.DOUBLE.
_TYPES = {
    "BYTE": TypeKind.BYTE, "INT8": TypeKind.INT8, "UINT8": TypeKind.UINT8,
    "INT16": TypeKind.INT16, "UINT16": TypeKind.UINT16, "INT32": TypeKind.INT32,
    "UINT32": TypeKind.UINT32, "INT64": TypeKind.INT64, "UINT64": TypeKind.UINT64,
    "FLOAT": TypeKind.FLOAT32, "DOUBLE": TypeKind.FLOAT64, "BOOL": TypeKind.BOOLEAN,
    "COMPLEX": TypeKind.COMPLEX64, "DOUBLE_COMPLEX": TypeKind.COMPLEX128,
}
for _name, _kind in _TYPES.items():
    _t = Datatype.of(_kind)
    globals()[_name] = _t
    setattr(Datatype, _name, _t)
    _core._core._register_datatype(_t)  # user functions receive this object for the type
    _ops_module._register_constant(_t, _name)

for _name in ("SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR",
              "MAXLOC", "MINLOC", "REPLACE", "NO_OP"):
    _op = Op.of(getattr(OpKind, _name))
    globals()[_name] = _op
    setattr(Op, _name, _op)
del _name, _kind, _t, _op

wtime = Environment.wtime
wtick = Environment.wtick
# Ports and names of dynamic processes (as mpi4py's MPI.Open_port, ...): comm.accept/connect.
open_port = Environment.open_port
close_port = Environment.close_port
publish_name = Environment.publish_name
unpublish_name = Environment.unpublish_name
lookup_name = Environment.lookup_name
