// Groups: from a communicator, incl/excl, ranges, set operations, translate_ranks, compare.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <numeric>
#include <stdexcept>
#include <vector>

using Catch::Matchers::Contains;

namespace {
std::vector<int> iota_ranks(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}
// The world ranks of a group's members, in group order.
std::vector<int> members(const oompi::group& g) {
  auto world = oompi::communicator::world().group();
  return g.translate_ranks(iota_ranks(g.size()), world);
}
}  // namespace

TEST_CASE("the group of a communicator") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  auto g = world.group();
  CHECK_FALSE(g.is_null());
  CHECK(g.owned());
  CHECK(g.size() == n);
  CHECK(g.rank() == std::optional<int>(r));
  CHECK(g.contains_me());
  CHECK(members(g) == iota_ranks(n));
  CHECK(g.compare(world.group()) == oompi::comparison::ident);
  auto self = oompi::communicator::self().group();
  CHECK(self.size() == 1);
  CHECK(self.translate_ranks({0}, g) == std::vector<int>{r});

  auto copy = g.copy();
  CHECK(copy.compare(g) == oompi::comparison::ident);
  auto moved = std::move(copy);
  CHECK(copy.is_null());
  CHECK(moved.size() == n);
}

TEST_CASE("incl and excl") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  auto g = world.group();

  std::vector<int> rev(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) rev[static_cast<std::size_t>(i)] = n - 1 - i;
  auto reversed = g.incl(rev);
  CHECK(reversed.size() == n);
  CHECK(reversed.rank() == std::optional<int>(n - 1 - r));
  CHECK(members(reversed) == rev);
  CHECK(reversed.compare(g) == (n == 1 ? oompi::comparison::ident : oompi::comparison::similar));

  auto first = g.incl({0});
  CHECK(first.size() == 1);
  CHECK(first.rank() == (r == 0 ? std::optional<int>(0) : std::nullopt));
  CHECK(first.contains_me() == (r == 0));

  auto rest = g.excl({0});
  CHECK(rest.size() == n - 1);
  if (r == 0) {
    CHECK_FALSE(rest.rank().has_value());
  } else {
    CHECK(rest.rank() == std::optional<int>(r - 1));
  }
  if (n > 1) CHECK(rest.compare(g) == oompi::comparison::unequal);

  CHECK(g.incl({}).size() == 0);
  CHECK(g.excl({}).compare(g) == oompi::comparison::ident);
}

TEST_CASE("range_incl and range_excl") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  auto g = world.group();

  // Every other rank from the last one down.
  auto down = g.range_incl({{n - 1, 0, -2}});
  std::vector<int> expect;
  for (int i = n - 1; i >= 0; i -= 2) expect.push_back(i);
  CHECK(members(down) == expect);

  // Evens then (if any) the last rank again is not allowed: use disjoint ranges.
  std::vector<oompi::rank_range> ranges{{0, n - 1, 2}};
  if (n > 1) ranges.push_back({1, 1, 1});
  auto mixed = g.range_incl(ranges);
  expect.clear();
  for (int i = 0; i < n; i += 2) expect.push_back(i);
  if (n > 1) expect.push_back(1);
  CHECK(members(mixed) == expect);

  auto odds = g.range_excl({{0, n - 1, 2}});
  expect.clear();
  for (int i = 1; i < n; i += 2) expect.push_back(i);
  CHECK(members(odds) == expect);
  CHECK(g.range_excl({}).size() == n);
}

TEST_CASE("union, intersection, difference") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  auto g = world.group();
  auto evens = g.range_incl({{0, n - 1, 2}});
  auto odds = g.excl(members(evens));
  auto last = g.incl({n - 1});

  auto all = evens.set_union(odds);
  CHECK(all.size() == n);
  CHECK(all.compare(g) != oompi::comparison::unequal);
  CHECK((evens | odds).size() == n);
  CHECK(evens.set_intersection(odds).size() == 0);
  CHECK((evens & g).compare(evens) == oompi::comparison::ident);
  CHECK(g.set_difference(evens).compare(odds) == oompi::comparison::ident);
  CHECK((g - g).size() == 0);
  // Union keeps the first group's order, then adds the new members.
  auto u = last | g;
  CHECK(members(u).front() == n - 1);
  CHECK(u.size() == n);
  CHECK((evens & last).size() == ((n - 1) % 2 == 0 ? 1 : 0));
  auto empty = oompi::group::empty();
  CHECK(empty.size() == 0);
  CHECK_FALSE(empty.owned());
  CHECK((g | empty).compare(g) == oompi::comparison::ident);
  CHECK(empty.compare(g - g) == oompi::comparison::ident);
}

TEST_CASE("translate_ranks between groups") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  auto g = world.group();
  auto rest = g.excl({0});
  // In `rest`, world rank k (k > 0) is rank k - 1; world rank 0 is not there.
  auto t = g.translate_ranks(iota_ranks(n), rest);
  REQUIRE(t.size() == static_cast<std::size_t>(n));
  CHECK(t[0] == oompi::undefined);
  for (int k = 1; k < n; ++k) CHECK(t[static_cast<std::size_t>(k)] == k - 1);
  CHECK(g.translate_rank(0, rest) == std::nullopt);
  if (n > 1) CHECK(g.translate_rank(n - 1, rest) == std::optional<int>(n - 2));
  CHECK(g.translate_ranks({oompi::proc_null}, rest) == std::vector<int>{oompi::proc_null});
  CHECK(g.translate_ranks({}, rest).empty());

  // Between communicators: a split half and world.
  auto half = world.split(r % 2);
  auto mine = half.group().translate_ranks({half.rank()}, g);
  CHECK(mine == std::vector<int>{r});
}

TEST_CASE("group bad input throws before MPI") {
  auto world = oompi::communicator::world();
  const int n = world.size();
  auto g = world.group();
  CHECK_THROWS_AS(g.incl({n}), std::out_of_range);
  CHECK_THROWS_AS(g.incl({-1}), std::out_of_range);
  CHECK_THROWS_WITH(g.incl({0, 0}), Contains("twice"));
  CHECK_THROWS_AS(g.excl({n + 3}), std::out_of_range);
  CHECK_THROWS_AS(g.excl({0, 0}), std::invalid_argument);
  CHECK_THROWS_WITH(g.range_incl({{0, n - 1, 0}}), Contains("stride 0"));
  CHECK_THROWS_AS(g.range_incl({{0, n, 1}}), std::out_of_range);
  CHECK_THROWS_AS(g.range_excl({{-1, 0, 1}}), std::out_of_range);
  if (n > 1) {
    CHECK_THROWS_AS(g.range_incl({{1, 0, 1}}), std::invalid_argument);  // wrong direction
    CHECK_THROWS_AS(g.range_incl({{0, 1, -1}}), std::invalid_argument);
  }
  CHECK_THROWS_WITH(g.range_incl({{0, 0, 1}, {0, n - 1, 1}}), Contains("more than one range"));
  CHECK_THROWS_AS(g.translate_ranks({n}, g), std::out_of_range);
  CHECK_THROWS_AS(g.translate_ranks({-7}, g), std::out_of_range);

  oompi::group null_group;
  CHECK(null_group.is_null());
  CHECK_THROWS_WITH(null_group.size(), Contains("null group"));
  CHECK_THROWS_AS(null_group.rank(), std::logic_error);
  CHECK_THROWS_AS(g.set_union(null_group), std::logic_error);
  CHECK_THROWS_AS(null_group.compare(g), std::logic_error);
  CHECK_THROWS_AS(g.translate_ranks({0}, null_group), std::logic_error);

  oompi::intracommunicator null_comm;
  CHECK_THROWS_AS(null_comm.group(), std::logic_error);
}
