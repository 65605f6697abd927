// The hot point-to-point calls of the Python binding, written against CPython's vectorcall
// protocol instead of SWIG's generated wrappers (included into the SWIG module's %wrapper
// section, so it uses SWIG's runtime to find the facade object behind a proxy).
//
// Why: an 8-byte send + recv from Python is dominated by the binding's own work. Measured
// (bench/python, PROC_NULL micro-bench): SWIG's path cost 170 ns per send and 260 ns per recv
// (proxy method → tuple → PyArg parsing → PyObject_GetBuffer → GIL release → struct-sequence
// Status). Here: METH_FASTCALL method descriptors installed on the proxy class (no tuple, no
// Python-level indirection), NumPy arrays read directly from the array object (no
// PyObject_GetBuffer, whose format string building dominated), and Status as a small C type.
// Everything else (bytearray, memoryview, array.array, non-contiguous or read-only arrays and
// their error messages) goes through the generic buffer path of oompi_python.hpp.
//
// The facade call itself is unchanged (oompi::rt::comm::send/recv/...), with the GIL released
// around it as -threads does for the generated wrappers.
#ifndef OOMPI_SWIG_PYTHON_FASTPATH_HPP
#define OOMPI_SWIG_PYTHON_FASTPATH_HPP

// The parts: the Status type, buffers and arguments; the calls; the object calls.
#include "oompi_fastpath_args.hpp"
#include "oompi_fastpath_calls.hpp"
#include "oompi_fastpath_objects.hpp"

#endif  // OOMPI_SWIG_PYTHON_FASTPATH_HPP
