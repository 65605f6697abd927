// Ping-pong between ranks 0 and 1: raw C MPI, oompi and Boost.MPI side by side in one run.
//
// --mode=time (default): each round runs, for every message size, one block of round trips
// per system, in an order rotated from round to round; rank 0 times each block. Records: one
// sample per (round, size, system) of one-way latency (µs) and bandwidth (MB/s).
//
// --mode=count: for bench/callgrind.sh, under `valgrind --tool=callgrind --collect-atstart=no
// --toggle-collect=bench_measured_*`. Instructions are collected only inside the
// bench_measured_* functions (one send or one receive each); the wait for the peer's message
// is done before, outside them, with MPI_Iprobe, so spinning does not count. One callgrind
// dump per system (CALLGRIND_DUMP_STATS_AT("<system>")).
//
// Options: --sizes=1,8,... (bytes)  --systems=raw_c,oompi,...  --rounds=N  --first-round=R
//          --block-ms=T (target time of one block)  --small-max=BYTES (raw_c_status, oompi_port)  --quick  --iters=N (count)
//          --max-seconds=S (stop after the round that passes S seconds)
//          --bench-name=NAME (to be the raw C peer of a bench in another language)
//          --rename=raw_c:raw_c_copy_in_out,... (report a system under another name: the same code
//          run under another MPI setting, as the pingpong_bandwidth group does)

#include <oompi/oompi.hpp>

#include "support/bench_util.hpp"

#if defined(OOMPI_BENCH_HAVE_BOOST)
#include <boost/mpi/communicator.hpp>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define OOMPI_BENCH_HAVE_CALLGRIND 1
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct context {
  int rank = 0;
  int peer = 0;
  oompi::intracommunicator world;
#if defined(OOMPI_BENCH_HAVE_BOOST)
  boost::mpi::communicator bworld;  // MPI_COMM_WORLD, attached
#endif
};

// Each system: send(c, buf) and recv(c, buf) of buf.size() bytes to/from the peer, tag 0,
// spelled the way a user of that system writes it.

struct raw_c {
  static void send(context& c, std::vector<char>& buf) {
    MPI_Send(buf.data(), static_cast<int>(buf.size()), MPI_CHAR, c.peer, 0, MPI_COMM_WORLD);
  }
  static void recv(context& c, std::vector<char>& buf) {
    MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_CHAR, c.peer, 0, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
};

// Raw C that asks for the status, as oompi's recv (which returns it) does.
struct raw_c_status {
  static void send(context& c, std::vector<char>& buf) { raw_c::send(c, buf); }
  static void recv(context& c, std::vector<char>& buf) {
    MPI_Status st;
    MPI_Recv(buf.data(), static_cast<int>(buf.size()), MPI_CHAR, c.peer, 0, MPI_COMM_WORLD, &st);
    oompi_bench::do_not_optimize(st);
  }
};

struct oompi_comm {
  static void send(context& c, std::vector<char>& buf) { c.world.send(buf, c.peer, 0); }
  static void recv(context& c, std::vector<char>& buf) { c.world.recv(buf, c.peer, 0); }
};

// oompi with the receive guard on at run time (environment::set_receive_guard(true) during the
// system's blocks and measured calls, on both ranks): the guard's cost within one run, where
// the environment found the MPI safe and turned it off (receive_protection() "mpi").
struct oompi_guarded {
  static void send(context& c, std::vector<char>& buf) { c.world.send(buf, c.peer, 0); }
  static void recv(context& c, std::vector<char>& buf) { c.world.recv(buf, c.peer, 0); }
};
struct guard_on {
  const bool was = oompi::environment::receive_guard();
  guard_on() { oompi::environment::set_receive_guard(true); }
  ~guard_on() { oompi::environment::set_receive_guard(was); }
};

struct oompi_port {
  static void send(context& c, std::vector<char>& buf) { c.world[c.peer] << buf; }
  static void recv(context& c, std::vector<char>& buf) { c.world[c.peer] >> buf; }
};

#if defined(OOMPI_BENCH_HAVE_BOOST)
struct boost_array {
  static void send(context& c, std::vector<char>& buf) {
    c.bworld.send(c.peer, 0, buf.data(), static_cast<int>(buf.size()));
  }
  static void recv(context& c, std::vector<char>& buf) {
    c.bworld.recv(c.peer, 0, buf.data(), static_cast<int>(buf.size()));
  }
};
struct boost_vector {
  static void send(context& c, std::vector<char>& buf) { c.bworld.send(c.peer, 0, buf); }
  static void recv(context& c, std::vector<char>& buf) { c.bworld.recv(c.peer, 0, buf); }
};
#endif

// Timed block: `iters` round trips (after one untimed one for messages up to 64 KiB, so that
// the system's code is in the caches); rank 0 returns the seconds.
template <class S>
double time_block(context& c, std::vector<char>& buf, long iters) {
  using clock = std::chrono::steady_clock;
  const long warm = buf.size() <= 65536 ? 1 : 0;
  if (c.rank == 0) {
    for (long i = 0; i < warm; ++i) {
      S::send(c, buf);
      S::recv(c, buf);
    }
    const auto t0 = clock::now();
    for (long i = 0; i < iters; ++i) {
      S::send(c, buf);
      S::recv(c, buf);
    }
    const auto t1 = clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  }
  for (long i = 0; i < iters + warm; ++i) {
    S::recv(c, buf);
    S::send(c, buf);
  }
  return 0.0;
}

// The functions callgrind collects in (--toggle-collect=bench_measured_*): extern "C" and
// never inlined so that their names are plain and every system pays the same call.
#define OOMPI_BENCH_MEASURED(name, S)                                                         \
  extern "C" __attribute__((noinline)) void bench_measured_##name##_send(                    \
      context& c, std::vector<char>& buf) {                                                  \
    S::send(c, buf);                                                                          \
  }                                                                                           \
  extern "C" __attribute__((noinline)) void bench_measured_##name##_recv(                    \
      context& c, std::vector<char>& buf) {                                                  \
    S::recv(c, buf);                                                                          \
  }

OOMPI_BENCH_MEASURED(raw_c, raw_c)
OOMPI_BENCH_MEASURED(raw_c_status, raw_c_status)
OOMPI_BENCH_MEASURED(oompi, oompi_comm)
OOMPI_BENCH_MEASURED(oompi_port, oompi_port)
#if defined(OOMPI_BENCH_HAVE_BOOST)
OOMPI_BENCH_MEASURED(boost, boost_array)
OOMPI_BENCH_MEASURED(boost_vector, boost_vector)
#endif

template <>
double time_block<oompi_guarded>(context& c, std::vector<char>& buf, long iters) {
  const guard_on on;
  return time_block<oompi_comm>(c, buf, iters);
}
extern "C" __attribute__((noinline)) void bench_measured_oompi_guarded_send(
    context& c, std::vector<char>& buf) {
  oompi_guarded::send(c, buf);
}
extern "C" __attribute__((noinline)) void bench_measured_oompi_guarded_recv(
    context& c, std::vector<char>& buf) {
  const guard_on on;  // a lock and two stores more than oompi's receive
  oompi_guarded::recv(c, buf);
}

using block_fn = double (*)(context&, std::vector<char>&, long);
using op_fn = void (*)(context&, std::vector<char>&);

struct system_entry {
  const char* name;
  const char* label;
  block_fn timed;
  op_fn measured_send;
  op_fn measured_recv;
  bool small_only;  // only for sizes <= --small-max
};

const std::vector<system_entry>& all_systems() {
  static const std::vector<system_entry> systems = {
      {"raw_c", "raw C (MPI_Send/MPI_Recv, MPI_STATUS_IGNORE)", time_block<raw_c>,
       bench_measured_raw_c_send, bench_measured_raw_c_recv, false},
      {"raw_c_status", "raw C, MPI_Recv with an MPI_Status", time_block<raw_c_status>,
       bench_measured_raw_c_status_send, bench_measured_raw_c_status_recv, true},
      {"oompi", "oompi world.send(vec, peer, 0) / world.recv(vec, peer, 0)",
       time_block<oompi_comm>, bench_measured_oompi_send, bench_measured_oompi_recv, false},
      {"oompi_port", "oompi world[peer] << vec / world[peer] >> vec", time_block<oompi_port>,
       bench_measured_oompi_port_send, bench_measured_oompi_port_recv, true},
      {"oompi_guarded", "oompi, receive guard on (environment::set_receive_guard(true))",
       time_block<oompi_guarded>, bench_measured_oompi_guarded_send,
       bench_measured_oompi_guarded_recv, true},
#if defined(OOMPI_BENCH_HAVE_BOOST)
      {"boost", "Boost.MPI world.send(peer, 0, ptr, n) / recv(peer, 0, ptr, n)",
       time_block<boost_array>, bench_measured_boost_send, bench_measured_boost_recv, false},
      {"boost_vector", "Boost.MPI world.send(peer, 0, vec) / recv(peer, 0, vec)",
       time_block<boost_vector>, bench_measured_boost_vector_send,
       bench_measured_boost_vector_recv, false},
#endif
  };
  return systems;
}

std::vector<const system_entry*> chosen_systems(const oompi_bench::options& opt) {
  std::vector<std::string> def;
  for (const auto& s : all_systems()) def.push_back(s.name);
  std::vector<const system_entry*> out;
  for (const auto& name : opt.get_list("systems", def)) {
    const auto it = std::find_if(all_systems().begin(), all_systems().end(),
                                 [&](const system_entry& s) { return name == s.name; });
    if (it == all_systems().end()) {
      std::fprintf(stderr, "pingpong: unknown system '%s' (not built?)\n", name.c_str());
      continue;
    }
    out.push_back(&*it);
  }
  return out;
}

std::vector<long> chosen_sizes(const oompi_bench::options& opt) {
  std::vector<std::string> def;
  if (opt.has("quick")) {
    def = {"1", "8", "1024", "65536", "4194304"};
  } else {
    // Powers of 4 from 1 B to 4 MiB, plus 8 B (the latency target of issue 2).
    for (long s = 1; s <= (4L << 20); s *= 4) {
      def.push_back(std::to_string(s));
      if (s == 4) def.push_back("8");
    }
  }
  std::vector<long> out;
  for (const auto& s : opt.get_list("sizes", def)) out.push_back(std::stol(s));
  return out;
}

// --rename=old:new,...: the name a system's samples are reported under.
std::string reported_name(const oompi_bench::options& opt, const std::string& name) {
  for (const auto& pair : opt.get_list("rename", {})) {
    const auto colon = pair.find(':');
    if (colon != std::string::npos && pair.compare(0, colon, name) == 0 && colon == name.size())
      return pair.substr(colon + 1);
  }
  return name;
}

// The targets a bench is judged by: the 8-byte latency of issue 2 for the ping-pong; for the
// pingpong_bandwidth group, oompi's bandwidth against raw C under Open MPI's defaults.
std::string targets_json(const std::string& bench) {
  if (bench == "pingpong_bandwidth") {
    std::string t = "[";
    for (const char* size : {"65536", "1048576", "4194304", "67108864"})
      t += std::string(t.size() > 1 ? "," : "") +
           "{\"metric\":\"bandwidth_MBps\",\"case\":\"" + size +
           "\",\"system\":\"oompi\",\"min_ratio\":0.95,\"text\":\"oompi (copy in/out, as "
           "oompi sets Open MPI) >= 0.95x raw C with Open MPI's defaults (single copy)\"}";
    return t + "]";
  }
  return "[{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"oompi\","
         "\"max_ratio\":1.01,\"text\":\"issue 2: 8-byte latency within 1% of raw C\"},"
         "{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"oompi_port\","
         "\"max_ratio\":1.01,\"text\":\"issue 2: 8-byte latency within 1% of raw C "
         "(port spelling)\"}]";
}

void emit_meta(oompi_bench::sink& out, const std::string& bench,
               const std::vector<const system_entry*>& systems, const oompi_bench::options& opt,
               long rounds, double block_ms, long small_max) {
  std::vector<std::string> names;
  std::string labels = "{";
  for (const auto* s : systems) {
    const std::string name = reported_name(opt, s->name);
    std::string label = s->label;
    if (name != s->name) label += " [" + name + "]";
    names.push_back(name);
    labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(name) +
              ":" + oompi_bench::json_string(label);
  }
  labels += "}";
  std::string params = "{\"rounds\":" + std::to_string(rounds) +
                       ",\"block_ms\":" + oompi_bench::json_number(block_ms) +
                       ",\"small_max\":" + std::to_string(small_max) +
                       ",\"quick\":" + (opt.has("quick") ? "true" : "false") + "}";
  out.add(oompi_bench::record()
              .str("type", "meta")
              .str("bench", bench)
              .str("title", "Ping-pong between 2 ranks")
              .str("baseline", "raw_c")
              .raw("systems", oompi_bench::json_list(names))
              .raw("system_labels", labels)
              .str("case_label", "message size")
              .str("case_format", "bytes")
              .raw("metrics",
                   "{\"latency_us\":{\"label\":\"one-way latency\",\"unit\":\"µs\","
                   "\"better\":\"lower\",\"plot\":\"loglog\"},"
                   "\"bandwidth_MBps\":{\"label\":\"bandwidth\",\"unit\":\"MB/s\","
                   "\"better\":\"higher\",\"plot\":\"logx\"}}")
              .raw("targets", targets_json(bench))
              .raw("params", params)
              .str("mpi", oompi_bench::mpi_library_version())
              .raw("notes",
                   oompi_bench::json_list(
                       {"One block = a run of round trips of one system at one size, timed on "
                        "rank 0; latency = block time / (2 × round trips), bandwidth = size / "
                        "latency.",
                        "Systems are interleaved block by block within each round, in an order "
                        "shuffled every round; ratios are taken within a round and the median over "
                        "rounds is reported."})));
}

int run_timed(context& c, const oompi_bench::options& opt) {
  const std::string bench = opt.get("bench-name", "pingpong");
  const auto systems = chosen_systems(opt);
  const auto sizes = chosen_sizes(opt);
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 600);
  const long first_round = opt.get_int("first-round", 0);
  // Short blocks: a slow phase of the machine (milliseconds) then hits neighbouring blocks of
  // different systems alike, and their ratio survives it.
  const double block_ms = opt.get_double("block-ms", quick ? 0.1 : 0.2);
  const long small_max = opt.get_int("small-max", 4096);
  if (systems.empty() || sizes.empty()) return 2;

  std::vector<std::vector<char>> bufs;
  for (const long s : sizes) bufs.emplace_back(static_cast<std::size_t>(s), 'x');

  // Calibration on the first system (raw C by default): round trips per block so that a block
  // takes about block_ms. Rank 0 decides and tells rank 1.
  std::vector<long> iters(sizes.size(), 1);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const long probe = pass == 0 ? 4 : std::max(4L, iters[i] / 4);
      const double t = systems.front()->timed(c, bufs[i], probe);
      if (c.rank == 0) {
        const double per_rt = std::max(t / static_cast<double>(probe), 1e-8);
        iters[i] = std::clamp(static_cast<long>(std::ceil(block_ms * 1e-3 / per_rt)), 1L, 100000L);
      }
    }
    MPI_Bcast(iters.data(), static_cast<int>(iters.size()), MPI_LONG, 0, MPI_COMM_WORLD);
  }

  oompi_bench::sink out;
  if (c.rank == 0) emit_meta(out, bench, systems, opt, rounds, block_ms, small_max);

  // One unrecorded round warms every system up, then the recorded rounds, until `rounds` or
  // --max-seconds (rank 0 decides, so that both ranks stop after the same round).
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 120);
  const double start = MPI_Wtime();
  long done = 0;
  for (long r = -1; r < rounds; ++r) {
    if (r > 0) {
      int go = c.rank != 0 || MPI_Wtime() - start < max_seconds;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (!go) break;
    }
    const long round = first_round + r;
    if (r >= 0) ++done;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      std::vector<const system_entry*> here;
      for (const auto* s : systems)
        if (!s->small_only || sizes[i] <= small_max) here.push_back(s);
      for (const std::size_t k : oompi_bench::round_order(here.size(), round < 0 ? 0 : round)) {
        const double t = here[k]->timed(c, bufs[i], iters[i]);
        if (c.rank != 0 || r < 0) continue;
        const double one_way = t / (2.0 * static_cast<double>(iters[i]));
        const std::string size = std::to_string(sizes[i]);
        const std::string name = reported_name(opt, here[k]->name);
        out.sample(bench, size, name, round, "latency_us", one_way * 1e6);
        out.sample(bench, size, name, round, "bandwidth_MBps",
                   static_cast<double>(sizes[i]) / one_way / 1e6);
      }
    }
  }
  if (c.rank == 0) {
    if (done < rounds)
      std::fprintf(stderr, "pingpong: stopped after %ld of %ld rounds (--max-seconds=%g)\n", done,
                   rounds, max_seconds);
    out.flush();
  }
  return 0;
}

int run_counted(context& c, const oompi_bench::options& opt) {
#if defined(OOMPI_BENCH_HAVE_CALLGRIND)
  const auto systems = chosen_systems(opt);
  const long size = opt.get_int("size", 8);
  const long n = opt.get_int("iters", 2000);
  std::vector<char> buf(static_cast<std::size_t>(size), 'x');
  auto wait_for_message = [&] {
    int flag = 0;
    while (!flag) MPI_Iprobe(c.peer, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  };
  auto round_trips = [&](const system_entry& s, long count) {
    for (long i = 0; i < count; ++i) {
      if (c.rank == 0) {
        s.measured_send(c, buf);
        wait_for_message();
        s.measured_recv(c, buf);
      } else {
        wait_for_message();
        s.measured_recv(c, buf);
        s.measured_send(c, buf);
      }
    }
  };
  if (c.rank == 0) {
    std::vector<std::string> names;
    for (const auto* s : systems) names.push_back(s->name);
    oompi_bench::sink out;
    out.add(oompi_bench::record()
                .str("type", "count-run")
                .raw("systems", oompi_bench::json_list(names))
                .num("size", static_cast<double>(size))
                .num("iters", static_cast<double>(n))
                .str("mpi", oompi_bench::mpi_library_version()));
    out.flush();
  }
  for (const auto* s : systems) {
    round_trips(*s, 200);  // warm-up, then forgotten
    MPI_Barrier(MPI_COMM_WORLD);
    CALLGRIND_ZERO_STATS;
    round_trips(*s, n);
    CALLGRIND_DUMP_STATS_AT(s->name);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return 0;
#else
  (void)c;
  (void)opt;
  if (c.rank == 0) std::fprintf(stderr, "pingpong: built without valgrind/callgrind.h\n");
  return 3;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const oompi_bench::options opt(argc, argv);
  context c;
  c.world = oompi::communicator::world();
  c.rank = c.world.rank();
  if (c.world.size() != 2) {
    if (c.rank == 0) std::fprintf(stderr, "pingpong: run with exactly 2 ranks\n");
    return 2;
  }
  c.peer = 1 - c.rank;
  const std::string mode = opt.get("mode", "time");
  if (mode == "count") return run_counted(c, opt);
  return run_timed(c, opt);
}
