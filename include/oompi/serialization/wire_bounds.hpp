#ifndef OOMPI_SERIALIZATION_WIRE_BOUNDS_HPP
#define OOMPI_SERIALIZATION_WIRE_BOUNDS_HPP

// Bounded reading of sequences (docs/wire-format.md, "Bounds"). A message can claim any element
// count; cereal's own loaders resize to it before reading a byte, so that 1 MiB of int32 read as
// a vector of 32 KiB objects asked for 8 GiB, and a type holding a vector of itself, each level
// claiming every byte left, allocated with the square of the message size. The loaders here,
// which cereal's dispatch prefers for oompi's input archive, first check the count against what
// the bytes left can hold at each element's minimum encoded size (min_wire_size_v), claim those
// bytes for the elements to come (input_archive::read_count), and only then allocate; so the
// sequences open at once never describe more than the message, and a corrupt or mismatched
// message is a serialization_error with memory a small multiple of its size.
//
// Part of wire.hpp; include that.

#include "wire/fields.hpp"

#include <array>
#include <cstddef>
#include <deque>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace oompi::wire::detail {

/// The fewest bytes any value of T takes in wire format v1, at least 1 (a type serialized by its
/// own cereal function, whose encoding oompi cannot see: 1, as docs/wire-format.md requires of
/// every element).
template <class T, class = void>
struct min_wire_size : std::integral_constant<std::size_t, 1> {};

template <class T>
inline constexpr std::size_t min_wire_size_v = min_wire_size<std::remove_cv_t<T>>::value;

template <class T>
struct min_wire_size<T, std::enable_if_t<std::is_arithmetic_v<T>>>
    : std::integral_constant<std::size_t, std::is_same_v<T, bool> ? 1 : sizeof(T)> {};
// Sizes are a u64, references a u32 id, an optional a presence byte.
template <class C, class Tr, class A>
struct min_wire_size<std::basic_string<C, Tr, A>> : std::integral_constant<std::size_t, 8> {};
template <class T, class A>
struct min_wire_size<std::vector<T, A>> : std::integral_constant<std::size_t, 8> {};
template <class T, class A>
struct min_wire_size<std::deque<T, A>> : std::integral_constant<std::size_t, 8> {};
template <class T, class A>
struct min_wire_size<std::list<T, A>> : std::integral_constant<std::size_t, 8> {};
template <template <class...> class M, class... A>
struct min_wire_size<M<A...>, std::void_t<typename M<A...>::key_type>>
    : std::integral_constant<std::size_t, 8> {};  // std::map, std::set, std::unordered_*, multi-
template <class T>
struct min_wire_size<std::shared_ptr<T>> : std::integral_constant<std::size_t, 4> {};
template <class T>
struct min_wire_size<std::weak_ptr<T>> : std::integral_constant<std::size_t, 4> {};
template <class T, class D>
struct min_wire_size<std::unique_ptr<T, D>> : std::integral_constant<std::size_t, 4> {};
template <class T>
struct min_wire_size<std::optional<T>> : std::integral_constant<std::size_t, 1> {};
template <class T, std::size_t N>
struct min_wire_size<std::array<T, N>>
    : std::integral_constant<std::size_t, 8 + N * min_wire_size_v<T>> {};
template <class A, class B>
struct min_wire_size<std::pair<A, B>>
    : std::integral_constant<std::size_t, min_wire_size_v<A> + min_wire_size_v<B>> {};
template <class... E>
struct min_wire_size<std::tuple<E...>>
    : std::integral_constant<std::size_t, (std::size_t{0} + ... + min_wire_size_v<E>)> {};

template <class T, std::size_t... I>
constexpr std::size_t min_fields_size(std::index_sequence<I...>) {
  return (std::size_t{0} + ... + min_wire_size_v<field_type_t<T, I>>);
}
// An OOMPI_TRANSPORTABLE type: its fields. (A type cannot hold itself by value, and containers
// and references stop the recursion, so this always ends.)
template <class T>
struct min_wire_size<T, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>>>
    : std::integral_constant<std::size_t,
                             min_fields_size<T>(
                                 std::make_index_sequence<oompi::detail::fields_of<T>::count>{})> {};

/// Reads n elements of at least m bytes each (claimed by read_count) into c from index `base`
/// on. Allocates at once when an element's memory is at most 16 times its minimum encoding;
/// otherwise (objects much larger than their encoding, or of unknown encoding) grows with the
/// elements actually read, so memory stays proportional to the bytes consumed.
template <class C>
void load_elements(input_archive& ar, C& c, std::size_t base, std::size_t n) {
  using T = typename C::value_type;
  constexpr std::size_t m = min_wire_size_v<T>;
  if (sizeof(T) <= 16 * m || n <= 16) {
    c.resize(base + n);
    auto it = c.begin();
    std::advance(it, base);
    for (std::size_t i = 0; i < n; ++i, ++it) {
      ar.begin_element(m);
      ar(*it);
    }
  } else {
    c.resize(base);
    for (std::size_t i = 0; i < n; ++i) {
      ar.begin_element(m);
      c.emplace_back();
      ar(c.back());
    }
  }
}

}  // namespace oompi::wire::detail

namespace oompi::wire {

// Found by argument-dependent lookup from cereal's dispatch, and more specialised than cereal's
// loaders (the archive is fixed), so these win.

template <class T, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::vector<T, A>& v) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    const std::size_t n = ar.read_count(sizeof(T));
    ar.begin_element(n * sizeof(T));  // read at once
    v.resize(n);
    ar.read_array(v.data(), n);
  } else {
    detail::load_elements(ar, v, 0, ar.read_count(detail::min_wire_size_v<T>));
  }
}
template <class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::vector<bool, A>& v) {
  const std::size_t n = ar.read_count(1);
  ar.begin_element(n);
  v.resize(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = ar.read_bool();
}
template <class C, class Tr, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::basic_string<C, Tr, A>& s) {
  const std::size_t n = ar.read_count(sizeof(C));
  ar.begin_element(n * sizeof(C));
  s.resize(n);
  ar.read_array(s.data(), n);
}
template <class T, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::deque<T, A>& d) {
  detail::load_elements(ar, d, 0, ar.read_count(detail::min_wire_size_v<T>));
}
template <class T, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::list<T, A>& l) {
  const std::size_t n = ar.read_count(detail::min_wire_size_v<T>);
  l.clear();  // node by node: memory follows the elements read
  for (std::size_t i = 0; i < n; ++i) {
    ar.begin_element(detail::min_wire_size_v<T>);
    l.emplace_back();
    ar(l.back());
  }
}
namespace detail {
template <class S>
void load_hashed_set(input_archive& ar, S& s) {
  using K = typename S::key_type;
  const std::size_t n = ar.read_count(min_wire_size_v<K>);
  s.clear();
  s.reserve(n);  // n <= bytes left
  for (std::size_t i = 0; i < n; ++i) {
    ar.begin_element(min_wire_size_v<K>);
    K key;
    ar(key);
    s.emplace(std::move(key));
  }
}
}  // namespace detail
template <class K, class H, class E, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::unordered_set<K, H, E, A>& s) {
  detail::load_hashed_set(ar, s);
}
template <class K, class H, class E, class A>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::unordered_multiset<K, H, E, A>& s) {
  detail::load_hashed_set(ar, s);
}

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_BOUNDS_HPP
