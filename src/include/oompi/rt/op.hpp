#ifndef OOMPI_RT_OP_HPP
#define OOMPI_RT_OP_HPP

// Reduction operations for the bindings: the predefined ones (they never enter a managed
// runtime) and user functions written in Java, C# or Python (SWIG directors of
// user_function).
//
// A user function is called by MPI from inside a collective, possibly on another thread. An
// exception it throws (a Java/Python exception becomes a Swig::DirectorException) never
// unwinds through MPI's C frames: the core's trampoline keeps it, makes no further calls to the
// function for that operation, and the collective rethrows it after MPI returns, on the ranks
// where the function ran and threw (the others complete normally: agree on failure yourself or
// treat it as fatal). A binding whose runtime must not let exceptions leave a callback at all
// (CoreCLR) catches in its own base class and calls fail() instead.
//
// Copies of an op share one handle. close() releases a user op (the trampoline slot; no MPI
// call, so finalizer threads may drop ops too). The op does not own the user_function: the
// managed Op object keeps a strong reference to it (each binding does that in its proxy).

#include "common.hpp"

#include <cstdint>
#include <memory>
#include <string>

#ifndef SWIG
namespace oompi {
class op;  // the core's (oompi/op.hpp)
}
#endif

namespace oompi::rt {

class datatype;

/// Base class of user-defined reduction functions (a SWIG director: subclass it in Java, C#
/// or Python). MPI calls call() with `count` elements of `type` at two addresses:
/// inout[i] = in[i] (op) inout[i]. The memory is MPI's: valid only during the call.
class user_function {
public:
  user_function() = default;
  virtual ~user_function();
  /// in_address / inout_address: the memory; count: elements; extent: bytes from one element
  /// to the next (count * extent bytes in all); type: their datatype.
  virtual void call(std::int64_t in_address, std::int64_t inout_address, int count,
                    std::int64_t extent, const datatype& type) = 0;
  /// For bindings that catch the language's exception inside call() (C#): marks this call
  /// failed with a message; the collective then throws user_function_error.
  void fail(const std::string& message);

#ifndef SWIG
  /// Called by the trampoline: the failure recorded by fail(), if any, and clears it.
  bool take_failure(std::string& message);
#endif

private:
  bool failed_ = false;
  std::string message_;
};

struct buffer;

class op {
public:
  /// A null op.
  op() = default;
  /// A predefined operation (MPI_SUM, MPI_MAX, ...).
  static op of(op_kind kind);
  /// A user op calling fn (not owned: keep it alive as long as the op). Not commutative
  /// unless said so (MPI may then combine in any order).
  static op create(user_function* fn, bool commutative);

  /// The predefined kind (op_kind::no_op for a user op).
  op_kind kind() const;
  /// True for an op made by create().
  bool is_user() const;
  /// Whether MPI may reorder the operands.
  bool is_commutative() const;
  /// True when this handle is null or closed.
  bool is_null() const noexcept;
  /// Releases a user op for all copies (no MPI call); does nothing to a predefined op.
  void close();
  /// inout[i] = in[i] (op) inout[i] on this process only (MPI_Reduce_local): the same count
  /// and datatype on both sides.
  void reduce_local(const buffer& in, buffer& inout) const;

#ifndef SWIG
  struct state;
  /// The core's op; throws closed_error / logic_error when there is none.
  const oompi::op& core(const char* what) const;
#endif

private:
  explicit op(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_OP_HPP
