#ifndef OOMPI_SERIALIZATION_WIRE_COMMON_HPP
#define OOMPI_SERIALIZATION_WIRE_COMMON_HPP

// Wire format v1 (docs/wire-format.md), what its writer and reader share: the reference id
// flags, byte order, the run-time identity of a type (to check back-references), and the errors
// of nesting. Part of wire.hpp; include that.

#include "../error.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
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
