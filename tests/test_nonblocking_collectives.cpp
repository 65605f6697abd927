// Nonblocking collectives: borrowed buffers (request), in place, value forms (future owning
// the result and an rvalue input), request sets, requests dropped before completion.

#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <numeric>
#include <string>
#include <vector>

namespace {
oompi::intracommunicator world() { return oompi::communicator::world(); }
std::vector<int> iota_vec(std::size_t n, int from = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}
std::vector<int> offsets(const std::vector<int>& counts) {
  std::vector<int> d(counts.size());
  for (std::size_t i = 1; i < counts.size(); ++i) d[i] = d[i - 1] + counts[i - 1];
  return d;
}
}  // namespace

TEST_CASE("ibarrier completes on every rank") {
  auto w = world();
  auto req = w.ibarrier();
  CHECK(req.pending());
  req.wait();
  CHECK_FALSE(req.pending());
  auto r2 = w.ibarrier();
  while (!r2.test()) {
  }
  CHECK_FALSE(r2.pending());
}

TEST_CASE("ibcast: borrowed buffer and owned buffer") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (int root = 0; root < n; ++root) {
    std::vector<double> v(4, r == root ? 1.5 * root : 0.0);
    auto req = w.ibcast(v, root);
    req.wait();
    CHECK(v == std::vector<double>(4, 1.5 * root));

    auto fut = w.ibcast(std::string(5, r == root ? 'x' : '-'), root);
    CHECK(fut.get() == "xxxxx");
  }
}

TEST_CASE("igather, igatherv: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = iota_vec(static_cast<std::size_t>(n), 1);
  std::vector<int> packed;
  for (int i = 0; i < n; ++i) packed.insert(packed.end(), static_cast<std::size_t>(i) + 1, i);
  const std::vector<int> mine(static_cast<std::size_t>(r) + 1, r);
  for (int root = 0; root < n; ++root) {
    std::vector<int> all(r == root ? static_cast<std::size_t>(n) : 0);
    auto q1 = w.igather(r, all, root);
    std::vector<int> buf = r == root ? std::vector<int>(static_cast<std::size_t>(n), -1) : std::vector<int>{r};
    if (r == root) buf[r] = r;
    auto q2 = w.igather(oompi::in_place, buf, root);
    auto f3 = w.igather(r * 10, root);  // rvalue input: owned by the future
    oompi::wait_all(q1, q2);
    const auto got3 = f3.get();
    if (r == root) {
      CHECK(all == iota_vec(static_cast<std::size_t>(n)));
      CHECK(buf == iota_vec(static_cast<std::size_t>(n)));
      REQUIRE(got3.size() == static_cast<std::size_t>(n));
      CHECK(got3.back() == 10 * (n - 1));
    } else {
      CHECK(got3.empty());
    }

    std::vector<int> v1, v2, v3;
    auto a = w.igatherv(mine, v1, counts, offsets(counts), root);  // temporaries are copied
    auto b = w.igatherv(mine, v2, counts, root);
    auto c = w.igatherv(mine, v3, root);
    std::vector<int> ip = r == root ? std::vector<int>(packed.size(), -1) : mine;
    if (r == root) std::fill_n(ip.begin() + offsets(counts)[r], r + 1, r);
    auto d = w.igatherv(oompi::in_place, ip, counts, root);
    auto e = w.igatherv(std::vector<int>(mine), root);
    std::vector<oompi::request> reqs;
    reqs.push_back(std::move(a));
    reqs.push_back(std::move(b));
    reqs.push_back(std::move(c));
    reqs.push_back(std::move(d));
    oompi::wait_all(reqs);
    const auto ve = e.get();
    if (r == root) {
      CHECK(v1 == packed);
      CHECK(v2 == packed);
      CHECK(v3 == packed);
      CHECK(ip == packed);
      CHECK(ve == packed);
    }
  }
}

TEST_CASE("iscatter, iscatterv: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto counts = iota_vec(static_cast<std::size_t>(n), 1);
  for (int root = 0; root < n; ++root) {
    const auto all = r == root ? iota_vec(static_cast<std::size_t>(n), 100) : std::vector<int>{};
    int mine = -1;
    auto q1 = w.iscatter(all, mine, root);
    auto buf = r == root ? all : std::vector<int>{-1};
    auto q2 = w.iscatter(oompi::in_place, buf, root);
    auto f3 = w.iscatter(std::vector<int>(all), root);
    q1.wait();
    q2.wait();
    CHECK(mine == 100 + r);
    if (r != root) CHECK(buf == std::vector<int>{100 + r});
    CHECK(f3.get() == 100 + r);

    std::vector<int> packed;
    if (r == root)
      for (int i = 0; i < n; ++i) packed.insert(packed.end(), static_cast<std::size_t>(i) + 1, i);
    const std::vector<int> expect(static_cast<std::size_t>(r) + 1, r);
    std::vector<int> o1(expect.size()), o2(expect.size());
    auto a = w.iscatterv(packed, counts, offsets(counts), o1, root);
    auto b = w.iscatterv(packed, counts, o2, root);
    auto ip = r == root ? packed : std::vector<int>(expect.size());
    auto c = w.iscatterv(oompi::in_place, ip, counts, root);
    auto f = w.iscatterv(packed, counts, root);
    oompi::wait_all(a, b, c);
    CHECK(o1 == expect);
    CHECK(o2 == expect);
    if (r != root) CHECK(ip == expect);
    CHECK(f.get() == expect);
  }
}

TEST_CASE("iallgather, iallgatherv: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::vector<int> o1;
  auto a = w.iallgather(r, o1);
  auto buf = std::vector<int>(static_cast<std::size_t>(n), -1);
  buf[r] = r;
  auto b = w.iallgather(oompi::in_place, buf);
  auto f = w.iallgather(std::vector<int>{r, r});
  a.wait();
  b.wait();
  CHECK(o1 == iota_vec(static_cast<std::size_t>(n)));
  CHECK(buf == iota_vec(static_cast<std::size_t>(n)));
  CHECK(f.get().size() == 2 * static_cast<std::size_t>(n));

  const auto counts = iota_vec(static_cast<std::size_t>(n), 1);
  std::vector<int> packed;
  for (int i = 0; i < n; ++i) packed.insert(packed.end(), static_cast<std::size_t>(i) + 1, i);
  const std::vector<int> mine(static_cast<std::size_t>(r) + 1, r);
  std::vector<int> v1, v2, v3;
  auto q1 = w.iallgatherv(mine, v1, counts, offsets(counts));
  auto q2 = w.iallgatherv(mine, v2, counts);
  auto q3 = w.iallgatherv(mine, v3);
  std::vector<int> ip(packed.size(), -1);
  std::fill_n(ip.begin() + offsets(counts)[r], r + 1, r);
  auto q4 = w.iallgatherv(oompi::in_place, ip, counts);
  const std::vector<int> kept = mine;
  auto fv = w.iallgatherv(kept);  // lvalue input: copied
  oompi::wait_all(q1, q2, q3, q4);
  CHECK(v1 == packed);
  CHECK(v2 == packed);
  CHECK(v3 == packed);
  CHECK(ip == packed);
  CHECK(fv.get() == packed);
}

TEST_CASE("ialltoall, ialltoallv, ialltoallw: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::vector<int> in(static_cast<std::size_t>(n)), expect(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    in[i] = 100 * r + i;
    expect[i] = 100 * i + r;
  }
  std::vector<int> out;
  auto a = w.ialltoall(in, out);
  auto buf = in;
  auto b = w.ialltoall(oompi::in_place, buf);
  auto f = w.ialltoall(std::vector<int>(in));
  oompi::wait_all(a, b);
  CHECK(out == expect);
  CHECK(buf == expect);
  CHECK(f.get() == expect);

  // alltoallv: rank r sends r + 1 copies to everyone
  const std::vector<int> sc(static_cast<std::size_t>(n), r + 1);
  const auto rc = iota_vec(static_cast<std::size_t>(n), 1);
  std::vector<int> vin;
  for (int i = 0; i < n; ++i) vin.insert(vin.end(), static_cast<std::size_t>(r) + 1, 10 * r + i);
  std::vector<int> vexp;
  for (int i = 0; i < n; ++i) vexp.insert(vexp.end(), static_cast<std::size_t>(i) + 1, 10 * i + r);
  std::vector<int> o1, o2, o3;
  auto q1 = w.ialltoallv(vin, sc, offsets(sc), o1, rc, offsets(rc));
  auto q2 = w.ialltoallv(vin, sc, o2, rc);
  auto q3 = w.ialltoallv(vin, sc, o3);
  auto fv = w.ialltoallv(std::vector<int>(vin), sc);
  auto sym = in;  // one element each way: in place works
  auto q4 = w.ialltoallv(oompi::in_place, sym, std::vector<int>(static_cast<std::size_t>(n), 1));
  oompi::wait_all(q1, q2, q3, q4);
  CHECK(o1 == vexp);
  CHECK(o2 == vexp);
  CHECK(o3 == vexp);
  CHECK(fv.get() == vexp);
  CHECK(sym == expect);

  std::vector<int> wout(static_cast<std::size_t>(n));
  std::vector<int> ones(static_cast<std::size_t>(n), 1), bytes(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) bytes[i] = i * static_cast<int>(sizeof(int));
  const std::vector<MPI_Datatype> ints(static_cast<std::size_t>(n), MPI_INT);
  auto q5 = w.ialltoallw(in, ones, bytes, ints, wout, ones, bytes, ints);
  auto wbuf = in;
  auto q6 = w.ialltoallw(oompi::in_place, wbuf, ones, bytes, ints);
  oompi::wait_all(q5, q6);
  CHECK(wout == expect);
  CHECK(wbuf == expect);
}

TEST_CASE("ireduce, iallreduce: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (int root = 0; root < n; ++root) {
    std::vector<int> out;
    const std::vector<int> in{r, 1};
    auto a = w.ireduce(in, out, oompi::ops::sum, root);
    std::vector<int> buf{r, 1};
    auto b = w.ireduce(oompi::in_place, buf, oompi::ops::sum, root);
    auto f = w.ireduce(r, oompi::ops::max, root);
    oompi::wait_all(a, b);
    const int mx = f.get();
    if (r == root) {
      CHECK(out == std::vector<int>{n * (n - 1) / 2, n});
      CHECK(buf == out);
      CHECK(mx == n - 1);
    }
  }
  std::vector<double> out;
  const std::vector<double> in{1.0, 2.0};
  auto a = w.iallreduce(in, out, oompi::ops::sum);
  std::vector<double> buf{1.0 * r};
  auto b = w.iallreduce(oompi::in_place, buf, oompi::ops::max);
  auto f = w.iallreduce(r + 1, oompi::ops::prod);
  const double x = 2.0;
  auto g = w.iallreduce(x, [](double p, double q) { return p + q; });  // lvalue: copied
  std::vector<oompi::request> reqs;
  reqs.push_back(std::move(a));
  reqs.push_back(std::move(b));
  oompi::wait_all(reqs);
  CHECK(out == std::vector<double>{1.0 * n, 2.0 * n});
  CHECK(buf == std::vector<double>{n - 1.0});
  int fact = 1;
  for (int i = 1; i <= n; ++i) fact *= i;
  CHECK(f.get() == fact);
  CHECK(g.get() == 2.0 * n);
}

TEST_CASE("ireduce_scatter_block, ireduce_scatter: all forms") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto in = iota_vec(static_cast<std::size_t>(n), r);  // element i: i + r
  const int rsum = n * (n - 1) / 2;
  std::vector<int> o1;
  auto a = w.ireduce_scatter_block(in, o1, oompi::ops::sum);
  auto buf = in;
  auto b = w.ireduce_scatter_block(oompi::in_place, buf, oompi::ops::sum);
  auto f = w.ireduce_scatter_block(std::vector<int>(in), oompi::ops::sum);
  oompi::wait_all(a, b);
  CHECK(o1 == std::vector<int>{r * n + rsum});
  CHECK(buf[0] == r * n + rsum);
  CHECK(f.get() == o1);

  const std::vector<int> counts(static_cast<std::size_t>(n), 1);
  std::vector<int> o2;
  auto c = w.ireduce_scatter(in, o2, counts, oompi::ops::sum);
  auto buf2 = in;
  auto d = w.ireduce_scatter(oompi::in_place, buf2, counts, oompi::ops::sum);
  auto g = w.ireduce_scatter(in, std::vector<int>(static_cast<std::size_t>(n), 1), oompi::ops::sum);
  oompi::wait_all(c, d);
  CHECK(o2 == o1);
  CHECK(buf2[0] == o1[0]);
  CHECK(g.get() == o1);
}

TEST_CASE("iscan, iexscan: all forms") {
  auto w = world();
  const int r = w.rank();
  int s = 0, e = -1;
  const int mine = r + 1;
  auto a = w.iscan(mine, s, oompi::ops::sum);
  auto b = w.iexscan(mine, e, oompi::ops::sum);
  int sip = r + 1, eip = r + 1;
  auto c = w.iscan(oompi::in_place, sip, oompi::ops::sum);
  auto d = w.iexscan(oompi::in_place, eip, oompi::ops::sum);
  auto f = w.iscan(std::vector<int>{1, r}, oompi::ops::sum);
  auto g = w.iexscan(1, oompi::ops::sum);
  oompi::wait_all(a, b, c, d);
  CHECK(s == (r + 1) * (r + 2) / 2);
  CHECK(sip == s);
  if (r > 0) {
    CHECK(e == r * (r + 1) / 2);
    CHECK(eip == e);
  }
  CHECK(f.get() == std::vector<int>{r + 1, r * (r + 1) / 2});
  const int before = g.get();
  if (r > 0) CHECK(before == r);
}

TEST_CASE("many nonblocking collectives in flight, completed in any order") {
  auto w = world();
  const int n = w.size();
  std::vector<oompi::future<int>> fs;
  for (int i = 0; i < 16; ++i) fs.push_back(w.iallreduce(i, oompi::ops::sum));
  bool ok = true;
  for (int i = 15; i >= 0; --i) ok = ok && fs[static_cast<std::size_t>(i)].get() == i * n;
  CHECK(ok);
}

TEST_CASE("a dropped request completes its collective before its buffers go") {
  auto w = world();
  {
    auto f = w.iallgather(std::vector<int>(1000, w.rank()));
    (void)f;  // destroyed without get(): the destructor waits for completion
  }
  CHECK(w.allreduce(1, oompi::ops::sum) == w.size());
}

TEST_CASE("nonblocking bad input is refused before MPI") {
  auto w = world();
  const int n = w.size();
  std::vector<int> two(2), three(3);
  CHECK_THROWS_AS(w.iallreduce(two, three, oompi::ops::sum), std::invalid_argument);
  CHECK_THROWS_AS(w.ibcast(two, n + 1), std::out_of_range);
  CHECK_THROWS_AS(w.igather(1, n), std::out_of_range);
  const int one = 1;
  CHECK_THROWS_AS(w.iallgatherv(one, three, std::vector<int>(static_cast<std::size_t>(n) + 1, 1)),
                  std::invalid_argument);
  CHECK_THROWS_AS(w.iscatterv(three, std::vector<int>{}, two, -1), std::out_of_range);
}
