#ifndef OOMPI_BUFFER_HPP
#define OOMPI_BUFFER_HPP

// Typed buffers: anything contiguous becomes (address, count, datatype) without copying:
// scalars with a datatype, std::vector, std::array, C arrays, std::basic_string(_view),
// std::span (C++20), and explicit views from a pointer and a count (oompi::buffer(p, n)),
// from part of a container (oompi::buffer(v, offset, count), bounds-checked), or with a
// derived datatype (oompi::buffer(p, n, type)). buffer_traits<B> is the customisation point
// for other containers. A count above INT_MAX is sent as one element of a derived datatype.

#include "datatype.hpp"
#include "error.hpp"

#include <mpi.h>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>
#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

namespace oompi {

/// A view of `count` elements of T at `data` (like std::span, for C++17 callers).
template <class T>
class typed_buffer {
public:
  typed_buffer(T* data, std::size_t count) noexcept : data_(data), count_(count) {}
  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }

private:
  T* data_;
  std::size_t count_;
};

/// `count` elements of an arbitrary (usually derived) datatype at `data`.
class raw_buffer {
public:
  raw_buffer(void* data, std::size_t count, MPI_Datatype type) noexcept
      : data_(data), count_(count), type_(type) {}
  raw_buffer(const void* data, std::size_t count, MPI_Datatype type) noexcept
      : data_(const_cast<void*>(data)), count_(count), type_(type) {}
  raw_buffer(void* data, std::size_t count, const datatype& type) noexcept
      : raw_buffer(data, count, type.native()) {}
  raw_buffer(const void* data, std::size_t count, const datatype& type) noexcept
      : raw_buffer(data, count, type.native()) {}
  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return count_; }
  MPI_Datatype type() const noexcept { return type_; }

private:
  void* data_;
  std::size_t count_;
  MPI_Datatype type_;
};

/// A typed view of `count` elements starting at `data`.
template <class T>
typed_buffer<T> buffer(T* data, std::size_t count) noexcept {
  return typed_buffer<T>(data, count);
}
/// Elements [offset, offset + count) of a contiguous container or C array, without copying.
/// Throws std::out_of_range when that range is not inside the container.
template <class C>
auto buffer(C& c, std::size_t offset, std::size_t count)
    -> typed_buffer<std::remove_pointer_t<decltype(std::data(c))>> {
  const std::size_t n = std::size(c);
  if (offset > n || count > n - offset)
    throw std::out_of_range("oompi::buffer: " + std::to_string(count) +
                            " elements from offset " + std::to_string(offset) +
                            " do not fit in a container of " + std::to_string(n));
  return {std::data(c) + offset, count};
}
/// `count` elements of the given datatype starting at `data`.
inline raw_buffer buffer(void* data, std::size_t count, const datatype& type) noexcept {
  return raw_buffer(data, count, type);
}
inline raw_buffer buffer(const void* data, std::size_t count, const datatype& type) noexcept {
  return raw_buffer(data, count, type);
}
/// With an MPI_Datatype handle the data must be a pointer, not a C array: MPICH's handles are
/// ints, so buffer(array, n, MPI_FLOAT) would read as buffer(array, offset, count) there.
template <class T>
raw_buffer buffer(T* const& data, std::size_t count, MPI_Datatype type) noexcept {
  return raw_buffer(data, count, type);
}
template <class T, std::size_t N, class H,
          std::enable_if_t<std::is_same_v<H, MPI_Datatype> && !std::is_integral_v<H>, int> = 0>
raw_buffer buffer(T (&)[N], std::size_t, H) noexcept {
  static_assert(detail::always_false_v<T>,
                "oompi: with an MPI_Datatype, pass a pointer: buffer(&array[0], count, type) "
                "(with MPICH, whose handles are ints, buffer(array, offset, count) is meant)");
  return raw_buffer(nullptr, 0, MPI_DATATYPE_NULL);
}

/// Customisation point: specialise with data(b), size(b), type(b) (and, for containers that a
/// receive may grow, resize(b, n)).
template <class B, class Enable = void>
struct buffer_traits {};

namespace detail {
template <class C>
struct contiguous_traits {
  using element = std::remove_pointer_t<decltype(std::declval<C&>().data())>;
  static_assert(has_datatype_v<element>,
                "oompi: the elements of this container have no MPI datatype; see datatype_of");
  static auto* data(C& c) noexcept { return c.data(); }
  static std::size_t size(const C& c) noexcept { return c.size(); }
  static MPI_Datatype type(const C&) { return datatype_of<element>(); }
};
}  // namespace detail

template <class T, class A>
struct buffer_traits<std::vector<T, A>> : detail::contiguous_traits<std::vector<T, A>> {
  static_assert(!std::is_same_v<T, bool>,
                "oompi: std::vector<bool> is a bit set, not contiguous bools; use "
                "std::vector<char> or std::vector<std::uint8_t>");
  static void resize(std::vector<T, A>& v, std::size_t n) { v.resize(n); }
};
template <class T, std::size_t N>
struct buffer_traits<std::array<T, N>> : detail::contiguous_traits<std::array<T, N>> {};
template <class C, class Tr, class A>
struct buffer_traits<std::basic_string<C, Tr, A>>
    : detail::contiguous_traits<std::basic_string<C, Tr, A>> {
  static void resize(std::basic_string<C, Tr, A>& s, std::size_t n) { s.resize(n); }
};
/// Send only: a string_view's characters are const.
template <class C, class Tr>
struct buffer_traits<std::basic_string_view<C, Tr>>
    : detail::contiguous_traits<std::basic_string_view<C, Tr>> {};
template <class T>
struct buffer_traits<typed_buffer<T>> : detail::contiguous_traits<typed_buffer<T>> {};
#if defined(__cpp_lib_span)
template <class T, std::size_t E>
struct buffer_traits<std::span<T, E>> : detail::contiguous_traits<std::span<T, E>> {};
#endif
template <class T, std::size_t N>
struct buffer_traits<T[N], std::enable_if_t<has_datatype_v<T>>> {
  static T* data(T (&a)[N]) noexcept { return a; }
  static std::size_t size(const T (&)[N]) noexcept { return N; }
  static MPI_Datatype type(const T (&)[N]) { return datatype_of<T>(); }
};
template <>
struct buffer_traits<raw_buffer> {
  static void* data(const raw_buffer& b) noexcept { return b.data(); }
  static std::size_t size(const raw_buffer& b) noexcept { return b.size(); }
  static MPI_Datatype type(const raw_buffer& b) noexcept { return b.type(); }
};

namespace detail {
template <class B, class = void>
struct has_buffer_traits : std::false_type {};
template <class B>
struct has_buffer_traits<B, std::void_t<decltype(buffer_traits<B>::size(std::declval<B&>()))>>
    : std::true_type {};
template <class B, class = void>
struct is_resizable : std::false_type {};
template <class B>
struct is_resizable<B, std::void_t<decltype(buffer_traits<B>::resize(std::declval<B&>(), 0))>>
    : std::true_type {};
}  // namespace detail

/// Non-owning views (oompi::buffer(...), std::span, std::string_view): a temporary view
/// still names the caller's memory, so it may be received into, and a nonblocking operation
/// borrows it rather than taking it over.
template <class B>
struct is_view : std::false_type {};
template <class T>
struct is_view<typed_buffer<T>> : std::true_type {};
template <>
struct is_view<raw_buffer> : std::true_type {};
template <class C, class Tr>
struct is_view<std::basic_string_view<C, Tr>> : std::true_type {};
#if defined(__cpp_lib_span)
template <class T, std::size_t E>
struct is_view<std::span<T, E>> : std::true_type {};
#endif
template <class B>
inline constexpr bool is_view_v = is_view<std::remove_cv_t<std::remove_reference_t<B>>>::value;

/// True when B can be sent or received as a typed buffer.
template <class B>
inline constexpr bool is_buffer_v =
    detail::has_buffer_traits<std::remove_cv_t<B>>::value || has_datatype_v<std::remove_cv_t<B>>;

namespace detail {

/// (address, count, datatype) of a buffer; count may exceed INT_MAX.
struct buffer_desc {
  void* data;
  std::size_t count;
  MPI_Datatype type;
};

template <class B>
inline buffer_desc describe(B& b) {
  using U = std::remove_cv_t<B>;
  if constexpr (has_buffer_traits<U>::value) {
    using tr = buffer_traits<U>;
    return {const_cast<void*>(static_cast<const void*>(tr::data(const_cast<U&>(b)))),
            tr::size(b), tr::type(b)};
  } else if constexpr (has_datatype_v<U>) {
    return {const_cast<void*>(static_cast<const void*>(&b)), 1, datatype_of<U>()};
  } else {
    static_assert(always_false_v<B>,
                  "oompi: this is not a buffer. Send a value whose type has an MPI datatype, a "
                  "contiguous container of such values (std::vector, std::array, std::string, "
                  "std::span), oompi::buffer(pointer, count), or an object graph with "
                  "osend/orecv (OOMPI_TRANSPORTABLE).");
    return {nullptr, 0, MPI_DATATYPE_NULL};
  }
}

/// describe() for a receive: the memory must be writable.
template <class B>
inline buffer_desc describe_out(B& b) {
  using U = std::remove_cv_t<B>;
  if constexpr (has_buffer_traits<U>::value) {
    using P = decltype(buffer_traits<U>::data(std::declval<U&>()));
    static_assert(!std::is_const_v<B> || is_view_v<U>,
                  "oompi: cannot receive into a const buffer");
    static_assert(!std::is_const_v<std::remove_pointer_t<P>>,
                  "oompi: cannot receive into a buffer of const elements (a const view, or a "
                  "std::string_view); receive into a std::string, std::vector or a mutable view");
  } else {
    static_assert(!std::is_const_v<B>, "oompi: cannot receive into a const value");
  }
  return describe(b);
}

/// A committed datatype describing `count` (> INT_MAX) elements of `base` as one element, so
/// that messages of any size go through MPI's int counts. Freed by the destructor; MPI lets an
/// operation in flight finish with a freed datatype.
class large_count_type {
public:
  large_count_type(std::size_t count, MPI_Datatype base) {
    constexpr std::size_t chunk = std::size_t{1} << 30;
    const std::size_t chunks = count / chunk, rest = count % chunk;
    MPI_Aint lb = 0, extent = 0;
    OOMPI_CHECK(MPI_Type_get_extent, (base, &lb, &extent));
    // The message must fit in the address space: reject nonsense counts before MPI sees them.
    const auto max_aint = static_cast<std::size_t>(PTRDIFF_MAX);
    if (chunks > static_cast<std::size_t>(INT_MAX) ||
        (extent > 0 && count > max_aint / static_cast<std::size_t>(extent)))
      throw std::length_error("oompi: a buffer of " + std::to_string(count) + " elements of " +
                              std::to_string(extent) +
                              " bytes each is larger than the address space");
    struct temp {  // frees the intermediate types on every path
      MPI_Datatype t = MPI_DATATYPE_NULL;
      ~temp() {
        if (t != MPI_DATATYPE_NULL) MPI_Type_free(&t);
      }
    } one_chunk, body, tail;
    OOMPI_CHECK(MPI_Type_contiguous, (static_cast<int>(chunk), base, &one_chunk.t));
    OOMPI_CHECK(MPI_Type_contiguous, (static_cast<int>(chunks), one_chunk.t, &body.t));
    OOMPI_CHECK(MPI_Type_contiguous, (static_cast<int>(rest), base, &tail.t));
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {0, static_cast<MPI_Aint>(chunks * chunk) * extent};
    MPI_Datatype parts[2] = {body.t, tail.t};
    OOMPI_CHECK(MPI_Type_create_struct, (rest ? 2 : 1, lengths, displs, parts, &type_));
    if (const int rc = MPI_Type_commit(&type_); rc != MPI_SUCCESS) {
      MPI_Type_free(&type_);
      throw_mpi_error("MPI_Type_commit", rc);
    }
  }
  large_count_type(const large_count_type&) = delete;
  large_count_type& operator=(const large_count_type&) = delete;
  ~large_count_type() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MPI_Datatype type() const noexcept { return type_; }

private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// Calls f(data, int count, type), turning counts above INT_MAX into one large element.
template <class F>
inline decltype(auto) with_int_count(const buffer_desc& b, F&& f) {
  if (OOMPI_DETAIL_LIKELY(b.count <= static_cast<std::size_t>(INT_MAX)))
    return f(b.data, static_cast<int>(b.count), b.type);
  large_count_type big(b.count, b.type);
  return f(b.data, 1, big.type());
}

// Point-to-point calls of more than INT_MAX elements, out of line and cold so that the common
// path of send/recv keeps no stack frame (the hot path branches here on the count).
template <class Fn>
OOMPI_DETAIL_COLD int call_large_send(Fn fn, void* data, std::size_t count, MPI_Datatype type,
                                      int peer, int tag, MPI_Comm c) {
  large_count_type big(count, type);
  return fn(data, 1, big.type(), peer, tag, c);
}
// (Receives: communicator::recv_slow, bounded by detail/recv_guard.hpp.)

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_BUFFER_HPP
