#ifndef OOMPI_SERIALIZATION_TRANSPORTABLE_HPP
#define OOMPI_SERIALIZATION_TRANSPORTABLE_HPP

// Opt-in fields (Motor's [Transportable]): only the fields named here travel; any other field,
// pointer or not, arrives default-constructed (a null pointer for Motor's `next2`).
//
//   struct node { std::vector<int> data; std::shared_ptr<node> next, next2; };
//   OOMPI_TRANSPORTABLE(node, data, next);
//
// Write it after the type's definition, in the type's namespace (it declares a function found by
// argument-dependent lookup). For private fields, write OOMPI_TRANSPORTABLE_MEMBERS(T, ...)
// inside the class instead. Fields travel in the order listed: list them in declaration order
// when other languages read the same objects. This header does not pull in cereal.

#include "../detail/for_each.hpp"

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace oompi::detail {

template <class T>
struct type_tag {
  using type = T;
};

/// One transported field: its name (for the type signature) and its member pointer.
template <class T, class M>
struct field_ref {
  const char* name;
  M T::*member;
};
/// Ends every field list (the macro's trailing comma).
struct field_end {};

template <class T, class M>
constexpr field_ref<T, M> make_field(const char* name, M T::*member) noexcept {
  return {name, member};
}

template <class T, class = void>
struct has_transportable_fields : std::false_type {};
template <class T>
struct has_transportable_fields<
    T, std::void_t<decltype(oompi_transportable_fields(type_tag<T>{}))>> : std::true_type {};
template <class T>
inline constexpr bool has_transportable_fields_v = has_transportable_fields<T>::value;

/// The field list of an OOMPI_TRANSPORTABLE type (count excludes the end marker).
template <class T>
struct fields_of {
  static constexpr auto list = oompi_transportable_fields(type_tag<T>{});
  static constexpr std::size_t count = std::tuple_size_v<std::remove_const_t<decltype(list)>> - 1;
  static_assert(count > 0, "OOMPI_TRANSPORTABLE needs at least one field");
};

}  // namespace oompi::detail

#define OOMPI_DETAIL_TRANSPORT_FIELD(T, m) ::oompi::detail::make_field<T>(#m, &T::m),

#define OOMPI_DETAIL_TRANSPORTABLE_BODY(T, ...)                                                 \
  oompi_transportable_fields(::oompi::detail::type_tag<T>) noexcept {                          \
    return ::std::make_tuple(OOMPI_DETAIL_FOR_EACH(OOMPI_DETAIL_TRANSPORT_FIELD, T, __VA_ARGS__) \
                                 ::oompi::detail::field_end{});                                \
  }                                                                                            \
  static_assert(::std::is_class_v<T>, "OOMPI_TRANSPORTABLE: T must be a class type")

/// OOMPI_TRANSPORTABLE(T, field1, field2, ...): the listed fields of T travel with osend/orecv
/// and the object collectives; references (std::shared_ptr, std::unique_ptr, std::weak_ptr)
/// among them are followed, shared and cyclic graphs survive. Write it in T's namespace.
#define OOMPI_TRANSPORTABLE(T, ...)                                                            \
  [[maybe_unused]] inline constexpr auto OOMPI_DETAIL_TRANSPORTABLE_BODY(T, __VA_ARGS__)

/// The same, written inside the class body (reaches private fields).
#define OOMPI_TRANSPORTABLE_MEMBERS(T, ...)                                                    \
  friend constexpr auto OOMPI_DETAIL_TRANSPORTABLE_BODY(T, __VA_ARGS__)

#endif  // OOMPI_SERIALIZATION_TRANSPORTABLE_HPP
