#include <catch2/catch.hpp>
#include <oompi/oompi.hpp>

#include <vector>

TEST_CASE("ring with ports") {
  auto world = oompi::communicator::world();
  const int r = world.rank(), n = world.size();
  std::vector<double> v(8, r);
  if (n == 1) {
    auto req = world.isend(v, 0);
    std::vector<double> got(8);
    world[0] >> got;
    req.wait();
    CHECK(got == v);
    return;
  }
  if (r % 2 == 0) {
    world[(r + 1) % n] << v;
    world[(r + n - 1) % n] >> v;
  } else {
    std::vector<double> in(8);
    world[(r + n - 1) % n] >> in;
    world[(r + 1) % n] << v;
    v = in;
  }
  CHECK(v[0] == (r + n - 1) % n);
}
