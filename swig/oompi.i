// Shared body of the oompi bindings. Included by the per-language entry files
// (java/java.i, csharp/csharp.i, python/python.i), which first define:
//   OOMPI_TRANSLATE_EXCEPTION  turn the C++ exception in flight into the language's exception
//   OOMPI_FAIL                 leave the wrapper after that (return $null; / SWIG_fail;)
//   OOMPI_AFTER_ACTION         run right after a successful call (none does anything now)
// and their typemaps for the run-time buffers (oompi::rt::buffer / async_buffer), the rename
// rule of the language, and the managed helper code.
//
// To add an API function: declare it in the facade (src/include/oompi/rt/*.hpp) with buffer
// parameters typed by direction (const buffer& / buffer& / const async_buffer& /
// async_buffer&), implement it in src/*.cpp, and it appears in all three languages with their
// naming rule and exception mapping. See docs/bindings.md.

%{
#include <oompi/rt/rt.hpp>
%}

%include <std_string.i>
%include <stdint.i>
#ifndef OOMPI_VECTOR_CLASS  // none of SWIG's container classes in a language that has its own (python.i)
%include <std_vector.i>
#endif

// One exception handler for every wrapped call.
%exception {
  try {
    $action
    OOMPI_AFTER_ACTION
  } catch (...) {
    OOMPI_TRANSLATE_EXCEPTION;
    OOMPI_FAIL
  }
}

// --- constants ---------------------------------------------------------------------------
%constant int any_source = MPI_ANY_SOURCE;
%constant int any_tag = MPI_ANY_TAG;
%constant int proc_null = MPI_PROC_NULL;
%constant int root = MPI_ROOT;
%constant int undefined = MPI_UNDEFINED;  // split color of no part; rank outside a group
%constant int success = MPI_SUCCESS;
// MPI error classes (compare with the exception's error class).
%constant int err_buffer = MPI_ERR_BUFFER;
%constant int err_count = MPI_ERR_COUNT;
%constant int err_type = MPI_ERR_TYPE;
%constant int err_tag = MPI_ERR_TAG;
%constant int err_comm = MPI_ERR_COMM;
%constant int err_rank = MPI_ERR_RANK;
%constant int err_request = MPI_ERR_REQUEST;
%constant int err_root = MPI_ERR_ROOT;
%constant int err_group = MPI_ERR_GROUP;
%constant int err_op = MPI_ERR_OP;
%constant int err_topology = MPI_ERR_TOPOLOGY;
%constant int err_dims = MPI_ERR_DIMS;
%constant int err_arg = MPI_ERR_ARG;
%constant int err_unknown = MPI_ERR_UNKNOWN;
%constant int err_truncate = MPI_ERR_TRUNCATE;
%constant int err_other = MPI_ERR_OTHER;
%constant int err_intern = MPI_ERR_INTERN;
%constant int err_in_status = MPI_ERR_IN_STATUS;
%constant int err_pending = MPI_ERR_PENDING;
%constant int err_name = MPI_ERR_NAME;
%constant int err_port = MPI_ERR_PORT;
%constant int err_spawn = MPI_ERR_SPAWN;

// Datatype combiners (datatype.combiner(), datatype_contents.combiner).
%constant int combiner_named = MPI_COMBINER_NAMED;
%constant int combiner_dup = MPI_COMBINER_DUP;
%constant int combiner_contiguous = MPI_COMBINER_CONTIGUOUS;
%constant int combiner_vector = MPI_COMBINER_VECTOR;
%constant int combiner_hvector = MPI_COMBINER_HVECTOR;
%constant int combiner_indexed = MPI_COMBINER_INDEXED;
%constant int combiner_hindexed = MPI_COMBINER_HINDEXED;
%constant int combiner_indexed_block = MPI_COMBINER_INDEXED_BLOCK;
%constant int combiner_hindexed_block = MPI_COMBINER_HINDEXED_BLOCK;
%constant int combiner_struct = MPI_COMBINER_STRUCT;
%constant int combiner_subarray = MPI_COMBINER_SUBARRAY;
%constant int combiner_darray = MPI_COMBINER_DARRAY;
%constant int combiner_resized = MPI_COMBINER_RESIZED;

// --- the facade ----------------------------------------------------------------------------
// Buffers never become proxy classes: each language's typemaps build them.
namespace oompi { namespace rt { struct buffer; struct async_buffer; class status; } }
%ignore oompi::rt::type_kind_count;
%ignore oompi::rt::environment::environment(const environment&);

// A status is a value: each language maps it (and status*, nullptr meaning "none yet") to a
// value type of its own with typemaps, never to a proxy object with a finalizer.
%ignore oompi::rt::status;

// Getters become properties (C#, Python) or getX() methods (Java).
%include <attribute.i>
%attribute(oompi::rt::comm, int, rank, rank);
%attribute(oompi::rt::comm, int, size, size);
%attributestring(oompi::rt::comm, std::string, name, name, set_name);
%attribute(oompi::rt::group, int, size, size);
%attribute(oompi::rt::group, int, rank, rank);
%attribute(oompi::rt::topo_comm, int, in_degree, in_degree);
%attribute(oompi::rt::topo_comm, int, out_degree, out_degree);
%attribute(oompi::rt::cart_comm, int, ndims, ndims);
%attribute(oompi::rt::intercomm, int, remote_size, remote_size);
%attribute(oompi::rt::message, int, source, source);
%attribute(oompi::rt::message, int, tag, tag);
%attribute(oompi::rt::message, int64_t, count_bytes, count_bytes);
%attribute(oompi::rt::buffer_attachment, int64_t, size, size);
%attribute(oompi::rt::environment, oompi::rt::thread_level, provided, provided);
%attribute(oompi::rt::environment, bool, owns_mpi, owns_mpi);
%attribute(oompi::rt::datatype, int64_t, size, size);
%attribute(oompi::rt::datatype_contents, int, combiner, combiner);  // binding parity (issue 15)
%attribute(oompi::rt::datatype, int64_t, extent, extent);
%attributestring(oompi::rt::datatype, std::string, name, name);
%attribute(oompi::rt::datatype, int64_t, lb, lb);
%attribute(oompi::rt::datatype, int64_t, true_extent, true_extent);
%attribute(oompi::rt::datatype, int64_t, true_lb, true_lb);
%attribute(oompi::rt::window, int, rank, rank);
%attribute(oompi::rt::window, int, group_size, group_size);
%attribute(oompi::rt::window, int64_t, size, size);
%attribute(oompi::rt::window, int, disp_unit, disp_unit);

// Counts, displacements, block lengths: IntVector (Int64Vector for byte displacements), which
// Java/C# construct from arrays. A language that converts its own sequences in typemaps (Python:
// lists, tuples, NumPy arrays) defines OOMPI_VECTOR_CLASS(NAME, T) as nothing first, and has no
// container classes (their methods' messages would name C++ types).
#ifndef OOMPI_VECTOR_CLASS
%define OOMPI_VECTOR_CLASS(NAME, T) %template(NAME) vector<T>; %enddef
#endif
namespace std {
OOMPI_VECTOR_CLASS(IntVector, int)
OOMPI_VECTOR_CLASS(Int64Vector, long long)
// Program arguments of comm.spawn, info keys.
OOMPI_VECTOR_CLASS(StringVector, std::string)
// comm.spawn_multiple: one argument list per program.
OOMPI_VECTOR_CLASS(StringVectorVector, vector<std::string>)
}
#ifdef OOMPI_VECTOR_TYPEMAPS
OOMPI_VECTOR_TYPEMAPS  // a language's own conversions for vector parameters
#endif

// User reduction functions are written in the managed language: a director.
%feature("director") oompi::rt::user_function;
%ignore oompi::rt::user_function_error;

%include <oompi/rt/common.hpp>
// Declared before datatype.hpp so that create_struct's parameter gets the vector's typemaps.
namespace oompi { namespace rt { class datatype; } }
namespace std {
OOMPI_VECTOR_CLASS(DatatypeVector, oompi::rt::datatype)
}
#ifdef OOMPI_HANDLE_VECTOR_TYPEMAPS
OOMPI_HANDLE_VECTOR_TYPEMAPS(oompi::rt::datatype)  // a language's own conversion of a list of handles
#endif
%include <oompi/rt/datatype.hpp>
%include <oompi/rt/op.hpp>
%include <oompi/rt/status.hpp>
// Declared before request.hpp so that the set functions' parameter gets the vector's typemaps.
namespace oompi { namespace rt { class request; } }
namespace std {
OOMPI_VECTOR_CLASS(RequestVector, oompi::rt::request)
}
#ifdef OOMPI_HANDLE_VECTOR_TYPEMAPS
OOMPI_HANDLE_VECTOR_TYPEMAPS(oompi::rt::request)  // a language's own conversion of a list of handles
#endif
%include <oompi/rt/request.hpp>
%include <oompi/rt/message.hpp>
%include <oompi/rt/buffer_attachment.hpp>
%include <oompi/rt/group.hpp>
// --- binding parity: info objects, keyvals, idup, graphs, datatype contents -------
%attribute(oompi::rt::info, int, size, size);
%include <oompi/rt/info.hpp>
// comm.spawn_multiple: one info per program. Declared before comm.hpp for its typemaps.
namespace std {
OOMPI_VECTOR_CLASS(InfoVector, oompi::rt::info)
}
#ifdef OOMPI_HANDLE_VECTOR_TYPEMAPS
OOMPI_HANDLE_VECTOR_TYPEMAPS(oompi::rt::info)  // a language's own conversion of a list of handles
#endif
// The message of a posted object receive, once assigned (null before), and improbe's message
// (null when none is there): the caller owns it.
%newobject oompi::rt::comm::test_object_recv;
%newobject oompi::rt::comm::improbe;
%include <oompi/rt/comm.hpp>
%include <oompi/rt/attribute.hpp>
%include <oompi/rt/topology.hpp>
%include <oompi/rt/intercomm.hpp>
// Communicators made by other code in the process (C#: MPI.NET's Communicator.Adopt; Python
// includes it in python.i with its mpi4py typemaps).
#ifdef SWIGCSHARP
%include <oompi/rt/interop.hpp>
#endif
%include <oompi/rt/environment.hpp>
%include <oompi/rt/window.hpp>

// --- MPI-IO: oompi::rt::file ------------------------------------------------------------------
// Access modes, combined with |: mode_create | mode_wronly.
%constant int mode_rdonly = MPI_MODE_RDONLY;
%constant int mode_wronly = MPI_MODE_WRONLY;
%constant int mode_rdwr = MPI_MODE_RDWR;
%constant int mode_create = MPI_MODE_CREATE;
%constant int mode_excl = MPI_MODE_EXCL;
%constant int mode_delete_on_close = MPI_MODE_DELETE_ON_CLOSE;
%constant int mode_unique_open = MPI_MODE_UNIQUE_OPEN;
%constant int mode_sequential = MPI_MODE_SEQUENTIAL;
%constant int mode_append = MPI_MODE_APPEND;
// datatype.darray's distributions.
%constant int distribute_block = MPI_DISTRIBUTE_BLOCK;
%constant int distribute_cyclic = MPI_DISTRIBUTE_CYCLIC;
%constant int distribute_none = MPI_DISTRIBUTE_NONE;
%constant int distribute_dflt_darg = MPI_DISTRIBUTE_DFLT_DARG;
// File error classes.
%constant int err_file = MPI_ERR_FILE;
%constant int err_no_such_file = MPI_ERR_NO_SUCH_FILE;
%constant int err_file_exists = MPI_ERR_FILE_EXISTS;
%constant int err_file_in_use = MPI_ERR_FILE_IN_USE;
%constant int err_access = MPI_ERR_ACCESS;
%constant int err_amode = MPI_ERR_AMODE;
%constant int err_bad_file = MPI_ERR_BAD_FILE;
%constant int err_read_only = MPI_ERR_READ_ONLY;
%constant int err_no_space = MPI_ERR_NO_SPACE;
%constant int err_quota = MPI_ERR_QUOTA;
%constant int err_io = MPI_ERR_IO;
%constant int err_unsupported_operation = MPI_ERR_UNSUPPORTED_OPERATION;
// Window, attribute and info error classes (Open MPI's Java API names them: MPI.ERR_WIN, ...).
%constant int err_win = MPI_ERR_WIN;
%constant int err_base = MPI_ERR_BASE;
%constant int err_size = MPI_ERR_SIZE;
%constant int err_disp = MPI_ERR_DISP;
%constant int err_locktype = MPI_ERR_LOCKTYPE;
%constant int err_rma_sync = MPI_ERR_RMA_SYNC;
%constant int err_assert = MPI_ERR_ASSERT;
%constant int err_keyval = MPI_ERR_KEYVAL;
%constant int err_info = MPI_ERR_INFO;
%constant int err_info_key = MPI_ERR_INFO_KEY;
%constant int err_info_value = MPI_ERR_INFO_VALUE;
%constant int err_info_nokey = MPI_ERR_INFO_NOKEY;
%constant int err_lastcode = MPI_ERR_LASTCODE;
%constant int err_unsupported_datarep = MPI_ERR_UNSUPPORTED_DATAREP;
%attribute(oompi::rt::file, int64_t, size, size);
%attribute(oompi::rt::file, int64_t, position, position);
%attribute(oompi::rt::file, int64_t, position_shared, position_shared);
%attribute(oompi::rt::file, int, amode, amode);
%attribute(oompi::rt::file, bool, atomicity, atomicity);
// file.get_info() returns a new info object each time: a call, not a property.
%nodefaultctor oompi::rt::file_view;  // made by file.get_view only
%attribute(oompi::rt::file_view, int64_t, displacement, displacement);
%attributestring(oompi::rt::file_view, std::string, datarep, datarep);
%attributeval(oompi::rt::file_view, oompi::rt::datatype, etype, etype);
%attributeval(oompi::rt::file_view, oompi::rt::datatype, filetype, filetype);  // set_atomicity (collective) stays a call
%include <oompi/rt/file.hpp>
