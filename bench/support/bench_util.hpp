#ifndef OOMPI_BENCH_SUPPORT_BENCH_UTIL_HPP
#define OOMPI_BENCH_SUPPORT_BENCH_UTIL_HPP

// Support for C++ benchmark programs (see docs/bench.md for the conventions):
//  - options as --key=value (plus the ones bench/run.sh passes: --quick, --rounds, --first-round);
//  - result records as JSON lines on stdout, written by rank 0 after the measurements;
//  - the interleaving order of the systems compared in one round.
// Plain MPI and the standard library only, so that benches of any system can use it.

#include <mpi.h>
#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace oompi_bench {

/// Options given as --key=value or --flag (value "1").
class options {
public:
  options(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0) continue;  // MPI launchers may leave other words
      const auto eq = a.find('=');
      if (eq == std::string::npos)
        values_[a.substr(2)] = "1";
      else
        values_[a.substr(2, eq - 2)] = a.substr(eq + 1);
    }
  }
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  std::string get(const std::string& key, const std::string& fallback) const {
    const auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }
  long get_int(const std::string& key, long fallback) const {
    const auto it = values_.find(key);
    return it == values_.end() ? fallback : std::strtol(it->second.c_str(), nullptr, 10);
  }
  double get_double(const std::string& key, double fallback) const {
    const auto it = values_.find(key);
    return it == values_.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
  }
  /// A comma-separated list ("a,b,c"); `fallback` when absent.
  std::vector<std::string> get_list(const std::string& key,
                                    const std::vector<std::string>& fallback) const {
    const auto it = values_.find(key);
    if (it == values_.end()) return fallback;
    std::vector<std::string> out;
    std::stringstream ss(it->second);
    for (std::string item; std::getline(ss, item, ',');)
      if (!item.empty()) out.push_back(item);
    return out;
  }

private:
  std::map<std::string, std::string> values_;
};

/// A JSON value written as-is: numbers, or quoted strings via json_string().
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}
inline std::string json_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}
inline std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + json_string(items[i]);
  return out + "]";
}

/// One JSON object built field by field: record().str("bench", "x").num("value", 1.5).
class record {
public:
  record& str(const std::string& key, const std::string& value) {
    return raw(key, json_string(value));
  }
  record& num(const std::string& key, double value) { return raw(key, json_number(value)); }
  record& raw(const std::string& key, const std::string& json) {
    text_ += (text_.empty() ? "{" : ",") + json_string(key) + ":" + json;
    return *this;
  }
  std::string line() const { return text_.empty() ? "{}" : text_ + "}"; }

private:
  std::string text_;
};

/// Collects records during the run and prints them at the end (no I/O while measuring).
class sink {
public:
  void add(const record& r) { lines_.push_back(r.line()); }

  /// A measurement: one value of `metric` for `system` on `case_` in round `round`.
  void sample(const std::string& bench, const std::string& case_, const std::string& system,
              long round, const std::string& metric, double value) {
    add(record()
            .str("type", "sample")
            .str("bench", bench)
            .str("case", case_)
            .str("system", system)
            .num("round", static_cast<double>(round))
            .str("metric", metric)
            .num("value", value));
  }
  /// Prints everything collected (call on one rank only).
  void flush(std::FILE* out = stdout) {
    for (const auto& l : lines_) std::fprintf(out, "%s\n", l.c_str());
    std::fflush(out);
    lines_.clear();
  }

private:
  std::vector<std::string> lines_;
};

/// The order of `n` systems in round `round`: a shuffle seeded by the round, the same on every
/// rank. Shuffled rather than rotated, so that a periodic disturbance of the machine cannot
/// lock onto one system's place in the round.
inline std::vector<std::size_t> round_order(std::size_t n, long round) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937 gen(static_cast<std::mt19937::result_type>(round * 7919 + 17));
  for (std::size_t i = n; i > 1; --i) {  // Fisher-Yates; std::shuffle is not portable
    const std::size_t j = static_cast<std::size_t>(gen() % i);
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

/// Calls per block so that one block, `time_block(iters)` seconds, takes about `block_ms`: two
/// passes from 2 calls; rank 0 decides for every rank (MPI_COMM_WORLD).
template <class TimeBlock>
long calibrate_iters(double block_ms, TimeBlock&& time_block) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long iters = 2;
  for (int pass = 0; pass < 2; ++pass) {
    const double t = time_block(iters);
    long next = 1;
    if (rank == 0) {
      const double per = std::max(t / static_cast<double>(iters), 1e-8);
      next = std::clamp(static_cast<long>(std::ceil(block_ms * 1e-3 / per)), 1L, 100000L);
    }
    MPI_Bcast(&next, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    iters = next;
  }
  return iters;
}

/// The measuring loop of the benches that interleave systems round by round: round -1 warms
/// every system up (run_round(round, false): not recorded), then run_round(round, true) for
/// rounds first_round ... until `rounds` are done or, as rank 0 decides, max_seconds have passed.
/// Returns the rounds recorded; fewer than `rounds` are reported on stderr as "<name>: stopped".
template <class RunRound>
long run_rounds(const char* name, long rounds, long first_round, double max_seconds,
                RunRound&& run_round) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double start = MPI_Wtime();
  long done = 0;
  for (long r = -1; r < rounds; ++r) {
    if (r > 0) {
      int go = rank != 0 || MPI_Wtime() - start < max_seconds;
      MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (!go) break;
    }
    if (r >= 0) ++done;
    run_round(first_round + r, r >= 0);
  }
  if (rank == 0 && done < rounds)
    std::fprintf(stderr, "%s: stopped after %ld of %ld rounds (--max-seconds=%g)\n", name, done,
                 rounds, max_seconds);
  return done;
}

/// A system compared in one case of a bench: its name in the records, the code it times (label)
/// and run(iters), `iters` calls of that code.
struct system_entry {
  std::string name, label;
  std::function<void(long iters)> run;
};
/// One case of a bench (its name: usually the bytes moved), the systems compared in it and the
/// calls per timed block.
struct bench_case {
  std::string name;
  std::vector<system_entry> systems;
  long iters = 1;
};
/// One block: a barrier, then `iters` calls of s.run timed on this rank, in seconds.
inline double time_block(const system_entry& s, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  s.run(iters);
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

/// Measures benches made of bench_cases (Bench: any struct with `bench` and `cases`): every case
/// calibrated on its first system (the baseline) to blocks of about block_ms, then run_rounds
/// with each case's systems in round_order; rank 0 records time_us per call in `out`.
template <class Bench>
void measure_cases(const char* program, std::vector<Bench>& benches, double block_ms, long rounds,
                   long first_round, double max_seconds, sink& out) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (auto& b : benches)
    for (auto& c : b.cases)
      c.iters = calibrate_iters(block_ms,
                                [&](long iters) { return time_block(c.systems.front(), iters); });
  run_rounds(program, rounds, first_round, max_seconds, [&](long round, bool recorded) {
    for (const auto& b : benches)
      for (const auto& c : b.cases)
        for (const std::size_t k : round_order(c.systems.size(), round < 0 ? 0 : round)) {
          const double t = time_block(c.systems[k], c.iters);
          if (rank == 0 && recorded)
            out.sample(b.bench, c.name, c.systems[k].name, round, "time_us",
                       t / static_cast<double>(c.iters) * 1e6);
        }
  });
}

/// The MPI library's version, first line.
inline std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, static_cast<std::size_t>(len));
  const auto nl = v.find_first_of(std::string("\r\n\0", 3));
  return nl == std::string::npos ? v : v.substr(0, nl);
}

/// Keeps the compiler from optimising away a value.
template <class T>
inline void do_not_optimize(T const& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

/// Runs `run(opt)` on a thread with a 512 MiB stack (deep object graphs: recursive encoders of
/// the peers) and returns its exit code; an exception is printed as "<name>: <what>" and gives 1;
/// 3 when the thread cannot be made. The caller's thread only waits.
template <class Run>
int run_on_big_stack(const char* name, const options& opt, Run run) {
  struct args_t {
    const char* name;
    const options* opt;
    Run* run;
    int rc = 0;
  } args{name, &opt, &run};
  auto body = [](void* p) -> void* {
    auto* a = static_cast<args_t*>(p);
    try {
      a->rc = (*a->run)(*a->opt);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s: %s\n", a->name, e.what());
      a->rc = 1;
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{512} << 20);
  pthread_t t;
  const int made = pthread_create(&t, &attr, body, &args);
  pthread_attr_destroy(&attr);
  if (made != 0) return 3;
  pthread_join(t, nullptr);
  return args.rc;
}

}  // namespace oompi_bench

#endif  // OOMPI_BENCH_SUPPORT_BENCH_UTIL_HPP
