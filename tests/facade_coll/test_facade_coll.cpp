// The facade's collectives and user ops (oompi::rt), checked from C++.
#include <catch2/catch.hpp>

#include <oompi/rt/rt.hpp>

#include <cstring>
#include <stdexcept>
#include <vector>

using namespace oompi::rt;

namespace {

buffer ints(std::vector<int>& v) { return buffer(v.data(), std::int64_t(v.size()), MPI_INT, sizeof(int)); }

// inout[i] = in[i] + inout[i] over ints, through raw addresses as the languages receive them.
struct int_sum : user_function {
  void call(std::int64_t in, std::int64_t inout, int count, std::int64_t, const datatype&) override {
    auto* a = reinterpret_cast<const int*>(in);
    auto* b = reinterpret_cast<int*>(inout);
    for (int i = 0; i < count; ++i) b[i] += a[i];
  }
};

struct throwing : user_function {
  void call(std::int64_t, std::int64_t, int, std::int64_t, const datatype&) override {
    throw std::runtime_error("boom");
  }
};

struct failing : user_function {
  void call(std::int64_t, std::int64_t, int, std::int64_t, const datatype&) override { fail("failed"); }
};

}  // namespace

TEST_CASE("facade collectives compute what MPI does") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  op sum = op::of(op_kind::sum);

  std::vector<int> s{r + 1}, out{0};
  auto sb = ints(s);
  auto ob = ints(out);
  w.allreduce(sb, ob, sum);
  CHECK(out[0] == n * (n + 1) / 2);

  w.scan(sb, ob, sum);
  CHECK(out[0] == (r + 1) * (r + 2) / 2);

  std::vector<int> all(n, -1);
  auto ab = ints(all);
  w.allgather(sb, ab);
  for (int i = 0; i < n; ++i) CHECK(all[i] == i + 1);

  std::vector<int> b{r == 0 ? 42 : 0};
  auto bb = ints(b);
  w.bcast(bb, 0);
  CHECK(b[0] == 42);

  std::vector<int> inpl{1};
  auto ib = ints(inpl);
  w.allreduce_in_place(ib, sum);
  CHECK(inpl[0] == n);
  w.barrier();
}

TEST_CASE("facade collectives reject bad input before MPI") {
  comm w = comm::world();
  const int n = w.size();
  op sum = op::of(op_kind::sum);
  std::vector<int> s{1}, small{};
  auto sb = ints(s);
  auto smallb = ints(small);
  CHECK_THROWS_AS(w.bcast(sb, n), std::out_of_range);
  CHECK_THROWS_AS(w.bcast(sb, -1), std::out_of_range);
  if (n > 1) {
    CHECK_THROWS_AS(w.allgather(sb, smallb), std::invalid_argument);
  }
  std::vector<int> bad_counts(std::size_t(n) + 1, 1);
  std::vector<int> recv(std::size_t(n) + 1, 0);
  auto rb = ints(recv);
  CHECK_THROWS_AS(w.allgatherv(sb, rb, bad_counts, bad_counts), std::invalid_argument);
  w.barrier();
}

TEST_CASE("user_function subclasses reduce, allreduce and scan") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  int_sum fn;
  op mine = op::create(&fn, true);
  CHECK(mine.is_user());
  std::vector<int> s{r + 1, 2 * (r + 1)}, out{0, 0};
  auto sb = ints(s);
  auto ob = ints(out);
  w.allreduce(sb, ob, mine);
  CHECK(out[0] == n * (n + 1) / 2);
  CHECK(out[1] == n * (n + 1));
  out = {0, 0};
  w.reduce(sb, ob, mine, 0);
  if (r == 0) CHECK(out[0] == n * (n + 1) / 2);
  w.scan(sb, ob, mine);
  CHECK(out[0] == (r + 1) * (r + 2) / 2);
  mine.close();
  CHECK(mine.is_null());
}

TEST_CASE("an exception thrown by a user function surfaces after the collective") {
  comm w = comm::world();
  const int n = w.size();
  if (n < 2) return;  // with one rank MPI never calls the function
  throwing t;
  op bad = op::create(&t, true);
  std::vector<int> s{1}, out{0};
  auto sb = ints(s);
  auto ob = ints(out);
  // Only ranks that ran the op see the error: catch everywhere, agree afterwards.
  int threw = 0;
  try {
    w.allreduce(sb, ob, bad);
  } catch (const std::runtime_error& e) {
    threw = std::strcmp(e.what(), "boom") == 0 ? 1 : 2;
  }
  CHECK(threw != 2);
  int any = 0;
  MPI_Allreduce(&threw, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(any == 1);

  failing f;
  op fop = op::create(&f, true);
  int failed = 0;
  try {
    w.allreduce(sb, ob, fop);
  } catch (const user_function_error&) {
    failed = 1;
  }
  int anyf = 0;
  MPI_Allreduce(&failed, &anyf, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(anyf == 1);
  bad.close();
  fop.close();
}

TEST_CASE("nonblocking allreduce and derived datatype queries") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  std::vector<int> s{r + 1}, out{0};
  async_buffer sb;
  sb.data = s.data(); sb.count = 1; sb.type = MPI_INT; sb.extent = sizeof(int);
  async_buffer ob;
  ob.data = out.data(); ob.count = 1; ob.type = MPI_INT; ob.extent = sizeof(int);
  request req = w.iallreduce(sb, ob, op::of(op_kind::sum));
  req.wait();
  CHECK(out[0] == n * (n + 1) / 2);

  datatype v = datatype::vector(2, 1, 3, datatype::of(type_kind::int32));
  CHECK(v.size() == 2 * 4);
  CHECK(v.extent() == 4 * 4);
  v.close();
}

TEST_CASE("retype: derived and pair datatypes over a described buffer, bounds checked") {
  comm w = comm::world();
  const int r = w.rank(), n = w.size();
  // The leading 3x3 block of a 5x5 matrix of doubles (seed 000, Fig. 8), bcast from rank 0.
  std::vector<double> a(25, -1.0);
  if (r == 0)
    for (int i = 0; i < 25; ++i) a[i] = i;
  datatype blk = datatype::vector(3, 3, 5, datatype::of(type_kind::float64));
  buffer b(a.data(), 25, MPI_DOUBLE, sizeof(double));
  retype(b, blk, 1, "test");
  CHECK(b.count == 1);
  w.bcast(b, 0);
  for (int i = 0; i < 25; ++i)
    CHECK(a[i] == ((i % 5 < 3 && i / 5 < 3) ? double(i) : (r == 0 ? double(i) : -1.0)));

  // Out of bounds: one block spans 13 doubles (its extent), two span 26.
  CHECK(blk.extent() == 13 * std::int64_t(sizeof(double)));
  std::vector<double> big(26);
  buffer small(big.data(), 12, MPI_DOUBLE, sizeof(double));
  CHECK_THROWS_AS(retype(small, blk, 1, "test"), std::out_of_range);
  buffer b2(big.data(), 25, MPI_DOUBLE, sizeof(double));
  CHECK_THROWS_AS(retype(b2, blk, 2, "test"), std::out_of_range);
  buffer b3(big.data(), 26, MPI_DOUBLE, sizeof(double));
  CHECK_NOTHROW(retype(b3, blk, 2, "test"));
  buffer b4(a.data(), 25, MPI_DOUBLE, sizeof(double));
  CHECK_THROWS_AS(retype(b4, blk, -1, "test"), std::invalid_argument);
  CHECK_NOTHROW(retype(b4, blk, 0, "test"));
  datatype closed = datatype::vector(2, 1, 2, datatype::of(type_kind::int32));
  closed.close();
  CHECK_THROWS_AS(retype(b4, closed, 1, "test"), closed_error);

  // MAXLOC over value-index pairs (seed 000, Fig. 11): rank k holds value (k * 7) % n.
  struct di { double v; int i; };
  di mine{double((r * 7) % n), r}, best{0, -1};
  buffer in(&mine, sizeof mine, MPI_BYTE, 1), out(&best, sizeof best, MPI_BYTE, 1);
  datatype pair = datatype::value_index(type_kind::float64);
  CHECK(pair.extent() == std::int64_t(sizeof(di)));
  retype(in, pair, 1, "test");
  retype(out, pair, 1, "test");
  w.allreduce(in, out, op::of(op_kind::maxloc));
  int expect = 0;
  for (int k = 1; k < n; ++k)
    if ((k * 7) % n > (expect * 7) % n) expect = k;
  CHECK(best.v == double((expect * 7) % n));
  CHECK(best.i == expect);
  CHECK_THROWS_AS(datatype::value_index(type_kind::uint8), std::invalid_argument);
}
