// pi by numerical integration of 4 / (1 + x^2) over [0, 1] (seed 000, Fig. 2): each rank sums
// every size()-th interval, a reduction to rank 0 adds the parts.

#include <oompi/oompi.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const int nint = 100;  // intervals
  const double h = 1.0 / nint;
  double sum = 0.0;
  for (int i = rank + 1; i <= nint; i += size) {
    const double x = h * (i - 0.5);
    sum += 4.0 / (1.0 + x * x);
  }
  const double pi = world.reduce(h * sum, oompi::ops::sum, 0);  // the result at rank 0
  if (rank == 0) {
    std::printf("PI: %.12f (error %.2e)\n", pi, std::fabs(pi - M_PI));
    if (std::fabs(pi - M_PI) > 1e-4) return 1;  // the midpoint rule's error is ~8e-6 here
  }
  // every rank can have it too
  const double everywhere = world.allreduce(h * sum, oompi::ops::sum);
  return std::fabs(everywhere - M_PI) < 1e-4 ? 0 : 1;
}
