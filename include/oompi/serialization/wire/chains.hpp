#ifndef OOMPI_SERIALIZATION_WIRE_CHAINS_HPP
#define OOMPI_SERIALIZATION_WIRE_CHAINS_HPP

// Linked lists at the root of a message: the linear chain (no identity table, the bytes of
// the general path) and the compact chain of wire 1.1 (docs/wire-format.md 2.1). Part of
// wire.hpp; include that.

#include "fields.hpp"

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

namespace detail {

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

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_CHAINS_HPP
