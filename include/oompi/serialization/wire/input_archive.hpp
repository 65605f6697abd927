#ifndef OOMPI_SERIALIZATION_WIRE_INPUT_ARCHIVE_HPP
#define OOMPI_SERIALIZATION_WIRE_INPUT_ARCHIVE_HPP

// The wire v1 reader: reads from memory with every size checked against the bytes left (see
// wire_bounds.hpp), ids checked against the objects read so far. Part of wire.hpp; include that.

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

class input_archive : public cereal::InputArchive<input_archive, cereal::AllowEmptyClassElision> {
public:
  input_archive(const void* data, std::size_t size) noexcept
      : cereal::InputArchive<input_archive, cereal::AllowEmptyClassElision>(this),
        begin_(static_cast<const unsigned char*>(data)), cur_(begin_), end_(begin_ + size),
        limit_(oompi::detail::stack_limit()) {}
  input_archive(const input_archive&) = delete;
  input_archive& operator=(const input_archive&) = delete;

  std::size_t remaining() const noexcept { return static_cast<std::size_t>(end_ - cur_); }
  std::size_t position() const noexcept { return static_cast<std::size_t>(cur_ - begin_); }

  /// Throws unless n more bytes are there.
  void need(std::size_t n) const {
    if (n > remaining()) truncated(n);
  }
  void read_bytes(void* p, std::size_t n) {
    if (n > remaining()) truncated(n);
    if (n != 0) std::memcpy(p, cur_, n);
    cur_ += n;
  }
  template <class T>
  T read_value() {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
    if (sizeof(T) > remaining()) truncated(sizeof(T));
    return read_value_checked<T>();
  }
  bool read_bool() {
    if (remaining() < 1) truncated(1);
    return read_bool_checked();
  }
  // Reads of bytes that need() has checked to be there (a run of fixed-size fields).
  template <class T>
  T read_value_checked() noexcept {
    T v;
    std::memcpy(&v, cur_, sizeof(T));
    cur_ += sizeof(T);
    if constexpr (!detail::host_little_endian && sizeof(T) > 1) v = detail::byteswap(v);
    return v;
  }
  bool read_bool_checked() {
    const auto b = read_value_checked<std::uint8_t>();
    if (b > 1) fail(problem::bool_byte, b, 0, 1);
    return b != 0;
  }
  void read_bytes_checked(void* p, std::size_t n) noexcept {
    std::memcpy(p, cur_, n);
    cur_ += n;
  }
  /// Bytes left that no open sequence has claimed for its elements still to come.
  std::size_t available() const noexcept {
    return remaining() > committed_ ? remaining() - committed_ : 0;
  }
  /// A size: at most the number of bytes available, so a corrupt size cannot make us allocate
  /// more than the message could possibly describe.
  std::uint64_t read_size() { return size_checked(read_value<std::uint64_t>()); }
  /// n, the size just read, unless it exceeds the bytes available.
  std::uint64_t size_checked(std::uint64_t n) const {
    if (n > available()) fail(problem::size, n, available(), 8);
    return n;
  }
  /// The element count of a sequence whose elements take at least `min_bytes` (>= 1) each on the
  /// wire: at most what the bytes available can hold. Those bytes are then claimed for the
  /// elements (begin_element gives one element's share back as it is read), so that a sequence
  /// nested in the first element cannot claim them too: the counts of all the sequences open at
  /// once, times their elements' minimum sizes, never exceed the message.
  std::size_t read_count(std::size_t min_bytes) {
    const auto n = read_value<std::uint64_t>();
    if (n > available() / min_bytes) fail(problem::count, n, available(), 8, min_bytes);
    committed_ += static_cast<std::size_t>(n) * min_bytes;
    return static_cast<std::size_t>(n);
  }
  /// Before each element of a sequence opened by read_count(min_bytes).
  void begin_element(std::size_t min_bytes) noexcept { committed_ -= min_bytes; }
  /// A size inside a compact chain (§2.1): an unsigned LEB128 varint in its shortest form, at
  /// most the number of bytes left.
  std::uint64_t read_varint_size() {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (cur_ == end_) truncated(1);
      const unsigned char b = *cur_++;
      if (shift == 63 && b > 1) corrupt("a varint above 2^64 - 1", 1);
      v |= std::uint64_t{b & 0x7Fu} << shift;
      if (b < 0x80) {
        if (b == 0 && shift != 0) corrupt("a varint longer than its shortest form", 1);
        break;
      }
    }
    if (v > available()) fail(problem::size, v, available(), 0);
    return v;
  }
  /// True (and the marker consumed) when the message starts a compact chain here.
  bool take_compact_marker() noexcept {
    if (remaining() < 4) return false;
    std::uint32_t v;
    std::memcpy(&v, cur_, 4);
    if constexpr (!detail::host_little_endian) v = detail::byteswap(v);
    if (v != new_object_flag) return false;
    cur_ += 4;
    return true;
  }
  template <class E>
  void read_array(E* p, std::size_t n) {
    if (n > remaining() / sizeof(E)) truncated(n * sizeof(E));
    read_bytes(p, n * sizeof(E));
    detail::swap_elements<E>(p, n * sizeof(E));
  }

  /// Reads a reference into a shared owner: returns the new object whose fields follow, or null
  /// (null reference, or a back-reference now assigned to `p`).
  template <class P, class T = std::remove_cv_t<typename P::element_type>>
  [[gnu::always_inline]] T* read_shared(P& p) {
    if (!reads_new_object<T>(p)) return nullptr;
    auto obj = make_object<T>();
    T* raw = obj.get();
    objects_->owners.push_back(obj);
    add_object(raw, detail::key_of<T>(), nullptr,
               static_cast<std::uint32_t>(objects_->owners.size()));
    p = std::move(obj);
    return raw;
  }
  /// read_shared for a std::shared_ptr that stays where it is, holding what is read into it,
  /// until the read ends (a field of an object this archive made): the table notes where it is
  /// instead of taking a reference (two atomic operations and a cache miss per object saved).
  template <class T>
  [[gnu::always_inline]] T* read_shared_in_place(std::shared_ptr<T>& p) {
    static_assert(!std::is_const_v<T> && !std::is_volatile_v<T>);
    if (!reads_new_object<T>(p)) return nullptr;
    p = make_object<T>();
    T* raw = p.get();
    add_object(raw, detail::key_of<T>(), &p, 0);
    return raw;
  }
  /// The next n bytes, consumed (throws unless they are there).
  const unsigned char* take_bytes(std::size_t n) {
    if (n > remaining()) truncated(n);
    const unsigned char* p = cur_;
    cur_ += n;
    return p;
  }
  /// Reads a reference into a std::unique_ptr: null or a new object.
  template <class T, class D, class U = std::remove_cv_t<T>>
  U* read_unique(std::unique_ptr<T, D>& p) {
    detail::check_reference_target<U>();
    bool is_new = false;
    const std::uint32_t id = read_id(is_new);
    if (id == 0) {
      p.reset();
      return nullptr;
    }
    if (!is_new) fail(problem::unique_twice, id, 0, 4);
    static_assert(std::is_default_constructible_v<U>,
                  "oompi: objects received through a reference are default-constructed first; "
                  "give the type a default constructor");
    U* raw = new U();
    p.reset(raw);
    add_object(raw, detail::key_of<U>(), nullptr, 0);
    return raw;
  }

  /// Reads a reference id of a linear chain at the root of a message (detail::load_linear_chain),
  /// whose `known` objects so far are all in the chain: 0, a new id (known + 1, is_new set) or a
  /// back-reference to one of them.
  std::uint32_t read_chain_id(std::uint32_t known, bool& is_new) {
    const auto id = read_value<std::uint32_t>();
    if (id == 0) return 0;
    if (id & new_object_flag) {
      const std::uint32_t n = id & ~new_object_flag;
      if (n != known + 1) fail(problem::new_id, n, std::uint64_t{known} + 1, 4);
      is_new = true;
      return n;
    }
    if (id > known) fail(problem::early_reference, id, 0, 4);
    return id;
  }

  void enter() {
    ++depth_;
    if (oompi::detail::stack_exhausted(limit_, depth_)) detail::too_deep();
  }
  void leave() noexcept { --depth_; }

  /// After a failed read: empties every object made so far, newest first, so that a partial
  /// graph with cycles is freed and a long chain is not destroyed recursively (children have
  /// higher ids than their parents, so each is empty before its owner lets it go).
  void abandon() noexcept {
    const auto& all = objects_->entries;
    for (auto it = all.rbegin(); it != all.rend(); ++it) it->type->reset(it->object);
  }

  /// The whole message must have been read.
  void finish() const {
    if (cur_ != end_)
      throw serialization_error(std::to_string(remaining()) + " bytes left over after the object " +
                                "(" + std::to_string(position()) +
                                " read): the message holds another type, or is corrupt");
  }

  [[noreturn, gnu::cold, gnu::noinline]] void corrupt(const std::string& what,
                                                      std::size_t back = 0) const {
    throw serialization_error("corrupt stream at byte " + std::to_string(position() - back) +
                              ": " + what);
  }

private:
  enum class problem { bool_byte, size, count, new_id, early_reference, other_type,
                       unique_twice, unique_shared };
  // Errors are built out of line, so that the reading functions stay small enough to inline.
  [[noreturn, gnu::cold, gnu::noinline]] void fail(problem p, std::uint64_t a, std::uint64_t b,
                                                   std::size_t back, std::size_t c = 0) const {
    const std::string x = std::to_string(a), y = std::to_string(b);
    switch (p) {
      case problem::bool_byte: corrupt("a bool byte is " + x + ", not 0 or 1", back);
      case problem::size: corrupt("a size of " + x + " with only " + y + " bytes left", back);
      case problem::count:
        corrupt("a size of " + x + " elements of at least " + std::to_string(c) +
                    " bytes each with only " + y +
                    " bytes left (the message holds another type, or is corrupt)",
                back);
      case problem::new_id:
        if (a == 0)
          corrupt("new object id 0: a compact chain (wire 1.1, docs/wire-format.md 2.1), which "
                  "can only be the whole message when the receiving type is a chain type (last "
                  "field a std::shared_ptr or std::unique_ptr to the same type, every other "
                  "field a number, a string or a vector of numbers)",
                  back);
        corrupt("new object id " + x + " where " + y + " was due", back);
      case problem::early_reference:
        corrupt("reference to object " + x + " before it appeared", back);
      case problem::other_type:
        corrupt("reference " + x + " names an object of another type", back);
      case problem::unique_twice:
        corrupt("a second reference to object " + x +
                    ", but the receiving field is a std::unique_ptr (use std::shared_ptr)",
                back);
      case problem::unique_shared:
        corrupt("a second reference to object " + x +
                    ", which was received into a std::unique_ptr",
                back);
    }
    corrupt("unknown problem", back);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void truncated(std::size_t need) const {
    throw serialization_error("truncated stream: " + std::to_string(need) + " bytes needed at byte " +
                              std::to_string(position()) + ", " + std::to_string(remaining()) +
                              " left");
  }
  [[gnu::always_inline]] std::uint32_t read_id(bool& is_new) {
    const auto id = read_value<std::uint32_t>();
    if (id == 0) return 0;
    const std::size_t known = objects_->entries.size();
    if (id & new_object_flag) {
      const std::uint32_t n = id & ~new_object_flag;
      if (n != known + 1) fail(problem::new_id, n, known + 1, 4);
      is_new = true;
      return n;
    }
    if (id > known) fail(problem::early_reference, id, 0, 4);
    return id;
  }
  /// Reads the reference id for a shared owner `p` of a T: true for a new object (whose fields
  /// follow); else `p` now holds what it names (null, or an object read before).
  template <class T, class P>
  [[gnu::always_inline]] bool reads_new_object(P& p) {
    detail::check_reference_target<T>();
    bool is_new = false;
    const std::uint32_t id = read_id(is_new);
    if (id == 0) {
      p.reset();
      return false;
    }
    if (!is_new) p = shared_at<T>(id);
    return is_new;
  }
  template <class T>
  std::shared_ptr<T> shared_at(std::uint32_t id) {
    const detail::object_entry& e = objects_->entries[id - 1];
    if (e.type != detail::key_of<T>()) fail(problem::other_type, id, 0, 4);
    if (e.where != nullptr) return *static_cast<const std::shared_ptr<T>*>(e.where);
    if (e.owner == 0) fail(problem::unique_shared, id, 0, 4);
    return std::static_pointer_cast<T>(objects_->owners[e.owner - 1]);
  }
  void add_object(void* object, const detail::type_ops* type, const void* where,
                  std::uint32_t owner) {
    // Built in place, member by member: a temporary entry copied in is written as four small
    // stores and read back as two wide loads, which stall (store forwarding) on every object.
    objects_->entries.emplace_back(object, type, where, owner);
  }
  template <class T>
  static std::shared_ptr<T> make_object() {
    return detail::make_received<T>();
  }

  const unsigned char* begin_;
  const unsigned char* cur_;
  const unsigned char* end_;
  detail::table_lease<detail::object_table> objects_;  // object id - 1 -> object
  std::size_t committed_ = 0;  // bytes the open sequences' elements still to come need
  std::size_t depth_ = 0;
  const char* limit_;
};

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_INPUT_ARCHIVE_HPP
