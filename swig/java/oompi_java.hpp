// Support code compiled into the Java wrapper (liboompi_java.so): run-time buffers from Java
// objects, array pinning, exception translation.
//
// Buffers: a Java buffer argument is an Object: a primitive array or a direct java.nio buffer
// (its elements [position, limit)). Arrays are copied into native memory in the `check`
// typemap, after every argument has been converted, and copied back (receives) when the
// wrapper returns (not on the error path); never pinned across the call (see pin). The calls
// with an offset and a count (Port.java's paths, array_use) touch only that range of the array
// (issue 29): copied, or pinned where that is safe and large enough (array_pinning).
#ifndef OOMPI_SWIG_JAVA_HPP
#define OOMPI_SWIG_JAVA_HPP

// The parts, one area each:
//   oompi_java_errors.hpp      exceptions, translated into Java's (names in Java's names)
//   oompi_java_pins.hpp        primitive arrays copied or pinned
//   oompi_java_buffers.hpp     Java buffer objects as run-time buffers; statuses
//   oompi_java_fast_paths.hpp  the Port fast paths, light requests, UserFunction, MpiMemory
#include "oompi_java_errors.hpp"
#include "oompi_java_pins.hpp"
#include "oompi_java_buffers.hpp"
#include "oompi_java_fast_paths.hpp"

#endif  // OOMPI_SWIG_JAVA_HPP
