// oompi under load. Run by scripts/stress.sh at 2 and 4 ranks; not in the CTest suite (it takes
// minutes and, for `large`, 2.5 GiB of memory per rank).
//
//   stress requests [--count N]    N (10000) isends and N irecvs outstanding at once on every
//                                  rank, three ways: wait_all over all of them, wait_some with a
//                                  check of each completion, and N object sends (iosend) with N
//                                  object receives (iorecv) pending
//   stress large [--bytes B]       one message of B bytes (2.5 GiB + 5) rank 0 -> 1 and one bcast
//                                  of B bytes from rank 0: more than INT_MAX elements, so oompi's
//                                  large-count path (one element of a derived type); checksummed
//   stress soak [--seconds S] [--max-bytes B] [--seed X]
//                                  for S seconds (180), rounds of random kinds: byte messages of
//                                  random size (0 to B, 8 MiB, log-uniform) along a random
//                                  permutation, byte bcasts, object graphs (OOMPI_TRANSPORTABLE,
//                                  shared and cyclic references) sent point to point, obcast and
//                                  oallgather. Every receipt is checked against a checksum the
//                                  sender computed (and graphs for their sharing); prints the
//                                  messages, bytes and graphs soaked
//
// Every mode prints its figures and the peak RSS of the ranks; any mismatch is printed and the
// exit code is then 1 on every rank.
#include <oompi/serialization.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace stress {

struct vertex {
  std::int64_t id = 0;  // its index in graph::vertices
  std::string label;
  std::vector<std::uint8_t> payload;
  std::vector<std::shared_ptr<vertex>> edges;  // to any vertex, itself included: shared, cyclic
};
OOMPI_TRANSPORTABLE(vertex, id, label, payload, edges);

struct graph {
  std::vector<std::shared_ptr<vertex>> vertices;
  std::uint64_t checksum = 0;  // of the vertices, by sum_of below
};
OOMPI_TRANSPORTABLE(graph, vertices, checksum);

}  // namespace stress

namespace {

using stress::graph;
using stress::vertex;
using bytes_t = std::vector<unsigned char>;

// Order-sensitive (a misplaced block changes it), 8 bytes at a time.
struct hasher {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void word(std::uint64_t w) {
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    word(n);
    std::size_t i = 0;
    for (std::uint64_t w; i + 8 <= n; i += 8) {
      std::memcpy(&w, p + i, 8);
      word(w);
    }
    for (; i < n; ++i) word(p[i]);
  }
};
std::uint64_t checksum(const bytes_t& b) {
  hasher x;
  x.bytes(b.data(), b.size());
  return x.h;
}

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
void fill(bytes_t& b, std::uint64_t seed) {
  std::size_t i = 0;
  for (std::uint64_t k = 0; i + 8 <= b.size(); i += 8, ++k) {
    const std::uint64_t w = splitmix(seed + k);
    std::memcpy(b.data() + i, &w, 8);
  }
  for (; i < b.size(); ++i) b[i] = static_cast<unsigned char>(splitmix(seed ^ i));
}

// Sizes from 0 to max, log-uniform: mostly small, now and then several MiB.
std::size_t random_size(std::mt19937_64& rng, std::size_t max) {
  const double e = std::uniform_real_distribution<double>(0, std::log(double(max) + 1))(rng);
  return std::min(max, static_cast<std::size_t>(std::exp(e)) - 1);
}

std::uint64_t sum_of(const graph& g) {
  hasher x;
  x.word(g.vertices.size());
  for (const auto& v : g.vertices) {
    x.word(static_cast<std::uint64_t>(v->id));
    x.bytes(v->label.data(), v->label.size());
    x.bytes(v->payload.data(), v->payload.size());
    x.word(v->edges.size());
    for (const auto& e : v->edges) x.word(e ? static_cast<std::uint64_t>(e->id) : ~0ull);
  }
  return x.h;
}

graph make_graph(std::mt19937_64& rng, std::size_t max_vertices) {
  graph g;
  const std::size_t n = std::uniform_int_distribution<std::size_t>(0, max_vertices)(rng);
  for (std::size_t i = 0; i < n; ++i) {
    auto v = std::make_shared<vertex>();
    v->id = static_cast<std::int64_t>(i);
    v->label = std::string(rng() % 24, static_cast<char>('a' + rng() % 26));
    v->payload.resize(random_size(rng, 4096));
    for (auto& b : v->payload) b = static_cast<std::uint8_t>(rng());
    g.vertices.push_back(std::move(v));
  }
  for (auto& v : g.vertices)
    for (std::size_t k = rng() % 5; k-- > 0;)
      v->edges.push_back(rng() % 8 ? g.vertices[rng() % n] : nullptr);
  g.checksum = sum_of(g);
  return g;
}

// The checksum matches and every edge is the very vertex it names (shared, not a copy).
bool intact(const graph& g) {
  for (std::size_t i = 0; i < g.vertices.size(); ++i) {
    const auto& v = g.vertices[i];
    if (!v || v->id != static_cast<std::int64_t>(i)) return false;
    for (const auto& e : v->edges)
      if (e && (e->id < 0 || static_cast<std::size_t>(e->id) >= g.vertices.size() ||
                g.vertices[static_cast<std::size_t>(e->id)] != e))
        return false;
  }
  return sum_of(g) == g.checksum;
}

void dismantle(graph& g) {  // the cycles would leak
  for (auto& v : g.vertices)
    if (v) v->edges.clear();
  g.vertices.clear();
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024;
}

std::uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  unsigned long long kib = 0;
  while (std::getline(in, line))
    if (std::sscanf(line.c_str(), "MemAvailable: %llu kB", &kib) == 1) return kib * 1024;
  return 0;
}

struct options {
  std::string mode;
  std::size_t count = 10000;
  std::size_t bytes = (std::size_t{5} << 29) + 5;  // 2.5 GiB + 5
  double seconds = 180;
  std::size_t max_bytes = std::size_t{8} << 20;
  std::uint64_t seed = 1;
};

class runner {
public:
  explicit runner(const options& o) : o_(o), w_(oompi::communicator::world()) {
    r_ = w_.rank();
    n_ = w_.size();
  }

  int run() {
    if (o_.mode == "requests") requests();
    else if (o_.mode == "large") large();
    else if (o_.mode == "soak") soak();
    else {
      if (r_ == 0) std::fprintf(stderr, "stress: mode is requests, large or soak\n");
      return 2;
    }
    const long bad = w_.allreduce(bad_, oompi::ops::sum);
    const double rss = w_.reduce(peak_rss_mib(), oompi::ops::max, 0);
    if (r_ == 0) {
      std::printf("stress %s: %s at %d ranks; peak RSS of a rank %.0f MiB\n", o_.mode.c_str(),
                  bad ? "FAILED" : "ok", n_, rss);
      if (bad) std::printf("stress %s: %ld mismatches\n", o_.mode.c_str(), bad);
    }
    return bad ? 1 : 0;
  }

private:
  template <class... A>
  void mismatch(const char* fmt, A... a) {
    if (bad_++ < 10) {
      std::printf("rank %d: MISMATCH: ", r_);
      std::printf(fmt, a...);
      std::printf("\n");
      std::fflush(stdout);
    }
  }

  std::vector<std::uint64_t> message(int from, std::size_t k) const {
    // every 100th message 64 KiB (rendezvous protocol), the others 16 bytes (eager)
    std::vector<std::uint64_t> m(k % 100 == 99 ? 8192 : 2);
    for (std::size_t j = 0; j < m.size(); ++j) m[j] = splitmix(std::uint64_t(from) << 40 ^ k << 16 ^ j);
    return m;
  }

  void requests() {
    const int right = (r_ + 1) % n_, left = (r_ + n_ - 1) % n_;
    const std::size_t n = o_.count;
    const double t0 = oompi::environment::wtime();
    // 1. wait_all; the receives are posted in reverse tag order, so that every send is matched
    //    against thousands of posted receives.
    {
      std::vector<std::vector<std::uint64_t>> in(n);
      std::vector<oompi::request> reqs;
      reqs.reserve(2 * n);
      for (std::size_t k = n; k-- > 0;) {
        in[k].resize(message(left, k).size());
        reqs.push_back(w_.irecv(in[k], left, static_cast<int>(k)));
      }
      for (std::size_t k = 0; k < n; ++k) reqs.push_back(w_.isend(message(r_, k), right, int(k)));
      oompi::wait_all(reqs);
      for (std::size_t k = 0; k < n; ++k)
        if (in[k] != message(left, k)) mismatch("wait_all: message %zu from %d", k, left);
    }
    // 2. wait_some: each receive checked as it completes (source, tag, content).
    {
      std::vector<std::vector<std::uint64_t>> in(n);
      std::vector<oompi::request> reqs;
      reqs.reserve(2 * n);
      for (std::size_t k = 0; k < n; ++k) {
        in[k].resize(message(left, k).size());
        reqs.push_back(w_.irecv(in[k], oompi::any_source, static_cast<int>(k)));
      }
      for (std::size_t k = 0; k < n; ++k) reqs.push_back(w_.isend(message(r_, k), right, int(k)));
      std::size_t done = 0;
      while (done < 2 * n) {
        for (const auto& c : oompi::wait_some(reqs)) {
          ++done;
          if (c.index >= n) continue;  // a send
          if (c.status.source() != left || c.status.tag() != int(c.index) ||
              in[c.index] != message(left, c.index))
            mismatch("wait_some: message %zu from %d", c.index, c.status.source());
        }
      }
    }
    // 3. objects: n iosends (each owns its serialized bytes) and n iorecv futures pending.
    {
      std::vector<oompi::object_future<std::vector<std::uint64_t>>> in;
      std::vector<oompi::request> out;
      in.reserve(n);
      out.reserve(n);
      for (std::size_t k = 0; k < n; ++k)
        in.push_back(w_.iorecv<std::vector<std::uint64_t>>(left, static_cast<int>(k)));
      for (std::size_t k = 0; k < n; ++k) out.push_back(w_.iosend(message(r_, k), right, int(k)));
      for (std::size_t k = n; k-- > 0;)  // the last first
        if (in[k].get() != message(left, k)) mismatch("iorecv: object %zu from %d", k, left);
      oompi::wait_all(out);
    }
    const double t = oompi::environment::wtime() - t0;
    w_.barrier();
    if (r_ == 0)
      std::printf("stress requests: %zu isend + %zu irecv outstanding per rank, 3 rounds "
                  "(wait_all, wait_some, iosend/iorecv objects) in %.2f s\n", n, n, t);
  }

  void large() {
    const std::size_t b = o_.bytes;
    // Every rank may hold the buffer at once (the bcast); refuse rather than push the machine
    // into swap or the OOM killer.
    int enough = 1;
    if (r_ == 0) {
      const std::uint64_t need = std::uint64_t(b) * std::uint64_t(n_) + (std::uint64_t{1} << 30);
      enough = mem_available() >= need;
      if (!enough)
        std::printf("stress large: SKIPPED: needs %.1f GiB of memory (ranks x message + 1 GiB), "
                    "MemAvailable is %.1f GiB\n", double(need) / (1 << 30),
                    double(mem_available()) / (1 << 30));
    }
    w_.bcast(enough, 0);
    if (!enough) return;
    if (r_ == 0)
      std::printf("stress large: %zu bytes (%s INT_MAX) per message\n", b,
                  b > std::size_t(INT_MAX) ? "more than" : "not more than");
    if (n_ >= 2 && r_ < 2) {  // point to point, rank 0 -> 1
      bytes_t buf(b);
      std::uint64_t sum = 0;
      if (r_ == 0) {
        fill(buf, 42);
        sum = checksum(buf);
        w_.send(sum, 1, 1);
        const double t0 = oompi::environment::wtime();
        w_.send(buf, 1, 2);
        const double t = oompi::environment::wtime() - t0;
        std::printf("stress large: send of %zu bytes in %.2f s (%.2f GB/s)\n", b, t, double(b) / t / 1e9);
      } else {
        w_.recv(sum, 0, 1);
        const oompi::status s = w_.recv(buf, 0, 2);
        if (s.count<unsigned char>() != b) mismatch("large send: count %zu", s.count<unsigned char>());
        if (checksum(buf) != sum) mismatch("large send: checksum");
      }
    }
    w_.barrier();
    {
      bytes_t buf(b);
      std::uint64_t sum = 0;
      if (r_ == 0) {
        fill(buf, 43);
        sum = checksum(buf);
      }
      w_.bcast(sum, 0);
      const double t0 = oompi::environment::wtime();
      w_.bcast(buf, 0);
      const double t = oompi::environment::wtime() - t0;
      if (checksum(buf) != sum) mismatch("large bcast: checksum");
      w_.barrier();
      if (r_ == 0) std::printf("stress large: bcast of %zu bytes to %d ranks in %.2f s\n", b, n_, t);
    }
  }

  void soak() {
    std::mt19937_64 common(o_.seed);                        // the same on every rank: the plan
    std::mt19937_64 own(splitmix(o_.seed) ^ std::uint64_t(r_));  // this rank's data
    long rounds = 0, messages = 0, graphs = 0, vertices = 0;
    double bytes = 0;
    long per_kind[5] = {};
    const double t0 = oompi::environment::wtime();
    for (;;) {
      int go = r_ != 0 || oompi::environment::wtime() - t0 < o_.seconds;
      w_.bcast(go, 0);
      if (!go) break;
      ++rounds;
      const int kind = static_cast<int>(common() % 5);
      const int shift = n_ > 1 ? 1 + static_cast<int>(common() % std::uint64_t(n_ - 1)) : 0;
      const int root = static_cast<int>(common() % std::uint64_t(n_));
      const int to = (r_ + shift) % n_, from = (r_ + n_ - shift) % n_;
      ++per_kind[kind];
      switch (kind) {
        case 0: {  // bytes along a permutation, checksum in a message of its own
          bytes_t out(random_size(own, o_.max_bytes));
          fill(out, own());
          const std::uint64_t sum = checksum(out);
          auto s1 = w_.isend(sum, to, 10);
          auto s2 = w_.isend(out, to, 11);
          std::uint64_t expect = 0;
          w_.recv(expect, from, 10);
          const auto in = w_.recv<bytes_t>(from, 11);  // sized by a matched probe
          oompi::wait_all(s1, s2);
          if (checksum(in) != expect) mismatch("bytes: %zu from %d, round %ld", in.size(), from, rounds);
          messages += 2;
          bytes += double(in.size());
          break;
        }
        case 1: {  // an object graph along a permutation
          graph out = make_graph(own, 600);
          auto s = w_.iosend(out, to, 12);
          graph in;
          const oompi::status st = w_.orecv(in, from, 12);
          s.wait();
          if (!intact(in)) mismatch("graph: %zu vertices from %d, round %ld", in.vertices.size(), from, rounds);
          ++messages;
          ++graphs;
          vertices += long(in.vertices.size());
          bytes += double(st.bytes());
          dismantle(in);
          dismantle(out);
          break;
        }
        case 2: {  // bytes bcast from a random root
          bytes_t buf;
          std::uint64_t sum = 0;
          if (r_ == root) {
            buf.resize(random_size(own, o_.max_bytes));
            fill(buf, own());
            sum = checksum(buf);
          }
          w_.bcast(sum, root);
          w_.bcast(buf, root, oompi::resize_to_fit);
          if (checksum(buf) != sum) mismatch("bcast: %zu bytes from %d, round %ld", buf.size(), root, rounds);
          if (r_ != root) {
            messages += 2;
            bytes += double(buf.size());
          }
          break;
        }
        case 3: {  // obcast of a graph from a random root
          graph g;
          if (r_ == root) g = make_graph(own, 2000);
          w_.obcast(g, root);
          if (!intact(g)) mismatch("obcast: %zu vertices from %d, round %ld", g.vertices.size(), root, rounds);
          if (r_ != root) {
            ++messages;
            ++graphs;
            vertices += long(g.vertices.size());
          }
          dismantle(g);
          break;
        }
        case 4: {  // oallgather: one small graph from every rank
          std::vector<graph> mine(1);
          mine[0] = make_graph(own, 50);
          auto all = w_.oallgather(mine);
          if (all.size() != std::size_t(n_)) mismatch("oallgather: %zu graphs", all.size());
          for (std::size_t i = 0; i < all.size(); ++i) {
            if (!intact(all[i])) mismatch("oallgather: graph %zu, round %ld", i, rounds);
            if (i != std::size_t(r_)) vertices += long(all[i].vertices.size());
            dismantle(all[i]);
          }
          messages += n_ - 1;
          graphs += n_ - 1;
          dismantle(mine[0]);
          break;
        }
      }
    }
    const double t = oompi::environment::wtime() - t0;
    const long all_messages = w_.reduce(messages, oompi::ops::sum, 0);
    const long all_graphs = w_.reduce(graphs, oompi::ops::sum, 0);
    const long all_vertices = w_.reduce(vertices, oompi::ops::sum, 0);
    const double all_bytes = w_.reduce(bytes, oompi::ops::sum, 0);
    if (r_ == 0) {
      std::printf("stress soak: %.0f s, %ld rounds (bytes p2p %ld, graphs p2p %ld, bcast %ld, "
                  "obcast %ld, oallgather %ld)\n", t, rounds, per_kind[0], per_kind[1],
                  per_kind[2], per_kind[3], per_kind[4]);
      std::printf("stress soak: %ld messages received and checked (%.2f GB: byte messages and "
                  "bcasts, point-to-point graphs as serialized), %ld graphs with %ld vertices\n",
                  all_messages, all_bytes / 1e9, all_graphs, all_vertices);
    }
  }

  options o_;
  oompi::intracommunicator w_;
  int r_ = 0, n_ = 1;
  long bad_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  options o;
  if (argc > 1) o.mode = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--count") o.count = std::stoul(value);
    else if (key == "--bytes") o.bytes = std::stoull(value);
    else if (key == "--seconds") o.seconds = std::stod(value);
    else if (key == "--max-bytes") o.max_bytes = std::stoull(value);
    else if (key == "--seed") o.seed = std::stoull(value);
    else {
      if (oompi::communicator::world().rank() == 0) std::fprintf(stderr, "stress: unknown option %s\n", key.c_str());
      return 2;
    }
  }
  return runner(o).run();
}
