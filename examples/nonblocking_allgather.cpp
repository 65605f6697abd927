// A nonblocking allgather with a check (seed 000, Fig. 6): every rank fills MAXLEN ints with
// its rank, starts the allgather, does other work, waits, and checks every block.

#include <oompi/oompi.hpp>

#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int myself = world.rank(), tasks = world.size();
  constexpr int MAXLEN = 10000;

  std::vector<int> out(MAXLEN, myself);                  // fill the buffer with the rank
  std::vector<int> in(static_cast<std::size_t>(MAXLEN) * tasks);
  oompi::request request = world.iallgather(out, in);   // both buffers borrowed until done

  double work = 0;                                        // do other work here
  for (int i = 1; i < 100000; ++i) work += 1.0 / i;

  request.wait();  // no free(): the request is released with the object
  for (int i = 0; i < tasks; ++i)
    for (int k = 0; k < MAXLEN; ++k)
      if (in[k + static_cast<std::size_t>(i) * MAXLEN] != i) {
        std::fprintf(stderr, "rank %d: unexpected value at block %d, element %d\n", myself, i, k);
        return 1;
      }

  // the value-returning form owns its result: nothing to keep alive by hand
  auto all = world.iallgather(myself).get();
  for (int i = 0; i < tasks; ++i)
    if (all[i] != i) return 1;
  if (myself == 0) std::printf("allgather of %d x %d ints checked (work %.3f)\n", tasks, MAXLEN, work);
  return 0;
}
