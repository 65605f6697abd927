#ifndef OOMPI_SERIALIZATION_WIRE_WEAK_FREE_HPP
#define OOMPI_SERIALIZATION_WIRE_WEAK_FREE_HPP

// Can a message of type T hold a std::weak_ptr anywhere? When it cannot, an object whose
// std::shared_ptr owner holds the only reference to it is met exactly once in the message, and
// the writer gives it an id without entering it in its identity table
// (output_archive::write_owned). Decided at compile time over T's fields, containers and
// references; a type serialized by its own cereal function, whose fields oompi cannot see,
// counts as possibly holding one. Part of wire.hpp; include that.

#include "../transportable.hpp"
#include "fields.hpp"

#include <array>
#include <cstddef>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace oompi::wire::detail {

/// The OOMPI_TRANSPORTABLE types being looked at (a type may refer to itself).
template <class... S>
struct seen_types {};
template <class T, class Seen>
struct is_seen;
template <class T, class... S>
struct is_seen<T, seen_types<S...>> : std::bool_constant<(std::is_same_v<T, S> || ...)> {};
template <class T, class Seen>
struct with_seen;
template <class T, class... S>
struct with_seen<T, seen_types<S...>> {
  using type = seen_types<T, S...>;
};

template <class T, class Seen = seen_types<>, class = void>
struct weak_free : std::false_type {};  // unknown: may hold one
template <class T, class Seen = seen_types<>>
inline constexpr bool weak_free_v = weak_free<std::remove_cv_t<T>, Seen>::value;
template <class Seen, class... E>
inline constexpr bool all_weak_free_v = (weak_free_v<E, Seen> && ...);

template <class T, class Seen>
struct weak_free<T, Seen, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>>
    : std::true_type {};
template <class C, class Tr, class A, class Seen>
struct weak_free<std::basic_string<C, Tr, A>, Seen> : std::true_type {};
template <class E, std::size_t N, class Seen>
struct weak_free<E[N], Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class E, std::size_t N, class Seen>
struct weak_free<std::array<E, N>, Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class E, class A, class Seen>
struct weak_free<std::vector<E, A>, Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class E, class A, class Seen>
struct weak_free<std::deque<E, A>, Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class E, class A, class Seen>
struct weak_free<std::list<E, A>, Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class E, class Seen>
struct weak_free<std::optional<E>, Seen> : std::bool_constant<weak_free_v<E, Seen>> {};
template <class K, class C, class A, class Seen>
struct weak_free<std::set<K, C, A>, Seen> : std::bool_constant<weak_free_v<K, Seen>> {};
template <class K, class H, class E, class A, class Seen>
struct weak_free<std::unordered_set<K, H, E, A>, Seen>
    : std::bool_constant<weak_free_v<K, Seen>> {};
template <class K, class V, class C, class A, class Seen>
struct weak_free<std::map<K, V, C, A>, Seen> : std::bool_constant<all_weak_free_v<Seen, K, V>> {};
template <class K, class V, class H, class E, class A, class Seen>
struct weak_free<std::unordered_map<K, V, H, E, A>, Seen>
    : std::bool_constant<all_weak_free_v<Seen, K, V>> {};
template <class A, class B, class Seen>
struct weak_free<std::pair<A, B>, Seen> : std::bool_constant<all_weak_free_v<Seen, A, B>> {};
template <class... E, class Seen>
struct weak_free<std::tuple<E...>, Seen> : std::bool_constant<all_weak_free_v<Seen, E...>> {};
template <class U, class Seen>
struct weak_free<std::shared_ptr<U>, Seen> : std::bool_constant<weak_free_v<U, Seen>> {};
template <class U, class D, class Seen>
struct weak_free<std::unique_ptr<U, D>, Seen> : std::bool_constant<weak_free_v<U, Seen>> {};
template <class U, class Seen>
struct weak_free<std::weak_ptr<U>, Seen> : std::false_type {};

template <class T, class Seen, std::size_t... I>
constexpr bool fields_weak_free(std::index_sequence<I...>) {
  return (weak_free_v<field_type_t<T, I>, Seen> && ...);
}
/// The fields of T, with T among the types looked at (instantiated only when T is not).
template <class T, class Seen>
struct fields_weak_free_t
    : std::bool_constant<fields_weak_free<T, typename with_seen<T, Seen>::type>(
          std::make_index_sequence<oompi::detail::fields_of<T>::count>{})> {};
template <class T, class Seen>
struct weak_free<T, Seen, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>>>
    : std::disjunction<is_seen<T, Seen>, fields_weak_free_t<T, Seen>> {};

}  // namespace oompi::wire::detail

#endif  // OOMPI_SERIALIZATION_WIRE_WEAK_FREE_HPP
