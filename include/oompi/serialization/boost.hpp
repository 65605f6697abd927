#ifndef OOMPI_SERIALIZATION_BOOST_HPP
#define OOMPI_SERIALIZATION_BOOST_HPP

// The Boost.Serialization back end: a type that already serializes with Boost (a member
// `template <class Archive> void serialize(Archive&, const unsigned int)`, or free functions
// declared to oompi with OOMPI_BOOST_SERIALIZABLE(T)) travels with the object operations too,
// as a Boost binary archive without header. That encoding is C++ only (not wire format v1), and
// both ends must use the same Boost version. Types that also have a cereal/OOMPI_TRANSPORTABLE
// encoding use that. Link Boost::serialization.

#include "../serialization.hpp"

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/serialization.hpp>

#include <cstdint>
#include <streambuf>
#include <type_traits>
#include <vector>

namespace oompi {

/// Specialise as std::true_type (or write OOMPI_BOOST_SERIALIZABLE(T) at global scope) for a
/// type serialized by free Boost functions.
template <class T>
struct boost_serializable : std::false_type {};

namespace detail {

template <class T, class = void>
struct has_boost_member_serialize : std::false_type {};
template <class T>
struct has_boost_member_serialize<
    T, std::void_t<decltype(std::declval<T&>().serialize(
           std::declval<boost::archive::binary_oarchive&>(), 0u))>> : std::true_type {};

template <class T>
inline constexpr bool boost_back_end_v =
    !wire::is_transportable_v<T> &&
    (boost_serializable<T>::value || has_boost_member_serialize<T>::value);

// Appends to a byte_buffer.
class byte_buffer_sink : public std::streambuf {
public:
  explicit byte_buffer_sink(byte_buffer& out) : out_(out) {}

protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    out_.append(&ch, 1);
    return c;
  }

private:
  byte_buffer& out_;
};

// Reads from memory.
class memory_source : public std::streambuf {
public:
  memory_source(const std::byte* p, std::size_t n) {
    char* b = const_cast<char*>(reinterpret_cast<const char*>(p));
    setg(b, b, b + n);
  }
  bool exhausted() const { return gptr() == egptr(); }
};

constexpr unsigned boost_flags = boost::archive::no_header | boost::archive::no_codecvt;

template <class F>
void boost_load_guard(F&& f) {
  try {
    f();
  } catch (const serialization_error&) {
    throw;
  } catch (const boost::archive::archive_exception& e) {
    throw serialization_error(std::string("Boost.Serialization: ") + e.what());
  } catch (const std::exception& e) {  // bad_alloc, length_error from corrupt sizes ...
    throw serialization_error(std::string("Boost.Serialization stream rejected: ") + e.what());
  }
}

template <class T>
struct object_codec<T, std::enable_if_t<boost_back_end_v<T>>> {
  static constexpr const char* name = "Boost.Serialization";

  static std::uint64_t hash() {
    static const std::uint64_t h = fnv1a64(std::string("boost:") + typeid(T).name());
    return h;
  }
  static void write_hash(byte_buffer& out) {
    const std::uint64_t h = hash();
    out.append(&h, sizeof h);
  }
  static void check_hash(const std::byte*& p, std::size_t& n) {
    std::uint64_t h = 0;
    if (n < sizeof h) throw serialization_error("type check: message too short for a type hash");
    std::memcpy(&h, p, sizeof h);
    if (h != hash())
      throw serialization_error(std::string("type check failed: this receive expects ") +
                                typeid(T).name() + " (Boost back end)");
    p += sizeof h;
    n -= sizeof h;
  }

  static void save(byte_buffer& out, const T& obj) {
    if (object_type_check()) write_hash(out);
    byte_buffer_sink sink(out);
    boost::archive::binary_oarchive ar(sink, boost_flags);
    ar << obj;
  }
  static void load(const std::byte* p, std::size_t n, T& obj) {
    if (object_type_check()) check_hash(p, n);
    boost_load_guard([&] {
      memory_source source(p, n);
      boost::archive::binary_iarchive ar(source, boost_flags);
      ar >> obj;
      if (!source.exhausted())
        throw serialization_error("bytes left over after the object (Boost back end)");
    });
  }
  static void save_slice(byte_buffer& out, const T* first, std::size_t count) {
    if (object_type_check()) write_hash(out);
    byte_buffer_sink sink(out);
    boost::archive::binary_oarchive ar(sink, boost_flags);
    const std::uint64_t n = count;
    ar << n;
    for (std::size_t i = 0; i < count; ++i) ar << first[i];
  }
  static void load_slice(const std::byte* p, std::size_t n, std::vector<T>& out) {
    if (object_type_check()) check_hash(p, n);
    const std::size_t base = out.size();
    try {
      boost_load_guard([&] {
        memory_source source(p, n);
        boost::archive::binary_iarchive ar(source, boost_flags);
        std::uint64_t count = 0;
        ar >> count;
        if (count > n) throw serialization_error("corrupt element count (Boost back end)");
        out.resize(base + static_cast<std::size_t>(count));  // loaded in place: tracking-safe
        for (std::size_t i = 0; i < count; ++i) ar >> out[base + i];
        if (!source.exhausted())
          throw serialization_error("bytes left over after the objects (Boost back end)");
      });
    } catch (...) {
      out.resize(base);
      throw;
    }
  }
};

}  // namespace detail
}  // namespace oompi

/// Declares that T is serialized by free Boost.Serialization functions. At global scope.
#define OOMPI_BOOST_SERIALIZABLE(T)                                                            \
  namespace oompi {                                                                            \
  template <>                                                                                  \
  struct boost_serializable<T> : std::true_type {};                                            \
  }

#endif  // OOMPI_SERIALIZATION_BOOST_HPP
