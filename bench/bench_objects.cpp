// Object graphs (issue 4, seed 004's experiment), all systems in one process, interleaved.
//
// --which=list (2 ranks): a linked list of N nodes (N = 1, 16, 256, 1024, 4096, 16384) carrying
//   4 KiB of int payload in all (1024 ints spread evenly over the nodes), sent from rank 0 to
//   rank 1 and back; serialization, allocation of the received list and freeing of the previous
//   one included. Systems:
//     hand_packed (baseline, the floor): the list walked into one int buffer by hand (count and
//                 ints per node), MPI_Send; received with MPI_Mprobe/MPI_Get_count/MPI_Mrecv
//                 and rebuilt node by node (the same node type oompi uses)
//     oompi:      world.osend(head, peer) / world.orecv<std::shared_ptr<node>>(peer)
//     boost:      Boost.MPI world.send(peer, 0, head) / recv with Boost.Serialization of
//                 raw-pointer-linked nodes (size message + data message, as Boost.MPI does)
//     cereal:     cereal::BinaryOutputArchive over a std::ostringstream (shared_ptr nodes),
//                 MPI_Send; MPI_Mprobe/MPI_Mrecv into a string, BinaryInputArchive
//   Reported as bench objects_list (ratios to hand_packed) and objects_list_vs_boost (ratios
//   to oompi: how many times slower Boost.MPI is).
//
// --which=scatter (any number of ranks, 4 by default): 10^5 small objects (id, x, y, name)
//   from rank 0. Systems: per_rank_sends (baseline: the root cuts its array and osends each
//   rank its part, one message after another), oompi (oscatter: one buffer of per-rank slices,
//   one MPI_Scatterv), boost (boost::mpi::scatter of pre-cut std::vector slices).
//
// Options: --which=list|scatter --sizes=1,16,... --systems=... --rounds=N --first-round=R
//          --block-ms=T --max-seconds=S --items=N (scatter) --quick
//
// Everything runs on a thread with a 512 MiB stack: Boost.Serialization and cereal recurse once
// per list node, and with the default 8 MiB stack Boost.Serialization crashes at 16384 nodes.

#include <oompi/serialization.hpp>

#include "support/bench_util.hpp"
#include "support/object_rounds.hpp"

#if defined(OOMPI_BENCH_HAVE_BOOST)
#include <boost/mpi/collectives/scatter.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/packed_iarchive.hpp>
#include <boost/mpi/packed_oarchive.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#endif
#include <cereal/archives/binary.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/vector.hpp>


#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

// --- the list ---------------------------------------------------------------------------------

struct node {  // Motor's LinkedArray: array and next are Transportable, next2 is not
  std::vector<std::int32_t> data;
  std::shared_ptr<node> next, next2;
};
OOMPI_TRANSPORTABLE(node, data, next);

struct cnode {  // for plain cereal
  std::vector<std::int32_t> data;
  std::shared_ptr<cnode> next;
  template <class A>
  void serialize(A& ar) {
    ar(data, next);
  }
};

#if defined(OOMPI_BENCH_HAVE_BOOST)
struct bnode {  // for Boost.Serialization: pointer-linked
  std::vector<std::int32_t> data;
  bnode* next = nullptr;
  template <class A>
  void serialize(A& ar, const unsigned int) {
    ar & data & next;
  }
};
void free_list(bnode* p) {
  while (p) {
    bnode* n = p->next;
    delete p;
    p = n;
  }
}
#endif

constexpr int total_ints = 1024;  // 4 KiB of payload

template <class N>
std::vector<std::int32_t> payload_of(int i, int nodes) {
  std::vector<std::int32_t> d;
  for (int k = i * total_ints / nodes; k < (i + 1) * total_ints / nodes; ++k) d.push_back(k);
  return d;
}

// shared_ptr lists are freed front to back (no recursion).
template <class N>
void free_list(std::shared_ptr<N>& head) {
  while (head) head = std::move(head->next);
}

template <class N>
std::shared_ptr<N> make_shared_list(int nodes) {
  std::shared_ptr<N> head;
  for (int i = nodes - 1; i >= 0; --i) {
    auto n = std::make_shared<N>();
    n->data = payload_of<N>(i, nodes);
    n->next = std::move(head);
    head = std::move(n);
  }
  return head;
}

template <class P>
bool check_list(const P* head, int nodes) {
  long count = 0, sum = 0, expect = 0;
  for (const P* p = head; p; p = &*p->next) {
    ++count;
    for (auto v : p->data) sum += v;
    if (!p->next) break;
  }
  for (int k = 0; k < total_ints; ++k) expect += k;
  return count == nodes && sum == expect;
}

using list_context = oompi_bench::pair_context;

using list_system = oompi_bench::object_system<list_context>;

// hand-packed floor
struct hand_state {
  std::shared_ptr<node> mine, got;
  std::vector<std::int32_t> out, in;
};
void hand_pack(const std::shared_ptr<node>& head, std::vector<std::int32_t>& out) {
  out.clear();
  for (const node* p = head.get(); p; p = p->next.get()) {
    out.push_back(static_cast<std::int32_t>(p->data.size()));
    out.insert(out.end(), p->data.begin(), p->data.end());
  }
}
void hand_rebuild(std::shared_ptr<node>& head, const std::vector<std::int32_t>& in) {
  free_list(head);
  std::shared_ptr<node>* link = &head;
  for (std::size_t i = 0; i < in.size();) {
    const auto k = static_cast<std::size_t>(in[i++]);
    auto x = std::make_shared<node>();
    x->data.assign(in.begin() + static_cast<long>(i), in.begin() + static_cast<long>(i + k));
    i += k;
    *link = std::move(x);
    link = &(*link)->next;
  }
}
void hand_send(list_context& c, const std::shared_ptr<node>& head, std::vector<std::int32_t>& out) {
  hand_pack(head, out);
  MPI_Send(out.data(), static_cast<int>(out.size()), MPI_INT32_T, c.peer, 0, MPI_COMM_WORLD);
}
// Every system frees the list it received last time before it receives the next one.
void hand_recv(list_context& c, std::shared_ptr<node>& head, std::vector<std::int32_t>& in) {
  free_list(head);
  oompi_bench::recv_any_size(c.peer, MPI_INT32_T, in);
  hand_rebuild(head, in);
}

std::vector<list_system> list_systems() {
  std::vector<list_system> out;
  {
    auto s = std::make_shared<hand_state>();
    out.push_back({"hand_packed", "hand-packed int buffer (walk, MPI_Send, MPI_Mrecv, rebuild)",
                   [s](list_context& c, int nodes) {
                     if (c.rank == 0) s->mine = make_shared_list<node>(nodes);
                   },
                   [s](list_context& c) {
                     if (c.rank == 0) {
                       hand_send(c, s->mine, s->out);
                       hand_recv(c, s->got, s->in);
                     } else {
                       hand_recv(c, s->got, s->in);
                       hand_send(c, s->got, s->out);
                     }
                   },
                   [s] {
                     hand_pack(s->mine, s->out);
                     hand_rebuild(s->got, s->out);
                   },
                   [s](int nodes) { return check_list(s->got.get(), nodes); },
                   [s] {
                     free_list(s->mine);
                     free_list(s->got);
                   }});
  }
  {
    struct state {
      std::shared_ptr<node> mine, got;
      oompi::byte_buffer buf;
    };
    auto s = std::make_shared<state>();
    out.push_back({"oompi", "oompi world.osend(head, peer) / world.orecv<std::shared_ptr<node>>(peer)",
                   [s](list_context& c, int nodes) {
                     if (c.rank == 0) s->mine = make_shared_list<node>(nodes);
                   },
                   [s](list_context& c) {
                     if (c.rank == 0) {
                       c.world.osend(s->mine, c.peer);
                       free_list(s->got);
                       s->got = c.world.orecv<std::shared_ptr<node>>(c.peer);
                     } else {
                       free_list(s->got);
                       s->got = c.world.orecv<std::shared_ptr<node>>(c.peer);
                       c.world.osend(s->got, c.peer);
                     }
                   },
                   [s] {  // what osend and orecv do around MPI
                     using codec = oompi::detail::object_codec<std::shared_ptr<node>>;
                     s->buf.clear();
                     codec::save(s->buf, s->mine);
                     free_list(s->got);
                     codec::load(s->buf.data(), s->buf.size(), s->got);
                   },
                   [s](int nodes) { return check_list(s->got.get(), nodes); },
                   [s] {
                     free_list(s->mine);
                     free_list(s->got);
                   }});
  }
  {
    struct state {
      std::shared_ptr<cnode> mine, got;
      std::string in;
    };
    auto s = std::make_shared<state>();
    auto save = [](const std::shared_ptr<cnode>& head) {
      std::ostringstream os;
      {
        cereal::BinaryOutputArchive ar(os);
        ar(head);
      }
      return os.str();
    };
    auto load = [](std::shared_ptr<cnode>& head, const std::string& in) {
      free_list(head);
      std::istringstream is(in);
      cereal::BinaryInputArchive ar(is);
      ar(head);
    };
    auto send = [save](list_context& c, const std::shared_ptr<cnode>& head) {
      const std::string bytes = save(head);
      MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, c.peer, 0, MPI_COMM_WORLD);
    };
    auto recv = [load](list_context& c, std::shared_ptr<cnode>& head, std::string& in) {
      free_list(head);
      oompi_bench::recv_any_size(c.peer, MPI_BYTE, in);
      load(head, in);
    };
    out.push_back({"cereal", "cereal BinaryOutputArchive over std::ostringstream, shared_ptr nodes",
                   [s](list_context& c, int nodes) {
                     if (c.rank == 0) s->mine = make_shared_list<cnode>(nodes);
                   },
                   [s, send, recv](list_context& c) {
                     if (c.rank == 0) {
                       send(c, s->mine);
                       recv(c, s->got, s->in);
                     } else {
                       recv(c, s->got, s->in);
                       send(c, s->got);
                     }
                   },
                   [s, save, load] { load(s->got, save(s->mine)); },
                   [s](int nodes) { return check_list(s->got.get(), nodes); },
                   [s] {
                     free_list(s->mine);
                     free_list(s->got);
                   }});
  }
#if defined(OOMPI_BENCH_HAVE_BOOST)
  {
    struct state {
      bnode* mine = nullptr;
      bnode* got = nullptr;
    };
    auto s = std::make_shared<state>();
    out.push_back({"boost", "Boost.MPI world.send(peer, 0, head) / recv, Boost.Serialization, raw pointers",
                   [s](list_context& c, int nodes) {
                     if (c.rank != 0) return;
                     bnode* head = nullptr;
                     for (int i = nodes - 1; i >= 0; --i) {
                       auto* n = new bnode;
                       n->data = payload_of<bnode>(i, nodes);
                       n->next = head;
                       head = n;
                     }
                     s->mine = head;
                   },
                   [s](list_context& c) {
                     if (c.rank == 0) {
                       c.bworld.send(c.peer, 0, s->mine);
                       free_list(s->got);
                       s->got = nullptr;
                       c.bworld.recv(c.peer, 0, s->got);
                     } else {
                       free_list(s->got);
                       s->got = nullptr;
                       c.bworld.recv(c.peer, 0, s->got);
                       c.bworld.send(c.peer, 0, s->got);
                     }
                   },
                   [s] {  // what Boost.MPI's send and recv of a serialized value do around MPI
                     boost::mpi::packed_oarchive::buffer_type buf;
                     boost::mpi::packed_oarchive oa(MPI_COMM_WORLD, buf);
                     oa << s->mine;
                     free_list(s->got);
                     s->got = nullptr;
                     boost::mpi::packed_iarchive ia(MPI_COMM_WORLD, buf);
                     ia >> s->got;
                   },
                   [s](int nodes) { return check_list(s->got, nodes); },
                   [s] {
                     free_list(s->mine);
                     free_list(s->got);
                     s->mine = s->got = nullptr;
                   }});
  }
#endif
  return out;
}

std::string list_labels(const std::vector<list_system*>& systems) {
  std::string labels = "{";
  for (const auto* s : systems)
    labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(s->name) + ":" +
              oompi_bench::json_string(s->label);
  return labels + "}";
}

int run_list(const oompi_bench::options& opt) {
  list_context c;
  if (!c.open("bench_objects --which=list")) return 2;
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 60);
  const long first_round = opt.get_int("first-round", 0);
  const double block_ms = opt.get_double("block-ms", quick ? 1.0 : 4.0);
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 150);
  std::vector<std::string> def_sizes = {"1", "16", "256", "1024", "4096", "16384"};
  std::vector<int> sizes;
  for (const auto& s : opt.get_list("sizes", def_sizes)) sizes.push_back(std::stoi(s));

  auto all = list_systems();
  const std::vector<list_system*> systems = oompi_bench::select_systems(all, opt);
  if (systems.empty() || sizes.empty()) return 2;

  oompi_bench::sink out;
  std::vector<std::string> names;
  for (const auto* s : systems) names.push_back(s->name);
  const std::string metrics =
      "{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":\"lower\","
      "\"plot\":\"loglog\"},"
      "\"local_us\":{\"label\":\"serialize + rebuild on one rank, no MPI\",\"unit\":\"µs\","
      "\"better\":\"lower\",\"plot\":\"loglog\"}}";
  if (c.rank == 0) {
    std::string targets = "[";
    for (const char* n : {"256", "1024", "4096", "16384"})
      targets += std::string(targets.size() > 1 ? "," : "") +
                 "{\"metric\":\"roundtrip_us\",\"case\":\"" + n +
                 "\",\"system\":\"oompi\",\"max_ratio\":1.5,\"text\":\"issue 4: list of " + n +
                 " nodes within 1.5x of the hand-packed floor\"}";
    for (const char* n : {"256", "1024", "4096", "16384"})
      targets += std::string(",") + "{\"metric\":\"roundtrip_us\",\"case\":\"" + n +
                 "\",\"system\":\"oompi\",\"max_ratio\":1.3,\"text\":\"issue 16: list of " + n +
                 " nodes ≤ 1.3× the hand-packed floor\"}";
    for (const char* n : {"256", "1024", "4096", "16384"})
      targets += std::string(",") + "{\"metric\":\"local_us\",\"case\":\"" + n +
                 "\",\"system\":\"oompi\",\"max_ratio\":1.5,\"text\":\"issue 4 (CPU cost only, no "
                 "MPI): list of " + n + " nodes within 1.5x of the hand-packed floor\"}";
    targets += "]";
    out.add(oompi_bench::record()
                .str("type", "meta")
                .str("bench", "objects_list")
                .str("title", "Linked list of N nodes, 4 KiB of ints in all, round trip between 2 ranks")
                .str("baseline", "hand_packed")
                .raw("systems", oompi_bench::json_list(names))
                .raw("system_labels", list_labels(systems))
                .str("case_label", "list nodes N")
                .raw("metrics", metrics)
                .raw("targets", targets)
                .str("mpi", oompi_bench::mpi_library_version())
                .raw("notes", oompi_bench::json_list(
                                  {"Round trip = rank 0 sends its list, rank 1 receives it (a new "
                                   "list), sends that back, rank 0 receives it; serialization, "
                                   "allocation and freeing included. All systems interleaved "
                                   "block by block, order shuffled every round.",
                                   "Runs on a thread with a 512 MiB stack: Boost.Serialization and "
                                   "cereal recurse once per node (Boost crashes at 16384 nodes with "
                                   "the default 8 MiB stack); oompi follows `next` in a loop.",
                                   "local_us: the same work without MPI, on rank 0 alone while "
                                   "rank 1 sleeps: serialize rank 0's list as the system's send "
                                   "does, rebuild it as its receive does, free the previous copy. "
                                   "On a loaded machine the round trips also measure how the two "
                                   "ranks get scheduled; this one measures only the systems' work."})));
    std::string boost_targets = "[";
    for (const char* n : {"256", "1024", "4096", "16384"})
      boost_targets += std::string(boost_targets.size() > 1 ? "," : "") +
                       "{\"metric\":\"roundtrip_us\",\"case\":\"" + n +
                       "\",\"system\":\"boost\",\"min_ratio\":5,\"text\":\"issue 4: list of " + n +
                       " nodes at least 5x faster than Boost.MPI's serialized path\"}";
    for (const char* n : {"256", "1024", "4096", "16384"})
      boost_targets += std::string(",") + "{\"metric\":\"local_us\",\"case\":\"" + n +
                       "\",\"system\":\"boost\",\"min_ratio\":5,\"text\":\"issue 4 (CPU cost only, "
                       "no MPI): list of " + n + " nodes at least 5x faster than Boost.MPI's "
                       "serialization\"}";
    boost_targets += "]";
    out.add(oompi_bench::record()
                .str("type", "meta")
                .str("bench", "objects_list_vs_boost")
                .str("title", "The same round trips, as ratios to oompi")
                .str("baseline", "oompi")
                .raw("systems", oompi_bench::json_list({"oompi", "boost", "cereal"}))
                .raw("system_labels", list_labels(systems))
                .str("case_label", "list nodes N")
                .raw("metrics", metrics)
                .raw("targets", boost_targets)
                .raw("notes", oompi_bench::json_list({"Ratio > 1: that many times slower than oompi."})));
  }

  const bool ok = oompi_bench::run_rounds(
      c, systems, sizes, {rounds, first_round, block_ms, max_seconds},
      [&](int nodes, std::size_t k, long round, double roundtrip_s, double local_s) {
        const std::string n = std::to_string(nodes);
        const std::string nm = systems[k]->name;
        out.sample("objects_list", n, nm, round, "roundtrip_us", roundtrip_s * 1e6);
        out.sample("objects_list", n, nm, round, "local_us", local_s * 1e6);
        if (nm != "hand_packed") {
          out.sample("objects_list_vs_boost", n, nm, round, "roundtrip_us", roundtrip_s * 1e6);
          out.sample("objects_list_vs_boost", n, nm, round, "local_us", local_s * 1e6);
        }
      },
      [&](const list_system& s, int nodes) {
        out.add(oompi_bench::record()
                    .str("type", "error")
                    .str("bench", "objects_list")
                    .str("text", std::string(s.name) + ": the list came back wrong at N = " +
                                     std::to_string(nodes)));
      });
  if (c.rank == 0) out.flush();
  return ok ? 0 : 1;
}

// --- scatter of small objects --------------------------------------------------------------

struct item {
  std::int32_t id = 0;
  double x = 0, y = 0;
  std::string name;
#if defined(OOMPI_BENCH_HAVE_BOOST)
  template <class A>
  void serialize(A& ar, const unsigned int) {
    ar & id & x & y & name;
  }
#endif
};
OOMPI_TRANSPORTABLE(item, id, x, y, name);

int run_scatter(const oompi_bench::options& opt) {
  auto world = oompi::communicator::world();
#if defined(OOMPI_BENCH_HAVE_BOOST)
  boost::mpi::communicator bworld;
#endif
  const int rank = world.rank(), p = world.size();
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 40);
  const long first_round = opt.get_int("first-round", 0);
  const double max_seconds = opt.get_double("max-seconds", quick ? 20 : 90);
  const long n = opt.get_int("items", 100000);

  std::vector<item> all;
  if (rank == 0)
    for (long i = 0; i < n; ++i)
      all.push_back({static_cast<std::int32_t>(i), i * 0.5, -i * 0.25, "item" + std::to_string(i % 1000)});
  std::vector<std::size_t> first(static_cast<std::size_t>(p) + 1, 0);
  for (int i = 0; i < p; ++i)
    first[i + 1] = first[i] + static_cast<std::size_t>(n / p + (i < n % p));

  struct system {
    const char* name;
    const char* label;
    std::function<std::size_t()> op;  // returns the number of items received here
  };
  std::vector<system> systems;
  systems.push_back({"per_rank_sends", "root cuts its array and osends each rank its part",
                     [&]() -> std::size_t {
                       if (rank == 0) {
                         for (int i = 1; i < p; ++i)
                           world.osend(std::vector<item>(all.begin() + static_cast<long>(first[i]),
                                                         all.begin() + static_cast<long>(first[i + 1])),
                                       i);
                         return std::vector<item>(all.begin(), all.begin() + static_cast<long>(first[1])).size();
                       }
                       return world.orecv<std::vector<item>>(0).size();
                     }});
  systems.push_back({"oompi", "oompi oscatter (split representation, one MPI_Scatterv)",
                     [&]() { return world.oscatter(all, 0).size(); }});
#if defined(OOMPI_BENCH_HAVE_BOOST)
  std::vector<std::vector<item>> slices;
  if (rank == 0)
    for (int i = 0; i < p; ++i)
      slices.emplace_back(all.begin() + static_cast<long>(first[i]), all.begin() + static_cast<long>(first[i + 1]));
  systems.push_back({"boost", "boost::mpi::scatter of pre-cut std::vector slices",
                     [&]() {
                       std::vector<item> mine;
                       if (rank == 0)
                         boost::mpi::scatter(bworld, slices, mine, 0);
                       else
                         boost::mpi::scatter(bworld, mine, 0);
                       return mine.size();
                     }});
#endif
  std::vector<std::string> names;
  std::string labels = "{";
  for (const auto& s : systems) {
    names.push_back(s.name);
    labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(s.name) + ":" +
              oompi_bench::json_string(s.label);
  }
  labels += "}";
  oompi_bench::sink out;
  const std::string kase = std::to_string(n) + " items, " + std::to_string(p) + " ranks";
  if (rank == 0)
    out.add(oompi_bench::record()
                .str("type", "meta")
                .str("bench", "objects_scatter")
                .str("title", "Scatter of small objects (id, x, y, name) from rank 0")
                .str("baseline", "per_rank_sends")
                .raw("systems", oompi_bench::json_list(names))
                .raw("system_labels", labels)
                .str("case_label", "objects, ranks")
                .raw("metrics", "{\"time_ms\":{\"label\":\"time per scatter\",\"unit\":\"ms\","
                                "\"better\":\"lower\"}}")
                .str("mpi", oompi_bench::mpi_library_version())
                .raw("notes", oompi_bench::json_list(
                                  {"Time on rank 0 from a barrier to the barrier after the "
                                   "operation (every rank has its objects then)."})));
  bool ok = true;
  auto block = [&](system& s) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    const std::size_t got = s.op();
    MPI_Barrier(MPI_COMM_WORLD);
    ok = ok && got == first[rank + 1] - first[rank];
    return MPI_Wtime() - t0;
  };
  for (auto& s : systems) block(s);  // warm-up
  const double start = MPI_Wtime();
  for (long r = 0; r < rounds; ++r) {
    int go = rank != 0 || MPI_Wtime() - start < max_seconds;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go) break;
    const long round = first_round + r;
    for (const std::size_t k : oompi_bench::round_order(systems.size(), round)) {
      const double t = block(systems[k]);
      if (rank == 0) out.sample("objects_scatter", kase, systems[k].name, round, "time_ms", t * 1e3);
    }
  }
  int all_ok = ok;
  MPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    if (!all_ok)
      out.add(oompi_bench::record().str("type", "error").str("bench", "objects_scatter").str("text", "wrong item counts"));
    out.flush();
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The measuring thread makes all MPI calls; the main thread only waits for it.
  oompi::environment env(argc, argv, oompi::thread_level::serialized);
  const oompi_bench::options opt(argc, argv);
  return oompi_bench::run_on_big_stack("bench_objects", opt, [](const oompi_bench::options& o) {
    return o.get("which", "list") == "scatter" ? run_scatter(o) : run_list(o);
  });
}
