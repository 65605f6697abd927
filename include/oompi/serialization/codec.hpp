#ifndef OOMPI_SERIALIZATION_CODEC_HPP
#define OOMPI_SERIALIZATION_CODEC_HPP

// The wire v1 back end of the object operations, the optional type check, and byte-level entry
// points (to_bytes / from_bytes) for tests, tools and the language bindings.
//
// Type check: off by default. When on (set_object_type_check(true), on every rank), each
// message, and each slice of a split collective, starts with the u64 little-endian FNV-1a hash of
// the sent type's signature (signature.hpp); a receive of another type fails with
// serialization_error before anything is read. Both sides must use the same setting.

#include "codec_fwd.hpp"
#include "signature.hpp"
#include "wire.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace oompi {

namespace detail {
inline std::atomic<bool> g_object_type_check{false};

inline std::uint64_t fnv1a64(const std::string& s) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}
inline std::string hex64(std::uint64_t v) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(v));
  return text;
}
}  // namespace detail

/// Turns the type check of object messages on or off (process-wide; all ranks must agree).
inline void set_object_type_check(bool on) noexcept {
  detail::g_object_type_check.store(on, std::memory_order_relaxed);
}
inline bool object_type_check() noexcept {
  return detail::g_object_type_check.load(std::memory_order_relaxed);
}

/// The field signature of T (see signature.hpp).
template <class T>
const std::string& type_signature() {
  static const std::string text = [] {
    wire::signature_archive ar;
    ar.add<T>();
    return ar.text();
  }();
  return text;
}
/// The 64-bit FNV-1a hash of type_signature<T>(), which leads type-checked messages.
template <class T>
std::uint64_t type_hash() {
  static const std::uint64_t h = detail::fnv1a64(type_signature<T>());
  return h;
}

namespace detail {

template <class T>
void write_type_hash(byte_buffer& out) {
  std::uint64_t h = type_hash<T>();
  if constexpr (!wire::detail::host_little_endian) h = wire::detail::byteswap(h);
  out.append(&h, sizeof h);
}
// Checks and skips the hash at the start of [p, p + n).
template <class T>
void check_type_hash(const std::byte*& p, std::size_t& n) {
  if (n < 8)
    throw serialization_error("type check: the message (" + std::to_string(n) +
                              " bytes) is too short to start with a type hash");
  std::uint64_t h = 0;
  std::memcpy(&h, p, sizeof h);
  if constexpr (!wire::detail::host_little_endian) h = wire::detail::byteswap(h);
  if (h != type_hash<T>())
    throw serialization_error("type check failed: the message holds a type with hash " +
                              hex64(h) + ", this receive expects " + type_signature<T>() +
                              " (hash " + hex64(type_hash<T>()) + ")");
  p += 8;
  n -= 8;
}

/// Wire format v1 through cereal.
template <class T>
struct object_codec<T, std::enable_if_t<wire::is_transportable_v<T>>> {
  static constexpr const char* name = "wire v1";

  static void save(byte_buffer& out, const T& obj) {
    if (object_type_check()) write_type_hash<T>(out);
    wire::save(out, obj);
  }
  static void load(const std::byte* p, std::size_t n, T& obj) {
    if (object_type_check()) check_type_hash<T>(p, n);
    wire::load(p, n, obj);
  }
  static void save_slice(byte_buffer& out, const T* first, std::size_t count) {
    if (object_type_check()) write_type_hash<std::vector<T>>(out);
    wire::save_sequence(out, first, count);
  }
  static void load_slice(const std::byte* p, std::size_t n, std::vector<T>& out) {
    if (object_type_check()) check_type_hash<std::vector<T>>(p, n);
    wire::load_sequence(p, n, out);
  }
};

template <class T>
constexpr void require_wire_transportable() {
  static_assert(wire::is_transportable_v<T>,
                "oompi: this type has no wire format v1 encoding. Name its transported fields "
                "with OOMPI_TRANSPORTABLE(T, field1, field2, ...) in T's namespace, or give it a "
                "member `template <class Archive> void serialize(Archive& ar) { ar(field1, "
                "field2); }` (cereal)");
}

}  // namespace detail

/// The wire v1 bytes of obj (no type hash).
template <class T>
std::vector<std::byte> to_bytes(const T& obj) {
  detail::require_wire_transportable<T>();
  byte_buffer out;
  wire::save(out, obj);
  return out.to_vector();
}
/// Reads obj from exactly the wire v1 bytes [data, data + size); serialization_error if they are
/// not a valid encoding of T.
template <class T>
void from_bytes(const void* data, std::size_t size, T& obj) {
  detail::require_wire_transportable<T>();
  wire::load(data, size, obj);
}
template <class T>
T from_bytes(const void* data, std::size_t size) {
  T obj{};
  from_bytes(data, size, obj);
  return obj;
}
template <class T>
T from_bytes(const std::vector<std::byte>& bytes) {
  return from_bytes<T>(bytes.data(), bytes.size());
}

}  // namespace oompi

#endif  // OOMPI_SERIALIZATION_CODEC_HPP
