#ifndef OOMPI_SERIALIZATION_WIRE_HPP
#define OOMPI_SERIALIZATION_WIRE_HPP

// Wire format v1 (docs/wire-format.md): the archives that write and read it.
//
// oompi::wire::output_archive / input_archive are cereal archives, so every type cereal can
// serialize (a member or free serialize/save/load, the std types of <cereal/types/...>) can
// travel, with the bytes cereal's binary archive writes on a little-endian host, restricted to
// the portable subset: fixed-width little-endian numbers, bool as one byte, sizes as u64, and
// references (std::shared_ptr, std::unique_ptr, std::weak_ptr) as u32 ids, 0 for null, the first
// occurrence with the top bit set and followed by the object, later ones repeating the id.
// Fixed-size arrays (std::array, T[N]) carry their size too, like every other array.
//
// Speed: the archives write into a byte_buffer and read from memory (no streams, no virtual
// calls), arithmetic arrays are one memcpy, the pointer -> id map is a flat open-addressing
// table, and ids are indices on the way back.
//
// Depth: the last field of an OOMPI_TRANSPORTABLE type, when it refers to the same type (a
// list's `next`), is followed by a loop, so lists of any length take constant stack; all other
// nesting recurses and stops with serialization_error before the thread's stack runs out
// (stack_guard.hpp).

#include "byte_buffer.hpp"
#include "codec_fwd.hpp"
#include "error.hpp"
#include "stack_guard.hpp"
#include "transportable.hpp"

#include <cereal/cereal.hpp>
#include <cereal/types/deque.hpp>
#include <cereal/types/list.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/set.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/tuple.hpp>
#include <cereal/types/unordered_map.hpp>
#include <cereal/types/unordered_set.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

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

/// address -> object id, open addressing with linear probing (no node allocations), 16-byte
/// slots. Emptied in O(1) by a generation count, so one table per thread serves every message.
/// The type of each object, by id, is kept beside it (only looked at when a reference repeats).
class pointer_map {
public:
  struct slot {
    const void* key;
    std::uint32_t id;
    std::uint32_t generation;  // the slot is in use when this is the table's generation
  };

  /// Forgets every entry.
  void clear() noexcept {
    size_ = 0;
    types_.clear();
    if (++generation_ == 0) {  // wrapped: really clear once every 2^32 uses
      for (std::size_t i = 0; i < capacity_; ++i) slots_[i].generation = 0;
      generation_ = 1;
    }
  }
  /// Frees the table if it grew beyond `max_slots`.
  void release_if_larger(std::size_t max_slots) noexcept {
    if (capacity_ > max_slots) {
      slots_.reset();
      capacity_ = size_ = 0;
      std::vector<const type_ops*>().swap(types_);
    }
  }

  /// The slot of `key`, inserting {key, id} if absent (`inserted` tells).
  [[gnu::always_inline]] slot* find_or_insert(const void* key, std::uint32_t id, bool& inserted) {
    if ((size_ + 1) * 2 > capacity_) rehash(capacity_ ? capacity_ * 2 : 256);
    std::size_t i = index_of(key);
    for (;;) {
      slot& s = slots_[i];
      if (s.generation != generation_) {
        s = slot{key, id, generation_};
        ++size_;
        inserted = true;
        return &s;
      }
      if (s.key == key) {
        inserted = false;
        return &s;
      }
      i = (i + 1) & (capacity_ - 1);
    }
  }
  /// Records the type of object `id` (ids are given in order: this is the next one).
  void add_type(const type_ops* t) { types_.push_back(t); }
  const type_ops* type_of(std::uint32_t id) const noexcept { return types_[id - 1]; }

private:
  // Objects allocated one after another (a list's nodes) have nearby addresses: keep them in
  // nearby slots (the table is walked in address order, not at random, which matters once it
  // outgrows the caches), and fold the higher bits in so that distant regions spread out.
  std::size_t index_of(const void* key) const noexcept {
    const auto x = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key));
    return static_cast<std::size_t>(((x >> 4) ^ (x >> 20) ^ (x >> 36)) & (capacity_ - 1));
  }
  void rehash(std::size_t capacity) {
    std::unique_ptr<slot[]> old = std::move(slots_);
    const std::size_t old_capacity = capacity_;
    const std::uint32_t old_generation = generation_;
    slots_.reset(new slot[capacity]());
    capacity_ = capacity;
    generation_ = 1;
    for (std::size_t i = 0; i < old_capacity; ++i) {
      if (old[i].generation != old_generation) continue;
      std::size_t j = index_of(old[i].key);
      while (slots_[j].generation == generation_) j = (j + 1) & (capacity_ - 1);
      slots_[j] = old[i];
      slots_[j].generation = generation_;
    }
  }

  std::unique_ptr<slot[]> slots_;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  std::uint32_t generation_ = 1;
  std::vector<const type_ops*> types_;
};

/// Tables the archives of one thread reuse from message to message (a nested archive on the same
/// thread, say in a user's save function, gets its own).
template <class Table>
class table_lease {
public:
  table_lease() {
    state& s = shared();
    if (!s.busy) {
      s.busy = true;
      table_ = &s.table;
    } else {
      own_ = std::make_unique<Table>();
      table_ = own_.get();
    }
  }
  table_lease(const table_lease&) = delete;
  table_lease& operator=(const table_lease&) = delete;
  ~table_lease() {
    if (!own_) {
      finish(*table_);
      shared().busy = false;
    }
  }
  Table& operator*() const noexcept { return *table_; }
  Table* operator->() const noexcept { return table_; }

private:
  struct state {
    Table table;
    bool busy = false;
  };
  static state& shared() {
    thread_local state s;
    return s;
  }
  static void finish(Table& t) noexcept;

  Table* table_;
  std::unique_ptr<Table> own_;
};

/// A received object, by id - 1.
struct object_entry {
  void* object;
  std::shared_ptr<void> owner;  // null when a std::unique_ptr owns the object
  const type_ops* type;
};
using object_table = std::vector<object_entry>;

template <>
inline void table_lease<object_table>::finish(object_table& t) noexcept {
  t.clear();  // releases the archive's references
  if (t.capacity() > (std::size_t{1} << 20)) object_table().swap(t);
}

template <>
inline void table_lease<pointer_map>::finish(pointer_map& t) noexcept {
  t.clear();
  t.release_if_larger(std::size_t{1} << 21);
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

// ---------------------------------------------------------------------------------------------
// Output

class output_archive
    : public cereal::OutputArchive<output_archive, cereal::AllowEmptyClassElision> {
public:
  explicit output_archive(byte_buffer& out) noexcept
      : cereal::OutputArchive<output_archive, cereal::AllowEmptyClassElision>(this), out_(out),
        limit_(oompi::detail::stack_limit()) {}
  output_archive(const output_archive&) = delete;
  output_archive& operator=(const output_archive&) = delete;

  void write_bytes(const void* p, std::size_t n) { out_.append(p, n); }
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
    auto* slot = ids_->find_or_insert(static_cast<const void*>(obj), next_id_, inserted);
    if (!inserted) {
      if (ids_->type_of(slot->id) != detail::key_of<T>()) aliased();
      write_value<std::uint32_t>(slot->id);
      return nullptr;
    }
    ids_->add_type(detail::key_of<T>());
    write_value<std::uint32_t>(take_id() | new_object_flag);
    return obj;
  }
  /// Writes the reference held by a unique owner: never seen before, so no lookup.
  template <class T>
  const T* write_unique(const T* obj) {
    if (obj == nullptr) {
      write_value<std::uint32_t>(0);
      return nullptr;
    }
    ids_->add_type(nullptr);  // never looked up
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
};

// ---------------------------------------------------------------------------------------------
// Input

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
    T v;
    std::memcpy(&v, cur_, sizeof(T));
    cur_ += sizeof(T);
    if constexpr (!detail::host_little_endian && sizeof(T) > 1) v = detail::byteswap(v);
    return v;
  }
  bool read_bool() {
    const auto b = read_value<std::uint8_t>();
    if (b > 1) fail(problem::bool_byte, b, 0, 1);
    return b != 0;
  }
  /// Bytes left that no open sequence has claimed for its elements still to come.
  std::size_t available() const noexcept {
    return remaining() > committed_ ? remaining() - committed_ : 0;
  }
  /// A size: at most the number of bytes available, so a corrupt size cannot make us allocate
  /// more than the message could possibly describe.
  std::uint64_t read_size() {
    const auto n = read_value<std::uint64_t>();
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
    detail::check_reference_target<T>();
    bool is_new = false;
    const std::uint32_t id = read_id(is_new);
    if (id == 0) {
      p.reset();
      return nullptr;
    }
    if (!is_new) {
      p = shared_at<T>(id);
      return nullptr;
    }
    auto obj = make_object<T>();
    T* raw = obj.get();
    objects_->push_back(detail::object_entry{raw, obj, detail::key_of<T>()});
    p = std::move(obj);
    return raw;
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
    objects_->push_back(detail::object_entry{raw, nullptr, detail::key_of<U>()});
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
    for (auto it = objects_->rbegin(); it != objects_->rend(); ++it) it->type->reset(it->object);
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
    const std::size_t known = objects_->size();
    if (id & new_object_flag) {
      const std::uint32_t n = id & ~new_object_flag;
      if (n != known + 1) fail(problem::new_id, n, known + 1, 4);
      is_new = true;
      return n;
    }
    if (id > known) fail(problem::early_reference, id, 0, 4);
    return id;
  }
  template <class T>
  std::shared_ptr<T> shared_at(std::uint32_t id) {
    const detail::object_entry& e = (*objects_)[id - 1];
    if (e.type != detail::key_of<T>()) fail(problem::other_type, id, 0, 4);
    if (!e.owner) fail(problem::unique_shared, id, 0, 4);
    return std::static_pointer_cast<T>(e.owner);
  }
  template <class T>
  static std::shared_ptr<T> make_object() {
    static_assert(std::is_default_constructible_v<T>,
                  "oompi: objects received through a reference are default-constructed first; "
                  "give the type a default constructor");
    return std::make_shared<T>();
  }

  const unsigned char* begin_;
  const unsigned char* cur_;
  const unsigned char* end_;
  detail::table_lease<detail::object_table> objects_;  // object id - 1 -> object
  std::size_t committed_ = 0;  // bytes the open sequences' elements still to come need
  std::size_t depth_ = 0;
  const char* limit_;
};

// ---------------------------------------------------------------------------------------------
// What the archives write for each kind of value. Found by argument-dependent lookup from
// cereal's dispatch; more specialised than cereal's generic overloads, so they win if the user
// also includes cereal's own headers for these types.

// Nesting: every class-type value checks the stack before it is processed.
template <class T>
std::enable_if_t<std::is_class_v<T>> prologue(output_archive& ar, const T&) {
  ar.enter();
}
template <class T>
std::enable_if_t<std::is_class_v<T>> epilogue(output_archive& ar, const T&) noexcept {
  ar.leave();
}
template <class T>
std::enable_if_t<std::is_class_v<T>> prologue(input_archive& ar, const T&) {
  ar.enter();
}
template <class T>
std::enable_if_t<std::is_class_v<T>> epilogue(input_archive& ar, const T&) noexcept {
  ar.leave();
}

// Numbers: fixed width, little endian; bool one byte (0 or 1).
template <class T>
std::enable_if_t<std::is_arithmetic_v<T>> CEREAL_SAVE_FUNCTION_NAME(output_archive& ar,
                                                                     const T& t) {
  static_assert(!std::is_same_v<T, long double>,
                "oompi: long double has no portable wire representation; use double");
  if constexpr (std::is_same_v<T, bool>)
    ar.write_value<std::uint8_t>(t ? 1 : 0);
  else
    ar.write_value(t);
}
template <class T>
std::enable_if_t<std::is_arithmetic_v<T>> CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, T& t) {
  static_assert(!std::is_same_v<T, long double>,
                "oompi: long double has no portable wire representation; use double");
  if constexpr (std::is_same_v<T, bool>)
    t = ar.read_bool();
  else
    t = ar.read_value<T>();
}

// Names are not written (binary format).
template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(output_archive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}
template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(input_archive& ar, cereal::NameValuePair<T>& t) {
  ar(t.value);
}

// Sizes: u64.
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const cereal::SizeTag<T>& t) {
  ar.write_size(static_cast<std::uint64_t>(t.size));
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, cereal::SizeTag<T>& t) {
  using S = std::remove_reference_t<T>;
  const std::uint64_t n = ar.read_size();
  if (n > static_cast<std::uint64_t>(std::numeric_limits<S>::max()))
    ar.corrupt("a size does not fit this platform", 8);
  t.size = static_cast<S>(n);
}

// Packed arithmetic arrays (vector<int>, string, ...).
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const cereal::BinaryData<T>& bd) {
  using E = std::remove_cv_t<std::remove_pointer_t<std::decay_t<T>>>;
  if constexpr (std::is_arithmetic_v<E>)
    ar.write_array(static_cast<const E*>(bd.data), static_cast<std::size_t>(bd.size) / sizeof(E));
  else
    ar.write_bytes(bd.data, static_cast<std::size_t>(bd.size));
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, cereal::BinaryData<T>& bd) {
  using E = std::remove_cv_t<std::remove_pointer_t<std::decay_t<T>>>;
  ar.read_bytes(const_cast<void*>(static_cast<const void*>(bd.data)),
                static_cast<std::size_t>(bd.size));
  if constexpr (std::is_arithmetic_v<E>)
    detail::swap_elements<E>(const_cast<void*>(static_cast<const void*>(bd.data)),
                             static_cast<std::size_t>(bd.size));
}

namespace detail {
// size + elements; arithmetic elements packed.
template <class T>
void save_sequence(output_archive& ar, const T* p, std::size_t n) {
  ar.write_size(n);
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    ar.write_array(p, n);
  } else {
    for (std::size_t i = 0; i < n; ++i) ar(p[i]);
  }
}
template <class T>
void load_fixed_sequence(input_archive& ar, T* p, std::size_t n) {
  const std::uint64_t got = ar.read_value<std::uint64_t>();
  if (got != n)
    ar.corrupt("an array of " + std::to_string(got) + " elements for a fixed size of " +
                   std::to_string(n),
               8);
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    ar.read_array(p, n);
  } else {
    for (std::size_t i = 0; i < n; ++i) ar(p[i]);
  }
}
}  // namespace detail

// Fixed-size arrays carry their size like every array (other languages have no fixed sizes).
template <class T, std::size_t N>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::array<T, N>& a) {
  detail::save_sequence(ar, a.data(), N);
}
template <class T, std::size_t N>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::array<T, N>& a) {
  detail::load_fixed_sequence(ar, a.data(), N);
}
template <class T>
std::enable_if_t<std::is_array_v<T>> CEREAL_SERIALIZE_FUNCTION_NAME(output_archive& ar, T& a) {
  detail::save_sequence(ar, &a[0], std::extent_v<T>);
}
template <class T>
std::enable_if_t<std::is_array_v<T>> CEREAL_SERIALIZE_FUNCTION_NAME(input_archive& ar, T& a) {
  detail::load_fixed_sequence(ar, &a[0], std::extent_v<T>);
}

// References.
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::shared_ptr<T>& p) {
  detail::check_reference_target<std::remove_cv_t<T>>();
  if (const auto* obj = ar.write_shared<std::remove_cv_t<T>>(p.get())) ar(*obj);
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::shared_ptr<T>& p) {
  if (auto* obj = ar.read_shared(p)) ar(*obj);
}
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::weak_ptr<T>& p) {
  detail::check_reference_target<std::remove_cv_t<T>>();
  const std::shared_ptr<T> locked = p.lock();
  if (const auto* obj = ar.write_shared<std::remove_cv_t<T>>(locked.get())) ar(*obj);
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::weak_ptr<T>& p) {
  if (auto* obj = ar.read_shared(p)) ar(*obj);  // the archive keeps it alive until the end
}
template <class T, class D>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::unique_ptr<T, D>& p) {
  detail::check_reference_target<std::remove_cv_t<T>>();
  if (const auto* obj = ar.write_unique<std::remove_cv_t<T>>(p.get())) ar(*obj);
}
template <class T, class D>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::unique_ptr<T, D>& p) {
  if (auto* obj = ar.read_unique(p)) ar(*obj);
}

// ---------------------------------------------------------------------------------------------
// OOMPI_TRANSPORTABLE types: the listed fields in order. When the last field refers to the same
// type, the loop below follows it instead of recursing (same bytes as recursion: the referenced
// object's fields are the last thing written for the current one).

namespace detail {

enum class link_kind { none, shared, weak, unique };
template <class L>
struct link_of {
  static constexpr link_kind kind = link_kind::none;
  using target = void;
};
template <class U>
struct link_of<std::shared_ptr<U>> {
  static constexpr link_kind kind = link_kind::shared;
  using target = std::remove_cv_t<U>;
};
template <class U>
struct link_of<std::weak_ptr<U>> {
  static constexpr link_kind kind = link_kind::weak;
  using target = std::remove_cv_t<U>;
};
template <class U>
struct link_of<std::unique_ptr<U>> {
  static constexpr link_kind kind = link_kind::unique;
  using target = std::remove_cv_t<U>;
};
/// Is L (the type of T's last field) a reference to another T?
template <class L, class T>
inline constexpr bool is_tail_link_v =
    link_of<L>::kind != link_kind::none && std::is_same_v<typename link_of<L>::target, T>;

template <class T, std::size_t I>
using field_type_t = std::remove_cv_t<std::remove_reference_t<decltype(
    std::declval<T&>().*(std::get<I>(oompi::detail::fields_of<T>::list).member))>>;

// Fields of the commonest kinds are written directly, the rest through cereal's dispatch; the
// bytes are the same either way.
template <class F>
struct packed_array : std::false_type {};
template <class E>
struct packed_array<std::vector<E>>
    : std::bool_constant<std::is_arithmetic_v<E> && !std::is_same_v<E, bool> &&
                         !std::is_same_v<E, long double>> {};
template <>
struct packed_array<std::string> : std::true_type {};

template <class F>
[[gnu::always_inline]] inline void save_field(output_archive& ar, const F& f) {
  static_assert(!std::is_pointer_v<F>,
                "oompi: raw pointers do not travel (who would own the received object?). Use "
                "std::shared_ptr or std::unique_ptr, or leave the field out of "
                "OOMPI_TRANSPORTABLE");
  if constexpr (std::is_arithmetic_v<F> && !std::is_same_v<F, bool> &&
                !std::is_same_v<F, long double>) {
    ar.write_value(f);
  } else if constexpr (packed_array<F>::value) {
    ar.write_packed(f.data(), f.size());
  } else {
    ar(f);
  }
}
/// The n elements of a vector of numbers or a string, n already read (n <= ar.remaining()).
template <class F>
[[gnu::always_inline]] inline void load_packed(input_archive& ar, F& f, std::size_t n) {
  using E = typename F::value_type;
  ar.need(n * sizeof(E));  // n <= remaining(): no overflow
  if (n == 0) {
    f.clear();
  } else if (n * sizeof(E) <= 64) {  // short: copy once more rather than zero-fill first
    E tmp[64 / sizeof(E)];
    ar.read_array(tmp, n);
    f.assign(tmp, tmp + n);
  } else {
    f.resize(n);
    ar.read_array(f.data(), n);
  }
}
template <class F>
[[gnu::always_inline]] inline void load_field(input_archive& ar, F& f) {
  static_assert(!std::is_pointer_v<F>,
                "oompi: raw pointers do not travel (who would own the received object?). Use "
                "std::shared_ptr or std::unique_ptr, or leave the field out of "
                "OOMPI_TRANSPORTABLE");
  if constexpr (std::is_arithmetic_v<F> && !std::is_same_v<F, bool> &&
                !std::is_same_v<F, long double>) {
    f = ar.read_value<F>();
  } else if constexpr (packed_array<F>::value) {
    load_packed(ar, f, static_cast<std::size_t>(ar.read_size()));
  } else {
    ar(f);
  }
}

template <class T, std::size_t... I>
void save_leading(output_archive& ar, const T& obj, std::index_sequence<I...>) {
  (save_field(ar, obj.*(std::get<I>(oompi::detail::fields_of<T>::list).member)), ...);
}
template <class T, std::size_t... I>
void load_leading(input_archive& ar, T& obj, std::index_sequence<I...>) {
  (load_field(ar, obj.*(std::get<I>(oompi::detail::fields_of<T>::list).member)), ...);
}

template <class T>
void save_fields(output_archive& ar, const T& first) {
  using F = oompi::detail::fields_of<T>;
  constexpr std::size_t last = F::count - 1;
  using L = field_type_t<T, last>;
  const T* obj = &first;
  for (;;) {
    save_leading(ar, *obj, std::make_index_sequence<last>{});
    const L& link = obj->*(std::get<last>(F::list).member);
    if constexpr (is_tail_link_v<L, T>) {
      check_reference_target<T>();
      if constexpr (link_of<L>::kind == link_kind::unique)
        obj = ar.write_unique<T>(link.get());
      else if constexpr (link_of<L>::kind == link_kind::shared)
        obj = ar.write_shared<T>(link.get());
      else  // weak_ptr: the target is owned elsewhere, so the raw pointer stays valid
        obj = ar.write_shared<T>(link.lock().get());
      if (obj == nullptr) return;
    } else {
      save_field(ar, link);
      return;
    }
  }
}

template <class T>
void load_fields(input_archive& ar, T& first) {
  using F = oompi::detail::fields_of<T>;
  constexpr std::size_t last = F::count - 1;
  using L = field_type_t<T, last>;
  T* obj = &first;
  for (;;) {
    load_leading(ar, *obj, std::make_index_sequence<last>{});
    L& link = obj->*(std::get<last>(F::list).member);
    if constexpr (is_tail_link_v<L, T>) {
      if constexpr (link_of<L>::kind == link_kind::unique)
        obj = ar.read_unique(link);
      else
        obj = ar.read_shared(link);
      if (obj == nullptr) return;
    } else {
      load_field(ar, link);
      return;
    }
  }
}

// Linear chains. When the last field of T is a std::shared_ptr<T> and no other field can hold a
// reference (numbers, strings, vectors of numbers), the objects of a message whose root is a
// std::shared_ptr<T> are exactly root, root->next, ...: a list, maybe closed into a cycle. Such a
// message needs no identity table (as Java's WirePlan.writeRoot): the writer finds the end or
// the cycle first (Brent: mu nodes before the cycle, lambda in it) and numbers the nodes in
// order; the reader counts them, and the one back-reference a list can hold (the link closing
// its cycle) is the id-th node from the root. Same bytes as the general path.

template <class F>
inline constexpr bool leaf_field_v =
    (std::is_arithmetic_v<F> && !std::is_same_v<F, long double>) || packed_array<F>::value;

template <class T, std::size_t... I>
constexpr bool leading_leaves(std::index_sequence<I...>) {
  return (leaf_field_v<field_type_t<T, I>> && ...);
}

/// Is T a chain type with links of kind K (the last field a K-owner of T, the others leaves)?
/// `compact`: and it can travel as a compact chain (§2.1: at least one field besides the link).
template <class T, link_kind K, class = void>
struct chain_of : std::false_type {
  static constexpr bool compact = false;
};
template <class T, link_kind K>
struct chain_of<T, K, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>>> {
  using F = oompi::detail::fields_of<T>;
  using L = field_type_t<T, F::count - 1>;
  static constexpr bool value = link_of<L>::kind == K && is_tail_link_v<L, T> &&
                                leading_leaves<T>(std::make_index_sequence<F::count - 1>{});
  static constexpr bool compact = value && F::count > 1;
};
template <class T>
using linear_chain = chain_of<T, link_kind::shared>;

/// Is T (the root of a message) a std::shared_ptr to a linear chain type?
template <class T>
struct linear_root : std::false_type {};
template <class U>
struct linear_root<std::shared_ptr<U>>
    : std::bool_constant<!std::is_const_v<U> && !std::is_volatile_v<U> && linear_chain<U>::value> {};

/// Can T (the root of a message) receive a compact chain (§2.1: a chain type with at least one
/// field besides the link, held by a std::shared_ptr or std::unique_ptr)?
template <class T>
struct compact_root : std::false_type {};
template <class U>
struct compact_root<std::shared_ptr<U>>
    : std::bool_constant<!std::is_const_v<U> && !std::is_volatile_v<U> &&
                         chain_of<U, link_kind::shared>::compact> {};
template <class U>
struct compact_root<std::unique_ptr<U>>
    : std::bool_constant<!std::is_const_v<U> && !std::is_volatile_v<U> &&
                         chain_of<U, link_kind::unique>::compact> {};

template <class T>
auto& chain_link(T& obj) noexcept {
  using F = oompi::detail::fields_of<std::remove_const_t<T>>;
  return obj.*(std::get<F::count - 1>(F::list).member);
}

/// Where a list starting at o ends or closes (Brent's cycle finding): `mu` nodes before the
/// cycle and `lambda` in it, or mu = none when the list ends in null.
struct chain_shape {
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  std::uint64_t mu = none, lambda = 0;
};
template <class T>
chain_shape shape_of_chain(const T* o) {
  chain_shape s;
  if (o == nullptr) return s;
  std::uint64_t power = 1, lam = 1;
  const T* tortoise = o;
  const T* hare = chain_link(*o).get();
  while (hare != nullptr && hare != tortoise) {
    if (power == lam) {
      tortoise = hare;
      power <<= 1;
      lam = 0;
    }
    hare = chain_link(*hare).get();
    ++lam;
  }
  if (hare == nullptr) return s;
  s.lambda = lam;
  const T* t = o;
  const T* h = o;
  for (std::uint64_t i = 0; i < s.lambda; ++i) h = chain_link(*h).get();
  for (s.mu = 0; t != h; ++s.mu) {
    t = chain_link(*t).get();
    h = chain_link(*h).get();
  }
  return s;
}

template <class T>
void save_linear_chain(output_archive& ar, const T* o) {
  using F = oompi::detail::fields_of<T>;
  const chain_shape shape = shape_of_chain(o);
  const std::uint64_t end = shape.mu == chain_shape::none ? chain_shape::none
                                                          : shape.mu + shape.lambda;
  std::uint32_t mu_id = 0;
  for (std::uint64_t index = 0;; ++index) {
    if (o == nullptr) {
      ar.write_value<std::uint32_t>(0);
      return;
    }
    if (index == end) {
      ar.write_value<std::uint32_t>(mu_id);
      return;
    }
    const std::uint32_t id = ar.untracked_id();
    if (index == shape.mu) mu_id = id;
    ar.write_value<std::uint32_t>(id | new_object_flag);
    save_leading(ar, *o, std::make_index_sequence<F::count - 1>{});
    o = chain_link(*o).get();
  }
}

template <class T, std::size_t... I>
void save_compact_leading(output_archive& ar, const T& obj, std::index_sequence<I...>) {
  const auto one = [&ar](const auto& f) {
    using F = std::decay_t<decltype(f)>;
    if constexpr (packed_array<F>::value) {
      ar.write_varint(f.size());
      ar.write_array(f.data(), f.size());
    } else {
      save_field(ar, f);
    }
  };
  (one(obj.*(std::get<I>(oompi::detail::fields_of<T>::list).member)), ...);
}
template <class T, std::size_t... I>
void load_compact_leading(input_archive& ar, T& obj, std::index_sequence<I...>) {
  const auto one = [&ar](auto& f) {
    using F = std::decay_t<decltype(f)>;
    if constexpr (packed_array<F>::value)
      load_packed(ar, f, static_cast<std::size_t>(ar.read_varint_size()));
    else
      load_field(ar, f);
  };
  (one(obj.*(std::get<I>(oompi::detail::fields_of<T>::list).member)), ...);
}

/// Writes the list at o as a compact chain (§2.1; o not null): the marker, n, close, the nodes.
template <class T>
void save_compact_chain(output_archive& ar, const T* o) {
  using F = oompi::detail::fields_of<T>;
  const chain_shape shape = shape_of_chain(o);
  std::uint64_t n = 0, close = 0;
  if (shape.mu == chain_shape::none) {
    for (const T* p = o; p != nullptr; p = chain_link(*p).get()) ++n;
  } else {
    n = shape.mu + shape.lambda;
    close = shape.mu + 1;
  }
  if (n > max_object_id) throw serialization_error("more than 2^31-1 objects in one message");
  ar.write_value<std::uint32_t>(new_object_flag);
  ar.write_value(static_cast<std::uint32_t>(n));
  ar.write_value(static_cast<std::uint32_t>(close));
  for (std::uint64_t i = 0; i < n; ++i, o = chain_link(*o).get())
    save_compact_leading(ar, *o, std::make_index_sequence<F::count - 1>{});
}

/// Empties a partly read chain front to back (a long one is not destroyed recursively, a cycle
/// is broken); the root stays, empty, as after a failed read of any other graph.
template <class P>
void abandon_linear_chain(P& root) noexcept {
  using T = typename P::element_type;
  if (!root) return;
  P rest = std::move(chain_link(*root));
  reset_object<T>(root.get());
  while (rest) {
    P after = std::move(chain_link(*rest));
    reset_object<T>(rest.get());
    rest = std::move(after);
  }
}

/// `started` tells whether root was replaced (what to empty if the read fails).
template <class T>
void load_linear_chain(input_archive& ar, std::shared_ptr<T>& root, bool& started) {
  using F = oompi::detail::fields_of<T>;
  static_assert(std::is_default_constructible_v<T>,
                "oompi: objects received through a reference are default-constructed first; "
                "give the type a default constructor");
  std::shared_ptr<T>* link = &root;
  for (std::uint32_t known = 0;;) {
    bool is_new = false;
    const std::uint32_t id = ar.read_chain_id(known, is_new);
    started = true;
    if (id == 0) {
      link->reset();
      return;
    }
    if (!is_new) {  // closes a cycle: node id, counted from the root
      const std::shared_ptr<T>* target = &root;
      for (std::uint32_t k = 1; k < id; ++k) target = &chain_link(**target);
      *link = *target;
      return;
    }
    *link = std::make_shared<T>();
    ++known;
    T& obj = **link;
    load_leading(ar, obj, std::make_index_sequence<F::count - 1>{});
    link = &chain_link(obj);
  }
}

/// Reads a compact chain (§2.1) after its marker into root (a std::shared_ptr or
/// std::unique_ptr); `started` as above.
template <class P>
void load_compact_chain(input_archive& ar, P& root, bool& started) {
  using T = typename P::element_type;
  using F = oompi::detail::fields_of<T>;
  static_assert(std::is_default_constructible_v<T>,
                "oompi: objects received through a reference are default-constructed first; "
                "give the type a default constructor");
  constexpr bool shared = link_of<P>::kind == link_kind::shared;
  const auto n = ar.read_value<std::uint32_t>();
  const auto close = ar.read_value<std::uint32_t>();
  if (n == 0) ar.corrupt("a compact chain of 0 nodes", 8);
  if (n > ar.remaining())  // every node takes at least one byte
    ar.corrupt("a compact chain of " + std::to_string(n) + " nodes with only " +
                   std::to_string(ar.remaining()) + " bytes left",
               8);
  if (close > n)
    ar.corrupt("a compact chain of " + std::to_string(n) + " nodes closing on node " +
                   std::to_string(close),
               4);
  if (!shared && close != 0)
    ar.corrupt("a compact chain closing into a cycle, but the receiving link is a "
               "std::unique_ptr (use std::shared_ptr)",
               4);
  started = true;
  P* link = &root;
  const P* target = nullptr;
  for (std::uint32_t i = 1; i <= n; ++i) {
    if constexpr (shared)
      *link = std::make_shared<T>();
    else
      *link = std::make_unique<T>();
    if (i == close) target = link;
    T& obj = **link;
    load_compact_leading(ar, obj, std::make_index_sequence<F::count - 1>{});
    link = &chain_link(obj);
  }
  if constexpr (shared) {
    if (target != nullptr) *link = *target;
  }
}

}  // namespace detail

template <class T, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>, int> = 0>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const T& obj) {
  detail::save_fields(ar, obj);
}
template <class T, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>, int> = 0>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, T& obj) {
  detail::load_fields(ar, obj);
}

// ---------------------------------------------------------------------------------------------

}  // namespace oompi::wire

#include "wire_bounds.hpp"  // bounded sequence loaders (needs the archive and field helpers above)

// An OOMPI_TRANSPORTABLE type uses the field list even if it also has a serialize function
// (say, Boost's two-argument one): tell cereal's dispatch so, instead of an ambiguity.
namespace oompi::wire::detail {
struct use_field_list {};
template <class T>
using field_list_specialization =
    std::conditional_t<oompi::detail::has_transportable_fields_v<T>, use_field_list, std::false_type>;
}  // namespace oompi::wire::detail
namespace cereal {
template <class T>
struct specialize<oompi::wire::output_archive, T, specialization::non_member_load_save>
    : oompi::wire::detail::field_list_specialization<T> {};
template <class T>
struct specialize<oompi::wire::input_archive, T, specialization::non_member_load_save>
    : oompi::wire::detail::field_list_specialization<T> {};
}  // namespace cereal

namespace oompi::wire {

/// True for types that travel in wire format v1: cereal can serialize them with these archives
/// and they use no cereal class versioning (whose version numbers are not in the format; types
/// with a two-argument serialize go to the Boost back end instead).
template <class T>
inline constexpr bool is_transportable_v =
    oompi::detail::has_transportable_fields_v<T> ||
    (cereal::traits::is_output_serializable<T, output_archive>::value &&
    cereal::traits::is_input_serializable<T, input_archive>::value &&
    !cereal::traits::has_member_versioned_serialize<T, output_archive>::value &&
    !cereal::traits::has_non_member_versioned_serialize<T, output_archive>::value &&
    !cereal::traits::has_member_versioned_save<T, output_archive>::value &&
    !cereal::traits::has_non_member_versioned_save<T, output_archive>::value);

/// Appends the wire v1 encoding of obj to out.
template <class T>
void save(byte_buffer& out, const T& obj) {
  output_archive ar(out);
  if constexpr (detail::linear_root<T>::value)
    detail::save_linear_chain(ar, obj.get());
  else
    ar(obj);
}
/// Reads obj from exactly [data, data + size).
template <class T>
void load(const void* data, std::size_t size, T& obj) {
  input_archive ar(data, size);
  bool chain = false;    // read by a chain reader (no object table): emptied by walking it
  bool started = false;  // obj replaced: what to empty if the read fails
  try {
    if constexpr (detail::compact_root<T>::value) {
      chain = ar.take_compact_marker();
      if (chain) detail::load_compact_chain(ar, obj, started);
    }
    if (!chain) {
      if constexpr (detail::linear_root<T>::value) {
        chain = true;
        detail::load_linear_chain(ar, obj, started);
      } else {
        ar(obj);
      }
    }
    ar.finish();
  } catch (...) {
    if constexpr (detail::compact_root<T>::value || detail::linear_root<T>::value) {
      if (chain) {
        if (started) detail::abandon_linear_chain(obj);
        throw;
      }
    }
    ar.abandon();
    throw;
  }
}
/// Appends the compact chain form (docs/wire-format.md 2.1) of a chain-type root to out: what
/// the Java, C# and Python bindings write. A null root is written as in 1.0 (a null reference).
template <class T>
void save_compact(byte_buffer& out, const T& root) {
  static_assert(detail::compact_root<T>::value,
                "oompi::wire::save_compact: the root must be a std::shared_ptr or std::unique_ptr "
                "to a chain type (last field a link to the same type, every other field a "
                "number, a string or a vector of numbers, at least one of them)");
  output_archive ar(out);
  if (root)
    detail::save_compact_chain(ar, root.get());
  else
    ar.write_value<std::uint32_t>(0);
}
/// A slice of an array of objects, encoded as a std::vector<T> of its elements (one graph).
template <class T>
void save_sequence(byte_buffer& out, const T* first, std::size_t count) {
  output_archive ar(out);
  detail::save_sequence(ar, first, count);
}
/// Appends the elements of an encoded std::vector<T> to out.
template <class T>
void load_sequence(const void* data, std::size_t size, std::vector<T>& out) {
  input_archive ar(data, size);
  const std::size_t base = out.size();
  try {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      const std::size_t count = ar.read_count(sizeof(T));
      out.resize(base + count);
      ar.begin_element(count * sizeof(T));
      ar.read_array(out.data() + base, count);
    } else {
      detail::load_elements(ar, out, base, ar.read_count(detail::min_wire_size_v<T>));
    }
    ar.finish();
  } catch (...) {
    ar.abandon();
    out.resize(base);
    throw;
  }
}

}  // namespace oompi::wire

CEREAL_SETUP_ARCHIVE_TRAITS(oompi::wire::input_archive, oompi::wire::output_archive)

#endif  // OOMPI_SERIALIZATION_WIRE_HPP
