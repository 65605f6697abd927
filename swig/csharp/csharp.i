// C# entry file: namespace Oompi, module class Mpi (constants), native library oompi_csharp.
// Naming: PascalCase methods, classes, properties, constants and enum items. The environment
// class is MpiEnvironment (System.Environment would clash in user code).
%module(directors="1") Mpi

%{
#include "oompi_csharp.hpp"
%}

%define OOMPI_TRANSLATE_EXCEPTION oompi::csharp::translate() %enddef
%define OOMPI_FAIL return $null; %enddef
%define OOMPI_AFTER_ACTION %enddef

// The parts, one area each, in the order SWIG must see them (before oompi.i declares what
// their typemaps apply to).
%include "csharp_naming.i"
%include "csharp_buffers.i"
%include "csharp_handles.i"
%include "csharp_managed.i"

// --- MPI-IO: MpiFile (System.IO.File would clash in user code), IDisposable -------
%rename(MpiFile) oompi::rt::file;
OOMPI_CS_DISPOSABLE(oompi::rt::file, true)

%include "../oompi.i"

// The native side of bench/csharp (Oompi.BenchSupport: raw C loop, crossing-cost probes).
%{
#include "../bench_support.hpp"
%}
%include "../bench_support.hpp"
