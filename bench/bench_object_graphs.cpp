// Object graphs other than the linked list (issue 28): binary trees, flat records and a DAG of
// shared subtrees, all systems in one process, interleaved, round trip between 2 ranks and
// encode + decode on one rank.
//
// Shapes (--which=tree|records|dag, or all three by default):
//   tree:    a complete binary tree of N nodes (N = 255, 4095, 65535), each node
//            {int32 id; double value; 8-12 char string; left; right}, held by std::shared_ptr
//   records: a std::vector of N records (N = 1000, 100000) {int64 key; 10-20 char string;
//            double[4] (std::array); bool}, no references
//   dag:     the tree's node type linked as a DAG of shared subtrees: a binary tree for 7
//            levels (127 nodes), then levels of 64 nodes where node j links to nodes 2j and
//            2j+1 (mod 64) of the next level, so every node below level 7 has two parents
//            (N = 255, 4095, 65535); the receiver must get N distinct nodes, not a tree of 2^k
// Systems:
//   hand_packed (baseline, the floor): fields packed by hand into one byte buffer (preorder;
//               the DAG with a per-node visit mark and back-reference indices, as a C programmer
//               would), MPI_Send; MPI_Mprobe/MPI_Get_count/MPI_Mrecv and rebuilt into the same
//               node type oompi uses
//   oompi:      world.osend(root, peer) / world.orecv<T>(peer) (the general path: trees are not
//               chains); local: the codec's save and load, as osend/orecv do around MPI
//   cereal:     cereal::BinaryOutputArchive over std::ostringstream, MPI_Send; MPI_Mrecv into a
//               string, BinaryInputArchive (shared_ptr nodes: cereal keeps shared references)
//   boost:      Boost.MPI world.send/recv with Boost.Serialization (std::shared_ptr nodes
//               through boost/serialization/shared_ptr.hpp, which keeps shared references)
// Reported as benches objects_tree, objects_records and objects_dag (ratios to hand_packed).
//
// Options: --which=tree,records,dag --sizes=... (one shape) --systems=... --rounds=N
//          --first-round=R --block-ms=T --max-seconds=S --quick
//
// Everything runs on a thread with a 512 MiB stack (Boost.Serialization and cereal recurse
// once per level of the DAG, about 1,000 levels at 65535 nodes).

#include <oompi/serialization.hpp>

#include "support/bench_util.hpp"
#include "support/object_rounds.hpp"

#if defined(OOMPI_BENCH_HAVE_BOOST)
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/packed_iarchive.hpp>
#include <boost/mpi/packed_oarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/shared_ptr.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#endif
#include <cereal/archives/binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/memory.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>


#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

// --- the types --------------------------------------------------------------------------------

struct tnode {  // oompi and the hand-packed floor
  std::int32_t id = 0;
  std::uint32_t visit = 0;  // hand-packed DAG only: encode generation that numbered this node
  double value = 0;
  std::uint32_t index = 0;  // hand-packed DAG only: its number in that encode
  std::string name;
  std::shared_ptr<tnode> left, right;
};
OOMPI_TRANSPORTABLE(tnode, id, value, name, left, right);

struct ctnode {  // cereal
  std::int32_t id = 0;
  double value = 0;
  std::string name;
  std::shared_ptr<ctnode> left, right;
  template <class A>
  void serialize(A& ar) {
    ar(id, value, name, left, right);
  }
};

struct record {
  std::int64_t key = 0;
  std::string name;
  std::array<double, 4> v{};
  bool flag = false;
  template <class A>
  void serialize(A& ar) {  // cereal (oompi uses the field list below)
    ar(key, name, v, flag);
  }
};
OOMPI_TRANSPORTABLE(record, key, name, v, flag);

#if defined(OOMPI_BENCH_HAVE_BOOST)
struct btnode {
  std::int32_t id = 0;
  double value = 0;
  std::string name;
  std::shared_ptr<btnode> left, right;
  template <class A>
  void serialize(A& ar, const unsigned int) {
    ar & id & value & name & left & right;
  }
};
struct brecord {
  std::int64_t key = 0;
  std::string name;
  std::array<double, 4> v{};
  bool flag = false;
  template <class A>
  void serialize(A& ar, const unsigned int) {
    ar & key & name & v & flag;
  }
};
#endif

std::string name_of(int i, std::size_t shortest, std::size_t spread) {
  std::string s = "n" + std::to_string(i);
  s.resize(shortest + static_cast<std::size_t>(i) % spread, '_');
  return s;
}

// --- building and checking (any node type with id, value, name, left, right) -------------------

template <class N>
std::shared_ptr<N> make_tree(int n) {
  std::vector<std::shared_ptr<N>> all(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    all[i] = std::make_shared<N>();
    all[i]->id = i;
    all[i]->value = i * 0.5;
    all[i]->name = name_of(i, 8, 5);
  }
  for (int i = 0; i < n; ++i) {
    if (2 * i + 1 < n) all[i]->left = all[2 * i + 1];
    if (2 * i + 2 < n) all[i]->right = all[2 * i + 2];
  }
  return n ? all[0] : nullptr;
}

constexpr int dag_width = 64, dag_tree_levels = 7;  // 127 nodes of tree, then levels of 64

template <class N>
std::shared_ptr<N> make_dag(int n) {
  std::vector<std::vector<std::shared_ptr<N>>> levels;
  int made = 0;
  for (int level = 0; made < n; ++level) {
    const int width = std::min(level < dag_tree_levels ? 1 << level : dag_width, n - made);
    levels.emplace_back();
    for (int j = 0; j < width; ++j, ++made) {
      auto x = std::make_shared<N>();
      x->id = made;
      x->value = made * 0.5;
      x->name = name_of(made, 8, 5);
      levels.back().push_back(std::move(x));
    }
  }
  for (std::size_t l = 0; l + 1 < levels.size(); ++l) {
    const auto& next = levels[l + 1];
    for (std::size_t j = 0; j < levels[l].size(); ++j) {
      if (2 * j < next.size() || levels[l].size() == dag_width)
        levels[l][j]->left = next[(2 * j) % next.size()];
      if (2 * j + 1 < next.size() || levels[l].size() == dag_width)
        levels[l][j]->right = next[(2 * j + 1) % next.size()];
    }
  }
  return n ? levels[0][0] : nullptr;
}

// Distinct nodes reached, and their ids, values and names as built.
template <class N>
bool check_graph(const std::shared_ptr<N>& root, int n) {
  std::unordered_set<const N*> seen;
  std::vector<const N*> todo{root.get()};
  long long ids = 0;
  bool ok = true;
  while (!todo.empty()) {
    const N* x = todo.back();
    todo.pop_back();
    if (x == nullptr || !seen.insert(x).second) continue;
    ids += x->id;
    ok = ok && x->value == x->id * 0.5 && x->name == name_of(x->id, 8, 5);
    todo.push_back(x->left.get());
    todo.push_back(x->right.get());
  }
  return ok && static_cast<int>(seen.size()) == n && ids == static_cast<long long>(n) * (n - 1) / 2;
}

template <class R>
std::vector<R> make_records(int n) {
  std::vector<R> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    out[i].key = std::int64_t{i} * 1000003;
    out[i].name = name_of(i, 10, 11);
    out[i].v = {i * 1.0, i * 2.0, i * 3.0, i * 4.0};
    out[i].flag = i % 3 == 0;
  }
  return out;
}
template <class R>
bool check_records(const std::vector<R>& v, int n) {
  if (static_cast<int>(v.size()) != n) return false;
  for (int i = 0; i < n; ++i)
    if (v[i].key != std::int64_t{i} * 1000003 || v[i].name != name_of(i, 10, 11) ||
        v[i].v[3] != i * 4.0 || v[i].flag != (i % 3 == 0))
      return false;
  return true;
}

// --- the hand-packed floor ------------------------------------------------------------------------

struct packer {
  oompi::byte_buffer& out;
  template <class T>
  void put(const T& v) {
    std::memcpy(out.extend(sizeof v), &v, sizeof v);
  }
  void put_string(const std::string& s) {
    const auto n = static_cast<std::uint32_t>(s.size());
    std::byte* p = out.extend(sizeof n + n);
    std::memcpy(p, &n, sizeof n);
    std::memcpy(p + sizeof n, s.data(), n);
  }
};
struct unpacker {
  const std::byte* p;
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, p, sizeof v);
    p += sizeof v;
    return v;
  }
  void get_string(std::string& s) {
    const auto n = get<std::uint32_t>();
    s.assign(reinterpret_cast<const char*>(p), n);
    p += n;
  }
};

// Tree: preorder, a byte of which children follow.
void hand_pack_tree(packer& w, const tnode* x) {
  w.put(x->id);
  w.put(x->value);
  w.put_string(x->name);
  w.put(static_cast<std::uint8_t>((x->left ? 1 : 0) | (x->right ? 2 : 0)));
  if (x->left) hand_pack_tree(w, x->left.get());
  if (x->right) hand_pack_tree(w, x->right.get());
}
std::shared_ptr<tnode> hand_unpack_tree(unpacker& r) {
  auto x = std::make_shared<tnode>();
  x->id = r.get<std::int32_t>();
  x->value = r.get<double>();
  r.get_string(x->name);
  const auto kids = r.get<std::uint8_t>();
  if (kids & 1) x->left = hand_unpack_tree(r);
  if (kids & 2) x->right = hand_unpack_tree(r);
  return x;
}

// DAG: a reference is 0 (null), a back-reference k (the k-th node met), or ~0 and a new node.
std::uint32_t g_visit = 0;
void hand_pack_dag(packer& w, const tnode* x, std::uint32_t& count) {
  if (x == nullptr) return w.put(std::uint32_t{0});
  auto* m = const_cast<tnode*>(x);  // the marks are the floor's scratch space
  if (m->visit == g_visit) return w.put(m->index);
  m->visit = g_visit;
  m->index = ++count;
  w.put(~std::uint32_t{0});
  w.put(x->id);
  w.put(x->value);
  w.put_string(x->name);
  hand_pack_dag(w, x->left.get(), count);
  hand_pack_dag(w, x->right.get(), count);
}
std::shared_ptr<tnode> hand_unpack_dag(unpacker& r, std::vector<std::shared_ptr<tnode>>& met) {
  const auto ref = r.get<std::uint32_t>();
  if (ref == 0) return nullptr;
  if (ref != ~std::uint32_t{0}) return met[ref - 1];
  auto x = std::make_shared<tnode>();
  met.push_back(x);
  x->id = r.get<std::int32_t>();
  x->value = r.get<double>();
  r.get_string(x->name);
  x->left = hand_unpack_dag(r, met);
  x->right = hand_unpack_dag(r, met);
  return x;
}

void hand_pack_records(packer& w, const std::vector<record>& v) {
  w.put(static_cast<std::uint64_t>(v.size()));
  for (const record& x : v) {
    w.put(x.key);
    w.put_string(x.name);
    w.put(x.v);
    w.put(static_cast<std::uint8_t>(x.flag));
  }
}
void hand_unpack_records(unpacker& r, std::vector<record>& v) {
  v.resize(static_cast<std::size_t>(r.get<std::uint64_t>()));
  for (record& x : v) {
    x.key = r.get<std::int64_t>();
    r.get_string(x.name);
    x.v = r.get<std::array<double, 4>>();
    x.flag = r.get<std::uint8_t>() != 0;
  }
}

// --- shapes -------------------------------------------------------------------------------------

struct tree_shape {
  using value = std::shared_ptr<tnode>;
  using cvalue = std::shared_ptr<ctnode>;
  static constexpr const char* bench = "objects_tree";
  template <class V>
  static V make(int n) {
    return make_tree<typename V::element_type>(n);
  }
  template <class V>
  static bool check(const V& v, int n) {
    return check_graph(v, n);
  }
  static void pack(oompi::byte_buffer& out, const value& v) {
    packer w{out};
    w.put(static_cast<std::uint8_t>(v ? 1 : 0));
    if (v) hand_pack_tree(w, v.get());
  }
  static void unpack(const std::byte* p, value& v) {
    unpacker r{p};
    v = r.get<std::uint8_t>() ? hand_unpack_tree(r) : nullptr;
  }
#if defined(OOMPI_BENCH_HAVE_BOOST)
  using bvalue = std::shared_ptr<btnode>;
#endif
};

struct dag_shape : tree_shape {
  static constexpr const char* bench = "objects_dag";
  template <class V>
  static V make(int n) {
    return make_dag<typename V::element_type>(n);
  }
  static void pack(oompi::byte_buffer& out, const value& v) {
    packer w{out};
    std::uint32_t count = 0;
    ++g_visit;
    hand_pack_dag(w, v.get(), count);
  }
  static void unpack(const std::byte* p, value& v) {
    unpacker r{p};
    thread_local std::vector<std::shared_ptr<tnode>> met;
    v = hand_unpack_dag(r, met);
    met.clear();
  }
};

struct records_shape {
  using value = std::vector<record>;
  using cvalue = std::vector<record>;
  static constexpr const char* bench = "objects_records";
  template <class V>
  static V make(int n) {
    return make_records<typename V::value_type>(n);
  }
  template <class V>
  static bool check(const V& v, int n) {
    return check_records(v, n);
  }
  static void pack(oompi::byte_buffer& out, const value& v) {
    packer w{out};
    hand_pack_records(w, v);
  }
  static void unpack(const std::byte* p, value& v) {
    unpacker r{p};
    hand_unpack_records(r, v);
  }
#if defined(OOMPI_BENCH_HAVE_BOOST)
  using bvalue = std::vector<brecord>;
#endif
};

// --- systems ------------------------------------------------------------------------------------

using context = oompi_bench::pair_context;
using system = oompi_bench::object_system<context>;

template <class V>
void send_bytes(context& c, const V& bytes) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, c.peer, 0, MPI_COMM_WORLD);
}
template <class V>
void recv_bytes(context& c, V& in) {
  oompi_bench::recv_any_size(c.peer, MPI_BYTE, in);
}

// Rank 0 sends `mine` and receives `got`; rank 1 receives `got` and sends it back. Every system
// frees what it received last time before it receives again.
template <class V, class Send, class Recv>
void round_trip(context& c, const V& mine, V& got, Send send, Recv recv) {
  if (c.rank == 0) {
    send(mine);
    got = V();
    recv(got);
  } else {
    got = V();
    recv(got);
    send(got);
  }
}

template <class Shape>
std::vector<system> systems_of() {
  using V = typename Shape::value;
  std::vector<system> out;
  {
    struct state {
      V mine, got;
      oompi::byte_buffer out, in;
    };
    auto s = std::make_shared<state>();
    out.push_back({"hand_packed", "fields packed by hand into one byte buffer, MPI_Send, MPI_Mrecv, rebuilt",
                   [s](context& c, int n) { if (c.rank == 0) s->mine = Shape::template make<V>(n); },
                   [s](context& c) {
                     round_trip(c, s->mine, s->got,
                                [&](const V& v) { s->out.clear(); Shape::pack(s->out, v); send_bytes(c, s->out); },
                                [&](V& v) { recv_bytes(c, s->in); Shape::unpack(s->in.data(), v); });
                   },
                   [s] {
                     s->out.clear();
                     Shape::pack(s->out, s->mine);
                     s->got = V();
                     Shape::unpack(s->out.data(), s->got);
                   },
                   [s](int n) { return Shape::check(s->got, n); },
                   [s] { s->mine = V(); s->got = V(); }});
  }
  {
    struct state {
      V mine, got;
      oompi::byte_buffer buf;
    };
    auto s = std::make_shared<state>();
    out.push_back({"oompi", "oompi world.osend(value, peer) / world.orecv<T>(peer)",
                   [s](context& c, int n) { if (c.rank == 0) s->mine = Shape::template make<V>(n); },
                   [s](context& c) {
                     round_trip(c, s->mine, s->got, [&](const V& v) { c.world.osend(v, c.peer); },
                                [&](V& v) { v = c.world.orecv<V>(c.peer); });
                   },
                   [s] {  // what osend and orecv do around MPI
                     using codec = oompi::detail::object_codec<V>;
                     s->buf.clear();
                     codec::save(s->buf, s->mine);
                     s->got = V();
                     codec::load(s->buf.data(), s->buf.size(), s->got);
                   },
                   [s](int n) { return Shape::check(s->got, n); },
                   [s] { s->mine = V(); s->got = V(); }});
  }
  {
    using C = typename Shape::cvalue;
    struct state {
      C mine, got;
      std::string in;
    };
    auto s = std::make_shared<state>();
    auto save = [](const C& v) {
      std::ostringstream os;
      {
        cereal::BinaryOutputArchive ar(os);
        ar(v);
      }
      return os.str();
    };
    auto load = [](C& v, const std::string& in) {
      std::istringstream is(in);
      cereal::BinaryInputArchive ar(is);
      ar(v);
    };
    out.push_back({"cereal", "cereal BinaryOutputArchive over std::ostringstream, shared_ptr nodes",
                   [s](context& c, int n) { if (c.rank == 0) s->mine = Shape::template make<C>(n); },
                   [s, save, load](context& c) {
                     round_trip(c, s->mine, s->got, [&](const C& v) { send_bytes(c, save(v)); },
                                [&](C& v) { recv_bytes(c, s->in); load(v, s->in); });
                   },
                   [s, save, load] {
                     const std::string bytes = save(s->mine);
                     s->got = C();
                     load(s->got, bytes);
                   },
                   [s](int n) { return Shape::check(s->got, n); },
                   [s] { s->mine = C(); s->got = C(); }});
  }
#if defined(OOMPI_BENCH_HAVE_BOOST)
  {
    using B = typename Shape::bvalue;
    struct state {
      B mine, got;
    };
    auto s = std::make_shared<state>();
    out.push_back({"boost", "Boost.MPI world.send / recv, Boost.Serialization, std::shared_ptr nodes",
                   [s](context& c, int n) { if (c.rank == 0) s->mine = Shape::template make<B>(n); },
                   [s](context& c) {
                     round_trip(c, s->mine, s->got, [&](const B& v) { c.bworld.send(c.peer, 0, v); },
                                [&](B& v) { c.bworld.recv(c.peer, 0, v); });
                   },
                   [s] {  // what Boost.MPI's send and recv of a serialized value do around MPI
                     boost::mpi::packed_oarchive::buffer_type buf;
                     boost::mpi::packed_oarchive oa(MPI_COMM_WORLD, buf);
                     oa << s->mine;
                     s->got = B();
                     boost::mpi::packed_iarchive ia(MPI_COMM_WORLD, buf);
                     ia >> s->got;
                   },
                   [s](int n) { return Shape::check(s->got, n); },
                   [s] { s->mine = B(); s->got = B(); }});
  }
#endif
  return out;
}

// --- measuring ------------------------------------------------------------------------------------

struct shape_info {
  const char* which;
  const char* title;
  const char* case_label;
  std::vector<std::string> sizes;
};

template <class Shape>
bool run_shape(context& c, const oompi_bench::options& opt, const shape_info& info, bool only,
               oompi_bench::sink& out, double seconds) {
  const bool quick = opt.has("quick");
  const long rounds = opt.get_int("rounds", quick ? 3 : 40);
  const long first_round = opt.get_int("first-round", 0);
  const double block_ms = opt.get_double("block-ms", quick ? 1.0 : 5.0);
  std::vector<int> sizes;
  for (const auto& s : only ? opt.get_list("sizes", info.sizes) : info.sizes) sizes.push_back(std::stoi(s));

  auto all = systems_of<Shape>();
  const std::vector<system*> systems = oompi_bench::select_systems(all, opt);
  if (systems.empty() || sizes.empty()) return false;

  if (c.rank == 0) {
    std::vector<std::string> names;
    std::string labels = "{";
    for (const auto* s : systems) {
      names.push_back(s->name);
      labels += std::string(labels.size() > 1 ? "," : "") + oompi_bench::json_string(s->name) +
                ":" + oompi_bench::json_string(s->label);
    }
    labels += "}";
    std::string targets = "[";
    for (const int n : sizes)
      for (const char* m : {"roundtrip_us", "local_us"})
        targets += std::string(targets.size() > 1 ? "," : "") + "{\"metric\":\"" + m +
                   "\",\"case\":\"" + std::to_string(n) +
                   "\",\"system\":\"oompi\",\"max_ratio\":1.3,\"text\":\"issue 28: " + info.which +
                   " of " + std::to_string(n) + (m[0] == 'l' ? ", encode + decode," : ", round trip,") +
                   " ≤ 1.3× the hand-packed floor\"}";
    targets += "]";
    out.add(oompi_bench::record()
                .str("type", "meta")
                .str("bench", Shape::bench)
                .str("title", info.title)
                .str("baseline", "hand_packed")
                .raw("systems", oompi_bench::json_list(names))
                .raw("system_labels", labels)
                .str("case_label", info.case_label)
                .raw("metrics",
                     "{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":"
                     "\"lower\",\"plot\":\"loglog\"},\"local_us\":{\"label\":\"encode + decode "
                     "on one rank, no MPI\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":"
                     "\"loglog\"}}")
                .raw("targets", targets)
                .str("mpi", oompi_bench::mpi_library_version())
                .raw("notes", oompi_bench::json_list(
                                  {"Round trip = rank 0 sends its value, rank 1 receives it (a new "
                                   "one), sends that back, rank 0 receives it; encoding, allocation "
                                   "and freeing included. Systems interleaved block by block, order "
                                   "shuffled every round; ratios are medians of per-round ratios.",
                                   "local_us: the same work without MPI on rank 0 while rank 1 "
                                   "sleeps: encode as the system's send does, decode as its receive "
                                   "does, free the previous copy."})));
  }

  return oompi_bench::run_rounds(
      c, systems, sizes, {rounds, first_round, block_ms, seconds},
      [&](int n, std::size_t k, long round, double roundtrip_s, double local_s) {
        out.sample(Shape::bench, std::to_string(n), systems[k]->name, round, "roundtrip_us", roundtrip_s * 1e6);
        out.sample(Shape::bench, std::to_string(n), systems[k]->name, round, "local_us", local_s * 1e6);
      },
      [&](const system& s, int n) {
        out.add(oompi_bench::record()
                    .str("type", "error")
                    .str("bench", Shape::bench)
                    .str("text", std::string(s.name) + ": the value came back wrong at N = " +
                                     std::to_string(n)));
      });
}

int run(const oompi_bench::options& opt) {
  context c;
  if (!c.open("bench_object_graphs")) return 2;
  const auto which = opt.get_list("which", {"tree", "records", "dag"});
  const bool only = which.size() == 1;
  const double seconds = opt.get_double("max-seconds", opt.has("quick") ? 3 : 80);  // per shape
  oompi_bench::sink out;
  bool ok = true;
  for (const auto& w : which) {
    if (w == "tree")
      ok &= run_shape<tree_shape>(c, opt, {"tree", "Binary tree of N nodes {int id; double; 8-12 char string; left; right}, round trip between 2 ranks", "tree nodes N", {"255", "4095", "65535"}}, only, out, seconds);
    else if (w == "records")
      ok &= run_shape<records_shape>(c, opt, {"records", "Vector of N flat records {int64; 10-20 char string; double[4]; bool}, round trip between 2 ranks", "records N", {"1000", "100000"}}, only, out, seconds);
    else if (w == "dag")
      ok &= run_shape<dag_shape>(c, opt, {"DAG", "DAG of N tree nodes, subtrees shared by two parents below level 7, round trip between 2 ranks", "DAG nodes N", {"255", "4095", "65535"}}, only, out, seconds);
    else
      ok = false;
  }
  if (c.rank == 0) out.flush();
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  // The measuring thread makes all MPI calls; the main thread only waits for it.
  oompi::environment env(argc, argv, oompi::thread_level::serialized);
  const oompi_bench::options opt(argc, argv);
  return oompi_bench::run_on_big_stack("bench_object_graphs", opt,
                                       [](const oompi_bench::options& o) { return run(o); });
}
