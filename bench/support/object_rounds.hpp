// The measuring loop the two-rank object benches share (bench_objects --which=list,
// bench_object_graphs): systems compared block by block, interleaved, order shuffled every
// round; round trips on both ranks, then encode + decode on rank 0 alone while rank 1 sleeps.
#pragma once

#include "bench_util.hpp"

#include <oompi/serialization.hpp>

#if defined(OOMPI_BENCH_HAVE_BOOST)
#include <boost/mpi/communicator.hpp>
#endif
#include <mpi.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace oompi_bench {

/// The two ranks of an object bench: this one, the other one, and the communicators.
struct pair_context {
  int rank = 0, peer = 0;
  oompi::intracommunicator world;
#if defined(OOMPI_BENCH_HAVE_BOOST)
  boost::mpi::communicator bworld;
#endif
  /// False (with a message from rank 0) unless the job has exactly 2 ranks.
  bool open(const char* program) {
    world = oompi::communicator::world();
    rank = world.rank();
    peer = 1 - rank;
    if (world.size() == 2) return true;
    if (rank == 0) std::fprintf(stderr, "%s: run with 2 ranks\n", program);
    return false;
  }
};

/// Receives the next message from `peer` (tag 0), whatever its length, into `in` (resized).
template <class V>
void recv_any_size(int peer, MPI_Datatype type, V& in) {
  MPI_Message msg;
  MPI_Status st;
  MPI_Mprobe(peer, 0, MPI_COMM_WORLD, &msg, &st);
  int n = 0;
  MPI_Get_count(&st, type, &n);
  in.resize(static_cast<std::size_t>(n));
  MPI_Mrecv(in.data(), n, type, &msg, MPI_STATUS_IGNORE);
}

/// One system of an object bench: a state holding rank 0's value and what was last received.
template <class Context>
struct object_system {
  const char* name;
  const char* label;
  std::function<void(Context&, int n)> setup;  // rank 0 builds its value
  std::function<void(Context&)> round_trip;
  std::function<void()> local;       // rank 0: encode its value and decode it, no MPI
  std::function<bool(int n)> check;  // rank 0: what came back last is right
  std::function<void()> teardown;
};

/// The systems --systems names (all by default), in that order.
template <class System>
std::vector<System*> select_systems(std::vector<System>& all, const options& opt) {
  std::vector<std::string> names;
  for (auto& s : all) names.push_back(s.name);
  std::vector<System*> out;
  for (const auto& name : opt.get_list("systems", names))
    for (auto& s : all)
      if (name == s.name) out.push_back(&s);
  return out;
}

template <class Context>
double time_block(Context& c, object_system<Context>& s, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; ++i) s.round_trip(c);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
template <class Context>
double time_local(object_system<Context>& s, long iters) {
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; ++i) s.local();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Rank 1 waits without spinning while rank 0 runs the local blocks (a busy MPI wait would take
/// a core from rank 0 on a small machine).
inline void polite_barrier() {
  MPI_Request r;
  MPI_Ibarrier(MPI_COMM_WORLD, &r);
  for (int done = 0;;) {
    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
    if (done) break;
    struct timespec ts{0, 200000};
    nanosleep(&ts, nullptr);
  }
}

struct round_options {
  long rounds;
  long first_round;
  double block_ms;     // each block runs about this long (calibrated on the first system)
  double max_seconds;  // for all sizes; each size gets its share
};

/// Measures every system at every size. On rank 0, `sample(n, k, round, roundtrip_s, local_s)`
/// receives system k's seconds per round trip and per local encode + decode, and
/// `failed(system, n)` each system whose value came back wrong. Returns false if one did.
template <class Context, class Sample, class Failed>
bool run_rounds(Context& c, const std::vector<object_system<Context>*>& systems,
                const std::vector<int>& sizes, const round_options& o, Sample sample,
                Failed failed) {
  const auto iterations = [&](double two_runs) {
    return std::clamp(static_cast<long>(std::ceil(o.block_ms * 1e-3 / std::max(two_runs / 2, 1e-7))),
                      1L, 100000L);
  };
  bool ok = true;
  const double start = MPI_Wtime();
  for (std::size_t si = 0; si < sizes.size(); ++si) {
    const int n = sizes[si];
    for (auto* s : systems) s->setup(c, n);
    long iters = iterations(time_block(c, *systems.front(), 2)), local_iters = 1;
    MPI_Bcast(&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (c.rank == 0) {
      local_iters = iterations(time_local(*systems.front(), 2));
      for (auto* s : systems) time_local(*s, 1);  // warm-up
    }
    polite_barrier();
    for (auto* s : systems) time_block(c, *s, 1);  // warm-up
    for (long r = 0; r < o.rounds; ++r) {
      int go = c.rank != 0 || MPI_Wtime() - start < o.max_seconds * static_cast<double>(si + 1) /
                                                        static_cast<double>(sizes.size());
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (!go) break;
      const long round = o.first_round + r;
      std::vector<double> per(systems.size(), 0), loc(systems.size(), 0);
      for (const std::size_t k : round_order(systems.size(), round))
        per[k] = time_block(c, *systems[k], iters) / static_cast<double>(iters);
      if (c.rank == 0)
        for (const std::size_t k : round_order(systems.size(), round + 1000))
          loc[k] = time_local(*systems[k], local_iters) / static_cast<double>(local_iters);
      polite_barrier();
      if (c.rank != 0) continue;
      for (std::size_t k = 0; k < systems.size(); ++k) sample(n, k, round, per[k], loc[k]);
    }
    if (c.rank == 0)
      for (auto* s : systems)
        if (!s->check(n)) {
          ok = false;
          failed(*s, n);
        }
    for (auto* s : systems) s->teardown();
  }
  return ok;
}

}  // namespace oompi_bench
