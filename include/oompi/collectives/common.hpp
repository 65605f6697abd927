#ifndef OOMPI_COLLECTIVES_COMMON_HPP
#define OOMPI_COLLECTIVES_COMMON_HPP

// What the collectives share: the in_place and resize_to_fit tags, checks of roots, counts and
// buffer sizes made before MPI sees them, and what a nonblocking collective keeps alive.
//
// Conventions of every collective:
// - Buffers are anything oompi::buffer accepts; counts come from the buffers. A receive buffer
//   that is an empty std::vector/std::string is resized to what the collective delivers;
//   otherwise it must have exactly that size (std::invalid_argument before MPI is called).
// - In place: `X(oompi::in_place, buf, ...)` on every rank; buf plays the role MPI gives it on
//   that rank (for rooted collectives: the whole buffer at the root, the rank's own part
//   elsewhere). Not available on intercommunicators (MPI does not define it there).
// - Nonblocking `iX`: buffers passed as lvalues are borrowed (keep them alive and untouched
//   until the request completes); count and displacement vectors oompi computes are kept by
//   the request; value-returning forms return oompi::future<T> owning the result and a copy
//   of the input (moved in when an rvalue): they have value semantics.

#include "../buffer.hpp"
#include "../datatype.hpp"
#include "../detail/op_binding.hpp"
#include "../error.hpp"
#include "../op.hpp"
#include "../request.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

/// Tag: the collective works in place on one buffer (MPI_IN_PLACE).
struct in_place_t {
  explicit constexpr in_place_t() = default;
};
inline constexpr in_place_t in_place{};

/// Tag: bcast resizes a `std::vector` or `std::string` on the receiving ranks to the root's size
/// (one extra broadcast of the size).
struct resize_to_fit_t {
  explicit constexpr resize_to_fit_t() = default;
};
inline constexpr resize_to_fit_t resize_to_fit{};

namespace detail {

// Error paths are kept out of line so that the checks on the hot path inline.
#if defined(__GNUC__)
#define OOMPI_DETAIL_COLD __attribute__((noinline, cold))
#else
#define OOMPI_DETAIL_COLD
#endif

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_blocks(const char* name, const char* what,
                                                        std::size_t count, std::size_t blocks) {
  throw std::invalid_argument(std::string(name) + ": the " + what + "'s " + std::to_string(count) +
                              " elements do not split into " + std::to_string(blocks) +
                              " equal blocks (one per process)");
}
[[noreturn]] OOMPI_DETAIL_COLD inline void throw_alias(const char* name) {
  throw std::invalid_argument(std::string(name) +
                              ": the send and receive buffers are the same memory; MPI forbids "
                              "that, pass oompi::in_place instead");
}
[[noreturn]] OOMPI_DETAIL_COLD inline void throw_types(const char* name) {
  throw std::invalid_argument(std::string(name) +
                              ": the send and receive buffers have different datatypes");
}
[[noreturn]] OOMPI_DETAIL_COLD inline void throw_too_many(const char* name, std::size_t n) {
  throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) +
                              " elements is more than an MPI int count can say (INT_MAX)");
}
[[noreturn]] OOMPI_DETAIL_COLD inline void throw_chunk(const char* name, std::size_t n) {
  throw std::invalid_argument(std::string(name) + ": " + std::to_string(n) +
                              " elements is more than one nonblocking reduction takes (INT_MAX); "
                              "use the blocking form, which splits it");
}

// An intercommunicator class provides remote_size(): roots and sizes then follow MPI's
// intercommunicator rules.
template <class D, class = void>
struct is_intercomm : std::false_type {};
template <class D>
struct is_intercomm<D, std::void_t<decltype(std::declval<const D&>().remote_size())>>
    : std::true_type {};
template <class D>
inline constexpr bool is_intercomm_v = is_intercomm<D>::value;

template <class S>
using not_in_place = std::enable_if_t<!std::is_same_v<std::decay_t<S>, in_place_t>, int>;
template <class B>
using if_rvalue = std::enable_if_t<!std::is_lvalue_reference_v<B>, int>;

/// The element type of a buffer; void when only a run-time datatype describes it.
template <class B, class = void>
struct element_of {
  using type = void;
};
template <class B>
struct element_of<B, std::enable_if_t<has_buffer_traits<B>::value>> {
  using type = std::remove_cv_t<
      std::remove_pointer_t<decltype(buffer_traits<B>::data(std::declval<B&>()))>>;
};
template <class B>
struct element_of<B, std::enable_if_t<!has_buffer_traits<B>::value && has_datatype_v<B>>> {
  using type = B;
};
template <class B>
using element_t = typename element_of<std::remove_cv_t<std::remove_reference_t<B>>>::type;

/// A nonblocking collective borrows its send buffer: it must not be a temporary.
template <class S>
inline constexpr void borrowed_send() {
  static_assert(std::is_lvalue_reference_v<S>,
                "oompi: a nonblocking collective borrows its send buffer until the request "
                "completes, and this one is a temporary that dies first. Pass a variable that "
                "outlives the request, or use the value-returning form (it owns an rvalue input).");
}

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_null_comm(const char* name) {
  throw std::logic_error(std::string(name) + ": null communicator");
}

template <class D>
inline void check_comm(const D& c, const char* name) {
  require_running(name);
  if (c.native() == MPI_COMM_NULL) throw_null_comm(name);
}

/// The number of processes data comes from or goes to (the remote group of an intercomm).
template <class D>
inline int peers(const D& c) {
  if constexpr (is_intercomm_v<D>)
    return c.remote_size();
  else
    return c.size();
}

template <class D>
[[noreturn]] OOMPI_DETAIL_COLD void throw_bad_root(const D& c, int root, const char* name) {
  if constexpr (is_intercomm_v<D>)
    throw std::out_of_range(std::string(name) + ": root " + std::to_string(root) +
                            " is neither MPI_ROOT, MPI_PROC_NULL nor a rank of the remote group "
                            "(size " + std::to_string(c.remote_size()) + ")");
  else
    throw std::out_of_range(std::string(name) + ": root " + std::to_string(root) +
                            " is not a rank of this communicator (size " +
                            std::to_string(c.size()) + ")");
}

template <class D>
inline void check_root(const D& c, int root, const char* name) {
  if constexpr (is_intercomm_v<D>) {
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c.remote_size())) return;
  } else {
    if (root >= 0 && root < c.size()) return;
  }
  throw_bad_root(c, root, name);
}

/// True on the process that receives a rooted collective's result / sends its data.
template <class D>
inline bool is_root(const D& c, int root) noexcept {
  if constexpr (is_intercomm_v<D>)
    return root == MPI_ROOT;
  else
    return root == c.rank();
}

template <class D>
inline constexpr void no_in_place_on_intercomm() {
  static_assert(!is_intercomm_v<D>,
                "oompi: MPI defines no in-place form of collectives on intercommunicators");
}

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_size(const char* name, const char* what,
                                                      std::size_t have, std::size_t need) {
  throw std::invalid_argument(std::string(name) + ": the " + what + " holds " +
                              std::to_string(have) + " elements, " + std::to_string(need) +
                              " are needed");
}

/// Describes a receive buffer of `need` elements: an empty resizable one is resized to it.
template <class R>
inline buffer_desc prepare_recv(R& out, std::size_t need, const char* name) {
  static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
  if constexpr (is_resizable<R>::value) {
    if (need != 0 && buffer_traits<R>::size(out) == 0) buffer_traits<R>::resize(out, need);
  }
  buffer_desc d = describe(out);
  if (d.count != need) throw_size(name, "receive buffer", d.count, need);
  return d;
}

/// Describes a receive buffer of `blocks` equal blocks; returns the block size. With the same
/// datatype as the send side, a block is `per_block` elements; with another datatype (raw
/// buffers) only divisibility can be checked.
template <class R>
inline buffer_desc prepare_blocks(R& out, std::size_t blocks, const buffer_desc& send,
                                  std::size_t& per_block, const char* name) {
  static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
  if constexpr (is_resizable<R>::value) {
    if (blocks * send.count != 0 && buffer_traits<R>::size(out) == 0)
      buffer_traits<R>::resize(out, blocks * send.count);
  }
  buffer_desc d = describe(out);
  if (d.type == send.type || blocks == 0) {
    if (d.count != blocks * send.count) throw_size(name, "receive buffer", d.count, blocks * send.count);
    per_block = send.count;
  } else {
    if (d.count % blocks != 0) throw_blocks(name, "receive buffer", d.count, blocks);
    per_block = d.count / blocks;
  }
  return d;
}

/// The block size of a buffer split into `blocks` equal blocks.
inline std::size_t block_of(const buffer_desc& d, std::size_t blocks, const char* name) {
  if (blocks == 0) return 0;
  if (d.count <= 0xffffffffu) {  // a 32-bit division is several times cheaper than a 64-bit one
    const auto c = static_cast<std::uint32_t>(d.count), b = static_cast<std::uint32_t>(blocks);
    const std::uint32_t q = c / b;
    if (__builtin_expect(q * b == c, 1)) return q;
  } else if (d.count % blocks == 0) {
    return d.count / blocks;
  }
  throw_blocks(name, "buffer", d.count, blocks);
}

inline void check_distinct(const buffer_desc& a, const buffer_desc& b, const char* name) {
  if (a.data != nullptr && a.data == b.data && a.count != 0 && b.count != 0) throw_alias(name);
}

inline void check_same_type(const buffer_desc& a, const buffer_desc& b, const char* name) {
  if (a.type != b.type) throw_types(name);
}

inline int to_int(std::size_t n, const char* name) {
  if (n > static_cast<std::size_t>(INT_MAX)) throw_too_many(name, n);
  return static_cast<int>(n);
}

/// A count for MPI: the count itself, or one element of a large type beyond INT_MAX.
class count_arg {
public:
  count_arg(std::size_t n, MPI_Datatype t) {
    if (__builtin_expect(n <= static_cast<std::size_t>(INT_MAX), 1)) {
      count = static_cast<int>(n);
      type = t;
    } else {
      make_big(n, t);
    }
  }
  int count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;

private:
  OOMPI_DETAIL_COLD void make_big(std::size_t n, MPI_Datatype t) {
    big_.emplace(n, t);
    count = 1;
    type = big_->type();
  }
  std::optional<large_count_type> big_;  // MPI lets an operation in flight outlive it
};

inline std::size_t sum_counts(const std::vector<int>& counts, const char* name) {
  std::size_t total = 0;
  for (int c : counts) {
    if (c < 0) throw std::invalid_argument(std::string(name) + ": negative count");
    total += static_cast<std::size_t>(c);
  }
  return total;
}

/// Displacements of blocks laid end to end.
inline std::vector<int> displacements_of(const std::vector<int>& counts, const char* name) {
  std::vector<int> d(counts.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] < 0) throw std::invalid_argument(std::string(name) + ": negative count");
    d[i] = to_int(at, name);
    at += static_cast<std::size_t>(counts[i]);
  }
  return d;
}

/// Checks one count and displacement per process, every block inside a buffer of `extent`.
inline void check_layout(const std::vector<int>& counts, const std::vector<int>& displs, int n,
                         std::size_t extent, const char* name, const char* which) {
  const auto need = static_cast<std::size_t>(n);
  if (counts.size() != need || displs.size() != need)
    throw std::invalid_argument(std::string(name) + ": " + which + " counts and displacements "
                                "need one entry per process (" + std::to_string(n) + "), got " +
                                std::to_string(counts.size()) + " and " +
                                std::to_string(displs.size()));
  for (std::size_t i = 0; i < need; ++i) {
    if (counts[i] < 0 || displs[i] < 0)
      throw std::invalid_argument(std::string(name) + ": negative " + which +
                                  " count or displacement");
    if (static_cast<std::size_t>(displs[i]) + static_cast<std::size_t>(counts[i]) > extent)
      throw std::invalid_argument(std::string(name) + ": the " + which + " block of process " +
                                  std::to_string(i) + " ends at element " +
                                  std::to_string(displs[i] + static_cast<long long>(counts[i])) +
                                  ", past the buffer's " + std::to_string(extent));
  }
}

/// Resizes an empty std::vector/std::string to hold every block of a layout.
template <class R>
inline void resize_for_layout(R& out, const std::vector<int>& counts, const std::vector<int>& displs) {
  if constexpr (is_resizable<R>::value) {
    if (buffer_traits<R>::size(out) != 0 || displs.size() != counts.size()) return;
    std::size_t end = 0;
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] > 0 && displs[i] >= 0)
        end = std::max(end, static_cast<std::size_t>(displs[i]) + static_cast<std::size_t>(counts[i]));
    if (end != 0) buffer_traits<R>::resize(out, end);
  } else {
    (void)out, (void)counts, (void)displs;
  }
}

inline void check_counts(const std::vector<int>& counts, int n, const char* name,
                         const char* which) {
  if (counts.size() != static_cast<std::size_t>(n))
    throw std::invalid_argument(std::string(name) + ": " + which +
                                " counts need one entry per process (" + std::to_string(n) +
                                "), got " + std::to_string(counts.size()));
}

/// A value-returning collective's result: shaped like `in`.
template <class B>
inline B make_like(const B& in) {
  static_assert(is_resizable<B>::value || has_datatype_v<B>,
                "oompi: a value-returning collective returns a value (T, std::vector<T>, "
                "std::array<T, N>, std::string); for views pass the output buffer explicitly");
  if constexpr (is_resizable<B>::value) {
    B out;
    buffer_traits<B>::resize(out, buffer_traits<B>::size(in));
    return out;
  } else {
    return B{};
  }
}

/// Both buffers of a reduction hold the same element type (checked at compile time when both
/// are typed, at run time by datatype otherwise).
template <class S, class R>
inline constexpr void same_elements() {
  using ES = element_t<S>;
  using ER = element_t<R>;
  static_assert(std::is_void_v<ES> || std::is_void_v<ER> || std::is_same_v<ES, ER>,
                "oompi: the send and receive buffers of a reduction hold different element types");
}

template <class B>
using vector_of_elements = std::vector<element_t<B>>;

template <class B>
inline constexpr void needs_typed() {
  static_assert(!std::is_void_v<element_t<B>>,
                "oompi: this value-returning collective needs a typed buffer (its result is a "
                "std::vector of the elements); for oompi::buffer(p, n, datatype) pass the output "
                "buffer explicitly");
}

/// Pointer to element `offset` of a buffer (for reductions split into INT_MAX chunks).
inline void* element_at(const buffer_desc& d, std::size_t offset) {
  if (offset == 0 || d.data == nullptr) return d.data;
  MPI_Aint lb = 0, extent = 0;
  OOMPI_CHECK(MPI_Type_get_extent, (d.type, &lb, &extent));
  return static_cast<char*>(d.data) + static_cast<MPI_Aint>(offset) * extent;
}

/// Largest count one reduction call takes; longer buffers are reduced in chunks (blocking
/// forms) or refused (nonblocking forms). A variable so tests can exercise the chunking.
inline std::size_t reduction_chunk = static_cast<std::size_t>(INT_MAX);

/// Calls f(offset, count) over `total` elements in chunks; returns the first MPI error code.
template <class F>
inline int for_each_chunk(std::size_t total, F&& f) {
  const std::size_t chunk = reduction_chunk;
  if (__builtin_expect(total <= chunk, 1)) return f(std::size_t{0}, static_cast<int>(total));
  for (std::size_t at = 0; at < total; at += chunk) {
    const std::size_t n = total - at < chunk ? total - at : chunk;
    if (const int rc = f(at, static_cast<int>(n)); rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

inline int single_chunk(std::size_t n, const char* name) {
  if (n > reduction_chunk) throw_chunk(name, n);
  return static_cast<int>(n);
}

/// After a blocking collective: an MPI error, else what a user op threw.
template <class Binding>
inline void finish(int rc, const char* routine, Binding& op) {
  if (rc != MPI_SUCCESS) throw_mpi_error(routine, rc);
  op.rethrow_if_failed();
}
inline void finish(int rc, const char* routine) {
  if (rc != MPI_SUCCESS) throw_mpi_error(routine, rc);
}

struct no_binding {
  void rethrow_if_failed() const noexcept {}
};

/// What a nonblocking collective keeps until it completes: the op binding, values it owns
/// (an input given by rvalue), and count/displacement vectors it computed.
template <class Binding, class... Owned>
struct collective_keep final : keep_alive {
  template <class B, class... A>
  explicit collective_keep(B&& b, A&&... a)
      : op(std::forward<B>(b)), owned(std::forward<A>(a)...) {}
  void completed() override { op.rethrow_if_failed(); }

  Binding op;
  std::tuple<Owned...> owned;
  std::vector<int> ints[4];
};

template <class... Owned, class Binding>
inline auto make_keep(Binding&& b) {
  return std::make_unique<collective_keep<std::decay_t<Binding>, Owned...>>(std::forward<Binding>(b));
}

/// The keep of a value-returning nonblocking collective: it owns a copy of the input (moved in
/// when an rvalue), so the caller may change or drop its variable at once.
template <class B, class Binding>
inline auto keep_input(Binding&& b, B&& in) {
  return std::make_unique<collective_keep<std::decay_t<Binding>, std::decay_t<B>>>(
      std::forward<Binding>(b), std::forward<B>(in));
}
/// The input kept by keep_input.
template <class B, class Keep>
inline const std::decay_t<B>& input_in(Keep& k, const std::decay_t<B>&) {
  return std::get<0>(k.owned);
}

/// Completes the start of a nonblocking collective whose buffers are all borrowed.
inline request started(int rc, const MPI_Request& r, const char* routine) {  // r: read after rc
  if (rc != MPI_SUCCESS) throw_mpi_error(routine, rc);
  return request(r);
}

/// Starts a nonblocking collective: `start(keep, &request)` returns the MPI error code.
template <class Keep, class F>
inline request start_nonblocking(std::unique_ptr<Keep> keep, const char* routine, F&& start) {
  MPI_Request r = MPI_REQUEST_NULL;
  if (const int rc = start(*keep, &r); rc != MPI_SUCCESS) throw_mpi_error(routine, rc);
  return request(r, std::move(keep));
}

/// A future owning `result` (filled by the operation) and what `keep` holds.
template <class T, class Keep, class F>
inline future<T> start_future(T result, std::unique_ptr<Keep> keep, const char* routine,
                              F&& start) {
  auto value = std::make_unique<kept<T>>(std::move(result));
  request r = start_nonblocking(std::move(keep), routine,
                                [&](Keep& k, MPI_Request* req) { return start(value->value, k, req); });
  return future<T>(std::move(value), std::move(r));
}

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_COLLECTIVES_COMMON_HPP
