#ifndef OOMPI_SERIALIZATION_WIRE_OUTPUT_ARCHIVE_HPP
#define OOMPI_SERIALIZATION_WIRE_OUTPUT_ARCHIVE_HPP

// The wire v1 writer: numbers, sizes, packed arrays and references into a byte_buffer.
// Part of wire.hpp; include that.

#include "../byte_buffer.hpp"
#include "../stack_guard.hpp"
#include "common.hpp"
#include "identity_tables.hpp"

#include <cereal/cereal.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi::wire {

class output_archive
    : public cereal::OutputArchive<output_archive, cereal::AllowEmptyClassElision> {
public:
  explicit output_archive(byte_buffer& out) noexcept
      : cereal::OutputArchive<output_archive, cereal::AllowEmptyClassElision>(this), out_(out),
        limit_(oompi::detail::stack_limit()) {}
  output_archive(const output_archive&) = delete;
  output_archive& operator=(const output_archive&) = delete;

  void write_bytes(const void* p, std::size_t n) { out_.append(p, n); }
  /// n more bytes at the end of the message, for the caller to fill.
  std::byte* extend(std::size_t n) { return out_.extend(n); }
  template <class T>
  void write_value(T v) {
    static_assert(std::is_arithmetic_v<T>);
    if constexpr (!detail::host_little_endian && sizeof(T) > 1) v = detail::byteswap(v);
    std::memcpy(out_.extend(sizeof(T)), &v, sizeof(T));
  }
  void write_size(std::uint64_t n) { write_value(n); }
  /// Size, then the packed elements, with one capacity check.
  template <class E>
  void write_packed(const E* p, std::size_t n) {
    if constexpr (detail::host_little_endian) {
      const std::uint64_t size = n;
      std::byte* out = out_.extend(sizeof size + n * sizeof(E));
      std::memcpy(out, &size, sizeof size);
      if (n != 0) std::memcpy(out + sizeof size, p, n * sizeof(E));
    } else {
      write_size(n);
      write_array(p, n);
    }
  }
  /// An unsigned LEB128 varint, shortest form: sizes inside a compact chain (wire 1.1, §2.1).
  void write_varint(std::uint64_t v) {
    unsigned char tmp[10];
    std::size_t k = 0;
    for (; v >= 0x80; v >>= 7) tmp[k++] = static_cast<unsigned char>(v | 0x80);
    tmp[k++] = static_cast<unsigned char>(v);
    write_bytes(tmp, k);
  }
  /// Packed arithmetic elements (the bytes of a vector<int>, a string ...).
  template <class E>
  void write_array(const E* p, std::size_t n) {
    if constexpr (detail::host_little_endian || sizeof(E) == 1) {
      write_bytes(p, n * sizeof(E));
    } else {
      for (std::size_t i = 0; i < n; ++i) write_value(p[i]);
    }
  }

  /// Writes the reference to a shared object; returns it when its fields must follow (first
  /// occurrence), null otherwise.
  template <class T>
  [[gnu::always_inline]] const T* write_shared(const T* obj) {
    if (obj == nullptr) {
      write_value<std::uint32_t>(0);
      return nullptr;
    }
    bool inserted = false;
    auto* slot =
        ids_->find_or_insert(static_cast<const void*>(obj), detail::key_of<T>(), next_id_, inserted);
    if (!inserted) {
      if (slot->type != detail::key_of<T>()) aliased();
      write_value<std::uint32_t>(slot->id);
      return nullptr;
    }
    write_value<std::uint32_t>(take_id() | new_object_flag);
    return obj;
  }
  /// Writes the reference held by the std::shared_ptr `p`. When the message's types can hold
  /// no std::weak_ptr (identify_by_owner) and `p` is its object's only owner, nothing else in
  /// the graph can refer to that object: it gets its id without an entry in the table, which
  /// is most of the cost of a tree (issue 28). Same bytes either way.
  template <class T, class U>
  [[gnu::always_inline]] const T* write_owned(const std::shared_ptr<U>& p) {
    const T* obj = p.get();
    if (obj == nullptr) {  // first: half the links of a tree are null
      write_value<std::uint32_t>(0);
      return nullptr;
    }
    if (by_owner_ && p.use_count() == 1) {
      write_value<std::uint32_t>(take_id() | new_object_flag);
      return obj;
    }
    return write_shared<T>(obj);
  }
  /// Whether write_owned may skip the table for objects with one owner: only for messages whose
  /// types (detail::weak_free) hold no std::weak_ptr, since a weak reference to an object is no
  /// owner of it. (Two std::shared_ptr with separate control blocks on one object, say with
  /// do-nothing deleters, are then two objects on the wire.)
  void identify_by_owner(bool on) noexcept { by_owner_ = on; }

  /// Writes the reference held by a unique owner: never seen before, so no lookup.
  template <class T>
  const T* write_unique(const T* obj) {
    if (obj == nullptr) {
      write_value<std::uint32_t>(0);
      return nullptr;
    }
    write_value<std::uint32_t>(take_id() | new_object_flag);
    return obj;
  }

  /// The next object id, for an object that is not entered in the table (a linear chain at the
  /// root of a message, detail::save_linear_chain: nothing else can refer to it).
  std::uint32_t untracked_id() { return take_id(); }

  void enter() {
    ++depth_;
    if (oompi::detail::stack_exhausted(limit_, depth_)) detail::too_deep();
  }
  void leave() noexcept { --depth_; }

private:
  std::uint32_t take_id() {
    if (next_id_ > max_object_id) too_many_objects();
    return next_id_++;
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void aliased() {
    throw serialization_error("two references of different types point to one address (an "
                              "aliasing shared_ptr); wire format v1 cannot express that");
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void too_many_objects() {
    throw serialization_error("more than 2^31-1 objects in one message");
  }

  byte_buffer& out_;
  detail::table_lease<detail::pointer_map> ids_;
  std::uint32_t next_id_ = 1;
  std::size_t depth_ = 0;
  const char* limit_;
  bool by_owner_ = false;
};

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_OUTPUT_ARCHIVE_HPP
