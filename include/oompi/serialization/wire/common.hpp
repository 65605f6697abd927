#ifndef OOMPI_SERIALIZATION_WIRE_COMMON_HPP
#define OOMPI_SERIALIZATION_WIRE_COMMON_HPP

// Wire format v1 (docs/wire-format.md), what its writer and reader share: the reference id
// flags, byte order, the run-time identity of a type (to check back-references), and the errors
// of nesting. Part of wire.hpp; include that.

#include "../error.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>

namespace oompi::wire {

/// Top bit of a reference id: the object itself follows.
inline constexpr std::uint32_t new_object_flag = 0x80000000u;
/// Largest object id in one message.
inline constexpr std::uint32_t max_object_id = 0x7fffffffu;

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "oompi wire format v1 needs IEEE 754 float and double");

namespace detail {

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline constexpr bool host_little_endian = false;
#else
inline constexpr bool host_little_endian = true;
#endif

template <class T>
T byteswap(T v) noexcept {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  std::reverse(b, b + sizeof(T));
  std::memcpy(&v, b, sizeof(T));
  return v;
}
// Arrays of arithmetic values on a big-endian host: swap each element in place.
template <class E>
void swap_elements(void* data, std::size_t bytes) noexcept {
  if constexpr (!host_little_endian && std::is_arithmetic_v<E> && sizeof(E) > 1) {
    auto* p = static_cast<unsigned char*>(data);
    for (std::size_t i = 0; i + sizeof(E) <= bytes; i += sizeof(E)) std::reverse(p + i, p + i + sizeof(E));
  } else {
    (void)data;
    (void)bytes;
  }
}

/// Empties a received object (after a failed read; see input_archive::abandon).
template <class T>
void reset_object(void* p) noexcept {
  if constexpr (std::is_move_assignable_v<T> && std::is_default_constructible_v<T>) {
    try {
      *static_cast<T*>(p) = T();
    } catch (...) {
    }
  }
}
/// What the archives know of a type at run time; its address identifies the type, so that a
/// back-reference can be checked to name an object of the right type.
struct type_ops {
  void (*reset)(void*) noexcept;
};
template <class T>
inline constexpr type_ops ops_of{&reset_object<T>};
template <class T>
constexpr const type_ops* key_of() noexcept {
  return &ops_of<std::remove_cv_t<T>>;
}

template <class T>
void check_reference_target() {
  static_assert(!std::is_polymorphic_v<T> || std::is_final_v<T>,
                "oompi wire format v1 carries no type information, so a reference to a "
                "polymorphic base would lose the derived part: refer to a concrete (final) type");
  static_assert(!std::is_array_v<T>, "oompi: references to arrays (std::unique_ptr<T[]>, "
                                     "std::shared_ptr<T[]>) do not travel; use std::vector<T>");
}

/// Zeroes the bytes of a U at p in 16-byte stores. (A value-initialised U, as std::make_shared<U>()
/// makes it, is zeroed as one block, which GCC does with `rep stos`: a third of the time of
/// reading a tree node (issue 28). Written as a loop of small copies, the compiler emits plain
/// vector stores, and drops those the constructor overwrites.)
template <class U>
[[gnu::always_inline]] inline void zero_bytes(void* p) noexcept {
  auto* b = static_cast<unsigned char*>(p);
  std::size_t i = 0;
  for (; i + 16 <= sizeof(U); i += 16) {
    const std::uint64_t z[2] = {0, 0};
    std::memcpy(b + i, z, 16);
  }
  for (; i < sizeof(U); ++i) b[i] = 0;
}
/// The allocator of received objects: std::allocator's memory, objects value-initialised as
/// zeroed bytes and then default-initialised (what U() does for a type without a user-provided
/// constructor, and harmless before one: it then sets what it sets), see zero_bytes.
/// (Only a field of pointer-to-data-member type that is neither transported nor initialised
/// would differ: null is not all-zero bytes there on the Itanium ABI.)
template <class T>
struct received_allocator {
  using value_type = T;
  received_allocator() noexcept = default;
  template <class U>
  received_allocator(const received_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
  void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
  template <class U>
  void construct(U* p) {
    zero_bytes<U>(p);
    ::new (static_cast<void*>(p)) U;
  }
  template <class U>
  bool operator==(const received_allocator<U>&) const noexcept { return true; }
  template <class U>
  bool operator!=(const received_allocator<U>&) const noexcept { return false; }
};
/// A new object for the reader to fill, as std::make_shared<T>() makes it (one allocation).
template <class T>
std::shared_ptr<T> make_received() {
  static_assert(std::is_default_constructible_v<T>,
                "oompi: objects received through a reference are default-constructed first; "
                "give the type a default constructor");
  return std::allocate_shared<T>(received_allocator<T>());
}

[[noreturn, gnu::cold, gnu::noinline]] inline void too_deep() {
  throw serialization_error(
      "the object graph nests too deeply for this thread's stack (references that are not the "
      "last field of an OOMPI_TRANSPORTABLE type, or nested containers, recurse); make the "
      "link to the next element the last transported field, or run on a thread with a larger "
      "stack");
}

}  // namespace detail

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_COMMON_HPP
