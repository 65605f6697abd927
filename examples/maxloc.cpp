// MAXLOC on value-index pairs (seed 000, Fig. 11; MPI standard example 5.17): each rank has
// 30 doubles; a reduction keeps, for each position, the largest value and the rank owning it.

#include <oompi/oompi.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {
double value(int rank, int i) { return std::sin(1.0 + 0.7 * rank + 1.3 * i); }
}  // namespace

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto comm = oompi::communicator::world();
  const int rank = comm.rank(), root = 0;

  std::vector<double> ain(30);
  for (int i = 0; i < 30; ++i) ain[i] = value(rank, i);

  std::vector<oompi::value_index<double>> in(30), out;  // MPI_DOUBLE_INT
  for (int i = 0; i < 30; ++i) in[i] = {ain[i], rank};
  comm.reduce(in, out, oompi::ops::maxloc, root);

  // At this point, the answer resides on process root.
  if (rank == root) {
    std::vector<double> aout(30);
    std::vector<int> ind(30);
    for (int i = 0; i < 30; ++i) {  // read ranks out
      aout[i] = out[i].value;
      ind[i] = out[i].index;
    }
    for (int i = 0; i < 30; ++i) {
      int best = 0;
      for (int r = 1; r < comm.size(); ++r)
        if (value(r, i) > value(best, i)) best = r;
      if (ind[i] != best || aout[i] != value(best, i)) {
        std::fprintf(stderr, "position %d: got (%g, %d), expected (%g, %d)\n", i, aout[i], ind[i],
                     value(best, i), best);
        return 1;
      }
    }
    std::printf("MAXLOC of 30 values over %d ranks checked; position 0 is owned by rank %d\n",
                comm.size(), ind[0]);
  }
  return 0;
}
