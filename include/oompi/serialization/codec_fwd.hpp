#ifndef OOMPI_SERIALIZATION_CODEC_FWD_HPP
#define OOMPI_SERIALIZATION_CODEC_FWD_HPP

// The hook between the communicators' object operations (object_ops.hpp) and the serialization
// back ends. object_codec<T> is specialised by <oompi/serialization.hpp> (wire format v1 on
// cereal) and <oompi/serialization/boost.hpp> (Boost.Serialization); without them, or for a type
// neither back end can handle, the primary template stops compilation with what to add.
//
// A specialisation provides:
//   static void save(byte_buffer& out, const T& obj);                      // appends one message
//   static void load(const std::byte* p, std::size_t n, T& obj);           // the whole of [p, p+n)
//   static void save_slice(byte_buffer& out, const T* first, std::size_t count);
//   static void load_slice(const std::byte* p, std::size_t n, std::vector<T>& out);  // appends

#include "byte_buffer.hpp"
#include "error.hpp"

#include <cstddef>
#include <vector>

namespace oompi::detail {

template <class T>
inline constexpr bool codec_always_false_v = false;

template <class T, class Enable = void>
struct object_codec {
  static_assert(codec_always_false_v<T>,
                "oompi: this type cannot travel as an object. #include <oompi/serialization.hpp> "
                "and name its transported fields: OOMPI_TRANSPORTABLE(T, field1, field2, ...) "
                "in T's namespace after its definition, or a member "
                "`template <class Archive> void serialize(Archive& ar) { ar(field1, field2); }` "
                "(cereal). A type with a Boost.Serialization `serialize(Archive&, unsigned)` "
                "needs #include <oompi/serialization/boost.hpp> (and Boost::serialization).");
};

}  // namespace oompi::detail

#endif  // OOMPI_SERIALIZATION_CODEC_FWD_HPP
