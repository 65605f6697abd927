// A user-defined op equivalent to MPI's SUM on doubles (seed 000, Fig. 12 and 13), three ways:
// the whole block at once (like UserFunction.call), element by element, and a run-time function
// on raw memory (the form the language bindings' UserFunction subclasses are forwarded to).

#include <oompi/oompi.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int n = world.size(), rank = world.rank();
  std::vector<double> mine(1000);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = rank + 0.001 * static_cast<double>(i);

  // Fig. 12: one call per block of `count` elements
  auto block_sum = oompi::make_op<double>(
      [](const double* in, double* inout, int count) {
        for (int i = 0; i < count; ++i) inout[i] += in[i];
      },
      true);  // commutative
  // element by element
  auto element_sum = oompi::make_op([](double a, double b) { return a + b; }, true);
  // Fig. 13: raw memory plus its datatype
  oompi::op raw_sum(
      [](const void* in, void* inout, int count, MPI_Datatype type) {
        if (type != MPI_DOUBLE) return;
        const auto* a = static_cast<const double*>(in);
        auto* b = static_cast<double*>(inout);
        for (int i = 0; i < count; ++i) b[i] += a[i];
      },
      true);

  const auto expect = world.allreduce(mine, oompi::ops::sum);
  const auto r1 = world.allreduce(mine, block_sum);
  const auto r2 = world.allreduce(mine, element_sum);
  const auto r3 = world.allreduce(mine, raw_sum);
  auto r4 = world.iallreduce(mine, block_sum).get();  // nonblocking too
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const double e = n * (n - 1) / 2.0 + n * 0.001 * static_cast<double>(i);
    // MPI may add in another order than a user op: compare up to rounding
    auto near = [e](double x) { return std::abs(x - e) <= 1e-9 * (1.0 + std::abs(e)); };
    if (!near(expect[i]) || !near(r1[i]) || !near(r2[i]) || !near(r3[i]) || !near(r4[i])) {
      std::fprintf(stderr, "rank %d: element %zu differs\n", rank, i);
      return 1;
    }
  }
  if (rank == 0) std::printf("user sums agree with MPI_SUM on %d ranks\n", n);
  return 0;
}
