// Self-test of the shared test main (mpi_main.cpp). Run without arguments, every case passes
// and the program must exit 0 on all ranks. The hidden cases are selected by tag in separate
// CTest entries registered WILL_FAIL (see tests/CMakeLists.txt):
//   [.fail_check]  the last rank fails a CHECK, then every rank enters a barrier: the failure
//                  must be agreed on, and the job exits nonzero;
//   [.fail_skip]   the last rank fails a REQUIRE and so skips a barrier the others wait in: the
//                  failing rank must abort the job after OOMPI_TEST_GRACE seconds instead of
//                  leaving the others hanging until the CTest timeout.
//   [.throw]       the last rank throws out of a case before a collective.
#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <stdexcept>

TEST_CASE("harness: every rank passes") {
  auto world = oompi::communicator::world();
  int r = world.rank();
  world.barrier();
  CHECK(r == world.rank());
  CHECK(world.size() >= 1);
}

TEST_CASE("harness: a passing case after the first") {
  auto world = oompi::communicator::world();
  const int n = world.size(), r = world.rank();
  int from_left = -1;
  world.sendrecv(r, (r + 1) % n, 3, from_left, (r + n - 1) % n, 3);
  CHECK(from_left == (r + n - 1) % n);
}

TEST_CASE("harness: one rank fails a CHECK, all take the same path", "[.fail_check]") {
  auto world = oompi::communicator::world();
  const bool last = world.rank() == world.size() - 1;
  CHECK_FALSE(last);  // fails on the last rank only
  world.barrier();    // every rank still gets here
}

TEST_CASE("harness: one rank fails a REQUIRE and skips a barrier", "[.fail_skip]") {
  auto world = oompi::communicator::world();
  const bool last = world.rank() == world.size() - 1;
  REQUIRE_FALSE(last);  // the last rank leaves the case here
  world.barrier();      // the others wait for it in vain
}

TEST_CASE("harness: one rank throws before a collective", "[.throw]") {
  auto world = oompi::communicator::world();
  if (world.rank() == world.size() - 1) throw std::runtime_error("unexpected failure");
  world.barrier();
}
