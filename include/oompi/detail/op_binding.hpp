#ifndef OOMPI_DETAIL_OP_BINDING_HPP
#define OOMPI_DETAIL_OP_BINDING_HPP

// How a collective turns its op argument into an MPI_Op, for elements of type T (void for an
// untyped buffer). The result ("binding") has native() and rethrow_if_failed():
//   predefined op valid on T, mapped std functor, MPI_Op  -> the MPI handle (nothing else)
//   oompi::op lvalue                                      -> borrowed (must outlive the call)
//   oompi::op rvalue                                      -> owned by the binding
//   stateless callable                                    -> its per-type MPI_Op, no slot
//   callable with state, blocking call                    -> a thread-local frame, no copy
//   callable with state, nonblocking call (Owned)         -> an oompi::op owning a copy
// Predefined ops are checked against T at compile time; the others at run time against the
// buffer's datatype (an op made with make_op<double> cannot reduce ints).

#include "../datatype.hpp"
#include "../op.hpp"
#include "user_op.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace oompi::detail {

struct builtin_binding {
  MPI_Op handle;
  MPI_Op native() const noexcept { return handle; }
  void rethrow_if_failed() const noexcept {}
};

struct op_ref_binding {
  const op* o;
  MPI_Op native() const noexcept { return o->native(); }
  void rethrow_if_failed() const { o->rethrow_if_failed(); }
};

struct op_owned_binding {
  op o;
  MPI_Op native() const noexcept { return o.native(); }
  void rethrow_if_failed() const { o.rethrow_if_failed(); }
};

/// A stateless callable: its per-type MPI_Op and error record.
struct stateless_binding {
  MPI_Op handle;
  error_record* errors;
  MPI_Op native() const noexcept { return handle; }
  void rethrow_if_failed() const { errors->rethrow_if_failed(); }
};

/// The temporary op of a blocking collective with a callable with state: the callable is used
/// where it is, through a thread-local frame. Never moves.
template <class T, class F, bool Commutative>
using scoped_binding = typename framed_op<T, F, Commutative>::frame;

inline void check_op_type(const op& o, MPI_Datatype buffer_type) {
  if (o.is_null()) throw std::invalid_argument("oompi: the op is null (MPI_OP_NULL)");
  if (o.element_type() != MPI_DATATYPE_NULL && buffer_type != MPI_DATATYPE_NULL &&
      o.element_type() != buffer_type)
    throw std::invalid_argument(
        "oompi: this user op was made for another element type than the buffer's (make_op<T> "
        "with the buffer's element type, or a run-time op::function, which takes any type)");
}

template <class T>
inline constexpr bool typed_v = !std::is_void_v<T>;

template <class T, bool Owned, bool Commutative, class F>
auto bind_callable(F&& f) {
  using C = std::remove_cv_t<std::remove_reference_t<F>>;
  static_assert(typed_v<T>,
                "oompi: a user op on an untyped buffer (oompi::buffer(p, n, datatype)) needs an "
                "oompi::op: make_op<T>(f) or a run-time op::function");
  if constexpr (typed_v<T>) {
    static_assert(is_user_op_v<C, T>,
                  "oompi: this op cannot reduce the buffer's elements. A user op on T must be "
                  "T f(const T& in, const T& inout), void f(const T& in, T& inout), or "
                  "void f(const T* in, T* inout, int len)");
    if constexpr (is_stateless_v<C>) {
      using s = stateless_op<T, C, Commutative>;
      return stateless_binding{s::handle(f), &s::errors};
    } else if constexpr (Owned) {
      return op_owned_binding{make_op<T>(std::forward<F>(f), Commutative)};
    } else {
      return scoped_binding<T, std::remove_reference_t<F>, Commutative>(f);
    }
  }
}

/// Binds `o` for elements of T on a buffer of MPI datatype `buffer_type`.
/// Owned: the binding must own everything it uses (nonblocking collectives).
template <class T, bool Owned, class O>
auto bind_op(O&& o, MPI_Datatype buffer_type) {
  using D = std::remove_cv_t<std::remove_reference_t<O>>;
  if constexpr (std::is_same_v<D, op>) {
    check_op_type(o, buffer_type);
    if constexpr (std::is_lvalue_reference_v<O>)
      return op_ref_binding{&o};
    else
      return op_owned_binding{std::move(o)};
  } else if constexpr (std::is_same_v<D, MPI_Op>) {
    return builtin_binding{o};
  } else if constexpr (is_predefined_op_v<D>) {
    static_assert(D::types != 0,
                  "oompi: ops::replace and ops::no_op are for one-sided accumulate only");
    if constexpr (!typed_v<T> || predefined_accepts_v<D, T>) {
      return builtin_binding{D::native()};
    } else {
      static_assert(!typed_v<T> || is_user_op_v<D, T>,
                    "oompi: MPI does not define this predefined op for the buffer's element "
                    "type, and the type lacks the C++ operator to build a user op from it (e.g. "
                    "operator+ for ops::sum). MPI's categories: sum/prod: integers, floating, "
                    "complex; max/min: integers, floating; land/lor/lxor: integers, bool; "
                    "band/bor/bxor: integers, std::byte; maxloc/minloc: value_index<T>. "
                    "(char is not an integer for MPI: use signed char or std::int8_t.)");
      return bind_callable<T, Owned, true>(D{});  // a predefined op is commutative
    }
  } else if constexpr (std_functor_op<D>::value) {
    if constexpr (!typed_v<T>)
      return builtin_binding{std_functor_op<D>::op::native()};
    else if constexpr (std_builtin<D, T>::value)
      return builtin_binding{std_functor_op<D>::op::native()};
    else
      return bind_callable<T, Owned, false>(std::forward<O>(o));
  } else if constexpr (is_commutative_marker<D>::value) {
    return bind_callable<T, Owned, D::is_commutative>(std::forward<O>(o).f);
  } else {
    return bind_callable<T, Owned, false>(std::forward<O>(o));
  }
}

}  // namespace oompi::detail

#endif  // OOMPI_DETAIL_OP_BINDING_HPP
