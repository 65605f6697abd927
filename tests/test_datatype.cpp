// Datatypes: the trait for every builtin, enums, complex, value-index pairs, std::array and
// C arrays; OOMPI_STRUCT (plain, nested, array members, padding); derived-type factories with
// their size/extent/true extent, used in real messages; bad input.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include "test_support.hpp"

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace geo {
struct vec3 {
  double x, y, z;
};
enum class kind : std::uint8_t { gas, liquid, solid };
}  // namespace geo
OOMPI_STRUCT(geo::vec3, x, y, z)

// Padding between members and at the end, a nested struct, C-array and std::array members,
// an enum, a bool, and a nested array of structs.
struct particle {
  char tag;                  // then 7 bytes of padding
  geo::vec3 pos;             // nested OOMPI_STRUCT
  float mass;
  int neighbours[3];         // C array member
  std::array<short, 2> cell; // std::array member
  geo::kind state;           // enum member
  bool alive;                // then padding to sizeof(particle)
  geo::vec3 corners[2];      // array of nested structs
};
OOMPI_STRUCT(particle, tag, pos, mass, neighbours, cell, state, alive, corners)

struct with_matrix {
  double m[2][3];  // two-dimensional array member
  std::int64_t id;
};
OOMPI_STRUCT(with_matrix, m, id)

namespace {

MPI_Count type_size(MPI_Datatype t) {
  MPI_Count n = 0;
  MPI_Type_size_x(t, &n);
  return n;
}

particle make_particle(int seed) {
  particle p{};
  p.tag = static_cast<char>('a' + seed % 26);
  p.pos = {seed + 0.5, seed + 1.5, seed + 2.5};
  p.mass = 1.25f * static_cast<float>(seed);
  p.neighbours[0] = seed;
  p.neighbours[1] = seed + 1;
  p.neighbours[2] = seed + 2;
  p.cell = {static_cast<short>(seed), static_cast<short>(-seed)};
  p.state = static_cast<geo::kind>(seed % 3);
  p.alive = seed % 2 == 0;
  p.corners[0] = {1.0 * seed, 2.0, 3.0};
  p.corners[1] = {4.0, 5.0, -1.0 * seed};
  return p;
}

bool same(const particle& a, const particle& b) {
  auto eq = [](const geo::vec3& u, const geo::vec3& v) {
    return u.x == v.x && u.y == v.y && u.z == v.z;
  };
  return a.tag == b.tag && eq(a.pos, b.pos) && a.mass == b.mass &&
         a.neighbours[0] == b.neighbours[0] && a.neighbours[1] == b.neighbours[1] &&
         a.neighbours[2] == b.neighbours[2] && a.cell == b.cell && a.state == b.state &&
         a.alive == b.alive && eq(a.corners[0], b.corners[0]) && eq(a.corners[1], b.corners[1]);
}

}  // namespace

// --- the trait ---------------------------------------------------------------------------

TEST_CASE("builtin types map to the MPI datatypes of the same size") {
  CHECK(oompi::datatype_of<char>() == MPI_CHAR);
  CHECK(oompi::datatype_of<signed char>() == MPI_SIGNED_CHAR);
  CHECK(oompi::datatype_of<unsigned char>() == MPI_UNSIGNED_CHAR);
  CHECK(oompi::datatype_of<short>() == MPI_SHORT);
  CHECK(oompi::datatype_of<unsigned short>() == MPI_UNSIGNED_SHORT);
  CHECK(oompi::datatype_of<int>() == MPI_INT);
  CHECK(oompi::datatype_of<unsigned>() == MPI_UNSIGNED);
  CHECK(oompi::datatype_of<long>() == MPI_LONG);
  CHECK(oompi::datatype_of<unsigned long>() == MPI_UNSIGNED_LONG);
  CHECK(oompi::datatype_of<long long>() == MPI_LONG_LONG);
  CHECK(oompi::datatype_of<unsigned long long>() == MPI_UNSIGNED_LONG_LONG);
  CHECK(oompi::datatype_of<float>() == MPI_FLOAT);
  CHECK(oompi::datatype_of<double>() == MPI_DOUBLE);
  CHECK(oompi::datatype_of<long double>() == MPI_LONG_DOUBLE);
  CHECK(oompi::datatype_of<bool>() == MPI_CXX_BOOL);
  CHECK(oompi::datatype_of<std::byte>() == MPI_BYTE);
  CHECK(oompi::datatype_of<wchar_t>() == MPI_WCHAR);
  CHECK(oompi::datatype_of<std::complex<float>>() == MPI_CXX_FLOAT_COMPLEX);
  CHECK(oompi::datatype_of<std::complex<double>>() == MPI_CXX_DOUBLE_COMPLEX);
  CHECK(oompi::datatype_of<std::complex<long double>>() == MPI_CXX_LONG_DOUBLE_COMPLEX);
  CHECK(oompi::datatype_of<const int>() == MPI_INT);  // cv-qualifiers do not matter

  // Sizes agree with C++ for every type the trait covers.
  CHECK(type_size(oompi::datatype_of<char>()) == sizeof(char));
  CHECK(type_size(oompi::datatype_of<wchar_t>()) == sizeof(wchar_t));
  CHECK(type_size(oompi::datatype_of<char16_t>()) == sizeof(char16_t));
  CHECK(type_size(oompi::datatype_of<char32_t>()) == sizeof(char32_t));
  CHECK(type_size(oompi::datatype_of<short>()) == sizeof(short));
  CHECK(type_size(oompi::datatype_of<long>()) == sizeof(long));
  CHECK(type_size(oompi::datatype_of<long long>()) == sizeof(long long));
  CHECK(type_size(oompi::datatype_of<long double>()) == sizeof(long double));
  CHECK(type_size(oompi::datatype_of<bool>()) == sizeof(bool));
  CHECK(type_size(oompi::datatype_of<std::complex<double>>()) == sizeof(std::complex<double>));
  CHECK(type_size(oompi::datatype_of<std::complex<long double>>()) ==
        sizeof(std::complex<long double>));
  CHECK(type_size(oompi::datatype_of<std::int8_t>()) == 1);
  CHECK(type_size(oompi::datatype_of<std::uint16_t>()) == 2);
  CHECK(type_size(oompi::datatype_of<std::int32_t>()) == 4);
  CHECK(type_size(oompi::datatype_of<std::uint64_t>()) == 8);
  CHECK(type_size(oompi::datatype_of<std::size_t>()) == sizeof(std::size_t));
}

TEST_CASE("enums travel as their underlying type") {
  CHECK(oompi::datatype_of<geo::kind>() == MPI_UNSIGNED_CHAR);
  enum plain { a, b };
  CHECK(type_size(oompi::datatype_of<plain>()) == sizeof(plain));
}

TEST_CASE("value-index pairs for MAXLOC and MINLOC") {
  CHECK(oompi::datatype_of<oompi::value_index<double>>() == MPI_DOUBLE_INT);
  CHECK(oompi::datatype_of<oompi::value_index<float>>() == MPI_FLOAT_INT);
  CHECK(oompi::datatype_of<oompi::value_index<int>>() == MPI_2INT);
  CHECK(oompi::datatype_of<oompi::value_index<long>>() == MPI_LONG_INT);
  CHECK(oompi::datatype_of<oompi::value_index<short>>() == MPI_SHORT_INT);
  CHECK(oompi::datatype_of<oompi::value_index<long double>>() == MPI_LONG_DOUBLE_INT);
  // The C++ layout is the one MPI describes: an array of pairs round-trips.
  auto world = oompi::communicator::world();
  std::vector<oompi::value_index<double>> out{{1.5, 3}, {-2.0, 7}}, in(2);
  world.sendrecv(out, world.rank(), 0, in, world.rank(), 0);
  CHECK(in == out);
  std::vector<oompi::value_index<short>> sout{{5, 1}, {-6, 2}}, sin(2);
  world.sendrecv(sout, world.rank(), 0, sin, world.rank(), 0);
  CHECK(sin == sout);
}

TEST_CASE("std::array and C arrays as elements") {
  using a3 = std::array<double, 3>;
  oompi::datatype t = oompi::datatype::of<a3>();
  CHECK(t.size() == 3 * sizeof(double));
  CHECK(t.extent() == sizeof(a3));
  CHECK(oompi::datatype_of<a3>() == oompi::datatype_of<a3>());  // built once
  oompi::datatype c = oompi::datatype::of<int[4]>();
  CHECK(c.size() == 4 * sizeof(int));
  oompi::datatype m = oompi::datatype::of<float[2][5]>();  // nested C arrays
  CHECK(m.size() == 10 * sizeof(float));
  CHECK(m.extent() == sizeof(float[2][5]));

  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<a3> out(4), in(4);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {r + 0.1 * i, 1.0 * i, -1.0 * r};
  world.sendrecv(out, (r + 1) % n, 0, in, (r + n - 1) % n, 0);
  const int left = (r + n - 1) % n;
  for (std::size_t i = 0; i < in.size(); ++i) CHECK(in[i] == a3{left + 0.1 * i, 1.0 * i, -1.0 * left});
}

TEST_CASE("has_datatype_v and is_buffer_v") {
  STATIC_REQUIRE(oompi::has_datatype_v<double>);
  STATIC_REQUIRE(oompi::has_datatype_v<const double>);
  STATIC_REQUIRE(oompi::has_datatype_v<particle>);
  STATIC_REQUIRE(oompi::has_datatype_v<std::array<geo::vec3, 2>>);
  STATIC_REQUIRE(oompi::has_datatype_v<geo::kind>);
  STATIC_REQUIRE_FALSE(oompi::has_datatype_v<int*>);
  STATIC_REQUIRE_FALSE(oompi::has_datatype_v<std::vector<int>>);
  struct unregistered {
    int a;
  };
  STATIC_REQUIRE_FALSE(oompi::has_datatype_v<unregistered>);
  STATIC_REQUIRE_FALSE(oompi::has_datatype_v<std::array<unregistered, 2>>);
  STATIC_REQUIRE(oompi::is_buffer_v<std::vector<particle>>);
  STATIC_REQUIRE(oompi::is_buffer_v<std::string>);
  STATIC_REQUIRE_FALSE(oompi::is_buffer_v<unregistered>);
}

// --- OOMPI_STRUCT --------------------------------------------------------------------------

TEST_CASE("OOMPI_STRUCT: size counts members only, extent is sizeof(T)") {
  oompi::datatype v = oompi::datatype::of<geo::vec3>();
  CHECK(v.size() == 3 * sizeof(double));
  CHECK(v.extent() == sizeof(geo::vec3));
  CHECK(v.lower_bound() == 0);

  oompi::datatype p = oompi::datatype::of<particle>();
  const std::size_t members = sizeof(char) + 3 * sizeof(double) + sizeof(float) + 3 * sizeof(int) +
                              2 * sizeof(short) + sizeof(geo::kind) + sizeof(bool) +
                              6 * sizeof(double);
  CHECK(p.size() == static_cast<MPI_Count>(members));
  CHECK(p.size() < static_cast<MPI_Count>(sizeof(particle)));  // there is padding
  CHECK(p.extent() == sizeof(particle));
  CHECK(p.true_lower_bound() == 0);
  CHECK(p.true_extent() <= static_cast<MPI_Count>(sizeof(particle)));

  oompi::datatype w = oompi::datatype::of<with_matrix>();
  CHECK(w.size() == 6 * sizeof(double) + sizeof(std::int64_t));
  CHECK(w.extent() == sizeof(with_matrix));
  // Built and committed once, then cached.
  CHECK(oompi::datatype_of<particle>() == oompi::datatype_of<particle>());
}

TEST_CASE("OOMPI_STRUCT: a vector of structs round-trips member by member") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  const int dest = (r + 1) % n, src = (r + n - 1) % n;
  std::vector<particle> out(5), in(5);
  for (int i = 0; i < 5; ++i) out[i] = make_particle(10 * r + i);
  oompi::status s = world.sendrecv(out, dest, 4, in, src, 4);
  CHECK(s.count<particle>() == 5);
  CHECK(s.source() == src);
  bool all = true;
  for (int i = 0; i < 5; ++i) all = all && same(in[i], make_particle(10 * src + i));
  CHECK(all);

  with_matrix wm{{{1, 2, 3}, {4, 5, 6}}, 42 + r}, got{};
  world.sendrecv(wm, dest, 5, got, src, 5);
  CHECK(got.m[1][2] == 6);
  CHECK(got.m[0][0] == 1);
  CHECK(got.id == 42 + src);
}

TEST_CASE("OOMPI_STRUCT: padding bytes are not transferred") {
  // MPI moves members only: the receiver's padding keeps its own bytes.
  auto world = oompi::communicator::world();
  particle out = make_particle(3), in;
  std::memset(static_cast<void*>(&in), 0xAB, sizeof in);
  world.sendrecv(out, world.rank(), 6, in, world.rank(), 6);
  CHECK(same(in, out));
  const auto* raw = reinterpret_cast<const unsigned char*>(&in);
  CHECK(raw[offsetof(particle, tag) + 1] == 0xAB);  // the byte after `tag` is padding
}

// --- derived datatypes -----------------------------------------------------------------------

TEST_CASE("contiguous") {
  auto d = oompi::datatype::contiguous(4, oompi::datatype::of<int>());
  CHECK(d.owned());
  CHECK(d.size() == 4 * sizeof(int));
  CHECK(d.extent() == 4 * sizeof(int));
  CHECK(d.true_extent() == 4 * sizeof(int));
  auto world = oompi::communicator::world();
  std::vector<int> out(8), in(8, -1);
  std::iota(out.begin(), out.end(), 100 * world.rank());
  world.sendrecv(oompi::buffer(out.data(), 2, d), world.rank(), 0, in, world.rank(), 0);
  CHECK(in == out);
}

TEST_CASE("vector and hvector: a column of a row-major matrix") {
  constexpr int rows = 4, cols = 5;
  auto column = oompi::datatype::vector(rows, 1, cols, oompi::datatype::of<double>());
  CHECK(column.size() == rows * sizeof(double));
  CHECK(column.extent() == ((rows - 1) * cols + 1) * sizeof(double));
  CHECK(column.true_extent() == column.extent());
  auto hcolumn = oompi::datatype::hvector(rows, 1, cols * sizeof(double), oompi::datatype::of<double>());
  CHECK(hcolumn.size() == column.size());
  CHECK(hcolumn.extent() == column.extent());

  auto world = oompi::communicator::world();
  std::vector<double> m(rows * cols);
  std::iota(m.begin(), m.end(), 0.0);
  std::vector<double> col(rows, -1), col2(rows, -1);
  world.sendrecv(oompi::buffer(m.data() + 2, 1, column), world.rank(), 1, col, world.rank(), 1);
  world.sendrecv(oompi::buffer(m.data() + 3, 1, hcolumn), world.rank(), 1, col2, world.rank(), 1);
  for (int i = 0; i < rows; ++i) {
    CHECK(col[i] == m[i * cols + 2]);
    CHECK(col2[i] == m[i * cols + 3]);
  }
}

TEST_CASE("indexed, hindexed, indexed_block, hindexed_block") {
  const auto dbl = oompi::datatype::of<double>();
  auto ix = oompi::datatype::indexed({2, 1}, {1, 5}, dbl);  // elements 1,2 and 5
  CHECK(ix.size() == 3 * sizeof(double));
  CHECK(ix.lower_bound() == sizeof(double));
  CHECK(ix.extent() == 5 * sizeof(double));
  CHECK(ix.true_lower_bound() == sizeof(double));
  CHECK(ix.true_extent() == 5 * sizeof(double));
  auto hix = oompi::datatype::hindexed({2, 1}, {1 * 8, 5 * 8}, dbl);
  CHECK(hix.size() == ix.size());
  CHECK(hix.extent() == ix.extent());
  auto blk = oompi::datatype::indexed_block(2, {0, 4}, dbl);  // 0,1 and 4,5
  CHECK(blk.size() == 4 * sizeof(double));
  CHECK(blk.extent() == 6 * sizeof(double));
  auto hblk = oompi::datatype::hindexed_block(2, {0, 4 * 8}, dbl);
  CHECK(hblk.size() == blk.size());

  auto world = oompi::communicator::world();
  std::vector<double> v{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<double> a(3), b(4), c(3), d(4);
  world.sendrecv(oompi::buffer(v.data(), 1, ix), world.rank(), 2, a, world.rank(), 2);
  world.sendrecv(oompi::buffer(v.data(), 1, blk), world.rank(), 2, b, world.rank(), 2);
  world.sendrecv(oompi::buffer(v.data(), 1, hix), world.rank(), 2, c, world.rank(), 2);
  world.sendrecv(oompi::buffer(v.data(), 1, hblk), world.rank(), 2, d, world.rank(), 2);
  CHECK(a == std::vector<double>{1, 2, 5});
  CHECK(b == std::vector<double>{0, 1, 4, 5});
  CHECK(c == a);
  CHECK(d == b);

  // Receiving through a derived type scatters into place.
  std::vector<double> scattered(8, -1);
  world.sendrecv(a, world.rank(), 3, oompi::buffer(scattered.data(), 1, ix), world.rank(), 3);
  CHECK(scattered == std::vector<double>{-1, 1, 2, -1, -1, 5, -1, -1});
}

TEST_CASE("subarray, C and Fortran order") {
  // A 2x2 block at (1, 2) of a 4x5 matrix.
  auto block = oompi::datatype::subarray({4, 5}, {2, 2}, {1, 2}, oompi::datatype::of<int>());
  CHECK(block.size() == 4 * sizeof(int));
  CHECK(block.extent() == 20 * sizeof(int));
  CHECK(block.true_lower_bound() == (1 * 5 + 2) * static_cast<MPI_Count>(sizeof(int)));
  CHECK(block.true_extent() == (5 + 2) * static_cast<MPI_Count>(sizeof(int)));
  auto fblock = oompi::datatype::subarray({5, 4}, {2, 2}, {2, 1}, oompi::datatype::of<int>(),
                                          oompi::array_order::fortran);
  CHECK(fblock.size() == block.size());

  auto world = oompi::communicator::world();
  std::vector<int> m(20);
  std::iota(m.begin(), m.end(), 0);
  std::vector<int> got(4), fgot(4);
  world.sendrecv(oompi::buffer(m.data(), 1, block), world.rank(), 7, got, world.rank(), 7);
  world.sendrecv(oompi::buffer(m.data(), 1, fblock), world.rank(), 7, fgot, world.rank(), 7);
  CHECK(got == std::vector<int>{7, 8, 12, 13});
  CHECK(fgot == got);  // the same memory seen column-major
}

TEST_CASE("darray: block and cyclic distributions of a matrix") {
  // A 4x6 matrix on a 2x2 grid (a local constructor: any world size will do).
  const auto base = oompi::datatype::of<int>();
  auto world = oompi::communicator::world();
  std::vector<int> m(24);
  std::iota(m.begin(), m.end(), 0);
  for (int r = 0; r < 4; ++r) {
    auto part = oompi::datatype::darray(
        4, r, {4, 6}, {oompi::distribution::block, oompi::distribution::block},
        {oompi::default_darg, oompi::default_darg}, {2, 2}, base);
    CHECK(part.size() == 6 * sizeof(int));
    CHECK(part.extent() == 24 * sizeof(int));  // the whole array: darrays tile files
    std::vector<int> got(6, -1), expect;
    for (int i = (r / 2) * 2; i < (r / 2) * 2 + 2; ++i)
      for (int j = (r % 2) * 3; j < (r % 2) * 3 + 3; ++j) expect.push_back(i * 6 + j);
    world.sendrecv(oompi::buffer(m.data(), 1, part), world.rank(), 3, got, world.rank(), 3);
    CHECK(got == expect);
  }
  // Cyclic by 2 over the columns, Fortran order, no distribution of the first dimension.
  auto cyc = oompi::datatype::darray(2, 1, {3, 8}, {oompi::distribution::none,
                                                    oompi::distribution::cyclic},
                                     {oompi::default_darg, 2}, {1, 2}, base,
                                     oompi::array_order::fortran);
  CHECK(cyc.size() == 12 * sizeof(int));
  std::vector<int> got(12, -1), expect;
  // Fortran order: element (i, j) at j * 3 + i; rank 1 owns columns 2, 3, 6, 7.
  for (int j : {2, 3, 6, 7})
    for (int i = 0; i < 3; ++i) expect.push_back(j * 3 + i);
  world.sendrecv(oompi::buffer(m.data(), 1, cyc), world.rank(), 4, got, world.rank(), 4);
  CHECK(got == expect);
}

TEST_CASE("darray: inconsistent arguments are refused before MPI") {
  const auto b = oompi::datatype::of<double>();
  using oompi::distribution;
  const int d = oompi::default_darg;
  const std::vector<distribution> bb{distribution::block, distribution::block};
  // Vectors of different lengths.
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {4, 4}, bb, {d}, {2, 2}, b), std::invalid_argument);
  // The grid does not multiply to the number of processes.
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {4, 4}, bb, {d, d}, {2, 3}, b), std::invalid_argument);
  // Rank outside 0..nprocs-1.
  CHECK_THROWS_AS(oompi::datatype::darray(4, 4, {4, 4}, bb, {d, d}, {2, 2}, b), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::darray(4, -1, {4, 4}, bb, {d, d}, {2, 2}, b), std::invalid_argument);
  // distribution::none over more than one process.
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {4, 4}, {distribution::none, distribution::block},
                                          {d, d}, {2, 2}, b),
                  std::invalid_argument);
  // Blocks too small to cover the dimension (2 x 2 < 5).
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {5, 4}, bb, {2, d}, {2, 2}, b), std::invalid_argument);
  // Non-positive sizes and distribution arguments.
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {0, 4}, bb, {d, d}, {2, 2}, b), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::darray(4, 0, {4, 4}, bb, {0, d}, {2, 2}, b), std::invalid_argument);
}

TEST_CASE("structure, resized and dup") {
  struct pair_di {
    double d;
    int i;
  };
  auto st = oompi::datatype::structure(
      {1, 1}, {offsetof(pair_di, d), offsetof(pair_di, i)}, {MPI_DOUBLE, MPI_INT});
  CHECK(st.size() == sizeof(double) + sizeof(int));
  CHECK(st.true_extent() == sizeof(double) + sizeof(int));
  auto rs = oompi::datatype::resized(st, 0, sizeof(pair_di));
  CHECK(rs.extent() == sizeof(pair_di));
  CHECK(rs.size() == st.size());

  auto copy = rs.dup();
  CHECK(copy.owned());
  CHECK(copy != rs);
  CHECK(copy.size() == rs.size());
  CHECK(copy.extent() == rs.extent());
  copy.set_name("pair_di");
  CHECK(copy.name() == "pair_di");

  auto world = oompi::communicator::world();
  std::vector<pair_di> out{{1.5, 1}, {2.5, 2}, {3.5, 3}}, in(3);
  auto s = world.sendrecv(oompi::buffer(out.data(), 3, copy), world.rank(), 8,
                          oompi::buffer(in.data(), 3, rs), world.rank(), 8);
  CHECK(s.count(rs) == 3);
  CHECK(s.elements(rs) == 6);  // basic elements: 3 doubles and 3 ints
  for (int i = 0; i < 3; ++i) {
    CHECK(in[i].d == out[i].d);
    CHECK(in[i].i == out[i].i);
  }
}

TEST_CASE("datatype handles: borrowed builtins, moves, null") {
  oompi::datatype builtin = oompi::datatype::of<double>();
  CHECK_FALSE(builtin.owned());
  CHECK(builtin.native() == MPI_DOUBLE);
  CHECK(builtin.size() == sizeof(double));
  CHECK(builtin.name() == "MPI_DOUBLE");

  auto a = oompi::datatype::contiguous(3, builtin);
  const MPI_Datatype h = a.native();
  oompi::datatype b(std::move(a));
  CHECK(a.is_null());
  CHECK(b.native() == h);
  CHECK(b.owned());
  oompi::datatype c;
  c = std::move(b);
  CHECK(c.native() == h);
  CHECK(c.size() == 3 * sizeof(double));

  oompi::datatype null;
  CHECK(null.is_null());
  CHECK_THROWS_AS(null.size(), std::logic_error);
  CHECK_THROWS_AS(null.extent(), std::logic_error);
}

TEST_CASE("derived datatypes: bad input is refused clearly") {
  const auto dbl = oompi::datatype::of<double>();
  using oompi_test::mpi_error_class;
  // Lists of different lengths: caught before MPI.
  CHECK_THROWS_AS(oompi::datatype::indexed({1, 2}, {0}, dbl), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::hindexed({1}, {0, 8}, dbl), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::subarray({4, 4}, {2}, {0, 0}, dbl), std::invalid_argument);
  // A sub-array outside the array (MPICH would build it).
  CHECK_THROWS_AS(oompi::datatype::subarray({4, 4}, {5, 1}, {0, 0}, dbl), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::subarray({4, 4}, {2, 2}, {3, 0}, dbl), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::subarray({4, 4}, {2, 2}, {0, -1}, dbl), std::invalid_argument);
  CHECK_THROWS_AS(oompi::datatype::structure({1}, {0, 8}, {MPI_INT}), std::invalid_argument);
  // Negative counts: MPI's own checks, as oompi::error.
  CHECK(mpi_error_class([&] { oompi::datatype::contiguous(-1, dbl); }) != MPI_SUCCESS);
  CHECK(mpi_error_class([&] { oompi::datatype::vector(-2, 1, 1, dbl); }) != MPI_SUCCESS);
  // A null base type.
  CHECK(mpi_error_class([] { oompi::datatype::contiguous(2, oompi::datatype()); }) ==
        MPI_ERR_TYPE);
  try {
    oompi::datatype::contiguous(-1, dbl);
  } catch (const oompi::error& e) {
    CHECK(e.routine() == "MPI_Type_contiguous");
    CHECK(std::string(e.what()).find("MPI_Type_contiguous") != std::string::npos);
  }
}
