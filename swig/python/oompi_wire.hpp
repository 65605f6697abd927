// Wire format v1 (docs/wire-format.md) for Python Transportable classes, in C++: the plan of
// each class is compiled once in Python (oompi/transportable.py) into nested tuples, turned
// here into a tree of `tdesc`, and every object is written and read by walking that tree: no
// per-object introspection, no Python code per field.
//
// A type descriptor tuple is one of
//   ("num", code)        code: "bool" "i8" "i16" "i32" "i64" "u8" "u16" "u32" "u64" "f32" "f64"
//   ("str",) ("bytes",)  UTF-8 string / array of u8 as Python bytes
//   ("list", elem)       array of elem, as a Python list
//   ("array", code, np)  array of numbers as a NumPy array (np: the dtype), any sequence accepted
//   ("struct", plan)     a Transportable object by value
//   ("ref", plan)        a reference (None, first occurrence with its fields, or back-reference)
// and a plan is a mutable list [cls, ((name, tdesc), ...), defaults] so recursive classes can
// refer to themselves; defaults: ((name, value), ...) for fields that are not transported.
//
// A message's value that is a reference to a chain type (plan::chain) is written as a compact
// chain (wire 1.1, docs/wire-format.md 2.1): writer::chain, reader::chain, chosen in dumps/loads.
#ifndef OOMPI_SWIG_PYTHON_WIRE_HPP
#define OOMPI_SWIG_PYTHON_WIRE_HPP

// The parts: the type plans, the writer, the reader.
#include "oompi_wire_plan.hpp"
#include "oompi_wire_writer.hpp"
#include "oompi_wire_reader.hpp"

#endif  // OOMPI_SWIG_PYTHON_WIRE_HPP
