// Reduction ops: predefined ops, std functors mapped to MPI builtins, user ops of every kind
// (function objects, plain and capturing lambdas, block forms, run-time functions), non-
// commutative ops, struct types, MAXLOC/MINLOC, many live ops, exceptions, threads.

#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

struct stats {
  double sum;
  double max;
  std::int32_t count;
};
OOMPI_STRUCT(stats, sum, max, count)

struct vec2 {
  double x, y;
  friend vec2 operator+(const vec2& a, const vec2& b) { return {a.x + b.x, a.y + b.y}; }
};
OOMPI_STRUCT(vec2, x, y)

// x -> a x + b; combining p (lower ranks) then q: x -> q.a (p.a x + p.b) + q.b. Not commutative.
struct affine {
  long long a, b;
  friend bool operator==(const affine& p, const affine& q) { return p.a == q.a && p.b == q.b; }
};
OOMPI_STRUCT(affine, a, b)
struct compose {
  affine operator()(const affine& p, const affine& q) const { return {p.a * q.a, p.b * q.a + q.b}; }
};

namespace {

oompi::intracommunicator world() { return oompi::communicator::world(); }

int slot_free() { return static_cast<int>(oompi::detail::op_pool::instance().available()); }

struct boom : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// the predefined-op binding a collective would use for T
template <class T, class O>
MPI_Op bound(O o) {
  return oompi::detail::bind_op<T, false>(o, oompi::datatype_of<T>()).native();
}

std::atomic<int> g_stateless_calls{0};

}  // namespace

TEST_CASE("predefined ops agree with their C++ function objects") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const auto vals = [&](int i) { return (i * 7 + 3) % 5 - 2; };  // -2 .. 2
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) all[i] = vals(i);
  const int mine = vals(r);
  auto fold = [&](auto f) { return std::accumulate(all.begin() + 1, all.end(), all[0], f); };
  CHECK(w.allreduce(mine, oompi::ops::sum) == fold(oompi::ops::sum));
  CHECK(w.allreduce(mine, oompi::ops::prod) == fold(oompi::ops::prod));
  CHECK(w.allreduce(mine, oompi::ops::max) == fold(oompi::ops::max));
  CHECK(w.allreduce(mine, oompi::ops::min) == fold(oompi::ops::min));
  CHECK(w.allreduce(mine, oompi::ops::land) == fold(oompi::ops::land));
  CHECK(w.allreduce(mine, oompi::ops::lor) == fold(oompi::ops::lor));
  CHECK(w.allreduce(mine, oompi::ops::lxor) == fold(oompi::ops::lxor));
  CHECK(w.allreduce(mine, oompi::ops::band) == fold(oompi::ops::band));
  CHECK(w.allreduce(mine, oompi::ops::bor) == fold(oompi::ops::bor));
  CHECK(w.allreduce(mine, oompi::ops::bxor) == fold(oompi::ops::bxor));
  CHECK(w.allreduce(r % 2 == 1, oompi::ops::lxor) == ((n / 2) % 2 == 1));
  CHECK(w.allreduce(static_cast<unsigned char>(1 << r), oompi::ops::bxor) ==
        static_cast<unsigned char>((1 << n) - 1));
  CHECK(w.allreduce(std::int64_t{r} << 40, oompi::ops::max) == std::int64_t{n - 1} << 40);
  CHECK(w.allreduce(static_cast<long double>(r), oompi::ops::sum) == Approx(n * (n - 1) / 2.0));
  CHECK(oompi::ops::max(3, 5) == 5);
  CHECK(oompi::ops::min(3.5, -1.0) == -1.0);
}

TEST_CASE("MAXLOC and MINLOC on value-index pairs (seed 000, Fig. 11)") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  // 30 values per rank; value i on rank r: ((i + 1) * (r + 3)) % 11 - ties are frequent
  std::vector<oompi::value_index<double>> in(30);
  for (int i = 0; i < 30; ++i) in[i] = {static_cast<double>(((i + 1) * (r + 3)) % 11), r};
  const auto hi = w.allreduce(in, oompi::ops::maxloc);
  const auto lo = w.allreduce(in, oompi::ops::minloc);
  bool ok = true;
  for (int i = 0; i < 30; ++i) {
    double best = -1, worst = 1e9;
    int bi = -1, wi = -1;
    for (int q = 0; q < n; ++q) {  // ties: the smallest rank
      const double v = ((i + 1) * (q + 3)) % 11;
      if (v > best) best = v, bi = q;
      if (v < worst) worst = v, wi = q;
    }
    ok = ok && hi[i].value == best && hi[i].index == bi && lo[i].value == worst && lo[i].index == wi;
  }
  CHECK(ok);
  // the other predefined pair types
  const auto m = w.allreduce(oompi::value_index<int>{-r, r}, oompi::ops::minloc);
  CHECK(m == oompi::value_index<int>{-(n - 1), n - 1});
  const auto f = w.allreduce(oompi::value_index<float>{1.0f, r}, oompi::ops::maxloc);
  CHECK(f == oompi::value_index<float>{1.0f, 0});
  const auto l = w.allreduce(oompi::value_index<long>{r % 2, r}, oompi::ops::maxloc);
  CHECK(l.index == (n > 1 ? 1 : 0));
  // the function objects follow MPI's tie rule
  CHECK(oompi::ops::maxloc(oompi::value_index<int>{2, 5}, oompi::value_index<int>{2, 3}).index == 3);
  CHECK(oompi::ops::minloc(oompi::value_index<int>{1, 5}, oompi::value_index<int>{2, 3}).index == 5);
}

TEST_CASE("standard function objects are MPI builtins at compile time") {
  CHECK(bound<int>(std::plus<>{}) == MPI_SUM);
  CHECK(bound<double>(std::plus<double>{}) == MPI_SUM);
  CHECK(bound<long>(std::multiplies<>{}) == MPI_PROD);
  CHECK(bound<bool>(std::logical_and<>{}) == MPI_LAND);
  CHECK(bound<int>(std::logical_or<>{}) == MPI_LOR);
  CHECK(bound<unsigned>(std::bit_and<>{}) == MPI_BAND);
  CHECK(bound<std::uint16_t>(std::bit_or<>{}) == MPI_BOR);
  CHECK(bound<std::byte>(std::bit_xor<>{}) == MPI_BXOR);
  CHECK(bound<float>(oompi::ops::max) == MPI_MAX);
  CHECK(bound<oompi::value_index<double>>(oompi::ops::minloc) == MPI_MINLOC);
  // not an MPI builtin on these types: a user op is made instead
  CHECK(bound<vec2>(std::plus<>{}) != MPI_SUM);
  CHECK(bound<double>(std::bit_and<int>{}) != MPI_BAND);
  CHECK(bound<char>(oompi::ops::sum) != MPI_SUM);  // MPI_CHAR is not an integer for MPI

  auto w = world();
  const int n = w.size(), r = w.rank();
  const vec2 s = w.allreduce(vec2{1.0 * r, 1.0}, std::plus<>{});
  CHECK(s.x == n * (n - 1) / 2.0);
  CHECK(s.y == n);
  const vec2 t = w.allreduce(vec2{1.0, 2.0}, oompi::ops::sum);  // via vec2's operator+
  CHECK(t.y == 2.0 * n);
  const std::string word = w.allreduce(std::string("ab"), std::plus<>{});  // char: user op
  CHECK(word == std::string(2, static_cast<char>('a' * n)) .replace(1, 1, 1, static_cast<char>('b' * n)));
}

TEST_CASE("user ops from function objects, lambdas, capturing lambdas, functions") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  struct add {
    int operator()(int a, int b) const { return a + b; }
  };
  const int tri = n * (n - 1) / 2;
  CHECK(w.allreduce(r, add{}) == tri);
  CHECK(w.allreduce(r, [](int a, int b) { return a + b; }) == tri);
  CHECK(w.allreduce(r, [](auto a, auto b) { return a + b; }) == tri);  // generic
  int calls = 0;
  const int offset = 0;
  CHECK(w.allreduce(r, [&calls, offset](int a, int b) {
          ++calls;
          return a + b + offset;
        }) == tri);
  CHECK(w.allreduce(calls > 0 ? 1 : 0, oompi::ops::lor) == (n > 1 ? 1 : 0));  // it ran somewhere
  // accumulate form and block form
  CHECK(w.allreduce(r, [](const int& in, int& inout) { inout += in; }) == tri);
  std::vector<int> v(100, r), out(100);
  int blocks = 0;
  w.allreduce(v, out, [&blocks](const int* in, int* inout, int len) {
    ++blocks;
    for (int i = 0; i < len; ++i) inout[i] += in[i];
  });
  CHECK(out == std::vector<int>(100, tri));
  // a plain function (has state: the pointer) and a std::function
  int (*fp)(int, int) = [](int a, int b) { return a > b ? a : b; };
  CHECK(w.allreduce(r, fp) == n - 1);
  std::function<int(int, int)> sf = [](int a, int b) { return a < b ? a : b; };
  CHECK(w.reduce(r, sf, 0) == (r == 0 ? 0 : 0));
  CHECK(w.scan(1, [k = 1](int a, int b) { return a + b * k; }) == r + 1);
  CHECK(slot_free() == OOMPI_OP_SLOTS);  // every temporary slot was given back
}

namespace {
// An op with state whose call runs another reduction with the same op type (frames nest).
struct nesting {
  int depth;
  int* inner_results;
  int operator()(int a, int b) const {
    if (depth > 0) {
      int x = 1;
      oompi::reduce_local(1, x, nesting{depth - 1, inner_results});
      *inner_results += x;
    }
    return a + b + depth;
  }
};
}  // namespace

TEST_CASE("user ops with state nest") {
  int inner = 0;
  int y = 3;
  oompi::reduce_local(2, y, nesting{2, &inner});
  // depth 0: 1 + 1 + 0 = 2; depth 1: 1 + 1 + 1 = 3 (inner += 2 first); depth 2: 2 + 3 + 2
  CHECK(y == 7);
  CHECK(inner == 2 + 3);
}

TEST_CASE("which callable object is called: the caller's, a copy, or a std::ref") {
  int a = 0, b = 0;
  auto counting = [calls = 0, &a](int x, int y) mutable {
    a = ++calls;
    return x + y;
  };
  int inout = 1;
  oompi::reduce_local(2, inout, counting);  // bare, blocking: this very object
  oompi::reduce_local(2, inout, counting);
  CHECK(a == 2);
  oompi::reduce_local(2, inout, oompi::commutative(counting));  // a copy (its calls was 2)
  CHECK(a == 3);
  oompi::reduce_local(2, inout, counting);  // the original again: its own count continues
  CHECK(a == 3);
  auto by_ref = [&b](int x, int y) {
    ++b;
    return x + y;
  };
  oompi::reduce_local(2, inout, oompi::commutative(std::ref(by_ref)));
  CHECK(b == 1);
  CHECK(inout == 11);
}

TEST_CASE("user ops on struct types") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const stats mine{r * 1.0, r * 2.0, 1};
  const auto merge = [](const stats& a, const stats& b) {
    return stats{a.sum + b.sum, std::max(a.max, b.max), a.count + b.count};
  };
  const stats all = w.allreduce(mine, oompi::commutative(merge));
  CHECK(all.sum == n * (n - 1) / 2.0);
  CHECK(all.max == 2.0 * (n - 1));
  CHECK(all.count == n);
  std::vector<stats> many(7, mine), red;
  w.reduce(many, red, merge, n - 1);
  if (r == n - 1) {
    REQUIRE(red.size() == 7);
    CHECK(red[6].count == n);
  }
  auto op = oompi::make_op(merge, true);  // element type deduced: stats
  CHECK(op.element_type() == oompi::datatype_of<stats>());
  CHECK(op.commutative());
  CHECK(w.allreduce(mine, op).count == n);
}

// The datatype ends 4 bytes before sizeof(part) (tail padding) and starts 8 bytes after its
// start (a member left out of OOMPI_STRUCT): Open MPI's temporaries hold only the datatype's
// bytes of their last (and first) element, so an op must not touch the rest.
struct part {
  std::int64_t local_only;  // not sent
  double value;
  std::int32_t count;
};
OOMPI_STRUCT(part, value, count)

namespace {
template <class T>
T make_elem(int r, int k);
template <>
stats make_elem<stats>(int r, int k) { return {r + 0.5 * k, 2.0 * r + k, 1}; }
template <>
part make_elem<part>(int r, int k) { return {-1, r + 0.5 * k, 1}; }
stats merge_elem(const stats& a, const stats& b) {
  return {a.sum + b.sum, std::max(a.max, b.max), a.count + b.count};
}
part merge_elem(const part& a, const part& b) { return {0, a.value + b.value, a.count + b.count}; }
// element k folded over ranks 0 .. upto
template <class T>
T folded(int upto, int k) {
  T acc = make_elem<T>(0, k);
  for (int i = 1; i <= upto; ++i) acc = merge_elem(acc, make_elem<T>(i, k));
  return acc;
}
bool same(const stats& a, const stats& b) {
  return a.sum == b.sum && a.max == b.max && a.count == b.count;
}
bool same(const part& a, const part& b) { return a.value == b.value && a.count == b.count; }

// Every kind of user op (stateless lambda, block op, lambda with state in a blocking call, an
// oompi::op with state, a nonblocking call's owned copy) in allreduce, reduce and scan.
template <class T>
void reduce_padded_structs() {
  auto w = world();
  const int n = w.size(), r = w.rank();
  for (const int count : {1, 3, 1000}) {
    CAPTURE(count);
    std::vector<T> mine(static_cast<std::size_t>(count));
    for (int k = 0; k < count; ++k) mine[static_cast<std::size_t>(k)] = make_elem<T>(r, k);
    const auto all_match = [&](const std::vector<T>& got, int upto) {
      if (got.size() != static_cast<std::size_t>(count)) return false;
      for (int k = 0; k < count; ++k)
        if (!same(got[static_cast<std::size_t>(k)], folded<T>(upto, k))) return false;
      return true;
    };
    int calls = 0;
    const auto stateless = [](const T& a, const T& b) { return merge_elem(a, b); };
    const auto block = [](const T* a, T* b, int len) {
      for (int i = 0; i < len; ++i) b[i] = merge_elem(a[i], b[i]);
    };
    const auto stateful = [&calls](const T& a, const T& b) {
      ++calls;
      return merge_elem(a, b);
    };
    auto slot = oompi::make_op<T>(stateful, true);
    std::vector<T> out;
    w.allreduce(mine, out, stateless);
    CHECK(all_match(out, n - 1));
    w.allreduce(mine, out, oompi::commutative(block));
    CHECK(all_match(out, n - 1));
    w.allreduce(mine, out, stateful);
    CHECK(all_match(out, n - 1));
    w.allreduce(mine, out, slot);
    CHECK(all_match(out, n - 1));
    w.iallreduce(mine, out, oompi::commutative(stateful)).wait();
    CHECK(all_match(out, n - 1));
    for (int root : {0, n - 1}) {
      std::vector<T> red;
      w.reduce(mine, red, oompi::commutative(stateless), root);
      if (r == root) CHECK(all_match(red, n - 1));
      w.reduce(mine, red, stateful, root);
      if (r == root) CHECK(all_match(red, n - 1));
    }
    w.scan(mine, out, stateless);
    CHECK(all_match(out, r));
    w.scan(mine, out, slot);
    CHECK(all_match(out, r));
    CHECK(w.allreduce(calls > 0, oompi::ops::lor) == (n > 1));
  }
}
}  // namespace

TEST_CASE("user ops on structs with padding touch only the datatype's bytes") {
  reduce_padded_structs<stats>();
  reduce_padded_structs<part>();
  // reduce_local on the caller's arrays (only the datatype's bytes are defined)
  std::vector<part> in(3, part{7, 1.0, 1}), inout(3, part{9, 2.0, 2});
  oompi::reduce_local(in, inout, [](const part& a, const part& b) { return merge_elem(a, b); });
  for (const part& p : inout) CHECK((p.value == 3.0 && p.count == 3));
}

TEST_CASE("non-commutative ops keep rank order") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  const affine mine{r + 2, r};
  const auto everyone = w.allgather(mine);
  affine expect = everyone[0];
  std::vector<affine> prefix{expect};
  for (int i = 1; i < n; ++i) {
    expect = compose{}(expect, everyone[i]);
    prefix.push_back(expect);
  }
  CHECK(w.allreduce(mine, compose{}) == expect);  // bare callable: non-commutative
  CHECK(w.allreduce(mine, oompi::non_commutative(compose{})) == expect);
  auto op = oompi::make_op<affine>(compose{});
  CHECK_FALSE(op.commutative());
  CHECK(w.allreduce(mine, op) == expect);
  CHECK(w.reduce(mine, op, 0) == (r == 0 ? expect : affine{}));
  CHECK(w.scan(mine, compose{}) == prefix[r]);
  if (r > 0) CHECK(w.exscan(mine, compose{}) == prefix[r - 1]);
  else (void)w.exscan(mine, compose{});
  std::vector<affine> big(50, mine), res;
  w.allreduce(big, res, compose{});  // MPI may split the vector: still in order
  CHECK(std::all_of(res.begin(), res.end(), [&](const affine& x) { return x == expect; }));
  CHECK(w.iallreduce(mine, compose{}).get() == expect);
}

TEST_CASE("the oompi::op handle") {
  auto w = world();
  const int n = w.size();
  oompi::op sum = oompi::ops::sum;
  CHECK(sum.native() == MPI_SUM);
  CHECK_FALSE(sum.is_user());
  CHECK(sum.commutative());
  CHECK(w.allreduce(2, sum) == 2 * n);
  oompi::op none;
  CHECK(none.is_null());
  CHECK_THROWS_AS(w.allreduce(1, none), std::invalid_argument);

  // an op made for one type refuses another
  auto dbl = oompi::make_op<double>([](double a, double b) { return a + b; });
  CHECK_THROWS_AS(w.allreduce(1, dbl), std::invalid_argument);
  CHECK(w.allreduce(1.5, dbl) == 1.5 * n);

  // a run-time function takes any datatype (what the language bindings use)
  std::atomic<int> seen_int{0};
  oompi::op rt(
      [&seen_int](const void* in, void* inout, int len, MPI_Datatype type) {
        if (type == MPI_INT) {
          ++seen_int;
          for (int i = 0; i < len; ++i) static_cast<int*>(inout)[i] += static_cast<const int*>(in)[i];
        } else if (type == MPI_DOUBLE) {
          for (int i = 0; i < len; ++i)
            static_cast<double*>(inout)[i] += static_cast<const double*>(in)[i];
        }
      },
      true);
  CHECK(rt.is_user());
  CHECK(rt.element_type() == MPI_DATATYPE_NULL);
  CHECK(w.allreduce(3, rt) == 3 * n);
  CHECK(w.allreduce(0.5, rt) == 0.5 * n);
  std::vector<int> raw(4, 1), raw_out(4);
  auto in_buf = oompi::buffer(raw.data(), 4, oompi::datatype::of<int>());
  auto out_buf = oompi::buffer(raw_out.data(), 4, oompi::datatype::of<int>());
  w.allreduce(in_buf, out_buf, rt);
  CHECK(raw_out == std::vector<int>(4, n));
  CHECK_THROWS_AS(oompi::op(oompi::op::function{}, true), std::invalid_argument);

  // moved: the new owner works, the old one is null
  oompi::op moved = std::move(rt);
  CHECK(rt.is_null());
  CHECK(w.allreduce(1, moved) == n);

  // adopt: a handle made with the C API, freed by the destructor
  MPI_Op c_op = MPI_OP_NULL;
  MPI_Op_create(
      [](void* in, void* inout, int* len, MPI_Datatype*) {
        for (int i = 0; i < *len; ++i) static_cast<int*>(inout)[i] *= static_cast<int*>(in)[i];
      },
      1, &c_op);
  {
    auto adopted = oompi::op::adopt(c_op);
    CHECK(adopted.owned());
    CHECK(w.allreduce(2, adopted) == (1 << n));
  }
}

TEST_CASE("a predefined op on a type MPI does not define it for is an MPI error") {
  auto w = world();
  std::vector<stats> s(2), out(2);
  auto in_buf = oompi::buffer(s.data(), 2, oompi::datatype::of<stats>());
  auto out_buf = oompi::buffer(out.data(), 2, oompi::datatype::of<stats>());
  try {
    w.allreduce(in_buf, out_buf, oompi::ops::sum);  // untyped: only MPI can tell
    FAIL("MPI accepted MPI_SUM on a struct type");
  } catch (const oompi::error& e) {
    CHECK(e.error_class() == MPI_ERR_OP);
  }
}

TEST_CASE("more than 1024 user ops alive at once, and a clear error past the pool") {
  REQUIRE(OOMPI_OP_SLOTS >= 1024);
  const int free_before = slot_free();
  {
    std::vector<oompi::op> ops;
    for (int i = 0; i < 1025; ++i)
      ops.push_back(oompi::make_op<int>([i](int a, int b) { return a + b + i; }));
    CHECK(slot_free() == free_before - 1025);
    bool ok = true;
    for (int i = 0; i < 1025; ++i) {
      int in = 1, inout = 2;
      oompi::reduce_local(in, inout, ops[static_cast<std::size_t>(i)]);
      ok = ok && inout == 3 + i;
    }
    CHECK(ok);
    auto w = world();
    CHECK(w.allreduce(0, ops[1024]) == 1024 * (w.size() - 1));
    CHECK(w.allreduce(0, ops[7]) == 7 * (w.size() - 1));

    // fill the pool: the next op with state fails with a message that says what to do
    while (slot_free() > 0) ops.push_back(oompi::make_op<int>([&ok](int a, int b) { return ok ? a : b; }));
    bool refused = false;
    try {
      oompi::make_op<int>([&ok](int a, int b) { return ok ? a : b; });
    } catch (const std::length_error& e) {
      refused = std::string(e.what()).find("OOMPI_OP_SLOTS") != std::string::npos;
    }
    CHECK(refused);
    // stateless ops need no slot: still fine
    CHECK(w.allreduce(1, [](int a, int b) { return a + b; }) == w.size());
    ops.pop_back();
    auto again = oompi::make_op<int>([&ok](int a, int b) { return ok ? a + b : 0; });
    CHECK(w.allreduce(1, again) == w.size());
  }
  CHECK(slot_free() == free_before);
  // thousands of stateless ops: no slots at all
  std::vector<oompi::op> many;
  for (int i = 0; i < 5000; ++i) many.push_back(oompi::make_op<int>([](int a, int b) { return a ^ b; }));
  CHECK(slot_free() == free_before);
  int inout = 6;
  oompi::reduce_local(3, inout, many.back());
  CHECK(inout == 5);
}

TEST_CASE("an exception in a user op: reduce_local rethrows it, the op stays usable") {
  auto op = oompi::make_op<int>([](int a, int b) -> int {
    if (a < 0) throw boom("negative input " + std::to_string(a));
    return a + b;
  });
  int inout = 1;
  CHECK_THROWS_WITH(oompi::reduce_local(-4, inout, op), "negative input -4");
  inout = 1;
  oompi::reduce_local(4, inout, op);  // nothing left over from the failure
  CHECK(inout == 5);
  std::vector<int> in{1, -2, 3}, io{0, 0, 0};
  CHECK_THROWS_AS(oompi::reduce_local(in, io, [](int a, int b) -> int {
                    if (a < 0) throw boom("x");
                    return a + b;
                  }),
                  boom);
  CHECK(io[0] == 1);  // elements before the failure were combined
}

TEST_CASE("an exception in a user op during a blocking collective") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  // with state (a slot)
  int calls = 0;
  bool threw = false;
  try {
    (void)w.allreduce(r, [&calls](int, int) -> int {
      ++calls;
      throw boom("op failed");
    });
  } catch (const boom& e) {
    threw = std::string(e.what()) == "op failed";
  }
  CHECK(threw == (calls > 0));          // rethrown exactly where the op ran
  CHECK(calls <= 1);                    // not called again after the exception
  const bool someone = w.allreduce(calls > 0, oompi::ops::lor);
  CHECK(someone == (n > 1));            // with one process MPI needs no op at all
  CHECK(w.allreduce(1, oompi::ops::sum) == n);  // the communicator is fine afterwards

  // stateless (no slot): the per-type error record
  g_stateless_calls = 0;
  bool threw2 = false;
  try {
    std::vector<double> v(10, 1.0), out;
    w.reduce(v, out, [](double, double) -> double {
      ++g_stateless_calls;
      throw boom("stateless op failed");
    }, 0);
  } catch (const boom&) {
    threw2 = true;
  }
  CHECK(threw2 == (g_stateless_calls > 0));
  const int ran2 = w.allreduce(g_stateless_calls > 0 ? 1 : 0, oompi::ops::sum);
  CHECK((n == 1 || ran2 >= 1));

  // a run-time function (the bindings' path)
  oompi::op rt([](const void*, void*, int, MPI_Datatype) { throw std::runtime_error("director"); }, true);
  bool threw3 = false;
  int out3 = 0;
  try {
    w.allreduce(r, out3, rt);
  } catch (const std::runtime_error&) {
    threw3 = true;
  }
  const int ran3 = w.allreduce(threw3 ? 1 : 0, oompi::ops::sum);
  CHECK((n == 1 || ran3 >= 1));
  CHECK(w.allreduce(2, oompi::ops::sum) == 2 * n);
}

TEST_CASE("an exception in a user op during a nonblocking collective") {
  auto w = world();
  const int n = w.size(), r = w.rank();
  std::atomic<int> calls{0};
  auto thrower = [&calls](int a, int b) -> int {
    ++calls;
    if (a + b >= 0) throw boom("nonblocking op failed");
    return a + b;
  };
  // request form
  int out = 0;
  const int mine = r;
  auto req = w.iallreduce(mine, out, thrower);
  bool threw = false;
  try {
    req.wait();
  } catch (const boom&) {
    threw = true;
  }
  CHECK(threw == (calls > 0));
  CHECK_FALSE(req.pending());

  // future form
  calls = 0;
  auto fut = w.iallreduce(r, thrower);
  bool threw2 = false;
  try {
    (void)fut.get();
  } catch (const boom&) {
    threw2 = true;
  }
  CHECK(threw2 == (calls > 0));

  // in a request set: every request completes, then the exception comes out
  calls = 0;
  std::vector<oompi::request> reqs;
  int o1 = 0, o2 = 0;
  reqs.push_back(w.iallreduce(mine, o1, thrower));
  reqs.push_back(w.iallreduce(mine, o2, oompi::ops::sum));
  bool threw3 = false;
  try {
    oompi::wait_all(reqs);
  } catch (const boom&) {
    threw3 = true;
  }
  CHECK(threw3 == (calls > 0));
  CHECK_FALSE(reqs[0].pending());
  CHECK_FALSE(reqs[1].pending());
  CHECK(o2 == n * (n - 1) / 2);
  CHECK(w.allreduce(calls > 0, oompi::ops::lor) == (n > 1));
}

TEST_CASE("user ops from several threads at once") {
  auto w = world();
  if (oompi::environment::query_thread() != oompi::thread_level::multiple) {
    WARN("MPI_THREAD_MULTIPLE not provided: skipped");
    return;
  }
  const int n = w.size();
  constexpr int threads = 4;
  std::vector<oompi::intracommunicator> comms;
  for (int t = 0; t < threads; ++t) comms.push_back(w.dup());  // same order on every rank
  std::vector<int> ok(threads, 0), threw(threads, 0), ran(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      const auto& c = comms[static_cast<std::size_t>(t)];
      int good = 0;
      for (int it = 0; it < 20; ++it) {
        const int k = t * 100 + it;
        good += c.allreduce(c.rank(), [k](int a, int b) { return a + b + k; }) ==
                n * (n - 1) / 2 + k * (n - 1);
        auto f = c.iallreduce(1, [k](int a, int b) { return a + b + 0 * k; });
        good += f.get() == n;
      }
      ok[static_cast<std::size_t>(t)] = good;
      if (t == 0) {  // one thread's op throws; the others must not see it
        try {
          (void)c.allreduce(1, [&ran](int, int) -> int {
            ran[0] = 1;
            throw boom("thread 0");
          });
        } catch (const boom&) {
          threw[0] = 1;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(ok[static_cast<std::size_t>(t)] == 40);
  CHECK(threw[0] == ran[0]);
  CHECK(threw[1] + threw[2] + threw[3] == 0);
  CHECK(slot_free() == OOMPI_OP_SLOTS);
}
