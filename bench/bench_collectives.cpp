// Collectives: raw C MPI, oompi and Boost.MPI side by side in one run (issue 3, item 7).
//
// Benches (each its own meta and baseline):
//   allreduce           8 B and 1 MiB of doubles, MPI_SUM          baseline raw_c
//   bcast               8 B and 1 MiB                              baseline raw_c
//   alltoall            8 B and 16 KiB per peer                    baseline raw_c
//   allreduce_user_op   a user sum on 8 B and 1 MiB of doubles     baseline c_user_op (the same
//                       function written for the C API: MPI_Op_create once, commutative)
//
// Each round runs, for every bench and case, one block of each system, in an order shuffled
// every round; a block is a barrier, then `iters` calls timed on rank 0 (iters calibrated on the
// baseline to about --block-ms). Metric: time per call (µs).
//
// Options: --rounds=N (300)  --first-round=R  --block-ms=T (0.5)  --max-seconds=S (120)
//          --only=allreduce,bcast,...  --quick

#include <oompi/oompi.hpp>

#include "support/bench_util.hpp"

#if defined(OOMPI_BENCH_HAVE_BOOST)
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/operations.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

// The user function of allreduce_user_op, written for the C API.
extern "C" void c_sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] + b[i];
}

#if defined(OOMPI_BENCH_HAVE_BOOST)
struct boost_sum {  // a user function object for Boost.MPI (it creates an MPI_Op per call)
  double operator()(double a, double b) const { return a + b; }
};
#endif

}  // namespace

#if defined(OOMPI_BENCH_HAVE_BOOST)
namespace boost::mpi {
template <>
struct is_commutative<boost_sum, double> : mpl::true_ {};
}  // namespace boost::mpi
#endif

namespace {

using oompi_bench::bench_case;  // a case: its systems (system_entry) and calls per block
using oompi_bench::system_entry;

struct bench_def {
  std::string bench, title, baseline, case_label, targets;
  std::vector<std::string> notes;
  std::vector<bench_case> cases;
};

struct buffers {
  std::vector<double> in, out;
  std::vector<char> bytes, bytes_out;
};

// The communicators of every system (MPI_COMM_WORLD), made once in main().
const oompi::intracommunicator* g_world = nullptr;
#if defined(OOMPI_BENCH_HAVE_BOOST)
const boost::mpi::communicator* g_bworld = nullptr;
#endif

// --- the benches ------------------------------------------------------------------------

bench_def make_allreduce(buffers& small, buffers& big) {
  bench_def b{"allreduce", "Allreduce (MPI_SUM on doubles)", "raw_c", "message size",
              "[{\"metric\":\"time_us\",\"case\":\"8\",\"system\":\"oompi\",\"max_ratio\":1.02,"
              "\"text\":\"issue 3: allreduce of 8 B within 2% of raw C\"}]",
              {"oompi (8 B): `double s = world.allreduce(x, oompi::ops::sum)`; oompi (1 MiB): "
               "`world.allreduce(in, out, oompi::ops::sum)` on std::vector<double>."},
              {}};
  {
    bench_case c{"8", {}, 1};
    double* x = &small.in[0];
    double* y = &small.out[0];
    c.systems.push_back({"raw_c", "MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, comm)", [=](long n) {
                           for (long i = 0; i < n; ++i) {
                             MPI_Allreduce(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                             oompi_bench::do_not_optimize(*y);
                           }
                         }});
    c.systems.push_back({"oompi", "double s = world.allreduce(x, oompi::ops::sum)", [=](long n) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < n; ++i) {
                             *y = wc.allreduce(*x, oompi::ops::sum);
                             oompi_bench::do_not_optimize(*y);
                           }
                         }});
    c.systems.push_back({"oompi_buffer", "world.allreduce(x, y, oompi::ops::sum)", [=](long n) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < n; ++i) {
                             wc.allreduce(*x, *y, oompi::ops::sum);
                             oompi_bench::do_not_optimize(*y);
                           }
                         }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
    c.systems.push_back({"boost", "boost::mpi::all_reduce(world, x, y, std::plus<double>())", [=](long n) {
                           const auto& bw = *g_bworld;
                           for (long i = 0; i < n; ++i) {
                             boost::mpi::all_reduce(bw, *x, *y, std::plus<double>());
                             oompi_bench::do_not_optimize(*y);
                           }
                         }});
#endif
    b.cases.push_back(std::move(c));
  }
  {
    bench_case c{std::to_string(big.in.size() * sizeof(double)), {}, 1};
    auto* in = &big.in;
    auto* out = &big.out;
    const int n = static_cast<int>(in->size());
    c.systems.push_back({"raw_c", "MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm)", [=](long k) {
                           for (long i = 0; i < k; ++i)
                             MPI_Allreduce(in->data(), out->data(), n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                         }});
    c.systems.push_back({"oompi", "world.allreduce(in, out, oompi::ops::sum)", [=](long k) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < k; ++i) wc.allreduce(*in, *out, oompi::ops::sum);
                         }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
    c.systems.push_back({"boost", "boost::mpi::all_reduce(world, in, n, out, std::plus<double>())", [=](long k) {
                           const auto& bw = *g_bworld;
                           for (long i = 0; i < k; ++i)
                             boost::mpi::all_reduce(bw, in->data(), n, out->data(), std::plus<double>());
                         }});
#endif
    b.cases.push_back(std::move(c));
  }
  return b;
}

bench_def make_bcast(buffers& small, buffers& big) {
  bench_def b{"bcast", "Broadcast from rank 0", "raw_c", "message size", "[]",
              {"oompi: `world.bcast(buf, 0)` on std::vector<char>."}, {}};
  for (auto* buf : {&small.bytes, &big.bytes}) {
    bench_case c{std::to_string(buf->size()), {}, 1};
    const int n = static_cast<int>(buf->size());
    c.systems.push_back({"raw_c", "MPI_Bcast(buf, n, MPI_CHAR, 0, comm)", [=](long k) {
                           for (long i = 0; i < k; ++i) MPI_Bcast(buf->data(), n, MPI_CHAR, 0, MPI_COMM_WORLD);
                         }});
    c.systems.push_back({"oompi", "world.bcast(buf, 0)", [=](long k) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < k; ++i) wc.bcast(*buf, 0);
                         }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
    c.systems.push_back({"boost", "boost::mpi::broadcast(world, ptr, n, 0)", [=](long k) {
                           const auto& bw = *g_bworld;
                           for (long i = 0; i < k; ++i) boost::mpi::broadcast(bw, buf->data(), n, 0);
                         }});
#endif
    b.cases.push_back(std::move(c));
  }
  return b;
}

bench_def make_alltoall(std::vector<char>& small_in, std::vector<char>& small_out,
                        std::vector<char>& big_in, std::vector<char>& big_out, int size) {
  bench_def b{"alltoall", "Alltoall", "raw_c", "block per peer", "[]",
              {"oompi: `world.alltoall(in, out)` on std::vector<char> of size() blocks."}, {}};
  for (auto [in, out] : {std::pair{&small_in, &small_out}, std::pair{&big_in, &big_out}}) {
    const int block = static_cast<int>(in->size()) / size;
    bench_case c{std::to_string(block), {}, 1};
    c.systems.push_back({"raw_c", "MPI_Alltoall(in, k, MPI_CHAR, out, k, MPI_CHAR, comm)", [=](long k) {
                           for (long i = 0; i < k; ++i)
                             MPI_Alltoall(in->data(), block, MPI_CHAR, out->data(), block, MPI_CHAR,
                                          MPI_COMM_WORLD);
                         }});
    c.systems.push_back({"oompi", "world.alltoall(in, out)", [=](long k) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < k; ++i) wc.alltoall(*in, *out);
                         }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
    c.systems.push_back({"boost", "boost::mpi::all_to_all(world, in, k, out)", [=](long k) {
                           const auto& bw = *g_bworld;
                           for (long i = 0; i < k; ++i) boost::mpi::all_to_all(bw, in->data(), block, out->data());
                         }});
#endif
    b.cases.push_back(std::move(c));
  }
  return b;
}

bench_def make_user_op(buffers& small, buffers& big, MPI_Op c_op, const oompi::op* kept) {
  bench_def b{"allreduce_user_op", "Allreduce with a user sum", "c_user_op", "message size",
              "[{\"metric\":\"time_us\",\"case\":\"8\",\"system\":\"oompi_lambda\",\"max_ratio\":1.05,"
              "\"text\":\"issue 3: allreduce(8 B) with a lambda op within 5% of the C-API user "
              "function\"},"
              "{\"metric\":\"time_us\",\"case\":\"1048576\",\"system\":\"oompi_lambda\",\"max_ratio\":1.05,"
              "\"text\":\"issue 3: allreduce(1 MiB) with a lambda op within 5% of the C-API user "
              "function\"}]",
              {"c_user_op: `void c_sum(void* in, void* inout, int* len, MPI_Datatype*)` given to "
               "MPI_Op_create once (commutative).",
               "oompi_lambda: `world.allreduce(x, y, oompi::commutative([](double a, double b) { "
               "return a + b; }))` in the loop (a stateless lambda: one trampoline per type, its "
               "MPI_Op made once).",
               "oompi_lambda_state: the same with a capture `[z](double a, double b) { return a + b "
               "+ z; }` (z = 0): the call goes through a thread-local frame.",
               "oompi_op: an oompi::op made once with make_op<double>(capturing lambda, true) (a "
               "trampoline slot).",
               "boost: Boost.MPI all_reduce with a function object (is_commutative): it creates and "
               "frees an MPI_Op in every call."},
              {}};
  for (auto* bufs : {&small, &big}) {
    auto* in = &bufs->in;
    auto* out = &bufs->out;
    const int n = static_cast<int>(in->size());
    bench_case c{std::to_string(in->size() * sizeof(double)), {}, 1};
    c.systems.push_back({"c_user_op", "MPI_Allreduce with MPI_Op_create(c_sum, 1, &op)", [=](long k) {
                           for (long i = 0; i < k; ++i)
                             MPI_Allreduce(in->data(), out->data(), n, MPI_DOUBLE, c_op, MPI_COMM_WORLD);
                         }});
    c.systems.push_back({"oompi_lambda", "world.allreduce(in, out, oompi::commutative(lambda))", [=](long k) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < k; ++i)
                             wc.allreduce(*in, *out, oompi::commutative([](double a, double b) { return a + b; }));
                         }});
    c.systems.push_back({"oompi_lambda_state", "the same with a capturing lambda", [=](long k) {
                           const auto& wc = *g_world;
                           const double z = 0.0;
                           for (long i = 0; i < k; ++i)
                             wc.allreduce(*in, *out, oompi::commutative([z](double a, double b) { return a + b + z; }));
                         }});
    c.systems.push_back({"oompi_op", "world.allreduce(in, out, op), op = make_op<double>(lambda, true)", [=](long k) {
                           const auto& wc = *g_world;
                           for (long i = 0; i < k; ++i) wc.allreduce(*in, *out, *kept);
                         }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
    c.systems.push_back({"boost", "boost::mpi::all_reduce(world, in, n, out, boost_sum())", [=](long k) {
                           const auto& bw = *g_bworld;
                           for (long i = 0; i < k; ++i) boost::mpi::all_reduce(bw, in->data(), n, out->data(), boost_sum());
                         }});
#endif
    b.cases.push_back(std::move(c));
  }
  return b;
}

void emit_meta(oompi_bench::sink& out, const bench_def& b, const oompi_bench::options& opt,
               long rounds, double block_ms, int ranks) {
  std::vector<std::string> names;
  std::string labels = "{";
  for (const auto& s : b.cases.front().systems) {
    names.push_back(s.name);
    labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(s.name) + ":" +
              oompi_bench::json_string(s.label);
  }
  labels += "}";
  auto notes = b.notes;
  notes.push_back("One block = a barrier, then a run of calls of one system on one case, timed on "
                  "rank 0; time per call = block time / calls. " +
                  std::to_string(ranks) + " ranks.");
  notes.push_back("Systems are interleaved block by block within each round, in an order shuffled "
                  "every round; ratios are taken within a round and the median over rounds is "
                  "reported.");
  const std::string params = "{\"rounds\":" + std::to_string(rounds) +
                             ",\"block_ms\":" + oompi_bench::json_number(block_ms) +
                             ",\"ranks\":" + std::to_string(ranks) +
                             ",\"quick\":" + (opt.has("quick") ? "true" : "false") + "}";
  out.add(oompi_bench::record()
              .str("type", "meta")
              .str("bench", b.bench)
              .str("title", b.title + " on " + std::to_string(ranks) + " ranks")
              .str("baseline", b.baseline)
              .raw("systems", oompi_bench::json_list(names))
              .raw("system_labels", labels)
              .str("case_label", b.case_label)
              .str("case_format", "bytes")
              .raw("metrics",
                   "{\"time_us\":{\"label\":\"time per call\",\"unit\":\"µs\",\"better\":\"lower\","
                   "\"plot\":\"loglog\"}}")
              .raw("targets", b.targets)
              .raw("params", params)
              .str("mpi", oompi_bench::mpi_library_version())
              .raw("notes", oompi_bench::json_list(notes)));
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const oompi_bench::options opt(argc, argv);
  const auto w = oompi::communicator::world();
  g_world = &w;
#if defined(OOMPI_BENCH_HAVE_BOOST)
  const boost::mpi::communicator bw;
  g_bworld = &bw;
#endif
  const int rank = w.rank(), size = w.size();
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 300);
  const long first_round = opt.get_int("first-round", 0);
  const double block_ms = opt.get_double("block-ms", quick ? 0.2 : 0.5);
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 120);
  const auto only = opt.get_list("only", {"allreduce", "bcast", "alltoall", "allreduce_user_op"});

  // The same buffers for every system.
  buffers small, big;
  small.in.assign(1, 1.0 + rank);
  small.out.assign(1, 0.0);
  small.bytes.assign(8, 'x');
  big.in.assign((1u << 20) / sizeof(double), 0.5 + rank);
  big.out.assign(big.in.size(), 0.0);
  big.bytes.assign(1u << 20, 'y');
  std::vector<char> a2a_small_in(8 * static_cast<std::size_t>(size), 'a'), a2a_small_out(a2a_small_in.size());
  std::vector<char> a2a_big_in(16384 * static_cast<std::size_t>(size), 'b'), a2a_big_out(a2a_big_in.size());

  MPI_Op c_op = MPI_OP_NULL;
  MPI_Op_create(&c_sum, 1, &c_op);
  const double z = 0.0;
  const oompi::op kept = oompi::make_op<double>([z](double a, double b) { return a + b + z; }, true);

  std::vector<bench_def> benches;
  auto wanted = [&](const char* name) { return std::find(only.begin(), only.end(), name) != only.end(); };
  if (wanted("allreduce")) benches.push_back(make_allreduce(small, big));
  if (wanted("bcast")) benches.push_back(make_bcast(small, big));
  if (wanted("alltoall")) benches.push_back(make_alltoall(a2a_small_in, a2a_small_out, a2a_big_in, a2a_big_out, size));
  if (wanted("allreduce_user_op")) benches.push_back(make_user_op(small, big, c_op, &kept));

  oompi_bench::sink out;
  if (rank == 0)
    for (const auto& b : benches) emit_meta(out, b, opt, rounds, block_ms, size);
  // Each case calibrated on its baseline (the first system): calls per block of about block_ms.
  oompi_bench::measure_cases("bench_collectives", benches, block_ms, rounds, first_round, max_seconds, out);
  MPI_Op_free(&c_op);
  if (rank == 0) out.flush();
  return 0;
}
