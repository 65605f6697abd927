#ifndef OOMPI_SERIALIZATION_WIRE_VALUES_HPP
#define OOMPI_SERIALIZATION_WIRE_VALUES_HPP

// What the archives write for each kind of value (numbers, sizes, packed arrays, fixed-size
// arrays, references). Part of wire.hpp; include that.

#include "input_archive.hpp"
#include "output_archive.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi::wire {

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
[[noreturn, gnu::cold, gnu::noinline]] inline void fixed_size_mismatch(const input_archive& ar,
                                                                      std::uint64_t got,
                                                                      std::size_t n) {
  ar.corrupt("an array of " + std::to_string(got) + " elements for a fixed size of " +
                 std::to_string(n),
             8);
}
template <class T>
void load_fixed_sequence(input_archive& ar, T* p, std::size_t n) {
  const std::uint64_t got = ar.read_value<std::uint64_t>();
  if (got != n) fixed_size_mismatch(ar, got, n);
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

// References. The fields of a new object that a std::shared_ptr owns (the archive's table
// keeps a reference to the end of the read) are read by detail::load_object, which can read its
// own std::shared_ptr fields in place (fields.hpp).
namespace detail {
template <class T>
void load_object(input_archive& ar, T& obj, bool stable);
template <class T>
void save_object(output_archive& ar, const T& obj);
}  // namespace detail
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::shared_ptr<T>& p) {
  detail::check_reference_target<std::remove_cv_t<T>>();
  if (const auto* obj = ar.write_owned<std::remove_cv_t<T>>(p)) detail::save_object(ar, *obj);
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::shared_ptr<T>& p) {
  if (auto* obj = ar.read_shared(p)) detail::load_object(ar, *obj, true);
}
template <class T>
void CEREAL_SAVE_FUNCTION_NAME(output_archive& ar, const std::weak_ptr<T>& p) {
  detail::check_reference_target<std::remove_cv_t<T>>();
  const std::shared_ptr<T> locked = p.lock();
  if (const auto* obj = ar.write_shared<std::remove_cv_t<T>>(locked.get())) ar(*obj);
}
template <class T>
void CEREAL_LOAD_FUNCTION_NAME(input_archive& ar, std::weak_ptr<T>& p) {
  if (auto* obj = ar.read_shared(p)) detail::load_object(ar, *obj, true);  // the archive owns it
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

}  // namespace oompi::wire

#endif  // OOMPI_SERIALIZATION_WIRE_VALUES_HPP
