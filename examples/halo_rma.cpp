// A 1-D halo exchange with one-sided puts and fences: a rod of cells split among the ranks,
// smoothed by a three-point stencil. Each rank's array has one ghost cell at each end; the
// whole array is an RMA window, and each step every rank puts its first interior cell into its
// left neighbour's right ghost and its last into its right neighbour's left ghost, between two
// fences. The ends of the rod have no neighbour (proc_null: the put is a no-op) and keep a
// ghost of 0. Every rank also runs the same stencil serially over the whole rod and compares:
// the same arithmetic in the same order gives identical values. Exits nonzero on a mismatch.
#include <oompi/oompi.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {
// One stencil step over cells [1, n] of u (cells 0 and n + 1 are ghosts).
void smooth(std::vector<double>& u) {
  std::vector<double> next(u);
  for (std::size_t i = 1; i + 1 < u.size(); ++i) next[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
  u.swap(next);
}
}  // namespace

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const int cells = 16, steps = 50;  // per rank
  const int left = rank > 0 ? rank - 1 : oompi::proc_null;
  const int right = rank + 1 < size ? rank + 1 : oompi::proc_null;

  std::vector<double> u(cells + 2, 0.0);  // u[0], u[cells + 1]: ghosts
  for (int i = 1; i <= cells; ++i) u[i] = rank * cells + i - 1;  // the global index
  auto win = oompi::window::create(world, u);                     // disp_unit = sizeof(double)

  std::vector<double> fresh(u.size());
  for (int s = 0; s < steps; ++s) {
    // Put from a copy: u itself is rewritten by the neighbours' puts in the same epoch.
    const double first = u[1], last = u[cells];
    win.fence(oompi::rma_assert::noprecede);
    win.put(first, left, cells + 1);  // into the left neighbour's right ghost
    win.put(last, right, 0);          // into the right neighbour's left ghost
    win.fence(oompi::rma_assert::nosucceed);
    // The window covers u: compute into a scratch array and copy back, so u keeps its storage.
    fresh = u;
    smooth(fresh);
    std::copy(fresh.begin() + 1, fresh.end() - 1, u.begin() + 1);
  }

  // The serial reference over the whole rod.
  std::vector<double> rod(static_cast<std::size_t>(size * cells) + 2, 0.0);
  for (int i = 1; i <= size * cells; ++i) rod[i] = i - 1;
  for (int s = 0; s < steps; ++s) smooth(rod);
  bool ok = true;
  for (int i = 1; i <= cells; ++i) ok = ok && u[i] == rod[rank * cells + i];
  ok = world.allreduce(ok ? 1 : 0, oompi::ops::min) == 1;
  if (rank == 0)
    std::printf(ok ? "halo exchange by put + fence: %d ranks x %d cells, %d steps, matches the "
                     "serial stencil\n"
                   : "halo exchange: %d ranks x %d cells, %d steps: MISMATCH\n",
                size, cells, steps);
  return ok ? 0 : 1;
}
