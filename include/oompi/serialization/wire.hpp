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
//
// The parts, one concept each, in wire/: common.hpp (ids, byte order, type identity),
// identity_tables.hpp (the writer's address -> id map, the reader's object table),
// output_archive.hpp and input_archive.hpp (writer and reader), values.hpp (numbers, sizes,
// arrays, references), fields.hpp (OOMPI_TRANSPORTABLE types), chains.hpp (lists at the root),
// weak_free.hpp (which messages may identify objects by their owner); wire_bounds.hpp (bounded sequence loaders). This file includes them all and holds the entry
// points (save, load, ...).

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

// The parts, in the order they build on each other.
#include "wire/common.hpp"
#include "wire/identity_tables.hpp"
#include "wire/output_archive.hpp"
#include "wire/input_archive.hpp"
#include "wire/values.hpp"
#include "wire/fields.hpp"
#include "wire/chains.hpp"
#include "wire/weak_free.hpp"
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
  ar.identify_by_owner(detail::weak_free_v<T>);
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
  ar.identify_by_owner(detail::weak_free_v<T>);
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
