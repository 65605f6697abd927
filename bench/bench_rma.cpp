// One-sided communication: raw C MPI and oompi side by side in one run (issue 15).
//
// Benches (baseline raw_c), each with an 8 B and a 4 MiB case:
//   rma_put   every rank puts its buffer into its partner's window (rank ^ 1), then a fence
//   rma_get   every rank gets its partner's window into its buffer, then a fence
// Each system has its own window of 4 MiB over its own memory (MPI_Win_create /
// oompi::window::create), made once. Each round runs, for every bench and case, one block of
// each system in an order shuffled every round; a block is a barrier, then `iters` operations
// each followed by a fence, timed on rank 0 (iters calibrated on raw C to about --block-ms).
// Metric: time per operation + fence (µs).
//
// Options: --rounds=N (300)  --first-round=R  --block-ms=T (0.5)  --max-seconds=S (120)  --quick

#include <oompi/oompi.hpp>

#include "support/bench_util.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace {

using oompi_bench::bench_case;  // a case: its systems (system_entry) and calls per block
using oompi_bench::system_entry;
struct bench_def {
  std::string bench, title;
  std::vector<bench_case> cases;
};

void emit_meta(oompi_bench::sink& out, const bench_def& b, const oompi_bench::options& opt,
               long rounds, double block_ms) {
  const std::string what = b.bench == "rma_put" ? "put" : "get";
  out.add(oompi_bench::record()
              .str("type", "meta")
              .str("bench", b.bench)
              .str("title", b.title)
              .str("baseline", "raw_c")
              .raw("systems", oompi_bench::json_list({"raw_c", "oompi"}))
              .raw("system_labels",
                   "{\"raw_c\":" + oompi_bench::json_string(b.cases[0].systems[0].label) +
                       ",\"oompi\":" + oompi_bench::json_string(b.cases[0].systems[1].label) + "}")
              .str("case_label", "message size")
              .str("case_format", "bytes")
              .raw("metrics",
                   "{\"time_us\":{\"label\":\"time per " + what +
                       " + fence\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}}")
              .raw("targets",
                   "[{\"metric\":\"time_us\",\"case\":\"8\",\"system\":\"oompi\",\"max_ratio\":1.02,"
                   "\"text\":\"issue 15: " + what + " + fence of 8 B within 2% of raw C\"},"
                   "{\"metric\":\"time_us\",\"case\":\"4194304\",\"system\":\"oompi\","
                   "\"max_ratio\":1.02,\"text\":\"issue 15: " + what +
                       " + fence of 4 MiB within 2% of raw C\"}]")
              .raw("params", "{\"rounds\":" + std::to_string(rounds) +
                                 ",\"block_ms\":" + oompi_bench::json_number(block_ms) +
                                 ",\"quick\":" + (opt.has("quick") ? "true" : "false") + "}")
              .str("mpi", oompi_bench::mpi_library_version())
              .raw("notes", oompi_bench::json_list(
                                {"Every rank " + what + (what == "put" ? "s to" : "s from") +
                                     " its partner (rank ^ 1), then all fence; one block = a barrier, then a run of operations of "
                                 "one system, timed on rank 0.",
                                 "Systems are interleaved block by block within each round, in an "
                                 "order shuffled every round; ratios are taken within a round and "
                                 "the median over rounds is reported."})));
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const oompi_bench::options opt(argc, argv);
  const auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  if (size % 2 != 0) {
    if (rank == 0) std::fprintf(stderr, "bench_rma: run with an even number of ranks\n");
    return 2;
  }
  const int peer = rank ^ 1;
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 300);
  const long first_round = opt.get_int("first-round", 0);
  const double block_ms = opt.get_double("block-ms", quick ? 0.2 : 0.5);
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 120);
  const std::size_t big = std::size_t{4} << 20;

  // Windows and origin buffers of each system, made once.
  std::vector<char> raw_mem(big, 'r'), oompi_mem(big, 'o');
  MPI_Win raw_win = MPI_WIN_NULL;
  MPI_Win_create(raw_mem.data(), static_cast<MPI_Aint>(big), 1, MPI_INFO_NULL, MPI_COMM_WORLD,
                 &raw_win);
  auto win = oompi::window::create(world, oompi_mem);
  std::vector<char> small_raw(8, 'a'), small_oompi(8, 'b'), big_raw(big, 'c'), big_oompi(big, 'd');
  MPI_Win_fence(0, raw_win);
  win.fence();

  auto make = [&](const std::string& name, bool is_put) {
    bench_def b{name, std::string(is_put ? "put" : "get") + " + fence, 2 partners", {}};
    for (int k = 0; k < 2; ++k) {
      std::vector<char>& rb = k == 0 ? small_raw : big_raw;
      std::vector<char>& ob = k == 0 ? small_oompi : big_oompi;
      bench_case c{std::to_string(rb.size()), {}, 1};
      std::vector<char>* rbp = &rb;
      std::vector<char>* obp = &ob;
      const oompi::window* w = &win;
      if (is_put) {
        c.systems.push_back({"raw_c", "MPI_Put(p, n, MPI_CHAR, peer, 0, n, MPI_CHAR, win); MPI_Win_fence(0, win)",
                             [=](long iters) {
                               const int n = static_cast<int>(rbp->size());
                               for (long i = 0; i < iters; ++i) {
                                 MPI_Put(rbp->data(), n, MPI_CHAR, peer, 0, n, MPI_CHAR, raw_win);
                                 MPI_Win_fence(0, raw_win);
                               }
                             }});
        c.systems.push_back({"oompi", "win.put(vec, peer, 0); win.fence()", [=](long iters) {
                               for (long i = 0; i < iters; ++i) {
                                 w->put(*obp, peer, 0);
                                 w->fence();
                               }
                             }});
      } else {
        c.systems.push_back({"raw_c", "MPI_Get(p, n, MPI_CHAR, peer, 0, n, MPI_CHAR, win); MPI_Win_fence(0, win)",
                             [=](long iters) {
                               const int n = static_cast<int>(rbp->size());
                               for (long i = 0; i < iters; ++i) {
                                 MPI_Get(rbp->data(), n, MPI_CHAR, peer, 0, n, MPI_CHAR, raw_win);
                                 MPI_Win_fence(0, raw_win);
                               }
                             }});
        c.systems.push_back({"oompi", "win.get(vec, peer, 0); win.fence()", [=](long iters) {
                               for (long i = 0; i < iters; ++i) {
                                 w->get(*obp, peer, 0);
                                 w->fence();
                               }
                             }});
      }
      b.cases.push_back(std::move(c));
    }
    return b;
  };
  std::vector<bench_def> benches = {make("rma_put", true), make("rma_get", false)};

  oompi_bench::sink out;
  if (rank == 0)
    for (const auto& b : benches) emit_meta(out, b, opt, rounds, block_ms);
  // Each case calibrated on its baseline (the first system): calls per block of about block_ms.
  oompi_bench::measure_cases("bench_rma", benches, block_ms, rounds, first_round, max_seconds, out);
  MPI_Win_free(&raw_win);
  if (rank == 0) out.flush();
  return 0;
}
