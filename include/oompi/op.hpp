#ifndef OOMPI_OP_HPP
#define OOMPI_OP_HPP

// Reduction operations.
//
// - Predefined ops: oompi::ops::sum, prod, max, min, land, lor, lxor, band, bor, bxor, maxloc,
//   minloc (and replace, no_op for one-sided accumulate). Each is also a function object
//   (ops::max(a, b)), so on a type MPI's builtin does not cover but that has the operator
//   (a struct with operator+), the same tag becomes a user op.
// - std::plus<>, std::multiplies<>, std::logical_and<>, std::logical_or<>, std::bit_and<>,
//   std::bit_or<>, std::bit_xor<> are MPI's SUM, PROD, LAND, LOR, BAND, BOR, BXOR at compile
//   time whenever MPI defines that op for the element type.
// - Any other callable is a user op: T f(const T& in, const T& inout), void f(const T& in,
//   T& inout), or void f(const T* in, T* inout, int len). Captureless lambdas and empty function
//   objects cost nothing to make; callables with state lease a trampoline slot for their life
//   (see detail/user_op.hpp). A user op is taken as NOT commutative unless marked:
//   oompi::commutative(f), or make_op(f, true).
// - oompi::op is the RAII handle: predefined ops are borrowed; user ops release their slot on
//   destruction; op::adopt takes an MPI_Op made elsewhere and frees it. It can also wrap a
//   run-time callable void(const void* in, void* inout, int len, MPI_Datatype) (the bindings).
//
// A user op that throws: the exception is caught before it reaches MPI, the collective
// completes, and the collective (or wait()/get() of a nonblocking one) rethrows it on the
// ranks where the op ran and threw. Other ranks complete normally and are not told; their
// result is built from whatever the failing call left in its output. docs/collectives.md.

#include "datatype.hpp"
#include "detail/user_op.hpp"
#include "error.hpp"

#include <mpi.h>

#include <complex>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace oompi {

namespace detail {

// Which predefined ops MPI defines for a type (MPI-3.1 section 5.9.2).
enum op_category : unsigned {
  cat_integer = 1,
  cat_floating = 2,
  cat_complex = 4,
  cat_logical = 8,
  cat_byte = 16,
  cat_pair = 32,
};

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
struct is_value_index : std::false_type {};
template <class T>
struct is_value_index<value_index<T>> : std::bool_constant<has_datatype_v<value_index<T>>> {};

template <class T>
constexpr unsigned category_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return cat_logical;
  } else if constexpr (std::is_same_v<U, std::byte>) {
    return cat_byte;
  } else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, wchar_t>) {
    return 0;  // MPI_CHAR, MPI_WCHAR are characters, not integers, for reductions
  } else if constexpr (std::is_enum_v<U>) {
    return category_of<std::underlying_type_t<U>>();
  } else if constexpr (std::is_integral_v<U>) {
    return cat_integer;
  } else if constexpr (std::is_floating_point_v<U>) {
    return cat_floating;
  } else if constexpr (is_complex<U>::value) {
    return cat_complex;
  } else if constexpr (is_value_index<U>::value) {
    return cat_pair;
  } else {
    return 0;
  }
}

struct predefined_op_tag {};
}  // namespace detail

namespace ops {

// A predefined op: native() is the MPI handle, `types` the categories MPI defines it for,
// `commutative` as MPI says, and operator() the same operation in C++.
#define OOMPI_DETAIL_OP(name, handle, mask, ...)                                               \
  struct name##_t : ::oompi::detail::predefined_op_tag {                                       \
    static MPI_Op native() noexcept { return handle; }                                         \
    static constexpr unsigned types = mask;                                                    \
    __VA_ARGS__                                                                                \
  };                                                                                           \
  inline constexpr name##_t name{};

#define OOMPI_DETAIL_BINARY(expr)                                                              \
  template <class A>                                                                           \
  constexpr auto operator()(const A& a, const A& b) const -> std::decay_t<decltype(expr)> {    \
    return expr;                                                                               \
  }

using detail::cat_byte;
using detail::cat_complex;
using detail::cat_floating;
using detail::cat_integer;
using detail::cat_logical;
using detail::cat_pair;

OOMPI_DETAIL_OP(sum, MPI_SUM, cat_integer | cat_floating | cat_complex, OOMPI_DETAIL_BINARY(a + b))
OOMPI_DETAIL_OP(prod, MPI_PROD, cat_integer | cat_floating | cat_complex, OOMPI_DETAIL_BINARY(a * b))
OOMPI_DETAIL_OP(max, MPI_MAX, cat_integer | cat_floating, OOMPI_DETAIL_BINARY(a < b ? b : a))
OOMPI_DETAIL_OP(min, MPI_MIN, cat_integer | cat_floating, OOMPI_DETAIL_BINARY(b < a ? b : a))
OOMPI_DETAIL_OP(land, MPI_LAND, cat_integer | cat_logical, OOMPI_DETAIL_BINARY(static_cast<A>(bool(a) && bool(b))))
OOMPI_DETAIL_OP(lor, MPI_LOR, cat_integer | cat_logical, OOMPI_DETAIL_BINARY(static_cast<A>(bool(a) || bool(b))))
OOMPI_DETAIL_OP(lxor, MPI_LXOR, cat_integer | cat_logical, OOMPI_DETAIL_BINARY(static_cast<A>(bool(a) != bool(b))))
OOMPI_DETAIL_OP(band, MPI_BAND, cat_integer | cat_byte, OOMPI_DETAIL_BINARY(static_cast<A>(a & b)))
OOMPI_DETAIL_OP(bor, MPI_BOR, cat_integer | cat_byte, OOMPI_DETAIL_BINARY(static_cast<A>(a | b)))
OOMPI_DETAIL_OP(bxor, MPI_BXOR, cat_integer | cat_byte, OOMPI_DETAIL_BINARY(static_cast<A>(a ^ b)))
// The larger (smaller) value; on a tie, the smaller index (MPI's rule).
OOMPI_DETAIL_OP(maxloc, MPI_MAXLOC, cat_pair,
                OOMPI_DETAIL_BINARY((b.value < a.value || (!(a.value < b.value) && a.index < b.index)) ? a : b))
OOMPI_DETAIL_OP(minloc, MPI_MINLOC, cat_pair,
                OOMPI_DETAIL_BINARY((a.value < b.value || (!(b.value < a.value) && a.index < b.index)) ? a : b))
// Only for one-sided accumulate operations, not for collectives.
OOMPI_DETAIL_OP(replace, MPI_REPLACE, 0, )
OOMPI_DETAIL_OP(no_op, MPI_NO_OP, 0, )

#undef OOMPI_DETAIL_BINARY
#undef OOMPI_DETAIL_OP

}  // namespace ops

namespace detail {

template <class O>
inline constexpr bool is_predefined_op_v =
    std::is_base_of_v<predefined_op_tag, std::remove_cv_t<std::remove_reference_t<O>>>;

/// True when MPI defines the predefined op Tag for T.
template <class Tag, class T>
inline constexpr bool predefined_accepts_v = (Tag::types & category_of<T>()) != 0;

// The standard function objects that are MPI builtins.
template <class F>
struct std_functor_op {
  static constexpr bool value = false;
};
#define OOMPI_DETAIL_STD_OP(functor, tag)                                                      \
  template <class U>                                                                           \
  struct std_functor_op<functor<U>> {                                                          \
    static constexpr bool value = true;                                                        \
    using op = tag;                                                                            \
    using operand = U; /* void for the transparent functor */                                  \
  };
OOMPI_DETAIL_STD_OP(std::plus, ops::sum_t)
OOMPI_DETAIL_STD_OP(std::multiplies, ops::prod_t)
OOMPI_DETAIL_STD_OP(std::logical_and, ops::land_t)
OOMPI_DETAIL_STD_OP(std::logical_or, ops::lor_t)
OOMPI_DETAIL_STD_OP(std::bit_and, ops::band_t)
OOMPI_DETAIL_STD_OP(std::bit_or, ops::bor_t)
OOMPI_DETAIL_STD_OP(std::bit_xor, ops::bxor_t)
#undef OOMPI_DETAIL_STD_OP

/// The MPI builtin a standard function object stands for on T, if MPI defines it there.
template <class F, class T, class = void>
struct std_builtin : std::false_type {};
template <class F, class T>
struct std_builtin<F, T, std::enable_if_t<std_functor_op<F>::value>>
    : std::bool_constant<(std::is_void_v<typename std_functor_op<F>::operand> ||
                          std::is_same_v<typename std_functor_op<F>::operand, T>) &&
                         predefined_accepts_v<typename std_functor_op<F>::op, T>> {};

// The element type a non-generic callable works on (its first parameter, or what it points to).
template <class F, class = void>
struct callable_operand {
  using type = void;
};
template <class R, class A, class... Rest>
struct callable_operand<R (*)(A, Rest...)> {
  using type = std::remove_cv_t<std::remove_pointer_t<std::remove_cv_t<std::remove_reference_t<A>>>>;
};
template <class R, class A, class... Rest>
struct callable_operand<R(A, Rest...)> : callable_operand<R (*)(A, Rest...)> {};
template <class C, class R, class A, class... Rest>
struct callable_operand<R (C::*)(A, Rest...)> : callable_operand<R (*)(A, Rest...)> {};
template <class C, class R, class A, class... Rest>
struct callable_operand<R (C::*)(A, Rest...) const> : callable_operand<R (*)(A, Rest...)> {};
template <class C, class R, class A, class... Rest>
struct callable_operand<R (C::*)(A, Rest...) noexcept> : callable_operand<R (*)(A, Rest...)> {};
template <class C, class R, class A, class... Rest>
struct callable_operand<R (C::*)(A, Rest...) const noexcept> : callable_operand<R (*)(A, Rest...)> {};
template <class R, class A, class... Rest>
struct callable_operand<R (*)(A, Rest...) noexcept> : callable_operand<R (*)(A, Rest...)> {};
template <class F>
struct callable_operand<F, std::void_t<decltype(&F::operator())>>
    : callable_operand<decltype(&F::operator())> {};

}  // namespace detail

/// Marks a user op as commutative (MPI may then combine contributions in any order).
template <class F>
struct commutative_op {
  static constexpr bool is_commutative = true;
  F f;
};
/// Marks a user op as not commutative (the default for a bare callable).
template <class F>
struct non_commutative_op {
  static constexpr bool is_commutative = false;
  F f;
};
namespace detail {
template <class O>
struct is_commutative_marker : std::false_type {};
template <class F>
struct is_commutative_marker<commutative_op<F>> : std::true_type {};
template <class F>
struct is_commutative_marker<non_commutative_op<F>> : std::true_type {};
}  // namespace detail
template <class F>
commutative_op<std::decay_t<F>> commutative(F&& f) {
  return {std::forward<F>(f)};
}
template <class F>
non_commutative_op<std::decay_t<F>> non_commutative(F&& f) {
  return {std::forward<F>(f)};
}

class op;
template <class T, class F>
op make_op(F&& f, bool commutative = false);

/// An MPI reduction op (MPI_Op). Move-only.
class op {
public:
  /// A run-time user function: combine `len` elements of `type` at `in` into `inout`
  /// (inout[i] = in[i] (x) inout[i]). What the language bindings' user functions turn into.
  using function = std::function<void(const void* in, void* inout, int len, MPI_Datatype type)>;

  /// MPI_OP_NULL.
  op() noexcept = default;
  /// Borrows a handle (not freed by this object): a predefined op or one owned elsewhere.
  explicit op(MPI_Op handle) noexcept : handle_(handle) {}
  /// A predefined op: `oompi::op o = oompi::ops::sum;`
  template <class Tag, std::enable_if_t<detail::is_predefined_op_v<Tag>, int> = 0>
  op(Tag) noexcept : handle_(Tag::native()) {}
  /// A user op calling a run-time function on any datatype. Leases a trampoline slot.
  template <class Fn, std::enable_if_t<std::is_convertible_v<Fn, function> &&
                                           !detail::is_predefined_op_v<Fn>,
                                       int> = 0>
  op(Fn&& fn, bool commutative) {
    function f(std::forward<Fn>(fn));
    if (!f) throw std::invalid_argument("oompi::op: empty user function");
    auto state = std::make_unique<detail::runtime_slot_op<function>>(std::move(f), commutative);
    handle_ = state->native();
    errors_ = &state->errors();
    state_ = std::move(state);
  }
  /// Takes ownership of a handle made with MPI_Op_create: freed by the destructor.
  static op adopt(MPI_Op handle) noexcept {
    op o(handle);
    o.owned_ = true;
    return o;
  }

  op(op&& o) noexcept
      : handle_(std::exchange(o.handle_, MPI_OP_NULL)), owned_(std::exchange(o.owned_, false)),
        element_(std::exchange(o.element_, MPI_DATATYPE_NULL)),
        errors_(std::exchange(o.errors_, nullptr)), state_(std::move(o.state_)) {}
  op& operator=(op&& o) noexcept {
    if (this != &o) {
      reset();
      handle_ = std::exchange(o.handle_, MPI_OP_NULL);
      owned_ = std::exchange(o.owned_, false);
      element_ = std::exchange(o.element_, MPI_DATATYPE_NULL);
      errors_ = std::exchange(o.errors_, nullptr);
      state_ = std::move(o.state_);
    }
    return *this;
  }
  op(const op&) = delete;
  op& operator=(const op&) = delete;
  ~op() { reset(); }

  MPI_Op native() const noexcept { return handle_; }
  bool is_null() const noexcept { return handle_ == MPI_OP_NULL; }
  /// True for ops oompi made from a callable (they catch and rethrow exceptions).
  bool is_user() const noexcept { return errors_ != nullptr; }
  /// True when this object frees its MPI handle (op::adopt).
  bool owned() const noexcept { return owned_; }
  /// Whether MPI treats the op as commutative (MPI_Op_commutative).
  bool commutative() const {
    detail::require_running("MPI_Op_commutative");
    if (handle_ == MPI_OP_NULL) throw std::logic_error("oompi::op::commutative: null op");
    int c = 0;
    OOMPI_CHECK(MPI_Op_commutative, (handle_, &c));
    return c != 0;
  }
  /// The datatype a typed user op (make_op<T>) works on; MPI_DATATYPE_NULL for any.
  MPI_Datatype element_type() const noexcept { return element_; }

  /// Rethrows (once) an exception the user function threw while MPI ran it. The collectives
  /// call this themselves; it is for code that passes native() to MPI directly.
  void rethrow_if_failed() const {
    if (errors_ != nullptr) errors_->rethrow_if_failed();
  }

private:
  template <class T, class F>
  friend op make_op(F&& f, bool commutative);

  void reset() noexcept {
    if (owned_ && handle_ != MPI_OP_NULL && detail::mpi_usable()) MPI_Op_free(&handle_);
    state_.reset();  // releases the slot
    handle_ = MPI_OP_NULL;
    owned_ = false;
    errors_ = nullptr;
    element_ = MPI_DATATYPE_NULL;
  }

  MPI_Op handle_ = MPI_OP_NULL;
  bool owned_ = false;
  MPI_Datatype element_ = MPI_DATATYPE_NULL;
  detail::error_record* errors_ = nullptr;
  std::unique_ptr<detail::slot_op_state> state_;
};

/// A user op on elements of T from a callable (see the top of this header for the shapes).
/// Stateless callables need no slot; others copy (or move) the callable into the op.
template <class T, class F>
op make_op(F&& f, bool commutative) {
  using C = std::decay_t<F>;
  static_assert(has_datatype_v<T>,
                "oompi::make_op<T>: T has no MPI datatype (see datatype_of; OOMPI_STRUCT for "
                "structs)");
  static_assert(detail::is_user_op_v<C, T>,
                "oompi::make_op<T>: the callable must be T f(const T& in, const T& inout), "
                "void f(const T& in, T& inout), or void f(const T* in, T* inout, int len)");
  detail::require_running("oompi::make_op");
  op o;
  o.element_ = datatype_of<T>();
  if constexpr (detail::is_stateless_v<C>) {
    if (commutative) {
      o.handle_ = detail::stateless_op<T, C, true>::handle(f);
      o.errors_ = &detail::stateless_op<T, C, true>::errors;
    } else {
      o.handle_ = detail::stateless_op<T, C, false>::handle(f);
      o.errors_ = &detail::stateless_op<T, C, false>::errors;
    }
  } else {
    auto state = std::make_unique<detail::typed_slot_op<T, C>>(std::forward<F>(f), commutative);
    o.handle_ = state->native();
    o.errors_ = &state->errors();
    o.state_ = std::move(state);
  }
  return o;
}

/// make_op with T deduced from a non-generic callable's first parameter.
template <class F>
op make_op(F&& f, bool commutative = false) {
  using T = typename detail::callable_operand<std::decay_t<F>>::type;
  static_assert(!std::is_void_v<T>,
                "oompi::make_op: cannot deduce the element type of a generic or overloaded "
                "callable; write oompi::make_op<T>(f)");
  return make_op<T>(std::forward<F>(f), commutative);
}

}  // namespace oompi

#endif  // OOMPI_OP_HPP
