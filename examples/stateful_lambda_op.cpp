// A reduction op that is a lambda capturing state: the modulus comes from run-time input, and
// the op counts its calls. Used by a blocking and a nonblocking collective, and kept as an
// oompi::op for repeated use. MPI's C callback has no user-data pointer; oompi routes the call
// to the lambda (see docs/collectives.md).

#include <oompi/oompi.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int n = world.size(), rank = world.rank();
  const long modulus = argc > 1 ? std::atol(argv[1]) : 7;  // state known only at run time

  long calls = 0;  // captured by reference: updated by the op wherever MPI runs it here
  auto sum_mod = [modulus, &calls](long a, long b) {
    ++calls;
    return (a + b) % modulus;
  };
  std::vector<long> mine(64);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = (rank + 1) * static_cast<long>(i + 3);

  std::vector<long> expect(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) {
    long e = 0;
    for (int r = 0; r < n; ++r) e = (e + (r + 1) * static_cast<long>(i + 3)) % modulus;
    expect[i] = e;
  }
  // mod-sum of values already reduced mod m: reduce inputs first so every partial is < m
  for (auto& x : mine) x %= modulus;

  const auto blocking = world.allreduce(mine, oompi::commutative(sum_mod));
  auto later = world.iallreduce(mine, oompi::commutative(sum_mod));  // the future owns a copy
  const auto nonblocking = later.get();
  oompi::op kept = oompi::make_op<long>(sum_mod, true);               // for repeated use
  std::vector<long> again;
  for (int round = 0; round < 3; ++round) world.allreduce(mine, again, kept);

  const long calls_anywhere = world.allreduce(calls, oompi::ops::sum);
  if (blocking != expect || nonblocking != expect || again != expect ||
      (n > 1 && calls_anywhere == 0)) {
    std::fprintf(stderr, "rank %d: wrong result\n", rank);
    return 1;
  }
  if (rank == 0)
    std::printf("sum mod %ld over %d ranks checked; the op ran %ld times in all\n", modulus, n,
                calls_anywhere);
  return 0;
}
