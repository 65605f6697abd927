#ifndef OOMPI_SERIALIZATION_WIRE_FIELDS_HPP
#define OOMPI_SERIALIZATION_WIRE_FIELDS_HPP

// OOMPI_TRANSPORTABLE types: their listed fields in order, the commonest kinds written
// directly, a last field that links to the same type followed by a loop. Part of wire.hpp;
// include that.

#include "../transportable.hpp"
#include "values.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi::wire {

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
/// std::array of numbers: its size (as every array carries) and the packed elements.
template <class F>
struct fixed_packed_array : std::false_type {};
template <class E, std::size_t N>
struct fixed_packed_array<std::array<E, N>>
    : std::bool_constant<std::is_arithmetic_v<E> && !std::is_same_v<E, bool> &&
                         !std::is_same_v<E, long double>> {};

/// Is F a std::shared_ptr<U> (U neither const nor volatile) that can be read in place (and written
/// without cereal's dispatch)?
template <class F>
struct in_place_link : std::false_type {};
template <class U>
struct in_place_link<std::shared_ptr<U>>
    : std::bool_constant<!std::is_const_v<U> && !std::is_volatile_v<U>> {};

template <class T>
void save_object(output_archive& ar, const T& obj);

/// A number written as itself (a bool is one byte 0 or 1; long double does not travel).
template <class F>
inline constexpr bool plain_number_v =
    std::is_arithmetic_v<F> && !std::is_same_v<F, bool> && !std::is_same_v<F, long double>;

template <class F>
constexpr void check_field_kind() {
  static_assert(!std::is_pointer_v<F>,
                "oompi: raw pointers do not travel (who would own the received object?). Use "
                "std::shared_ptr or std::unique_ptr, or leave the field out of "
                "OOMPI_TRANSPORTABLE");
}

template <class F>
[[gnu::always_inline]] inline void save_field(output_archive& ar, const F& f) {
  check_field_kind<F>();
  if constexpr (plain_number_v<F>) {
    ar.write_value(f);
  } else if constexpr (packed_array<F>::value || fixed_packed_array<F>::value) {
    ar.write_packed(f.data(), f.size());
  } else if constexpr (std::is_same_v<F, bool>) {
    ar.write_value<std::uint8_t>(f ? 1 : 0);
  } else if constexpr (in_place_link<F>::value) {
    using U = typename F::element_type;
    check_reference_target<U>();
    if (const U* obj = ar.write_owned<U>(f)) save_object(ar, *obj);
  } else {
    ar(f);
  }
}
/// How many characters a default-constructed string holds without allocating (its local buffer).
template <class S>
inline const std::size_t local_capacity_v = S().capacity();
/// f = the n characters at p. A string that fits the local buffer is built in place (what f held
/// is let go of first): a third of the instructions of assign(), which goes through the general
/// replace (issue 28: every node of a tree has a short name). Building a string that fits the
/// local buffer allocates nothing, so it cannot throw and leave f destroyed. A longer one is
/// built aside and moved in unless f already has room. Only with std::allocator: a rebuilt
/// string gets a default-constructed allocator, which for a stateful one (std::pmr) is not f's.
template <class S, class E>
[[gnu::always_inline]] inline void assign_chars(S& f, const E* p, std::size_t n) {
  constexpr bool std_alloc =
      std::is_same_v<typename S::allocator_type, std::allocator<typename S::value_type>>;
  if constexpr (!std_alloc) {
    f.assign(p, p + n);
  } else if (n <= local_capacity_v<S>) {
    f.~S();
    ::new (static_cast<void*>(&f)) S(p, p + n);
  } else if (n <= f.capacity()) {
    f.assign(p, p + n);
  } else {
    f = S(p, p + n);
  }
}
/// The n elements of a vector of numbers or a string, n already read (n <= ar.remaining()).
template <class F>
[[gnu::always_inline]] inline void load_packed(input_archive& ar, F& f, std::size_t n) {
  using E = typename F::value_type;
  if constexpr (sizeof(E) == 1) {  // a string: straight from the message, one copy
    assign_chars(f, reinterpret_cast<const E*>(ar.take_bytes(n)), n);
    return;
  }
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
template <class T>
void load_object(input_archive& ar, T& obj, bool stable);

/// `stable`: f is a field of an object this archive made and a std::shared_ptr keeps alive to
/// the end of the read, so a std::shared_ptr field can be read in place
/// (input_archive::read_shared_in_place).
template <class F>
[[gnu::always_inline]] inline void load_field(input_archive& ar, F& f, bool stable = false) {
  check_field_kind<F>();
  if constexpr (plain_number_v<F>) {
    f = ar.read_value<F>();
  } else if constexpr (packed_array<F>::value) {
    load_packed(ar, f, static_cast<std::size_t>(ar.read_size()));
  } else if constexpr (fixed_packed_array<F>::value) {
    load_fixed_sequence(ar, f.data(), f.size());
  } else if constexpr (std::is_same_v<F, bool>) {
    f = ar.read_bool();
  } else if constexpr (in_place_link<F>::value) {
    if (stable) {
      if (auto* obj = ar.read_shared_in_place(f)) load_object(ar, *obj, true);
    } else {
      ar(f);
    }
  } else {
    (void)stable;
    ar(f);
  }
}

/// Field I of obj.
template <std::size_t I, class T>
[[gnu::always_inline]] inline auto& field(T& obj) {
  return obj.*(std::get<I>(oompi::detail::fields_of<std::remove_const_t<T>>::list).member);
}

// Flat fields: numbers, bools, strings and packed arrays of numbers, whose bytes need nothing
// of the archive's state. When all the leading fields of a type are flat (a tree node's or a
// record's), they are written with one capacity check, and read with one bounds check for each
// run of bytes whose length does not depend on the values (issue 28: these checks were a
// tenth of a node's cost). Same bytes as field by field.
template <class F>
inline constexpr bool flat_v = plain_number_v<F> || std::is_same_v<F, bool> ||
                               packed_array<F>::value || fixed_packed_array<F>::value;
/// The bytes of a flat field that do not depend on its value: all of them but a packed
/// array's elements.
template <class F>
constexpr std::size_t fixed_wire_size() {
  if constexpr (fixed_packed_array<F>::value)
    return 8 + std::tuple_size_v<F> * sizeof(typename F::value_type);
  else if constexpr (packed_array<F>::value)
    return 8;
  else
    return sizeof(F);
}
/// The bytes known to follow from field I of T on (to End): up to the end of the next packed
/// array's size.
template <class T, std::size_t I, std::size_t End>
constexpr std::size_t fixed_run() {
  if constexpr (I == End) {
    return 0;
  } else {
    using F = field_type_t<T, I>;
    if constexpr (packed_array<F>::value)
      return 8;
    else
      return fixed_wire_size<F>() + fixed_run<T, I + 1, End>();
  }
}
/// How many of T's fields I... lead with flat ones (0 on a big-endian host: field by field).
template <class T, std::size_t... I>
constexpr std::size_t flat_prefix(std::index_sequence<I...>) {
  if constexpr (!host_little_endian) {
    return 0;
  } else {
    constexpr bool flat[] = {flat_v<field_type_t<T, I>>..., false};
    std::size_t k = 0;
    while (flat[k]) ++k;
    return k;
  }
}

template <class F>
[[gnu::always_inline]] inline std::size_t flat_size(const F& f) {
  if constexpr (packed_array<F>::value)
    return 8 + f.size() * sizeof(typename F::value_type);
  else
    return fixed_wire_size<F>();
}
template <class F>
[[gnu::always_inline]] inline std::byte* put_flat(std::byte* out, const F& f) {
  if constexpr (std::is_same_v<F, bool>) {
    *out = std::byte{f ? std::uint8_t{1} : std::uint8_t{0}};
    return out + 1;
  } else if constexpr (plain_number_v<F>) {
    std::memcpy(out, &f, sizeof f);
    return out + sizeof f;
  } else {
    const std::uint64_t n = f.size();
    std::memcpy(out, &n, sizeof n);
    if (n != 0) std::memcpy(out + sizeof n, f.data(), n * sizeof(typename F::value_type));
    return out + sizeof n + n * sizeof(typename F::value_type);
  }
}
/// Reads flat field I of T; `checked`: bytes ahead already bounds-checked.
template <class T, std::size_t I, std::size_t End, class F>
[[gnu::always_inline]] inline void load_flat(input_archive& ar, F& f, std::size_t& checked) {
  if (checked == 0) {
    checked = fixed_run<T, I, End>();
    ar.need(checked);
  }
  if constexpr (std::is_same_v<F, bool>) {
    f = ar.read_bool_checked();
  } else if constexpr (plain_number_v<F>) {
    f = ar.read_value_checked<F>();
  } else if constexpr (fixed_packed_array<F>::value) {
    const auto n = ar.read_value_checked<std::uint64_t>();
    if (n != f.size()) fixed_size_mismatch(ar, n, f.size());
    ar.read_bytes_checked(f.data(), f.size() * sizeof(typename F::value_type));
  } else {  // a packed array: its size ends the run; load_packed checks its elements
    const auto n = ar.size_checked(ar.read_value_checked<std::uint64_t>());
    load_packed(ar, f, static_cast<std::size_t>(n));
    checked = 0;
    return;
  }
  checked -= fixed_wire_size<F>();
}

template <class T, std::size_t... I>
[[gnu::always_inline]] inline void save_flat(output_archive& ar, const T& obj, std::index_sequence<I...>) {
  if constexpr (sizeof...(I) > 0) {
    std::byte* out = ar.extend((flat_size(field<I>(obj)) + ...));
    ((out = put_flat(out, field<I>(obj))), ...);
  }
}
template <std::size_t First, class T, std::size_t... I>
[[gnu::always_inline]] inline void save_each(output_archive& ar, const T& obj, std::index_sequence<I...>) {
  (save_field(ar, field<First + I>(obj)), ...);
}
template <class T, std::size_t... I>
[[gnu::always_inline]] inline void load_flat_run(input_archive& ar, T& obj, std::index_sequence<I...>) {
  if constexpr (sizeof...(I) > 0) {
    std::size_t checked = 0;
    (load_flat<T, I, sizeof...(I)>(ar, field<I>(obj), checked), ...);
  }
}
template <std::size_t First, class T, std::size_t... I>
[[gnu::always_inline]] inline void load_each(input_archive& ar, T& obj, std::index_sequence<I...>, bool stable) {
  (void)stable;
  (load_field(ar, field<First + I>(obj), stable), ...);
}

/// The fields before T's last: the flat ones first as one run, then the others one by one.
template <class T, std::size_t... I>
void save_leading(output_archive& ar, const T& obj, std::index_sequence<I...> all) {
  constexpr std::size_t k = flat_prefix<T>(all);
  save_flat(ar, obj, std::make_index_sequence<k>{});
  save_each<k>(ar, obj, std::make_index_sequence<sizeof...(I) - k>{});
}
template <class T, std::size_t... I>
void load_leading(input_archive& ar, T& obj, std::index_sequence<I...> all, bool stable = false) {
  constexpr std::size_t k = flat_prefix<T>(all);
  load_flat_run(ar, obj, std::make_index_sequence<k>{});
  load_each<k>(ar, obj, std::make_index_sequence<sizeof...(I) - k>{}, stable);
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
        obj = ar.write_owned<T>(link);
      else  // weak_ptr: the target is owned elsewhere, so the raw pointer stays valid
        obj = ar.write_shared<T>(link.lock().get());
      if (obj == nullptr) return;
    } else {
      save_field(ar, link);
      return;
    }
  }
}

/// `stable`: as for load_field, of `first` (objects reached through its last field are made
/// here, so they are).
template <class T>
void load_fields(input_archive& ar, T& first, bool stable = false) {
  using F = oompi::detail::fields_of<T>;
  constexpr std::size_t last = F::count - 1;
  using L = field_type_t<T, last>;
  T* obj = &first;
  for (;;) {
    load_leading(ar, *obj, std::make_index_sequence<last>{}, stable);
    L& link = obj->*(std::get<last>(F::list).member);
    if constexpr (is_tail_link_v<L, T>) {
      if constexpr (link_of<L>::kind == link_kind::unique) {
        obj = ar.read_unique(link);  // as stable as its owner
      } else if constexpr (std::is_same_v<L, std::shared_ptr<T>>) {
        obj = stable ? ar.read_shared_in_place(link) : ar.read_shared(link);
        stable = true;
      } else {
        obj = ar.read_shared(link);  // the table owns it
        stable = true;
      }
      if (obj == nullptr) return;
    } else {
      load_field(ar, link, stable);
      return;
    }
  }
}

/// The fields of an object after its first reference, one nesting level.
template <class T>
void save_object(output_archive& ar, const T& obj) {
  if constexpr (oompi::detail::has_transportable_fields_v<T>) {
    ar.enter();
    save_fields(ar, obj);
    ar.leave();
  } else {
    ar(obj);
  }
}

/// The fields of an object this archive just made (after its reference), one nesting level.
template <class T>
void load_object(input_archive& ar, T& obj, bool stable) {
  if constexpr (oompi::detail::has_transportable_fields_v<T>) {
    ar.enter();
    load_fields(ar, obj, stable);
    ar.leave();
  } else {
    (void)stable;
    ar(obj);
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

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_FIELDS_HPP
