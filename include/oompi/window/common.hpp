#ifndef OOMPI_WINDOW_COMMON_HPP
#define OOMPI_WINDOW_COMMON_HPP

// One-sided communication: what windows and their calls share (lock kinds, flavors, assertions,
// target_spec, shared_region, the bounds-check arithmetic).
// Part of <oompi/window.hpp> (include that one).

#include "../buffer.hpp"
#include "../collectives/common.hpp"
#include "../communicator.hpp"
#include "../datatype.hpp"
#include "../error.hpp"
#include "../group.hpp"
#include "../info.hpp"
#include "../op.hpp"
#include "../request.hpp"

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

/// Lock kinds for window::lock.
enum class lock_type : int { exclusive = MPI_LOCK_EXCLUSIVE, shared = MPI_LOCK_SHARED };

/// How a window's memory was made (MPI_WIN_CREATE_FLAVOR).
enum class window_flavor : int {
  create = MPI_WIN_FLAVOR_CREATE,
  allocate = MPI_WIN_FLAVOR_ALLOCATE,
  shared = MPI_WIN_FLAVOR_SHARED,
  dynamic = MPI_WIN_FLAVOR_DYNAMIC,
};

/// Memory model of a window (MPI_WIN_MODEL).
enum class window_model : int { separate = MPI_WIN_SEPARATE, unified = MPI_WIN_UNIFIED };

/// Assertions for the synchronisation calls (MPI_MODE_*), combined with |. 0: none.
namespace rma_assert {
inline constexpr int none = 0;
inline constexpr int nocheck = MPI_MODE_NOCHECK;
inline constexpr int nostore = MPI_MODE_NOSTORE;
inline constexpr int noput = MPI_MODE_NOPUT;
inline constexpr int noprecede = MPI_MODE_NOPRECEDE;
inline constexpr int nosucceed = MPI_MODE_NOSUCCEED;
}  // namespace rma_assert

/// Where an operation lands in the target's window: `count` elements of `type` from
/// displacement `disp` (in the target's disp_units). Used when the target layout differs from
/// the origin's (e.g. a strided column); otherwise give only the displacement.
struct target_spec {
  target_spec(MPI_Aint d, std::size_t c, MPI_Datatype t) noexcept : disp(d), count(c), type(t) {}
  target_spec(MPI_Aint d, std::size_t c, const datatype& t) noexcept
      : disp(d), count(c), type(t.native()) {}
  MPI_Aint disp;
  std::size_t count;
  MPI_Datatype type;
};

/// One process's part of a shared-memory window (window::shared_query).
struct shared_region {
  void* base;
  MPI_Aint size;  ///< bytes
  int disp_unit;
};

namespace detail {

// Wide arithmetic for the bounds checks: displacement x unit + count x extent must not wrap.
__extension__ typedef __int128 rma_wide;

// The bytes [lo, hi) that `count` elements of `type` cover, relative to their address. For
// arithmetic and complex element types this is known without asking MPI (the hot path).
template <class T>
inline std::pair<rma_wide, rma_wide> type_span(std::size_t count, MPI_Datatype type) {
  if (count == 0) return {0, 0};
  if constexpr (std::is_arithmetic_v<T> || is_complex<T>::value) {
    (void)type;
    return {0, static_cast<rma_wide>(count) * static_cast<rma_wide>(sizeof(T))};
  } else {
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    OOMPI_CHECK(MPI_Type_get_extent, (type, &lb, &extent));
    OOMPI_CHECK(MPI_Type_get_true_extent, (type, &tlb, &textent));
    const rma_wide rest = static_cast<rma_wide>(count - 1) * extent;
    if (extent >= 0) return {tlb, rest + tlb + textent};
    return {rest + tlb, static_cast<rma_wide>(tlb) + textent};
  }
}

inline MPI_Count type_bytes(MPI_Datatype t) {
  MPI_Count n = 0;
  OOMPI_CHECK(MPI_Type_size_x, (t, &n));
  return n;
}

// Origin and target must carry the same number of bytes (same type signature, as MPI asks).
inline void check_same_bytes(const char* routine, const char* what, std::size_t n1,
                             MPI_Datatype t1, std::size_t n2, MPI_Datatype t2) {
  const rma_wide a = static_cast<rma_wide>(n1) * type_bytes(t1);
  const rma_wide b = static_cast<rma_wide>(n2) * type_bytes(t2);
  if (a != b)
    throw std::invalid_argument(std::string(routine) + ": the " + what + " holds " +
                                std::to_string(static_cast<long long>(a)) +
                                " bytes but the target " + std::to_string(static_cast<long long>(b)) +
                                " (their type signatures must match)");
}

inline int target_count(const char* routine, std::size_t n) {
  if (n > static_cast<std::size_t>(INT_MAX))
    throw std::length_error(std::string(routine) + ": a target count of " + std::to_string(n) +
                            " is more than INT_MAX; describe the target with a larger datatype");
  return static_cast<int>(n);
}

inline bool is_predefined_op(MPI_Op o) noexcept {
  const MPI_Op predefined[] = {MPI_SUM,  MPI_PROD, MPI_MAX,    MPI_MIN,    MPI_LAND,
                               MPI_LOR,  MPI_LXOR, MPI_BAND,   MPI_BOR,    MPI_BXOR,
                               MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  for (MPI_Op p : predefined)
    if (p == o) return true;
  return false;
}

// Open MPI's osc/ucx (4.1) runs a fetch_and_op with MPI_SUM on any 4- or 8-byte type as a UCX
// integer atomic add: on floating types it adds the bit patterns (-1.0 + 2.0 gives -inf; raw C
// shows it). Such a call goes through MPI_Get_accumulate, which is correct.
inline bool sum_is_integer_add_only(MPI_Datatype t, MPI_Op o) noexcept {
#if defined(OMPI_MAJOR_VERSION)
  if (o != MPI_SUM) return false;
  const MPI_Datatype floating[] = {MPI_FLOAT, MPI_DOUBLE, MPI_C_FLOAT_COMPLEX,
                                   MPI_CXX_FLOAT_COMPLEX, MPI_REAL, MPI_DOUBLE_PRECISION,
                                   MPI_REAL4, MPI_REAL8, MPI_COMPLEX};
  for (MPI_Datatype f : floating)
    if (f == t && f != MPI_DATATYPE_NULL) return true;
#else
  (void)t;
  (void)o;
#endif
  return false;
}

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_user_op(const char* routine) {
  throw std::invalid_argument(std::string(routine) +
                              ": MPI allows only predefined ops (oompi::ops::sum, max, replace, "
                              "no_op, ...) in one-sided accumulate operations, not user ops");
}

// The MPI_Op of an accumulate on elements of T (void: untyped). Predefined ops and the std
// functors that are MPI builtins pass; a callable fails to compile; a user oompi::op, or an
// MPI_Op that is not predefined, throws std::invalid_argument.
template <class T, class O>
inline MPI_Op rma_op(const O& o, const char* routine) {
  using D = std::remove_cv_t<std::remove_reference_t<O>>;
  if constexpr (is_predefined_op_v<D>) {
    static_assert(D::types == 0 || std::is_void_v<T> || category_of<T>() == 0 ||
                      predefined_accepts_v<D, T>,
                  "oompi: MPI does not define this predefined op for the buffer's element type "
                  "(sum/prod: integers, floating, complex; max/min: integers, floating; "
                  "land/lor/lxor: integers, bool; band/bor/bxor: integers, std::byte; "
                  "maxloc/minloc: value_index<T>; replace/no_op: any)");
    return D::native();
  } else if constexpr (std_functor_op<D>::value) {
    return std_functor_op<D>::op::native();
  } else if constexpr (std::is_same_v<D, MPI_Op>) {
    if (!is_predefined_op(o)) throw_user_op(routine);
    return o;
  } else if constexpr (std::is_same_v<D, op>) {
    if (o.is_user() || o.owned() || !is_predefined_op(o.native())) throw_user_op(routine);
    return o.native();
  } else {
    static_assert(always_false_v<O>,
                  "oompi: one-sided accumulate takes predefined ops only (MPI's rule): "
                  "oompi::ops::sum, prod, max, min, land, lor, lxor, band, bor, bxor, maxloc, "
                  "minloc, replace, no_op");
    return MPI_OP_NULL;
  }
}

// MPI reads an origin buffer until the operation completes (the epoch ends, or a flush), long
// after the call returns: a temporary would be gone by then.
template <class B>
inline constexpr void borrowed_origin() {
  static_assert(std::is_lvalue_reference_v<B> || is_view_v<B>,
                "oompi: a one-sided operation reads its origin buffer until the epoch ends (fence, "
                "complete, unlock, flush), and this one is a temporary that dies first. Pass a "
                "variable that outlives the epoch, or use rput/raccumulate(std::move(v)), whose "
                "request keeps it.");
}

}  // namespace detail

}  // namespace oompi

#endif  // OOMPI_WINDOW_COMMON_HPP
