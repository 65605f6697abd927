// Blocking collectives: buffer, in-place and value-returning forms, every root, bad input.
// Every rank takes the same collective path in every case (see tests/mpi_main.cpp).

#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <complex>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

struct particle {
  double x, y;
  std::int32_t id;
  friend bool operator==(const particle& a, const particle& b) {
    return a.x == b.x && a.y == b.y && a.id == b.id;
  }
};
OOMPI_STRUCT(particle, x, y, id)

namespace {

oompi::intracommunicator world() { return oompi::communicator::world(); }

// rank r contributes r + 1 elements (gatherv/allgatherv/scatterv tests)
std::vector<int> ramp_counts(int n) {
  std::vector<int> c(static_cast<std::size_t>(n));
  std::iota(c.begin(), c.end(), 1);
  return c;
}
std::vector<int> offsets(const std::vector<int>& counts, int gap = 0) {
  std::vector<int> d(counts.size());
  int at = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    d[i] = at;
    at += counts[i] + gap;
  }
  return d;
}

}  // namespace

TEST_CASE("barrier: nobody leaves before everybody has arrived") {
  auto w = world();
  using clock = std::chrono::steady_clock;  // one system-wide clock on one host
  const double before =
      std::chrono::duration<double>(clock::now().time_since_epoch()).count() + 0.0 * w.rank();
  w.barrier();
  const double after = std::chrono::duration<double>(clock::now().time_since_epoch()).count();
  const auto befores = w.allgather(before);
  const auto afters = w.allgather(after);
  CHECK(*std::max_element(befores.begin(), befores.end()) <=
        *std::min_element(afters.begin(), afters.end()));
}

TEST_CASE("bcast: scalars, containers, structs, every root") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (int root = 0; root < n; ++root) {
    double x = r == root ? 3.5 + root : -1.0;
    w.bcast(x, root);
    CHECK(x == 3.5 + root);

    std::vector<int> v(5, r == root ? root : -1);
    w.bcast(v, root);
    CHECK(v == std::vector<int>(5, root));

    std::array<particle, 2> ps{};
    if (r == root) ps = {particle{1.0, 2.0, root}, particle{3.0, 4.0, -root}};
    w.bcast(ps, root);
    CHECK(ps[0] == particle{1.0, 2.0, root});
    CHECK(ps[1] == particle{3.0, 4.0, -root});
  }
}

TEST_CASE("bcast with resize_to_fit sizes the receivers' containers") {
  auto w = world();
  std::string s = w.rank() == 0 ? "hello, oompi" : "";
  w.bcast(s, 0, oompi::resize_to_fit);
  CHECK(s == "hello, oompi");
  std::vector<double> v;
  if (w.rank() == w.size() - 1) v = {1, 2, 3, 4, 5, 6, 7};
  w.bcast(v, w.size() - 1, oompi::resize_to_fit);
  CHECK(v == std::vector<double>{1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("gather: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (int root = 0; root < n; ++root) {
    const std::array<int, 2> mine{r, 10 * r};
    std::vector<int> all;  // resized at the root
    w.gather(mine, all, root);
    std::vector<int> expect;
    for (int i = 0; i < n; ++i) expect.insert(expect.end(), {i, 10 * i});
    if (r == root) CHECK(all == expect);
    else CHECK(all.empty());

    // in place: the root's block is already in its slot
    std::vector<int> buf = r == root ? std::vector<int>(2 * static_cast<std::size_t>(n), -1)
                                     : std::vector<int>{r, 10 * r};
    if (r == root) {
      buf[2 * static_cast<std::size_t>(r)] = r;
      buf[2 * static_cast<std::size_t>(r) + 1] = 10 * r;
    }
    w.gather(oompi::in_place, buf, root);
    if (r == root) CHECK(buf == expect);

    auto ranks = w.gather(r, root);
    if (r == root) {
      std::vector<int> e(static_cast<std::size_t>(n));
      std::iota(e.begin(), e.end(), 0);
      CHECK(ranks == e);
    } else {
      CHECK(ranks.empty());
    }
  }
}

TEST_CASE("gatherv: explicit layout, counts only, counts computed, in place, value") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = ramp_counts(n);
  const std::vector<double> mine(static_cast<std::size_t>(r) + 1, r + 0.5);
  std::vector<double> packed;
  for (int i = 0; i < n; ++i) packed.insert(packed.end(), static_cast<std::size_t>(i) + 1, i + 0.5);
  for (int root = 0; root < n; ++root) {
    // displacements with a gap of 2 between blocks
    const auto displs = offsets(counts, 2);
    std::vector<double> spaced(static_cast<std::size_t>(displs.back() + counts.back()), -1.0);
    w.gatherv(mine, spaced, counts, displs, root);
    if (r == root) {
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < counts[i]; ++k) CHECK(spaced[displs[i] + k] == i + 0.5);
      if (n > 1) CHECK(spaced[counts[0]] == -1.0);  // the gap is untouched
    }

    std::vector<double> out;
    w.gatherv(mine, out, counts, root);
    if (r == root) CHECK(out == packed);

    std::vector<double> out2;
    w.gatherv(mine, out2, root);  // counts gathered by oompi
    if (r == root) CHECK(out2 == packed);

    std::vector<double> buf = r == root ? packed : mine;
    if (r == root) std::fill(buf.begin(), buf.end(), 0.0);
    if (r == root)
      std::fill_n(buf.begin() + offsets(counts)[r], counts[r], r + 0.5);  // own block in place
    w.gatherv(oompi::in_place, buf, counts, root);
    if (r == root) CHECK(buf == packed);

    auto got = w.gatherv(mine, root);
    if (r == root) CHECK(got == packed);
    else CHECK(got.empty());
  }
}

TEST_CASE("scatter: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (int root = 0; root < n; ++root) {
    std::vector<int> all;
    if (r == root)
      for (int i = 0; i < n; ++i) all.insert(all.end(), {i, -i, 100 + root});
    std::array<int, 3> mine{};
    w.scatter(all, mine, root);
    CHECK(mine == std::array<int, 3>{r, -r, 100 + root});

    std::vector<int> buf = r == root ? all : std::vector<int>(3, 0);
    w.scatter(oompi::in_place, buf, root);
    if (r == root) CHECK(buf == all);  // untouched at the root
    else CHECK(buf == std::vector<int>{r, -r, 100 + root});

    std::vector<double> ones;
    if (r == root)
      for (int i = 0; i < n; ++i) ones.push_back(i * 2.0);
    const double one = w.scatter(ones, root);
    CHECK(one == r * 2.0);
  }
}

TEST_CASE("scatterv: explicit layout, counts only, in place, value") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = ramp_counts(n);
  for (int root = 0; root < n; ++root) {
    const auto displs = offsets(counts, 1);
    std::vector<long> all;
    if (r == root) {
      all.assign(static_cast<std::size_t>(displs.back() + counts.back()), -7);
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < counts[i]; ++k) all[displs[i] + k] = 1000 * i + k;
    }
    std::vector<long> mine(static_cast<std::size_t>(counts[r]));
    w.scatterv(all, counts, displs, mine, root);
    std::vector<long> expect(static_cast<std::size_t>(counts[r]));
    for (int k = 0; k < counts[r]; ++k) expect[k] = 1000 * r + k;
    CHECK(mine == expect);

    std::vector<long> packed;
    if (r == root)
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < counts[i]; ++k) packed.push_back(1000 * i + k);
    std::vector<long> mine2(static_cast<std::size_t>(counts[r]));
    w.scatterv(packed, counts, mine2, root);
    CHECK(mine2 == expect);

    std::vector<long> buf = r == root ? packed : std::vector<long>(static_cast<std::size_t>(counts[r]));
    w.scatterv(oompi::in_place, buf, counts, root);
    if (r == root) CHECK(buf == packed);
    else CHECK(buf == expect);

    // value form: counts matter at the root only
    auto got = w.scatterv(packed, r == root ? counts : std::vector<int>{}, root);
    CHECK(got == expect);
  }
}

TEST_CASE("allgather: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::vector<particle> out;
  const particle me{r * 1.0, -r * 1.0, r};
  w.allgather(me, out);
  REQUIRE(out.size() == static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) CHECK(out[i] == particle{i * 1.0, -i * 1.0, i});

  std::vector<int> buf(3 * static_cast<std::size_t>(n), -1);
  for (int k = 0; k < 3; ++k) buf[3 * r + k] = r * 3 + k;
  w.allgather(oompi::in_place, buf);
  std::vector<int> expect(3 * static_cast<std::size_t>(n));
  std::iota(expect.begin(), expect.end(), 0);
  CHECK(buf == expect);

  const auto v = w.allgather(std::vector<int>{r, r});
  CHECK(v.size() == 2 * static_cast<std::size_t>(n));
  CHECK(v.back() == n - 1);
}

TEST_CASE("allgatherv: explicit layout, counts only, counts computed, in place, value") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = ramp_counts(n);
  const std::string mine(static_cast<std::size_t>(r) + 1, static_cast<char>('a' + r));
  std::string packed;
  for (int i = 0; i < n; ++i) packed.append(static_cast<std::size_t>(i) + 1, static_cast<char>('a' + i));

  const auto displs = offsets(counts, 1);
  std::string spaced(static_cast<std::size_t>(displs.back() + counts.back()), '.');
  w.allgatherv(mine, spaced, counts, displs);
  std::string expect_spaced;
  for (int i = 0; i < n; ++i) {
    expect_spaced.append(static_cast<std::size_t>(i) + 1, static_cast<char>('a' + i));
    if (i + 1 < n) expect_spaced += '.';
  }
  CHECK(spaced == expect_spaced);

  std::string out;
  w.allgatherv(mine, out, counts);
  CHECK(out == packed);
  std::string out2;
  w.allgatherv(mine, out2);
  CHECK(out2 == packed);

  std::string buf(packed.size(), '?');
  buf.replace(static_cast<std::size_t>(offsets(counts)[r]), mine.size(), mine);
  w.allgatherv(oompi::in_place, buf, counts);
  CHECK(buf == packed);

  CHECK(w.allgatherv(mine) == std::vector<char>(packed.begin(), packed.end()));
}

TEST_CASE("alltoall: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::vector<int> in(2 * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    in[2 * i] = 100 * r + i;
    in[2 * i + 1] = -(100 * r + i);
  }
  std::vector<int> expect(2 * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    expect[2 * i] = 100 * i + r;
    expect[2 * i + 1] = -(100 * i + r);
  }
  std::vector<int> out;
  w.alltoall(in, out);
  CHECK(out == expect);

  auto buf = in;
  w.alltoall(oompi::in_place, buf);
  CHECK(buf == expect);

  CHECK(w.alltoall(in) == expect);
}

TEST_CASE("alltoallv: explicit layouts, counts only, recv counts computed, in place, value") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  // rank r sends (r + i) % 3 + 1 elements to rank i, values 1000 r + i
  std::vector<int> sc(static_cast<std::size_t>(n)), rc(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    sc[i] = (r + i) % 3 + 1;
    rc[i] = (i + r) % 3 + 1;
  }
  std::vector<int> in;
  for (int i = 0; i < n; ++i) in.insert(in.end(), static_cast<std::size_t>(sc[i]), 1000 * r + i);
  std::vector<int> expect;
  for (int i = 0; i < n; ++i) expect.insert(expect.end(), static_cast<std::size_t>(rc[i]), 1000 * i + r);

  std::vector<int> out;
  w.alltoallv(in, sc, offsets(sc), out, rc, offsets(rc));
  CHECK(out == expect);
  std::vector<int> out2;
  w.alltoallv(in, sc, out2, rc);
  CHECK(out2 == expect);
  std::vector<int> out3;
  w.alltoallv(in, sc, out3);
  CHECK(out3 == expect);
  CHECK(w.alltoallv(in, sc) == expect);

  // in place: the same counts both ways (symmetric: rank r <-> i both (r + i) % 3 + 1)
  std::vector<int> buf;
  for (int i = 0; i < n; ++i) buf.insert(buf.end(), static_cast<std::size_t>(sc[i]), 1000 * r + i);
  w.alltoallv(oompi::in_place, buf, sc);
  CHECK(buf == expect);
  auto buf2 = in;
  w.alltoallv(oompi::in_place, buf2, sc, offsets(sc));
  CHECK(buf2 == expect);
}

TEST_CASE("alltoallw: a different datatype per peer, byte displacements") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  // to even ranks: 2 ints; to odd ranks: 1 double. Send buffer: one 16-byte slot per peer.
  std::vector<unsigned char> in(16 * static_cast<std::size_t>(n)), out(16 * static_cast<std::size_t>(n));
  std::vector<int> sc(n), sd(n), rcn(n), rd(n);
  std::vector<MPI_Datatype> st(n), rt(n);
  for (int i = 0; i < n; ++i) {
    sd[i] = rd[i] = 16 * i;
    if (i % 2 == 0) {
      const int v[2] = {r, i};
      std::memcpy(&in[16 * i], v, sizeof v);
      sc[i] = 2;
      st[i] = MPI_INT;
    } else {
      const double v = r + 0.25 * i;
      std::memcpy(&in[16 * i], &v, sizeof v);
      sc[i] = 1;
      st[i] = MPI_DOUBLE;
    }
    // what I receive from i is what i sends to me
    if (r % 2 == 0) {
      rcn[i] = 2;
      rt[i] = MPI_INT;
    } else {
      rcn[i] = 1;
      rt[i] = MPI_DOUBLE;
    }
  }
  w.alltoallw(in, sc, sd, st, out, rcn, rd, rt);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    if (r % 2 == 0) {
      int v[2];
      std::memcpy(v, &out[16 * i], sizeof v);
      ok = ok && v[0] == i && v[1] == r;
    } else {
      double v = 0;
      std::memcpy(&v, &out[16 * i], sizeof v);
      ok = ok && v == i + 0.25 * r;
    }
  }
  CHECK(ok);

  // in place, all ints
  std::vector<int> buf(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) buf[i] = 10 * r + i;
  std::vector<int> ones(n, 1), bytes(n);
  for (int i = 0; i < n; ++i) bytes[i] = i * static_cast<int>(sizeof(int));
  w.alltoallw(oompi::in_place, buf, ones, bytes, std::vector<MPI_Datatype>(n, MPI_INT));
  std::vector<int> expect(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) expect[i] = 10 * i + r;
  CHECK(buf == expect);
}

TEST_CASE("reduce: buffer, in place and value forms, every root") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const int tri = n * (n - 1) / 2;
  for (int root = 0; root < n; ++root) {
    const std::vector<long long> in{r, 2LL * r, 1};
    std::vector<long long> out;
    w.reduce(in, out, oompi::ops::sum, root);
    if (r == root) CHECK(out == std::vector<long long>{tri, 2LL * tri, n});
    else CHECK(out.empty());

    std::vector<double> buf{r * 1.0, -r * 1.0};
    w.reduce(oompi::in_place, buf, oompi::ops::max, root);
    if (r == root) CHECK(buf == std::vector<double>{n - 1.0, 0.0});

    const int m = w.reduce(r + 1, oompi::ops::prod, root);
    int fact = 1;
    for (int i = 1; i <= n; ++i) fact *= i;
    CHECK(m == (r == root ? fact : 0));
  }
}

TEST_CASE("allreduce: buffer, in place and value forms on several types") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const double s = w.allreduce(r + 0.5, oompi::ops::sum);
  CHECK(s == Approx(n * (n - 1) / 2.0 + 0.5 * n));

  std::vector<int> in{r, -r, r % 2};
  std::vector<int> out(3);
  w.allreduce(in, out, oompi::ops::min);
  CHECK(out == std::vector<int>{0, -(n - 1), 0});

  std::array<std::complex<double>, 2> z{{{1.0 * r, 1.0}, {0.0, 1.0}}};
  w.allreduce(oompi::in_place, z, oompi::ops::sum);
  CHECK(z[0] == std::complex<double>(n * (n - 1) / 2.0, n));
  CHECK(z[1] == std::complex<double>(0.0, n));

  CHECK(w.allreduce(true, oompi::ops::land) == true);
  CHECK(w.allreduce(r == 0, oompi::ops::lor) == true);
  CHECK(w.allreduce(r == 0, oompi::ops::land) == (n == 1));
  CHECK(w.allreduce(1u << r, oompi::ops::bor) == (1u << n) - 1);
  CHECK(w.allreduce(std::byte{0x0f}, oompi::ops::band) == std::byte{0x0f});

  const auto v = w.allreduce(std::vector<float>{1.0f, 2.0f}, std::plus<>{});
  CHECK(v == std::vector<float>{1.0f * n, 2.0f * n});
}

TEST_CASE("reduce_local combines two local buffers") {
  std::vector<int> a{1, 2, 3}, b{10, 20, 30};
  oompi::reduce_local(a, b, oompi::ops::sum);
  CHECK(b == std::vector<int>{11, 22, 33});
  oompi::reduce_local(a, b, [](int x, int y) { return x * 100 + y; });
  CHECK(b == std::vector<int>{111, 222, 333});
}

TEST_CASE("reduce_scatter_block: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::vector<int> in(2 * static_cast<std::size_t>(n));
  for (int i = 0; i < 2 * n; ++i) in[i] = i + r;
  const int rsum = n * (n - 1) / 2;
  const std::vector<int> expect{2 * r * n + rsum, (2 * r + 1) * n + rsum};
  std::vector<int> out;
  w.reduce_scatter_block(in, out, oompi::ops::sum);
  CHECK(out == expect);
  auto buf = in;
  w.reduce_scatter_block(oompi::in_place, buf, oompi::ops::sum);
  CHECK(std::vector<int>(buf.begin(), buf.begin() + 2) == expect);
  CHECK(w.reduce_scatter_block(in, oompi::ops::sum) == expect);
}

TEST_CASE("reduce_scatter: buffer, in place and value forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = ramp_counts(n);  // rank i gets i + 1 elements
  const int total = n * (n + 1) / 2;
  std::vector<double> in(static_cast<std::size_t>(total));
  for (int i = 0; i < total; ++i) in[i] = i * 1.0 + r;
  const int first = offsets(counts)[r];
  std::vector<double> expect;
  for (int k = 0; k < counts[r]; ++k) expect.push_back((first + k) * 1.0 * n + n * (n - 1) / 2.0);
  std::vector<double> out;
  w.reduce_scatter(in, out, counts, oompi::ops::sum);
  CHECK(out == expect);
  auto buf = in;
  w.reduce_scatter(oompi::in_place, buf, counts, oompi::ops::sum);
  CHECK(std::vector<double>(buf.begin(), buf.begin() + counts[r]) == expect);
  CHECK(w.reduce_scatter(in, counts, oompi::ops::sum) == expect);
}

TEST_CASE("scan and exscan: buffer, in place and value forms") {
  auto w = world();
  const int r = w.rank();
  const std::vector<int> in{r + 1, 1};
  std::vector<int> out;
  w.scan(in, out, oompi::ops::sum);
  CHECK(out == std::vector<int>{(r + 1) * (r + 2) / 2, r + 1});
  auto buf = in;
  w.scan(oompi::in_place, buf, oompi::ops::sum);
  CHECK(buf == out);
  CHECK(w.scan(r + 1, oompi::ops::max) == r + 1);

  std::vector<int> ex(2, -5);
  w.exscan(in, ex, oompi::ops::sum);
  if (r > 0) CHECK(ex == std::vector<int>{r * (r + 1) / 2, r});
  auto ebuf = in;
  w.exscan(oompi::in_place, ebuf, oompi::ops::sum);
  if (r > 0) CHECK(ebuf == std::vector<int>{r * (r + 1) / 2, r});
  const int before = w.exscan(r + 1, oompi::ops::sum);
  CHECK(before == (r > 0 ? r * (r + 1) / 2 : 0));
}

TEST_CASE("reductions longer than one MPI call are split into chunks") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto saved = oompi::detail::reduction_chunk;
  oompi::detail::reduction_chunk = 3;  // as if INT_MAX were 3
  std::vector<int> in(10);
  std::iota(in.begin(), in.end(), r);
  std::vector<int> out;
  w.allreduce(in, out, oompi::ops::sum);
  auto buf = in;
  w.allreduce(oompi::in_place, buf, [](int a, int b) { return a + b; });
  std::vector<int> sc;
  w.scan(in, sc, oompi::ops::sum);
  std::vector<int> red;
  w.reduce(in, red, oompi::ops::sum, 0);
  std::vector<int> local(10, 1);
  oompi::reduce_local(in, local, oompi::ops::sum);
  bool nonblocking_refused = false;
  try {
    std::vector<int> o2(10);
    w.iallreduce(in, o2, oompi::ops::sum).wait();
  } catch (const std::invalid_argument&) {
    nonblocking_refused = true;
  }
  oompi::detail::reduction_chunk = saved;
  std::vector<int> expect(10);
  for (int i = 0; i < 10; ++i) expect[i] = n * i + n * (n - 1) / 2;
  CHECK(out == expect);
  CHECK(buf == expect);
  for (int i = 0; i < 10; ++i) CHECK(sc[i] == (r + 1) * i + r * (r + 1) / 2);
  if (r == 0) CHECK(red == expect);
  for (int i = 0; i < 10; ++i) CHECK(local[i] == r + i + 1);
  CHECK(nonblocking_refused);
}

TEST_CASE("zero-length buffers") {
  auto w = world();
  std::vector<int> none, out;
  w.allreduce(none, out, oompi::ops::sum);
  CHECK(out.empty());
  w.bcast(none, 0);
  CHECK(w.allgather(none).empty());
  CHECK(w.allgatherv(none).empty());
  w.alltoall(none, out);
  CHECK(out.empty());
}

TEST_CASE("collectives on a duplicated communicator") {
  auto w = world();
  auto d = w.dup();
  CHECK(d.allreduce(1, oompi::ops::sum) == w.size());
  CHECK(d.allgather(d.rank()).size() == static_cast<std::size_t>(w.size()));
}

// --- bad input: every rank detects it (or the check runs on MPI_COMM_SELF), so nobody hangs

TEST_CASE("an invalid root is refused before MPI") {
  auto w = world();
  int x = 1;
  std::vector<int> v(static_cast<std::size_t>(w.size()));
  CHECK_THROWS_AS(w.bcast(x, w.size()), std::out_of_range);
  CHECK_THROWS_AS(w.bcast(x, -1), std::out_of_range);
  CHECK_THROWS_AS(w.gather(x, v, w.size() + 3), std::out_of_range);
  CHECK_THROWS_AS(w.scatter(v, x, -2), std::out_of_range);
  CHECK_THROWS_AS(w.reduce(x, oompi::ops::sum, 99), std::out_of_range);
  CHECK_THROWS_AS(w.gatherv(x, 7777), std::out_of_range);
  CHECK_THROWS_AS(w.ibcast(x, w.size()), std::out_of_range);
  CHECK_THROWS_AS(w.ireduce(x, oompi::ops::sum, -5), std::out_of_range);
  try {
    w.bcast(x, w.size());
  } catch (const std::out_of_range& e) {
    CHECK(std::string(e.what()).find("root") != std::string::npos);
  }
}

TEST_CASE("mismatched sizes are refused before MPI") {
  auto w = world();
  const int n = w.size();
  std::vector<int> three(3), two(2);
  CHECK_THROWS_AS(w.allreduce(three, two, oompi::ops::sum), std::invalid_argument);
  std::vector<int> wrong(static_cast<std::size_t>(n) + 1);
  CHECK_THROWS_AS(w.allgather(1, wrong), std::invalid_argument);
  std::vector<int> odd(2 * static_cast<std::size_t>(n) + 1), out;
  if (n > 1) CHECK_THROWS_AS(w.alltoall(odd, out), std::invalid_argument);
  if (n > 1) CHECK_THROWS_AS(w.reduce_scatter_block(odd, out, oompi::ops::sum), std::invalid_argument);
  CHECK_THROWS_AS(w.allgatherv(1, out, std::vector<int>(static_cast<std::size_t>(n) + 2, 1)),
                  std::invalid_argument);
  CHECK_THROWS_AS(w.reduce_scatter(three, out, std::vector<int>(static_cast<std::size_t>(n), 5),
                                   oompi::ops::sum),
                  std::invalid_argument);
  CHECK_THROWS_AS(w.alltoallv(three, std::vector<int>(static_cast<std::size_t>(n) + 1, 1), out),
                  std::invalid_argument);
  std::vector<int> neg(static_cast<std::size_t>(n), -1);
  CHECK_THROWS_AS(w.allgatherv(1, out, neg), std::invalid_argument);
  CHECK_THROWS_AS(w.iallreduce(three, two, oompi::ops::sum), std::invalid_argument);
  // the same memory as send and receive buffer
  CHECK_THROWS_AS(w.allreduce(three, three, oompi::ops::sum), std::invalid_argument);
  // element types that differ at run time
  std::vector<double> d(3);
  auto as_doubles = oompi::buffer(d.data(), 3, oompi::datatype::of<double>());
  CHECK_THROWS_AS(w.allreduce(three, as_doubles, oompi::ops::sum), std::invalid_argument);
}

TEST_CASE("root-only checks (on MPI_COMM_SELF, where only one rank takes part)") {
  auto self = oompi::communicator::self();
  int x = 4;
  std::vector<int> small(1), out;
  CHECK_THROWS_AS(self.gatherv(x, small, std::vector<int>{1, 1}, 0), std::invalid_argument);
  CHECK_THROWS_AS(self.gatherv(x, small, std::vector<int>{2}, std::vector<int>{0}, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(self.gatherv(x, out, std::vector<int>{3}, 0), std::invalid_argument);
  CHECK_THROWS_AS(self.scatterv(small, std::vector<int>{1}, std::vector<int>{1}, x, 0),
                  std::invalid_argument);
  std::vector<int> three(3);
  CHECK_THROWS_AS(self.scatter(three, x, 0), std::invalid_argument);
  std::vector<int> bad_out(2);
  CHECK_THROWS_AS(self.gather(x, bad_out, 0), std::invalid_argument);
}

TEST_CASE("a null communicator is refused") {
  oompi::intracommunicator none;
  int x = 0;
  CHECK_THROWS_AS(none.barrier(), std::logic_error);
  CHECK_THROWS_AS(none.bcast(x, 0), std::logic_error);
  CHECK_THROWS_AS(none.allreduce(x, oompi::ops::sum), std::logic_error);
  CHECK_THROWS_AS(none.ibarrier(), std::logic_error);
}

// --- intercommunicators: the mixin follows MPI's intercommunicator rules -----------------

TEST_CASE("collectives on an intercommunicator") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  if (n < 2) {
    CHECK(n == 1);
    return;
  }
  // group A: even ranks, group B: odd ranks; leaders are world ranks 0 and 1
  const int color = r % 2;
  const auto local = w.split(color, r);
  const oompi::intercommunicator ic = local.create_intercomm(0, w, 1 - color, 42);
  const int remote = ic.remote_size();

  // allreduce: each group gets the sum over the other group of world ranks
  int other_sum = 0;
  for (int i = 1 - color; i < n; i += 2) other_sum += i;
  CHECK(ic.allreduce(r, oompi::ops::sum) == other_sum);

  // allgather: the remote group's values
  const auto got = ic.allgather(r);
  CHECK(got.size() == static_cast<std::size_t>(remote));
  CHECK(got.front() == 1 - color);

  // bcast from group A's rank 0 to group B
  int v = color == 0 && ic.rank() == 0 ? 77 : 0;
  const int root = color == 0 ? (ic.rank() == 0 ? oompi::intercommunicator::root
                                                 : oompi::intercommunicator::no_root)
                              : 0;
  ic.bcast(v, root);
  if (color == 1) CHECK(v == 77);

  // gather of group B's ranks at group A's rank 0
  const auto all = ic.gather(r, root);
  if (color == 0 && ic.rank() == 0) {
    CHECK(all.size() == static_cast<std::size_t>(remote));
    CHECK(all.back() == 2 * remote - 1);
  }
  // nonblocking on the intercommunicator
  CHECK(ic.iallreduce(1, oompi::ops::sum).get() == remote);
  // alltoall: one element to each remote process
  std::vector<int> to_remote(static_cast<std::size_t>(remote), r), from_remote;
  ic.alltoall(to_remote, from_remote);
  CHECK(from_remote.size() == static_cast<std::size_t>(remote));
  CHECK(from_remote.front() == 1 - color);
  // scatter from group B's rank 0 to group A, one element each
  const int broot = color == 1 ? (ic.rank() == 0 ? oompi::intercommunicator::root
                                                 : oompi::intercommunicator::no_root)
                               : 0;
  std::vector<int> for_a(static_cast<std::size_t>(remote));
  std::iota(for_a.begin(), for_a.end(), 500);
  int got_one = -1;
  ic.scatter(for_a, got_one, broot);
  if (color == 0) CHECK(got_one == 500 + ic.rank());
  // a user op with state across the groups
  int calls = 0;
  const int s2 = ic.allreduce(1, [&calls](int a, int b) {
    ++calls;
    return a + b;
  });
  CHECK(s2 == remote);

  // an intracommunicator root number means nothing here
  CHECK_THROWS_AS(ic.bcast(v, -7), std::out_of_range);
}
