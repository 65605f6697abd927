// A 2-D torus: every process sends its rank to its left neighbour (seed 000, Fig. 14), then
// checks what it received, and exchanges with all four neighbours at once through a
// neighbour collective. Exits nonzero on any process whose result is wrong.
//
//   mpirun -np 4 ./torus_shift
#include <oompi/oompi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();

  const std::vector<int> dims = oompi::dims_create(world.size(), 2);
  oompi::cartesian_communicator torus(world, dims, {true, true});
  const int me = torus.rank();
  const std::vector<int> coords = torus.coords();
  std::printf("I have coordinates (%d,%d) on a grid of %dx%d\n", coords[0], coords[1], dims[0],
              dims[1]);

  // Shift by -1 along dimension 0: send to the process before us, receive from the one after.
  const auto [source, dest] = torus.shift(0, -1);
  int received = -1;
  torus.sendrecv(me, dest, 1, received, source, 1);
  std::printf("I am process %d, received %d\n", me, received);

  bool ok = true;
  const int expected = torus.rank({(coords[0] + 1) % dims[0], coords[1]});
  if (received != expected) {
    std::fprintf(stderr, "process %d: received %d from the shift, expected %d\n", me, received,
                 expected);
    ok = false;
  }

  // All four neighbours at once: (-1, +1) along dimension 0, then along dimension 1.
  const std::vector<int> around = torus.neighbor_allgather(me);
  const std::vector<int> neighbours = torus.neighbors();
  if (around != neighbours) {
    std::fprintf(stderr, "process %d: neighbor_allgather gave ranks that are not its neighbours\n",
                 me);
    ok = false;
  }
  return ok ? 0 : 1;
}
