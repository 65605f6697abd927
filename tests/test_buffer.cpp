// Typed buffers: every kind of contiguous memory becomes (address, count, datatype) without a
// copy, and round-trips between ranks. Built twice: C++17, and C++20 for std::span.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <array>
#include <complex>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>
#if defined(__cpp_lib_span)
#include <span>
#endif

namespace {

template <class B>
oompi::detail::buffer_desc desc(B& b) {
  return oompi::detail::describe(b);
}

int right(const oompi::communicator& c) { return (c.rank() + 1) % c.size(); }
int left(const oompi::communicator& c) { return (c.rank() + c.size() - 1) % c.size(); }

}  // namespace

// A user container made sendable through the customisation point.
struct samples {
  std::vector<float> values;
};
namespace oompi {
template <>
struct buffer_traits<samples> {
  static float* data(samples& s) noexcept { return s.values.data(); }
  static std::size_t size(const samples& s) noexcept { return s.values.size(); }
  static MPI_Datatype type(const samples&) noexcept { return MPI_FLOAT; }
};
}  // namespace oompi

TEST_CASE("buffers describe the caller's memory: address, count, datatype, no copy") {
  double scalar = 1.5;
  auto d = desc(scalar);
  CHECK(d.data == &scalar);
  CHECK(d.count == 1);
  CHECK(d.type == MPI_DOUBLE);

  const int cscalar = 3;
  d = desc(cscalar);
  CHECK(d.data == &cscalar);
  CHECK(d.type == MPI_INT);

  std::vector<long> vec(7);
  d = desc(vec);
  CHECK(d.data == vec.data());
  CHECK(d.count == 7);
  CHECK(d.type == MPI_LONG);

  const std::vector<long>& cvec = vec;
  CHECK(desc(cvec).data == vec.data());

  std::array<short, 5> arr{};
  d = desc(arr);
  CHECK(d.data == arr.data());
  CHECK(d.count == 5);
  CHECK(d.type == MPI_SHORT);

  float carr[6] = {};
  d = desc(carr);
  CHECK(d.data == carr);
  CHECK(d.count == 6);
  CHECK(d.type == MPI_FLOAT);

  std::string str = "hello, world";
  d = desc(str);
  CHECK(d.data == str.data());
  CHECK(d.count == str.size());
  CHECK(d.type == MPI_CHAR);

  std::string_view sv = str;
  d = desc(sv);
  CHECK(d.data == str.data());
  CHECK(d.count == str.size());

  std::u32string wide = U"wide";
  d = desc(wide);
  CHECK(d.data == wide.data());
  CHECK(d.count == 4);

  std::vector<std::complex<double>> cplx(2);
  d = desc(cplx);
  CHECK(d.type == MPI_CXX_DOUBLE_COMPLEX);

  auto view = oompi::buffer(vec.data() + 2, 3);
  d = desc(view);
  CHECK(d.data == vec.data() + 2);
  CHECK(d.count == 3);
  CHECK(d.type == MPI_LONG);

  auto typed = oompi::buffer(static_cast<void*>(carr), 2, oompi::datatype::of<float[3]>());
  d = desc(typed);
  CHECK(d.data == carr);
  CHECK(d.count == 2);
  CHECK(d.type == oompi::datatype_of<float[3]>());

  auto raw = oompi::buffer(&carr[0], 6, MPI_FLOAT);
  CHECK(desc(raw).data == carr);
  CHECK(desc(raw).count == 6);

  samples smp{{1, 2, 3}};
  d = desc(smp);
  CHECK(d.data == smp.values.data());
  CHECK(d.count == 3);
  CHECK(d.type == MPI_FLOAT);

#if defined(__cpp_lib_span)
  std::span<long> sp(vec);
  d = desc(sp);
  CHECK(d.data == vec.data());
  CHECK(d.count == vec.size());
  std::span<const long, 3> fixed(vec.data() + 1, 3);
  d = desc(fixed);
  CHECK(d.data == vec.data() + 1);
  CHECK(d.count == 3);
#endif
}

TEST_CASE("buffer(container, offset, count) is bounds-checked") {
  std::vector<int> v(10);
  auto part = oompi::buffer(v, 3, 4);
  CHECK(part.data() == v.data() + 3);
  CHECK(part.size() == 4);
  CHECK(oompi::buffer(v, 10, 0).size() == 0);  // empty range at the end is fine
  CHECK_THROWS_AS(oompi::buffer(v, 8, 3), std::out_of_range);
  CHECK_THROWS_AS(oompi::buffer(v, 11, 0), std::out_of_range);
  CHECK_THROWS_AS(oompi::buffer(v, 1, static_cast<std::size_t>(-1)), std::out_of_range);
  double c[4] = {};
  CHECK(oompi::buffer(c, 1, 3).data() == c + 1);
  CHECK_THROWS_AS(oompi::buffer(c, 2, 3), std::out_of_range);
  const std::string s = "abcdef";
  auto cs = oompi::buffer(s, 2, 2);
  CHECK(cs.data() == s.data() + 2);
  STATIC_REQUIRE(std::is_same_v<decltype(cs), oompi::typed_buffer<const char>>);
}

TEST_CASE("every buffer kind round-trips around a ring") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world);

  SECTION("scalars") {
    double out = r + 0.25, in = -1;
    world.sendrecv(out, right(world), 1, in, from, 1);
    CHECK(in == from + 0.25);
  }
  SECTION("std::vector") {
    std::vector<int> out(100), in(100);
    std::iota(out.begin(), out.end(), r * 1000);
    world.sendrecv(out, right(world), 2, in, from, 2);
    CHECK(in.front() == from * 1000);
    CHECK(in.back() == from * 1000 + 99);
  }
  SECTION("std::array and C arrays") {
    std::array<unsigned char, 4> out{1, 2, 3, static_cast<unsigned char>(r)}, in{};
    world.sendrecv(out, right(world), 3, in, from, 3);
    CHECK(in[3] == from);
    long cout_[3] = {r, r + 1L, r + 2L}, cin_[3] = {};
    world.sendrecv(cout_, right(world), 3, cin_, from, 3);
    CHECK(cin_[0] == from);
    CHECK(cin_[2] == from + 2);
  }
  SECTION("std::string, sent and received as sized strings") {
    const std::string out = "rank " + std::to_string(r) + " says hello";
    std::string in(out.size() + 8, '?');  // may be larger: the status tells the length
    auto s = world.sendrecv(out, right(world), 4, in, from, 4);
    in.resize(s.count<char>());
    CHECK(in == "rank " + std::to_string(from) + " says hello");
  }
  SECTION("string_view (send only)") {
    const std::string text = "view " + std::to_string(r);
    std::string_view out = text;
    std::string in(out.size(), '?');
    world.sendrecv(out, right(world), 5, in, from, 5);
    CHECK(in == "view " + std::to_string(from));
  }
  SECTION("pointer + count, and a temporary view received into") {
    std::vector<double> storage(10, -1.0);
    std::vector<double> out{1.0 * r, 2.0, 3.0};
    world.sendrecv(oompi::buffer(out.data(), out.size()), right(world), 6,
                   oompi::buffer(storage, 4, 3), from, 6);
    CHECK(storage[3] == -1.0);  // untouched around the view
    CHECK(storage[4] == 1.0 * from);
    CHECK(storage[6] == 3.0);
    CHECK(storage[7] == -1.0);
  }
  SECTION("a user container through buffer_traits") {
    samples out{{1.0f * r, 2.0f}}, in{{0, 0}};
    world.sendrecv(out, right(world), 7, in, from, 7);
    CHECK(in.values[0] == 1.0f * from);
  }
  SECTION("complex and bool") {
    std::vector<std::complex<float>> out{{1.0f * r, -1.0f}}, in(1);
    world.sendrecv(out, right(world), 8, in, from, 8);
    CHECK(in[0] == std::complex<float>(1.0f * from, -1.0f));
    bool flag_out = r % 2 == 0, flag_in = false;
    world.sendrecv(flag_out, right(world), 8, flag_in, from, 8);
    CHECK(flag_in == (from % 2 == 0));
  }
#if defined(__cpp_lib_span)
  SECTION("std::span") {
    std::vector<int> data(6, r), got(6, -1);
    std::span<const int> out(data.data() + 1, 4);
    std::span<int> in(got.data() + 2, 4);
    world.sendrecv(out, right(world), 9, in, from, 9);
    CHECK(got[1] == -1);
    CHECK(got[2] == from);
    CHECK(got[5] == from);
    world.sendrecv(out, right(world), 9, std::span<int>(got).subspan(0, 4), from, 9);
    CHECK(got[0] == from);
  }
#endif
}

TEST_CASE("recv<Container>() sizes the container to the message") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world);
  std::vector<int> out(static_cast<std::size_t>(r + 3), r);
  auto req = world.isend(out, right(world), 11);
  auto in = world.recv<std::vector<int>>(from, 11);
  req.wait();
  CHECK(in.size() == static_cast<std::size_t>(from + 3));
  CHECK(in.front() == from);

  const std::string text(static_cast<std::size_t>(r + 1), 'x');
  auto sreq = world.isend(text, right(world), 12);
  auto s = world.recv<std::string>(from, 12);
  sreq.wait();
  CHECK(s == std::string(static_cast<std::size_t>(from + 1), 'x'));

  // A fixed-size value.
  auto vreq = world.isend(r * 2.5, right(world), 13);
  CHECK(world.recv<double>(from, 13) == from * 2.5);
  vreq.wait();
}

TEST_CASE("recv<vector<T>>() of a message that is not a whole number of T") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), from = left(world);
  std::vector<char> odd(7, 'z');  // 7 bytes is not a whole number of ints
  auto req = world.isend(odd, right(world), 14);
  CHECK_THROWS_AS(world.recv<std::vector<int>>(from, 14), std::range_error);
  req.wait();
  // The message was consumed, not left behind to be matched by the next receive.
  CHECK_FALSE(world.iprobe(from, 14).has_value());
  world.barrier();
  (void)r;
}
