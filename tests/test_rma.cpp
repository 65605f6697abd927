// One-sided communication: window creation (create, allocate, allocate_shared, dynamic),
// put/get/accumulate/get_accumulate/fetch_and_op/compare_and_swap and their request forms,
// every synchronisation mode (fence, PSCW, lock, lock_all, flushes), struct and derived
// datatypes, attributes, and bad input refused before MPI sees it.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

using Catch::Matchers::Contains;

struct particle {
  double x, y, z;
  int id;
};
OOMPI_STRUCT(particle, x, y, z, id)

namespace {
struct ring {
  int rank, size, right, left;
};
ring ring_of(const oompi::intracommunicator& c) {
  const int r = c.rank(), n = c.size();
  return {r, n, (r + 1) % n, (r + n - 1) % n};
}
}  // namespace

TEST_CASE("create over a vector: put and get with fence, attributes") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  std::vector<int> local(8, -1);
  auto win = oompi::window::create(world, local);
  CHECK_FALSE(win.is_null());
  CHECK(win.base() == local.data());
  CHECK(win.size() == static_cast<MPI_Aint>(8 * sizeof(int)));
  CHECK(win.disp_unit() == static_cast<int>(sizeof(int)));
  CHECK(win.flavor() == oompi::window_flavor::create);
  CHECK(win.rank() == r);
  CHECK(win.group_size() == n);
  CHECK(win.size_of(right) == static_cast<MPI_Aint>(8 * sizeof(int)));
  CHECK(win.group().compare(world.group()) == oompi::comparison::ident);
  win.set_name("halo");
  CHECK(win.name() == "halo");
  CHECK_NOTHROW(win.get_info());
  CHECK(win.data<int>().size() == 8);

  // Each rank puts {r, r+1, r+2} at displacement 2 of its right neighbour.
  const std::vector<int> mine = {r, r + 1, r + 2};
  win.fence(oompi::rma_assert::noprecede);
  win.put(mine, right, 2);
  win.fence();
  // Not local[7]: the left neighbour may already be in the next epoch, putting there.
  CHECK(std::vector<int>(local.begin(), local.begin() + 7) ==
        std::vector<int>{-1, -1, left, left + 1, left + 2, -1, -1});

  // Get back what the right neighbour received (which is this rank's data), and a scalar.
  std::vector<int> back(3, 0);
  int one = 0;
  win.get(back, right, 2);
  win.get(one, left, 4);
  const int hundred = 100 + r;
  win.put(hundred, right, 7);  // a scalar is a buffer of one
  win.fence(oompi::rma_assert::nosucceed);
  CHECK(back == mine);
  CHECK(one == (left + n - 1) % n + 2);  // left's local[4]: from its own left neighbour
  CHECK(local[7] == 100 + left);
}

// Regression: MPICH 4.0.2 over UCX 1.13 rounds a created window's base down to 16 bytes
// (pmodels/mpich#6140) and every put and get lands early. A slice of an array (a C# array's
// elements start 8 bytes into a 16-byte block) must still be reached at its own displacements,
// also when the shift is not a whole displacement unit (pairs of ints at 4 bytes past 16).
TEST_CASE("create over a slice at any alignment: displacements are the caller's") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  alignas(64) unsigned char raw[64 + 12 * sizeof(int)];
  for (const std::size_t shift : {0, 4, 8, 12, 24}) {
    CAPTURE(shift);
    auto* at = reinterpret_cast<int*>(raw + shift);
    std::fill(at, at + 12, -1);
    auto win = oompi::window::create(world, at, 12 * sizeof(int), 2 * sizeof(int));  // pairs
    CHECK(win.base() == at);
    CHECK(win.disp_unit() == static_cast<int>(2 * sizeof(int)));
    const std::vector<int> mine = {r, r + 1};
    win.fence();
    win.put(mine, right, 1);
    win.fence();
    // Not at[8]: the left neighbour may already be accumulating there in the next epoch.
    CHECK(std::vector<int>(at, at + 6) == std::vector<int>{-1, -1, left, left + 1, -1, -1});
    std::vector<int> got(2);
    const int one = 1;
    win.get(got, right, 1);
    win.accumulate(one, right, 4, oompi::ops::sum);
    win.fence();
    CHECK(got == mine);
    CHECK(at[8] == 0);
    CHECK(at[10] == -1);
    world.barrier();  // the left neighbour's fetch_and_op below is after this check
    const int two = 2;
    int old = 0;
    {
      auto e = win.lock(right, oompi::lock_type::exclusive);
      win.fetch_and_op(two, old, right, 5, oompi::ops::sum);
      e.flush();
      CHECK(old == -1);
      // An 8-byte atomic must be aligned to 8 (UCX would skip it silently): refused.
      const long long wide = 1;
      long long wide_old = 0;
      if ((shift + 5 * 2 * sizeof(int)) % 8 != 0)
        CHECK_THROWS_WITH(win.fetch_and_op(wide, wide_old, right, 5, oompi::ops::sum),
                          Contains("not aligned to its size (8 bytes)"));
    }
    world.barrier();
    CHECK(at[10] == 1);
    CHECK_THROWS_AS(win.put(mine, right, 6), std::out_of_range);  // bounds: the caller's 6 pairs
  }
}

// Regression: Open MPI 4.1's osc/ucx runs fetch_and_op(sum) on a double as an integer add of
// the bit patterns (-1.0 + 2.0 gave -inf).
TEST_CASE("fetch_and_op sums floating-point values") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  std::vector<double> local(2, -1.0);
  std::vector<float> small(2, -1.0f);
  auto win = oompi::window::create(world, local);
  auto fwin = oompi::window::create(world, small);
  world.barrier();
  const double two = 2.0;
  const float half = 0.5f;
  double old = 0;
  float fold = 0;
  {
    auto e = win.lock(right, oompi::lock_type::exclusive);
    win.fetch_and_op(two, old, right, 1, oompi::ops::sum);
  }
  {
    auto e = fwin.lock(right, oompi::lock_type::exclusive);
    fwin.fetch_and_op(half, fold, right, 1, oompi::ops::sum);
  }
  world.barrier();
  CHECK(old == -1.0);
  CHECK(fold == -1.0f);
  CHECK(local[1] == 1.0);
  CHECK(small[1] == -0.5f);
  CHECK(local[0] == -1.0);
}

TEST_CASE("allocate: accumulate and get_accumulate with fence") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);
  auto win = oompi::window::allocate<double>(world, 4);
  CHECK(win.flavor() == oompi::window_flavor::allocate);
  CHECK(win.disp_unit() == static_cast<int>(sizeof(double)));
  auto mem = win.data<double>();
  REQUIRE(mem.size() == 4);
  std::fill(mem.data(), mem.data() + 4, 0.0);

  win.fence();
  // Everybody adds {1, r} at rank 0, displacement 1; max into element 3.
  // Origins are borrowed until the epoch ends: named variables, not temporaries.
  const std::vector<double> contribution = {1.0, double(r)};
  const double me = r, one = 1.0, ten = 10.0;
  win.accumulate(contribution, 0, 1, oompi::ops::sum);
  win.accumulate(me, 0, 3, oompi::ops::max);
  win.fence();
  if (r == 0) {
    CHECK(mem.data()[0] == 0.0);
    CHECK(mem.data()[1] == double(n));
    CHECK(mem.data()[2] == double(n * (n - 1) / 2));
    CHECK(mem.data()[3] == double(n - 1));
  }
  win.fence();
  // std::plus<> is MPI_SUM; an oompi::op holding a predefined op is accepted too.
  win.accumulate(one, 0, 0, std::plus<>());
  oompi::op prod = oompi::ops::prod;
  win.accumulate(one, 0, 0, prod);
  win.fence();
  if (r == 0) CHECK(mem.data()[0] == double(n));

  // get_accumulate in turns: each rank reads element 0 and adds 1 in its own fence epoch;
  // what it read is the count of ranks before it.
  for (int turn = 0; turn < n; ++turn) {
    double seen = -1;
    if (turn == r) win.get_accumulate(ten, seen, 0, 0, oompi::ops::sum);
    win.fence();
    if (turn == r) CHECK(seen == double(n + 10 * turn));
  }
  // no_op: an atomic read; replace: an atomic swap.
  double now = 0, old = 0;
  const double minus_five = -5.0;
  win.get_accumulate(now, now, 0, 0, oompi::ops::no_op);  // the origin is ignored
  win.fence();
  CHECK(now == double(n + 10 * n));
  win.fence();
  if (r == n - 1) win.get_accumulate(minus_five, old, 0, 0, oompi::ops::replace);
  win.fence();
  if (r == n - 1) CHECK(old == double(n + 10 * n));
  if (r == 0) CHECK(mem.data()[0] == -5.0);
}

TEST_CASE("lock: fetch_and_op as a counter, compare_and_swap as a lock word") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);
  std::vector<long> cell(2, 0);
  auto win = oompi::window::create(world, cell);
  world.barrier();

  long ticket = -1;
  const long one = 1, zero = 0, mine = r + 1;
  {
    auto epoch = win.lock(0, oompi::lock_type::exclusive);
    win.fetch_and_op(one, ticket, 0, 0, oompi::ops::sum);
    epoch.flush();  // the result is valid after a flush
    CHECK(ticket >= 0);
    CHECK(ticket < n);
  }
  // All tickets are distinct: they are 0 .. n-1.
  auto tickets = world.allgather(ticket);
  std::sort(tickets.begin(), tickets.end());
  std::vector<long> expect(static_cast<std::size_t>(n));
  std::iota(expect.begin(), expect.end(), 0L);
  CHECK(tickets == expect);

  // Everybody tries to swap 0 -> r + 1 in cell 1; exactly one succeeds.
  long was = -1;
  {
    auto epoch = win.lock(0, oompi::lock_type::shared);
    win.compare_and_swap(mine, zero, was, 0, 1);
    epoch.unlock();
    CHECK_FALSE(epoch.active());
    CHECK_THROWS_AS(epoch.unlock(), std::logic_error);  // ended once only
  }
  const long winners = world.allreduce(long(was == 0), oompi::ops::sum);
  CHECK(winners == 1);
  world.barrier();
  if (r == 0) {
    CHECK(cell[0] == n);
    CHECK(cell[1] >= 1);
    CHECK(cell[1] <= n);
  }
}

TEST_CASE("lock_all: rput, rget, raccumulate, rget_accumulate and flushes") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  std::vector<int> local(6, 0);
  auto win = oompi::window::create(world, local);
  world.barrier();
  {
    auto all = win.lock_all();
    std::vector<int> mine = {r, r * 10};
    auto a = win.rput(mine, right, 0);
    auto b = win.rput(std::vector<int>{7, 8}, right, 2);  // owned by the request
    CHECK(b.owns_data());
    a.wait();
    b.wait();
    win.flush(right);
    win.raccumulate(std::vector<int>{1}, 0, 4, oompi::ops::sum).wait();
    win.flush_all();
    win.flush_local_all();
    win.flush_local(right);
    all.unlock();
  }
  world.barrier();  // every origin's unlock has completed its operations at the targets
  CHECK(local[0] == left);
  CHECK(local[1] == left * 10);
  CHECK(local[2] == 7);
  CHECK(local[3] == 8);
  if (r == 0) CHECK(local[4] == n);
  world.barrier();
  {
    auto all = win.lock_all(oompi::rma_assert::nocheck);
    std::vector<int> got(2, -1);
    int before = -1;
    auto g = win.rget(got, right, 0);
    auto h = win.rget_accumulate(1, before, 0, 5, oompi::ops::sum);
    g.wait();
    h.wait();
    win.flush(0);
    CHECK(got == std::vector<int>{r, r * 10});
    CHECK(before >= 0);
    CHECK(before < n);
  }  // the destructor unlocks
  world.barrier();
  if (r == 0) CHECK(local[5] == n);
}

TEST_CASE("explicit targets in the request forms, flush_local, epochs ended by unwinding") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);
  auto win = oompi::window::allocate<int>(world, 8, oompi::info{{"accumulate_ordering", "none"}});
  CHECK((win.model() == oompi::window_model::unified ||
         win.model() == oompi::window_model::separate));
  std::fill(win.data<int>().data(), win.data<int>().data() + 8, 0);
  auto every_other = oompi::datatype::vector(3, 1, 2, oompi::datatype::of<int>());  // 0, 2, 4
  world.barrier();
  {
    auto epoch = win.lock(right, oompi::lock_type::exclusive);
    const std::vector<int> three = {r + 1, r + 2, r + 3};
    auto a = win.rput(three, right, {1, 1, every_other});  // elements 1, 3, 5
    a.wait();
    epoch.flush_local();
    epoch.flush();
    std::vector<int> got(3, -1);
    win.rget(got, right, {1, 1, every_other}).wait();
    epoch.flush();
    CHECK(got == three);
    int old = -1;
    const int add = 100;
    win.get_accumulate(add, old, right, {7, 1, MPI_INT}, oompi::ops::sum);
    epoch.flush();
    CHECK(old >= 0);
  }
  world.barrier();
  auto mem = win.data<int>();
  CHECK(mem.data()[1] == left + 1);
  CHECK(mem.data()[3] == left + 2);
  CHECK(mem.data()[5] == left + 3);
  CHECK(mem.data()[7] == 100);
  CHECK(mem.data()[2] == 0);

  // An exception leaving the scope ends the epoch: the lock can be taken again.
  world.barrier();
  try {
    auto epoch = win.lock(right);
    throw std::runtime_error("leaving the epoch's scope");
  } catch (const std::runtime_error&) {
  }
  auto again = win.lock(right);
  CHECK(again.active());
  CHECK(again.rank() == right);
  again.unlock();
  world.barrier();
}

TEST_CASE("post-start-complete-wait with groups") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  std::vector<double> local(2, 0.0);
  auto win = oompi::window::create(world, local);
  auto g = world.group();
  {
    // Expose to the left neighbour (which writes here), access the right one.
    auto exposure = win.post(g.incl({left}));
    auto access = win.start(g.incl({right}));
    const std::vector<double> mine = {double(r), 0.5};
    win.put(mine, right, 0);
    access.complete();
    exposure.wait();
    CHECK_FALSE(exposure.active());
  }
  CHECK(local == std::vector<double>{double(left), 0.5});
  {
    // Destructors end the epochs (access first: declared last); test() polls an exposure.
    auto exposure = win.post(g.incl({left}));
    const double one = 1.0;
    {
      auto access = win.start(g.incl({right}));
      win.accumulate(one, right, 1, oompi::ops::sum);
    }
    while (!exposure.test()) {
    }
    CHECK_FALSE(exposure.active());
  }
  CHECK(local[1] == 1.5);
  CHECK_THROWS_AS(win.post(oompi::group()), std::logic_error);
}

TEST_CASE("allocate_shared: load and store through shared_query") {
  auto world = oompi::communicator::world();
  auto node = world.split_type(oompi::comm_type::shared);
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(node);
  auto win = oompi::window::allocate_shared<int>(node, 3);
  CHECK(win.flavor() == oompi::window_flavor::shared);
  auto mine = win.data<int>();
  REQUIRE(mine.size() == 3);
  {
    auto all = win.lock_all();
    for (int i = 0; i < 3; ++i) mine.data()[i] = 10 * r + i;
    win.sync();
    node.barrier();
    win.sync();
    auto theirs = win.shared_query<int>(right);
    REQUIRE(theirs.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(theirs.data()[i] == 10 * right + i);
    const oompi::shared_region first = win.shared_query(oompi::proc_null);
    CHECK(first.size == static_cast<MPI_Aint>(3 * sizeof(int)));
    CHECK(first.disp_unit == static_cast<int>(sizeof(int)));
    node.barrier();
  }
  CHECK_THROWS_AS(win.shared_query(n), std::out_of_range);
  // The same memory through RMA calls.
  int got = -1;
  win.fence();
  win.get(got, right, 2);
  win.fence();
  CHECK(got == 10 * right + 2);
}

TEST_CASE("create_dynamic: attach, put at the target's address, detach") {
  auto world = oompi::communicator::world();
  const auto [r, n, right, left] = ring_of(world);
  auto win = oompi::window::create_dynamic(world);
  CHECK(win.is_dynamic());
  CHECK(win.flavor() == oompi::window_flavor::dynamic);
  std::vector<int> mem(4, 0);
  const MPI_Aint here = win.attach(mem);
  CHECK(here == oompi::window::address_of(mem.data()));
  const auto addresses = world.allgather(static_cast<long long>(here));
  world.barrier();
  {
    auto epoch = win.lock(right);
    const std::vector<int> mine = {r, r + 1};
    win.put(mine, right,
            static_cast<MPI_Aint>(addresses[static_cast<std::size_t>(right)]) + sizeof(int));
  }
  world.barrier();
  CHECK(mem == std::vector<int>{0, left, left + 1, 0});
  win.detach(mem);
  // A window made by create cannot take attached memory.
  std::vector<int> other(1);
  auto fixed = oompi::window::create(world, other);
  CHECK_THROWS_AS(fixed.attach(other), std::logic_error);
  CHECK_THROWS_AS(win.lock(n), std::out_of_range);  // ranks are checked on dynamic windows too
}

TEST_CASE("struct and derived datatypes as origin and target types") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);

  std::vector<particle> ps(3, particle{0, 0, 0, -1});
  auto win = oompi::window::create(world, ps);
  CHECK(win.disp_unit() == static_cast<int>(sizeof(particle)));
  win.fence();
  const particle p{1.0 * r, 2.0, 3.0, r};
  win.put(p, right, 1);
  win.fence();
  CHECK(ps[1].x == 1.0 * left);
  CHECK(ps[1].id == left);
  CHECK(ps[0].id == -1);
  std::vector<particle> got(2);
  win.get(got, left, 0);
  win.fence();
  CHECK(got[1].id == ((left + world.size() - 1) % world.size()));

  // A 4x4 matrix of doubles per rank; put a contiguous column of 4 into the target's column 2
  // (a vector type on the target), then get the target's row 1 as a column here.
  std::vector<double> m(16, 0.0);
  auto mw = oompi::window::create(world, m);
  auto column = oompi::datatype::vector(4, 1, 4, oompi::datatype::of<double>());
  const std::vector<double> col = {r + 0.0, r + 0.25, r + 0.5, r + 0.75};  // exact in binary
  mw.fence();
  mw.put(col, right, {2, 1, column});
  mw.fence();
  for (int i = 0; i < 4; ++i) CHECK(m[static_cast<std::size_t>(4 * i + 2)] == left + 0.25 * i);
  std::vector<double> rowcol(16, -1.0);
  mw.get(oompi::buffer(rowcol.data(), 1, column), right, {4, 4, MPI_DOUBLE});
  mw.fence();
  CHECK(rowcol[0] == 0.0);
  CHECK(rowcol[8] == r + 0.25);  // right's row 1, column 2: what this rank put there
  CHECK(rowcol[1] == -1.0);         // untouched between the column's elements
  // accumulate into a strided target: add 1 to column 0 of rank 0.
  const std::vector<double> ones(4, 1.0);
  mw.accumulate(ones, 0, {0, 1, column}, oompi::ops::sum);
  mw.fence();
  if (r == 0) CHECK(m[12] == double(world.size()));
}

TEST_CASE("bad input is refused before MPI sees it") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);
  std::vector<int> local(4, 0);
  auto win = oompi::window::create(world, local);
  std::vector<int> two(2), five(5);
  int x = 0;
  const int one = 1, zero = 0;
  win.fence();

  // Target rank outside the group.
  CHECK_THROWS_AS(win.put(two, n, 0), std::out_of_range);
  CHECK_THROWS_AS(win.put(two, -5, 0), std::out_of_range);  // not -1: proc_null on MPICH
  CHECK_THROWS_WITH(win.get(two, n + 5, 0), Contains("is not in the window's group"));
  CHECK_THROWS_AS(win.accumulate(two, n, 0, oompi::ops::sum), std::out_of_range);
  CHECK_THROWS_AS(win.fetch_and_op(one, x, n, 0, oompi::ops::sum), std::out_of_range);
  CHECK_THROWS_AS(win.compare_and_swap(one, zero, x, -7, 0), std::out_of_range);
  CHECK_THROWS_AS(win.lock(n), std::out_of_range);
  CHECK_THROWS_AS(win.flush(-3), std::out_of_range);
  CHECK_THROWS_AS(win.size_of(n), std::out_of_range);

  // Displacement or count outside the target's window (4 ints).
  CHECK_THROWS_AS(win.put(five, right, 0), std::out_of_range);
  CHECK_THROWS_AS(win.put(two, right, 3), std::out_of_range);
  CHECK_THROWS_WITH(win.get(two, right, 4), Contains("do not fit in rank"));
  CHECK_THROWS_AS(win.put(two, right, -1), std::out_of_range);
  CHECK_THROWS_AS(win.accumulate(two, right, 3, oompi::ops::sum), std::out_of_range);
  CHECK_THROWS_AS(win.get_accumulate(two, five, right, 0, oompi::ops::sum), std::out_of_range);
  CHECK_THROWS_AS(win.fetch_and_op(one, x, right, 4, oompi::ops::sum), std::out_of_range);
  CHECK_THROWS_AS(win.compare_and_swap(one, zero, x, right, 99), std::out_of_range);
  CHECK_THROWS_AS(win.put(two, right, MPI_Aint(1) << 62), std::out_of_range);  // no wrap-around
  auto column = oompi::datatype::vector(2, 1, 3, oompi::datatype::of<int>());  // spans 4 ints
  CHECK_NOTHROW(win.put(two, right, {0, 1, column}));
  CHECK_THROWS_AS(win.put(two, right, {1, 1, column}), std::out_of_range);
  // Origin and target of different sizes.
  CHECK_THROWS_WITH(win.put(five, right, {0, 2, MPI_INT}), Contains("type signatures"));
  CHECK_THROWS_AS(win.get_accumulate(five, two, right, 0, oompi::ops::sum),
                  std::invalid_argument);
  // proc_null is a no-op for MPI and passes.
  CHECK_NOTHROW(win.put(five, oompi::proc_null, 1000));

  // Accumulate takes predefined ops only.
  auto user = oompi::make_op<int>([](int a, int b) { return a + b; }, true);
  CHECK_THROWS_WITH(win.accumulate(two, right, 0, user), Contains("predefined ops"));
  CHECK_THROWS_AS(win.accumulate(two, right, 0, user.native()), std::invalid_argument);
  CHECK_THROWS_AS(win.get_accumulate(two, two, right, 0, user), std::invalid_argument);
  CHECK_THROWS_AS(win.fetch_and_op(one, x, right, 0, user), std::invalid_argument);
  oompi::op runtime([](const void*, void*, int, MPI_Datatype) {}, true);
  CHECK_THROWS_AS(win.accumulate(two, right, 0, runtime), std::invalid_argument);
  win.fence();

  // An MPI error (flush outside a passive-target epoch) is an oompi::error, not an abort.
  CHECK(oompi_test::mpi_error_class([&] { win.flush(right); }) != MPI_SUCCESS);

  // Freed and moved-from windows.
  auto moved = std::move(win);
  CHECK(win.is_null());
  CHECK_THROWS_WITH(win.put(two, right, 0), Contains("null window"));
  CHECK_THROWS_AS(win.fence(), std::logic_error);
  CHECK_THROWS_AS(win.base(), std::logic_error);
  moved.free();
  CHECK(moved.is_null());
  CHECK_THROWS_AS(moved.get(two, right, 0), std::logic_error);
  CHECK_THROWS_AS((void)moved.lock_all(), std::logic_error);
  CHECK_THROWS_AS(moved.free(), std::logic_error);

  // Window creation arguments.
  CHECK_THROWS_AS(oompi::window::create(world, local.data(), -1, 4), std::invalid_argument);
  CHECK_THROWS_AS(oompi::window::allocate_bytes(world, 16, 0), std::invalid_argument);
  CHECK_THROWS_AS(oompi::window::create(oompi::intracommunicator(), local), std::logic_error);
}

TEST_CASE("a window of bytes through the untyped interface") {
  auto world = oompi::communicator::world();
  [[maybe_unused]] const auto [r, n, right, left] = ring_of(world);
  std::vector<unsigned char> bytes(16, 0);
  auto win = oompi::window::create(world, bytes.data(), 16, 1);  // byte displacements
  const double v = 1.5 + r;
  win.fence();
  win.put(oompi::raw_buffer(&v, 1, MPI_DOUBLE), right, {8, 8, MPI_BYTE});
  win.fence();
  double seen = 0;
  std::memcpy(&seen, bytes.data() + 8, sizeof seen);
  CHECK(seen == 1.5 + left);
  CHECK_THROWS_AS(win.put(oompi::raw_buffer(&v, 1, MPI_DOUBLE), right, 9), std::out_of_range);
  win.fence();
}
