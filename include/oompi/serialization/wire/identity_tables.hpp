#ifndef OOMPI_SERIALIZATION_WIRE_IDENTITY_TABLES_HPP
#define OOMPI_SERIALIZATION_WIRE_IDENTITY_TABLES_HPP

// The tables that keep shared references shared: the writer's address -> id map and the
// reader's id -> object table, leased per thread so that one allocation serves every message.
// Part of wire.hpp; include that.

#include "common.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi::wire::detail {

/// address -> object id and type, open addressing with linear probing (no node allocations),
/// 24-byte slots. Emptied in O(1) by a generation count, so one table per thread serves every
/// message. Only objects that may be met again are entered: an object with one owner gets its id
/// and nothing else (output_archive::write_owned), so a tree costs no table work at all.
class pointer_map {
public:
  struct slot {
    const void* key;
    const type_ops* type;      // checked when a reference repeats
    std::uint32_t id;
    std::uint32_t generation;  // the slot is in use when this is the table's generation
  };

  /// Forgets every entry.
  void clear() noexcept {
    size_ = 0;
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
    }
  }

  /// The slot of `key`, inserting {key, type, id} if absent (`inserted` tells).
  [[gnu::always_inline]] slot* find_or_insert(const void* key, const type_ops* type,
                                              std::uint32_t id, bool& inserted) {
    if ((size_ + 1) * 2 > capacity_) rehash(capacity_ ? capacity_ * 2 : 256);
    std::size_t i = index_of(key);
    for (;;) {
      slot& s = slots_[i];
      if (s.generation != generation_) {
        s = slot{key, type, id, generation_};
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

/// A received object, by id - 1. What a back-reference to it copies: when the object arrived
/// through a std::shared_ptr that stays where it is until the read ends (a field of an object
/// the reader made), that pointer (`where`, no reference count taken: most objects are never
/// referred to again); otherwise the reference the table keeps (`owner`). Neither when a
/// std::unique_ptr owns the object. Trivially destructible, so that a message's entries are
/// let go of in O(1) (issue 28: a tree's nodes are never referred to again).
struct object_entry {
  object_entry(void* o, const type_ops* t, const void* w, std::uint32_t n) noexcept
      : object(o), type(t), where(w), owner(n) {}
  void* object;                 // what input_archive::abandon empties
  const type_ops* type;
  const void* where;            // a std::shared_ptr<T> (T = the object's type) holding it, or null
  std::uint32_t owner;          // 1 + its index in object_table::owners, or 0
};
struct object_table {
  std::vector<object_entry> entries;
  std::vector<std::shared_ptr<void>> owners;  // objects that no in-place pointer holds
};

template <>
inline void table_lease<object_table>::finish(object_table& t) noexcept {
  t.entries.clear();
  t.owners.clear();  // releases the archive's references
  if (t.entries.capacity() > (std::size_t{1} << 20)) std::vector<object_entry>().swap(t.entries);
  if (t.owners.capacity() > (std::size_t{1} << 20)) std::vector<std::shared_ptr<void>>().swap(t.owners);
}

template <>
inline void table_lease<pointer_map>::finish(pointer_map& t) noexcept {
  t.clear();
  t.release_if_larger(std::size_t{1} << 21);
}

}  // namespace oompi::wire::detail

#endif  // OOMPI_SERIALIZATION_WIRE_IDENTITY_TABLES_HPP
