// Java entry file: package org.oompi, module class MPI (constants), JNI class MPIJNI.
// Naming: camelCase methods, PascalCase classes, UPPER_CASE constants and enum items.
%module(directors="1") MPI

%include <enums.swg>   // C++ enums become Java enums

%{
#include "oompi_java.hpp"
#include "../bench_support.hpp"
#include <oompi/object_ops.hpp>
#include <oompi/rt/interop.hpp>
%}

%define OOMPI_TRANSLATE_EXCEPTION oompi::java::translate(jenv) %enddef
%define OOMPI_FAIL return $null; %enddef
%define OOMPI_AFTER_ACTION %enddef

// The parts, one area each, in the order SWIG must see them (typemaps before oompi.i declares
// what they apply to; the %extend and %exception blocks of the fast paths after it).
%include "java_naming.i"
%include "java_buffers.i"
%include "java_lifetime.i"
%include "java_handles.i"
%include "java_requests.i"
%include "java_types_ops.i"
%include "java_checks.i"
%include "java_native.i"
%include "java_window.i"

%include "../oompi.i"

%include "java_window_direct.i"
%include "java_fast_paths.i"

// The native side of bench/java (org.oompi.BenchSupport).
%include "../bench_support.hpp"
