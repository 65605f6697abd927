// Parallel checkpoint and restart of a distributed array with collective MPI-IO.
//
// A global NY x NX grid of doubles is split in blocks over a 2-D process grid. Each process
// steps its block of a simple diffusion a few times, then every process writes its block into
// ONE checkpoint file with a single collective call: the file view (a subarray of the global
// array) tells MPI where the block goes, so the file holds the global array in row-major order
// whatever the number of processes. The run then "restarts": the state is dropped, read back
// through the same view, and must match. Finally rank 0 reads the whole file as a plain array
// and checks the global layout. The exit code is the verdict.
//
//   mpirun -np 4 ./checkpoint_io [directory]

#include <oompi/oompi.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

constexpr int ny = 24, nx = 30;  // global grid

struct block {
  int y0, x0, h, w;  // this process's part of the global grid
};

block my_block(int coords[2], int dims[2]) {
  auto split = [](int n, int parts, int i, int& start, int& len) {
    start = n * i / parts;
    len = n * (i + 1) / parts - start;
  };
  block b{};
  split(ny, dims[0], coords[0], b.y0, b.h);
  split(nx, dims[1], coords[1], b.x0, b.w);
  return b;
}

// The value the global array starts with: a function of the global indices only.
double initial(int y, int x) { return std::sin(0.3 * y) + 0.01 * x; }

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const std::string dir = argc > 1 ? argv[1] : "/tmp";
  long id = static_cast<long>(getpid());  // one name for all ranks, unique to this run
  world.bcast(id, 0);
  const std::string path = dir + "/oompi_checkpoint_" + std::to_string(id) + ".bin";

  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int coords[2] = {rank / dims[1], rank % dims[1]};
  const block b = my_block(coords, dims);

  // The local state, stepped a little (each point mixes with itself only: no halo needed here).
  std::vector<double> state(static_cast<std::size_t>(b.h) * b.w);
  for (int y = 0; y < b.h; ++y)
    for (int x = 0; x < b.w; ++x) state[y * b.w + x] = initial(b.y0 + y, b.x0 + x);
  for (int step = 0; step < 5; ++step)
    for (double& v : state) v = 0.5 * v + 0.25;

  // This process's block as a subarray of the global array: the filetype of the view.
  const auto dbl = oompi::datatype::of<double>();
  const auto filetype = oompi::datatype::subarray({ny, nx}, {b.h, b.w}, {b.y0, b.x0}, dbl);

  {  // checkpoint: one collective write
    oompi::info hints{{"collective_buffering", "true"}};
    auto f = oompi::file::open(world, path, oompi::file_mode::create | oompi::file_mode::wronly,
                               hints);
    f.set_view(0, dbl, filetype);
    f.write_at_all(0, state);
    f.close();  // collective; errors surface here rather than in a destructor
  }

  int bad = 0;
  {  // restart: read the block back through the same view
    std::vector<double> restored(state.size(), -1.0);
    auto f = oompi::file::open(world, path, oompi::file_mode::rdonly);
    if (f.size() != static_cast<MPI_Offset>(ny) * nx * static_cast<MPI_Offset>(sizeof(double)))
      ++bad;
    f.set_view(0, dbl, filetype);
    const auto st = f.read_at_all(0, restored);
    if (st.count<double>() != restored.size() || restored != state) ++bad;

    // The file is the global array in row-major order: check it as one plain array.
    f.set_view<double>();  // collective: every process takes part
    if (rank == 0) {
      std::vector<double> global(static_cast<std::size_t>(ny) * nx);
      f.read_at(0, global);
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          double v = initial(y, x);
          for (int step = 0; step < 5; ++step) v = 0.5 * v + 0.25;
          if (global[y * nx + x] != v) ++bad;
        }
    }
  }
  world.barrier();
  if (rank == 0) oompi::file::remove(path);

  const int total = world.allreduce(bad, oompi::ops::sum);
  if (rank == 0)
    std::printf("checkpoint of a %dx%d array on a %dx%d process grid: %s\n", ny, nx, dims[0],
                dims[1], total == 0 ? "restored exactly" : "MISMATCH");
  return total == 0 ? 0 : 1;
}
