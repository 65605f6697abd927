#ifndef OOMPI_SERIALIZATION_SIGNATURE_HPP
#define OOMPI_SERIALIZATION_SIGNATURE_HPP

// The field signature of a type: a canonical text describing the shape of its wire encoding
// (docs/wire-format.md, "Type check"), and its 64-bit FNV-1a hash, which may lead a message so
// that receiving another type than was sent fails clearly. The signature names wire shapes, not
// C++ types (std::vector<int> and std::list<int> both read "[i32]"), so other languages compute
// the same text for the same fields:
//
//   bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64   numbers (enums: their underlying type)
//   string                                       std::string
//   [E]                                          arrays, sequences, sets (size + elements)
//   [(K,V)]                                      maps (size + key/value pairs)
//   (A,B,...)                                    pair, tuple
//   ?E                                           std::optional (a bool "empty" flag, then E)
//   &E                                           references (shared/unique/weak_ptr)
//   {name:S,name:S,...}                          an OOMPI_TRANSPORTABLE type, fields in order
//   {S,S,...}                                    a type with its own serialize (names if it uses
//                                                cereal name-value pairs: {name:S,...})
//   @k                                           the k-th enclosing {...} (0 = outermost):
//                                                recursive types (node{...,next:&@0})
//   size, bytes                                  cereal size tags and raw binary blocks
//   opaque                                       a type whose shape cannot be derived

#include "transportable.hpp"
#include "wire.hpp"

#include <cereal/cereal.hpp>

#include <array>
#include <cstdint>
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

namespace oompi::wire {

class signature_archive;

namespace detail {
/// Types whose signature is known without looking at a value.
template <class T>
struct static_signature : std::false_type {};
template <class T>
struct is_cereal_wrapper : std::false_type {};
template <class T>
struct is_cereal_wrapper<cereal::NameValuePair<T>> : std::true_type {};
template <class T>
struct is_cereal_wrapper<cereal::SizeTag<T>> : std::true_type {};
template <class T>
struct is_cereal_wrapper<cereal::BinaryData<T>> : std::true_type {};
template <class T>
struct is_cereal_wrapper<cereal::base_class<T>> : std::true_type {};
template <class T>
struct is_cereal_wrapper<cereal::virtual_base_class<T>> : std::true_type {};
}  // namespace detail

/// Builds signatures. A cereal archive, so that user serialize functions run on it unchanged
/// (on a default-constructed value: only the static types of the fields matter).
class signature_archive
    : public cereal::OutputArchive<signature_archive, cereal::AllowEmptyClassElision> {
public:
  signature_archive()
      : cereal::OutputArchive<signature_archive, cereal::AllowEmptyClassElision>(this) {}

  const std::string& text() const noexcept { return text_; }

  /// Appends the signature of T.
  template <class T>
  void add();

  void token(const char* t) {
    separate();
    text_ += t;
  }
  void open(char c) {
    separate();
    text_ += c;
  }
  void close(char c) { text_ += c; }
  void name(const char* n) {
    separate();
    text_ += n;
    text_ += ':';
  }
  /// Enters a struct, or writes `@k` and returns false when it is already being described.
  bool enter_struct(const void* key) {
    for (std::size_t k = 0; k < stack_.size(); ++k) {
      if (stack_[k] == key) {
        separate();
        text_ += '@';
        text_ += std::to_string(k);
        return false;
      }
    }
    stack_.push_back(key);
    open('{');
    return true;
  }
  void leave_struct() {
    stack_.pop_back();
    close('}');
  }
  bool on_stack(const void* key) const {
    for (const void* k : stack_)
      if (k == key) return true;
    return false;
  }

private:
  // A comma before every item except the first in a bracket or after a name.
  void separate() {
    if (!text_.empty()) {
      const char c = text_.back();
      if (c != '{' && c != '[' && c != '(' && c != ':' && c != '&' && c != '?') text_ += ',';
    }
  }
  template <class T, std::size_t... I>
  void add_fields(std::index_sequence<I...>) {
    ((name(std::get<I>(oompi::detail::fields_of<T>::list).name),
      add<detail::field_type_t<T, I>>()),
     ...);
  }

  std::string text_;
  std::vector<const void*> stack_;
};

template <class T>
void signature_archive::add() {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  if constexpr (std::is_same_v<U, bool>) {
    token("bool");
  } else if constexpr (std::is_integral_v<U>) {
    static const std::string t =
        (std::is_signed_v<U> ? "i" : "u") + std::to_string(8 * sizeof(U));
    token(t.c_str());
  } else if constexpr (std::is_floating_point_v<U>) {
    token(sizeof(U) == 4 ? "f32" : "f64");
  } else if constexpr (std::is_enum_v<U>) {
    add<std::underlying_type_t<U>>();
  } else if constexpr (std::is_array_v<U>) {
    open('[');
    add<std::remove_extent_t<U>>();
    close(']');
  } else if constexpr (detail::static_signature<U>::value) {
    detail::static_signature<U>::add(*this);
  } else if constexpr (oompi::detail::has_transportable_fields_v<U>) {
    if (enter_struct(detail::key_of<U>())) {
      add_fields<U>(std::make_index_sequence<oompi::detail::fields_of<U>::count>{});
      leave_struct();
    }
  } else if constexpr (std::is_default_constructible_v<U> &&
                       cereal::traits::is_output_serializable<U, signature_archive>::value) {
    // Braces and the recursion check come from prologue/epilogue below.
    if (on_stack(detail::key_of<U>())) {
      enter_struct(detail::key_of<U>());
    } else {
      const U value{};
      (*this)(value);
    }
  } else {
    token("opaque");
  }
}

// What cereal dispatch reaches for the fields of user-serialized types.
template <class T>
std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>> CEREAL_SAVE_FUNCTION_NAME(
    signature_archive& ar, const T&) {
  ar.add<T>();
}
template <class T>
void CEREAL_SERIALIZE_FUNCTION_NAME(signature_archive& ar, cereal::NameValuePair<T>& t) {
  ar.name(t.name);
  ar.add<std::remove_reference_t<T>>();
}
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const cereal::SizeTag<T>&) {
  ar.token("size");
}
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const cereal::BinaryData<T>&) {
  ar.token("bytes");
}
template <class T, std::enable_if_t<oompi::detail::has_transportable_fields_v<T>, int> = 0>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const T&) {
  ar.add<T>();
}
template <class T>
std::enable_if_t<std::is_array_v<T>> CEREAL_SERIALIZE_FUNCTION_NAME(signature_archive& ar, T&) {
  ar.add<T>();
}

// A user-serialized class: braces around its fields, registered while it is described.
template <class T>
std::enable_if_t<std::is_class_v<T> && !detail::static_signature<T>::value &&
                 !detail::is_cereal_wrapper<T>::value &&
                 !oompi::detail::has_transportable_fields_v<T>>
prologue(signature_archive& ar, const T&) {
  ar.enter_struct(detail::key_of<T>());
}
template <class T>
std::enable_if_t<std::is_class_v<T> && !detail::static_signature<T>::value &&
                 !detail::is_cereal_wrapper<T>::value &&
                 !oompi::detail::has_transportable_fields_v<T>>
epilogue(signature_archive& ar, const T&) {
  ar.leave_struct();
}

// The std types: static rules, and save overloads more specialised than cereal's own.
namespace detail {
template <class E>
struct sequence_signature : std::true_type {
  static void add(signature_archive& ar) {
    ar.open('[');
    ar.add<E>();
    ar.close(']');
  }
};
template <class K, class V>
struct map_signature : std::true_type {
  static void add(signature_archive& ar) {
    ar.open('[');
    ar.open('(');
    ar.add<K>();
    ar.add<V>();
    ar.close(')');
    ar.close(']');
  }
};
template <class... E>
struct tuple_signature : std::true_type {
  static void add(signature_archive& ar) {
    ar.open('(');
    (ar.add<E>(), ...);
    ar.close(')');
  }
};
template <class E>
struct reference_signature : std::true_type {
  static void add(signature_archive& ar) {
    ar.token("&");
    ar.add<E>();
  }
};

template <class C, class Tr, class A>
struct static_signature<std::basic_string<C, Tr, A>> : std::true_type {
  static void add(signature_archive& ar) {
    if constexpr (std::is_same_v<C, char>)
      ar.token("string");
    else
      sequence_signature<C>::add(ar);
  }
};
template <class E, class A>
struct static_signature<std::vector<E, A>> : sequence_signature<E> {};
template <class E, class A>
struct static_signature<std::deque<E, A>> : sequence_signature<E> {};
template <class E, class A>
struct static_signature<std::list<E, A>> : sequence_signature<E> {};
template <class E, std::size_t N>
struct static_signature<std::array<E, N>> : sequence_signature<E> {};
template <class E, class C, class A>
struct static_signature<std::set<E, C, A>> : sequence_signature<E> {};
template <class E, class C, class A>
struct static_signature<std::multiset<E, C, A>> : sequence_signature<E> {};
template <class E, class H, class Q, class A>
struct static_signature<std::unordered_set<E, H, Q, A>> : sequence_signature<E> {};
template <class E, class H, class Q, class A>
struct static_signature<std::unordered_multiset<E, H, Q, A>> : sequence_signature<E> {};
template <class K, class V, class C, class A>
struct static_signature<std::map<K, V, C, A>> : map_signature<K, V> {};
template <class K, class V, class C, class A>
struct static_signature<std::multimap<K, V, C, A>> : map_signature<K, V> {};
template <class K, class V, class H, class Q, class A>
struct static_signature<std::unordered_map<K, V, H, Q, A>> : map_signature<K, V> {};
template <class K, class V, class H, class Q, class A>
struct static_signature<std::unordered_multimap<K, V, H, Q, A>> : map_signature<K, V> {};
template <class A, class B>
struct static_signature<std::pair<A, B>> : tuple_signature<A, B> {};
template <class... E>
struct static_signature<std::tuple<E...>> : tuple_signature<E...> {};
template <class E>
struct static_signature<std::optional<E>> : std::true_type {
  static void add(signature_archive& ar) {
    ar.token("?");
    ar.add<E>();
  }
};
template <class E>
struct static_signature<std::shared_ptr<E>> : reference_signature<E> {};
template <class E>
struct static_signature<std::weak_ptr<E>> : reference_signature<E> {};
template <class E, class D>
struct static_signature<std::unique_ptr<E, D>> : reference_signature<E> {};
}  // namespace detail

// Save overloads for the std types, more specialised than cereal's own for any archive.
template <class C, class Tr, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::basic_string<C, Tr, A>&) {
  ar.add<std::basic_string<C, Tr, A>>();
}
template <class E, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::vector<E, A>&) {
  ar.add<std::vector<E, A>>();
}
template <class E, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::deque<E, A>&) {
  ar.add<std::deque<E, A>>();
}
template <class E, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::list<E, A>&) {
  ar.add<std::list<E, A>>();
}
template <class E, std::size_t N>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::array<E, N>&) {
  ar.add<std::array<E, N>>();
}
template <class E, class C, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::set<E, C, A>&) {
  ar.add<std::set<E, C, A>>();
}
template <class E, class C, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::multiset<E, C, A>&) {
  ar.add<std::multiset<E, C, A>>();
}
template <class E, class H, class Q, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::unordered_set<E, H, Q, A>&) {
  ar.add<std::unordered_set<E, H, Q, A>>();
}
template <class E, class H, class Q, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::unordered_multiset<E, H, Q, A>&) {
  ar.add<std::unordered_multiset<E, H, Q, A>>();
}
template <class K, class V, class C, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::map<K, V, C, A>&) {
  ar.add<std::map<K, V, C, A>>();
}
template <class K, class V, class C, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::multimap<K, V, C, A>&) {
  ar.add<std::multimap<K, V, C, A>>();
}
template <class K, class V, class H, class Q, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::unordered_map<K, V, H, Q, A>&) {
  ar.add<std::unordered_map<K, V, H, Q, A>>();
}
template <class K, class V, class H, class Q, class A>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::unordered_multimap<K, V, H, Q, A>&) {
  ar.add<std::unordered_multimap<K, V, H, Q, A>>();
}
// (cereal serializes pair and tuple with one serialize function, not a save/load pair)
template <class A, class B>
void CEREAL_SERIALIZE_FUNCTION_NAME(signature_archive& ar, std::pair<A, B>&) {
  ar.add<std::pair<A, B>>();
}
template <class... E>
void CEREAL_SERIALIZE_FUNCTION_NAME(signature_archive& ar, std::tuple<E...>&) {
  ar.add<std::tuple<E...>>();
}
template <class E>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::optional<E>&) {
  ar.add<std::optional<E>>();
}
template <class E>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::shared_ptr<E>&) {
  ar.add<std::shared_ptr<E>>();
}
template <class E>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::weak_ptr<E>&) {
  ar.add<std::weak_ptr<E>>();
}
template <class E, class D>
void CEREAL_SAVE_FUNCTION_NAME(signature_archive& ar, const std::unique_ptr<E, D>&) {
  ar.add<std::unique_ptr<E, D>>();
}

}  // namespace oompi::wire

namespace cereal {
template <class T>
struct specialize<oompi::wire::signature_archive, T, specialization::non_member_load_save>
    : oompi::wire::detail::field_list_specialization<T> {};
}  // namespace cereal

#endif  // OOMPI_SERIALIZATION_SIGNATURE_HPP
