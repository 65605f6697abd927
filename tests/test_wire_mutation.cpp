// The wire v1 decoder under bad input, in the default suite (no clang, no libFuzzer): valid
// messages of every type the fuzz target reads (fuzz/wire_targets.hpp), mutated
// deterministically more than 10^5 times, must each decode or throw serialization_error; and
// 10^5-deep nesting that no loop can absorb (a reference that is not the last field, nested
// containers) must round-trip or throw serialization_error, on the main thread, a std::thread
// and a thread with a 256 KiB stack. A crash or sanitizer report fails the test (it runs in the
// ASan build too: scripts/sanitize.sh).

#include <catch2/catch.hpp>
#include <oompi/serialization.hpp>

#include "../fuzz/wire_targets.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using bytes = std::vector<std::uint8_t>;

struct seed {
  std::uint8_t type;  // fz::decode's selector
  bytes message;
};

bytes encoded(const std::vector<std::byte>& b) {
  bytes out(b.size());
  if (!b.empty()) std::memcpy(out.data(), b.data(), b.size());
  return out;
}

// The seed corpus of the fuzz target (selector byte first), and larger messages made here.
std::vector<seed> seeds() {
  std::vector<seed> out;
  const std::string dir = OOMPI_SOURCE_DIR "/fuzz/corpus/";
  for (const char* name : {"chain", "compact_chain", "ints", "list", "map", "mixed", "nest", "nested_strings",
                           "shape", "string", "tree", "unode"}) {
    std::ifstream in(dir + name + ".bin", std::ios::binary);
    REQUIRE(in.good());
    bytes raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!raw.empty());
    out.push_back({raw[0], bytes(raw.begin() + 1, raw.end())});
  }
  {  // five list nodes: shared `other`s, a cycle through `next`
    std::vector<std::shared_ptr<fz::list_node>> n;
    for (int i = 0; i < 5; ++i) {
      n.push_back(std::make_shared<fz::list_node>());
      n.back()->data = {i, -i, i * 1000};
    }
    for (int i = 0; i < 5; ++i) {
      n[i]->next = n[(i + 1) % 5];
      n[i]->other = n[(i * 3) % 5];
    }
    out.push_back({0, encoded(oompi::to_bytes(n[0]))});
    for (auto& p : n) p->next.reset(), p->other.reset();
  }
  {  // a linear chain of eight: three nodes, then a cycle of five
    std::vector<std::shared_ptr<fz::chain>> n;
    for (int i = 0; i < 8; ++i) {
      n.push_back(std::make_shared<fz::chain>());
      n.back()->data = {i, i * 7};
      n.back()->name = std::string(static_cast<std::size_t>(i % 3), 'c');
      if (i > 0) n[i - 1]->next = n.back();
    }
    n.back()->next = n[3];
    out.push_back({10, encoded(oompi::to_bytes(n[0]))});
    oompi::byte_buffer compact;  // and as a compact chain (wire 1.1)
    oompi::wire::save_compact(compact, n[0]);
    out.push_back({10, encoded({compact.data(), compact.data() + compact.size()})});
    for (auto& p : n) p->next.reset();
  }
  {
    fz::shape s;
    s.name = "hexagon";
    s.id = -7;
    s.closed = true;
    for (int i = 0; i < 6; ++i) s.corners.push_back({i * 1.5, -i * 0.5});
    s.tags = {1, 2, 3, 4};
    out.push_back({1, encoded(oompi::to_bytes(s))});
  }
  {  // three levels, shared children, parents
    auto root = std::make_shared<fz::tree>();
    for (int i = 0; i < 3; ++i) {
      auto k = std::make_shared<fz::tree>();
      k->value = i;
      k->parent = root;
      root->kids.push_back(k);
      k->kids.push_back(std::make_shared<fz::tree>());
      k->kids.back()->parent = k;
    }
    root->kids.push_back(root->kids[1]);
    out.push_back({4, encoded(oompi::to_bytes(root))});
    fz::cut(std::move(root));
  }
  {
    fz::unode u{"top", nullptr, nullptr};
    fz::unode* c = &u;
    for (int i = 0; i < 4; ++i) {
      c->child = std::make_unique<fz::unode>(fz::unode{"c" + std::to_string(i), nullptr, nullptr});
      c->next = std::make_unique<fz::unode>(fz::unode{"n", nullptr, nullptr});
      c = c->child.get();
    }
    out.push_back({5, encoded(oompi::to_bytes(u))});
  }
  {
    fz::nest n;
    n.inner.resize(2);
    n.inner[0].inner.resize(1);
    n.inner[0].inner[0].label = "deep";
    n.inner[1].label = "";
    out.push_back({6, encoded(oompi::to_bytes(n))});
  }
  {
    fz::mixed m;
    m.a = std::make_shared<int>(42);
    m.fixed = {7, 8, 9};
    m.t = std::make_tuple(false, std::int8_t{-3}, std::string("tuple"));
    out.push_back({7, encoded(oompi::to_bytes(m))});
  }
  out.push_back({8, encoded(oompi::to_bytes(std::map<std::string, std::vector<double>>{
                        {"a", {1, 2}}, {"bb", {}}, {"ccc", {3.5, -1, 0}}}))});
  out.push_back({9, encoded(oompi::to_bytes(std::vector<std::vector<std::string>>{
                        {"x", "yy"}, {}, {"", "zzz", "w"}}))});
  out.push_back({2, encoded(oompi::to_bytes(std::vector<std::int32_t>(40, -5)))});
  out.push_back({3, encoded(oompi::to_bytes(std::string(100, 'q')))});
  return out;
}

// splitmix64: the same mutations on every run and platform.
struct rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

template <class U>
void put(bytes& m, std::size_t at, U v) {  // little-endian, clipped at the end
  for (std::size_t i = 0; i < sizeof(U) && at + i < m.size(); ++i)
    m[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void mutate(bytes& m, rng& r) {
  static const std::uint32_t words[] = {0xffffffffu, 0x80000000u, 0x80000001u, 0x80000002u,
                                        0x80000063u, 0x7fffffffu, 1u, 2u, 3u, 0x10000u};
  static const std::uint64_t sizes[] = {~0ull, 1ull << 63, 1ull << 62, 1ull << 32, 0xffffffffull,
                                        1ull << 40, 1ull << 20, 0x7fffffffull, 65536, 2};
  const std::size_t n = m.size();
  switch (r.below(10)) {
    case 0:  // flip a bit
      if (n) m[r.below(n)] ^= static_cast<std::uint8_t>(1u << r.below(8));
      break;
    case 1: {  // set a byte
      static const std::uint8_t values[] = {0, 1, 0x7f, 0x80, 0xff};
      if (n) m[r.below(n)] = r.below(2) ? values[r.below(5)] : static_cast<std::uint8_t>(r.next());
      break;
    }
    case 2:  // truncate
      m.resize(r.below(n + 1));
      break;
    case 3: {  // insert 1 to 8 bytes
      const std::size_t at = r.below(n + 1), k = 1 + r.below(8);
      bytes ins(k);
      for (auto& b : ins) b = static_cast<std::uint8_t>(r.next());
      m.insert(m.begin() + static_cast<std::ptrdiff_t>(at), ins.begin(), ins.end());
      break;
    }
    case 4:  // a reference id or 32-bit field
      if (n) put(m, r.below(n), words[r.below(std::size(words))]);
      break;
    case 5:  // a size field set huge (or small)
      if (n) put(m, r.below(n), sizes[r.below(std::size(sizes))]);
      break;
    case 6: {  // a chunk repeated, up to 2000 times (deeper nesting, repeated references)
      if (!n) break;
      const std::size_t a = r.below(n), len = 1 + r.below(std::min<std::size_t>(n - a, 16));
      const std::size_t times = r.below(4) == 0 ? 1 + r.below(2000) : 1 + r.below(4);
      bytes chunk(m.begin() + static_cast<std::ptrdiff_t>(a),
                  m.begin() + static_cast<std::ptrdiff_t>(a + len));
      bytes rep;
      for (std::size_t i = 0; i < times; ++i) rep.insert(rep.end(), chunk.begin(), chunk.end());
      m.insert(m.begin() + static_cast<std::ptrdiff_t>(a), rep.begin(), rep.end());
      break;
    }
    case 7: {  // delete a chunk
      if (!n) break;
      const std::size_t a = r.below(n), len = 1 + r.below(std::min<std::size_t>(n - a, 16));
      m.erase(m.begin() + static_cast<std::ptrdiff_t>(a),
              m.begin() + static_cast<std::ptrdiff_t>(a + len));
      break;
    }
    case 8: {  // copy a chunk over another place
      if (n < 2) break;
      const std::size_t a = r.below(n), b = r.below(n);
      const std::size_t len = 1 + r.below(std::min<std::size_t>(n - std::max(a, b), 16));
      std::memmove(m.data() + b, m.data() + a, len);
      break;
    }
    default:  // an unrelated random byte run
      for (std::size_t i = 0, k = 1 + r.below(4); i < k && n; ++i)
        m[r.below(n)] = static_cast<std::uint8_t>(r.next());
      break;
  }
}

struct tally {
  std::size_t runs = 0, accepted = 0, rejected = 0, wrong = 0;
  std::string first_wrong;
};

// One decode: success or serialization_error; any other exception is counted as wrong.
void run_one(tally& t, std::uint8_t type, const bytes& m, const char* how) {
  ++t.runs;
  try {
    fz::decode(type, m.data(), m.size());
    ++t.accepted;
  } catch (const oompi::serialization_error&) {
    ++t.rejected;
  } catch (const std::exception& e) {
    if (t.wrong++ == 0)
      t.first_wrong = std::string(how) + " on type " + std::to_string(type) + ": " + e.what();
  }
}

}  // namespace

TEST_CASE("10^5 mutations of valid wire messages decode or throw serialization_error") {
  const std::vector<seed> all = seeds();
  tally t;
  for (const seed& s : all) {  // the valid messages themselves decode
    run_one(t, s.type, s.message, "seed");
    CHECK(t.accepted == t.runs);
  }
  for (const seed& s : all) {  // every truncation and every single-bit flip
    for (std::size_t k = 0; k < s.message.size(); ++k)
      run_one(t, s.type, bytes(s.message.begin(), s.message.begin() + static_cast<std::ptrdiff_t>(k)),
              "truncation");
    for (std::size_t bit = 0; bit < s.message.size() * 8; ++bit) {
      bytes m = s.message;
      m[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      run_one(t, s.type, m, "bit flip");
    }
  }
  const std::size_t systematic = t.runs;
  rng r{0x0dd5eedull};
  for (std::size_t i = 0; i < 100000; ++i) {  // one to four stacked random mutations
    const seed& s = all[i % all.size()];
    bytes m = s.message;
    for (std::size_t k = 0, times = 1 + r.below(4); k < times; ++k) mutate(m, r);
    // also read the bytes as another type, now and then
    run_one(t, r.below(16) == 0 ? static_cast<std::uint8_t>(r.below(fz::type_count)) : s.type, m,
            "random mutation");
  }
  std::printf("wire mutation: %zu decodes (%zu systematic), %zu accepted, %zu rejected, %zu wrong\n",
              t.runs, systematic, t.accepted, t.rejected, t.wrong);
  CHECK(t.runs >= 100000u);
  CHECK(t.rejected > t.runs / 2);  // the mutations do reach the checks
  INFO(t.first_wrong);
  CHECK(t.wrong == 0);
}

// --- nesting the decoder cannot turn into a loop ----------------------------------------------

namespace deep {

struct back {  // the reference is the first field, not the last: recursion
  std::shared_ptr<back> prev;
  std::int32_t value = 0;
};
OOMPI_TRANSPORTABLE(back, prev, value);

struct owner {  // the same through unique_ptr
  std::unique_ptr<owner> child;
  std::string name;
};
OOMPI_TRANSPORTABLE(owner, child, name);

struct nest {  // containers in containers
  std::vector<nest> inner;
  std::int32_t tag = 0;
};
OOMPI_TRANSPORTABLE(nest, inner, tag);


void put32(bytes& b, std::uint32_t v) {
  b.resize(b.size() + 4);
  put(b, b.size() - 4, v);
}
void put64(bytes& b, std::uint64_t v) {
  b.resize(b.size() + 8);
  put(b, b.size() - 8, v);
}
std::uint32_t wire_new(std::uint32_t id) { return oompi::wire::new_object_flag | id; }

// Frees a chain iteratively (the destructors would recurse `depth` deep).
void dismantle(std::shared_ptr<back> p) {
  while (p) p = std::move(p->prev);
}
void dismantle(std::unique_ptr<owner> p) {
  while (p) p = std::move(p->child);
}
void dismantle(nest& n) { fz::cut_nested(n); }

struct outcome {
  int round_trips = 0, errors = 0, wrong = 0;
  std::string what;
};

template <class F>
void expect(outcome& o, F&& f) {
  try {
    o.round_trips += f() ? 1 : 0;
  } catch (const oompi::serialization_error&) {
    ++o.errors;
  } catch (const std::exception& e) {
    ++o.wrong;
    o.what = e.what();
  }
}

// Each case either round-trips (checked) or throws serialization_error.
outcome run_all(std::uint32_t depth) {
  outcome o;
  expect(o, [depth] {  // back{prev: back{prev: ... null, value}, value}: new ids 1 .. depth
    bytes b;
    for (std::uint32_t i = 1; i <= depth; ++i) put32(b, wire_new(i));
    put32(b, 0);
    for (std::uint32_t i = depth; i >= 1; --i) put32(b, i);  // values, innermost first
    auto head = oompi::from_bytes<std::shared_ptr<back>>(b.data(), b.size());
    std::uint32_t n = 0;
    bool ok = true;
    for (const back* p = head.get(); p; p = p->prev.get()) ok &= p->value == static_cast<int>(++n);
    dismantle(std::move(head));
    return ok && n == depth;
  });
  expect(o, [depth] {  // the same chain built in memory and written
    std::shared_ptr<back> head;
    for (std::uint32_t i = 0; i < depth; ++i)
      head = std::make_shared<back>(back{std::move(head), static_cast<std::int32_t>(i)});
    struct guard {
      std::shared_ptr<back>& h;
      ~guard() { dismantle(std::move(h)); }
    } g{head};
    const auto b = oompi::to_bytes(head);
    auto again = oompi::from_bytes<std::shared_ptr<back>>(b);
    const bool ok = again && again->value == static_cast<int>(depth - 1);
    dismantle(std::move(again));
    return ok;
  });
  expect(o, [depth] {  // owner{child: owner{child: ...}, name}
    bytes b;
    for (std::uint32_t i = 1; i <= depth; ++i) put32(b, wire_new(i));
    put32(b, 0);
    for (std::uint32_t i = 0; i < depth; ++i) put64(b, 0);  // empty names
    auto u = oompi::from_bytes<std::unique_ptr<owner>>(b.data(), b.size());
    std::uint32_t n = 0;
    for (const owner* p = u.get(); p; p = p->child.get()) ++n;
    dismantle(std::move(u));
    return n == depth;
  });
  expect(o, [depth] {  // nest{inner: [nest{inner: [ ... ], tag}], tag}
    bytes b;
    for (std::uint32_t i = 0; i < depth; ++i) put64(b, 1);
    put64(b, 0);
    for (std::uint32_t i = 0; i <= depth; ++i) put32(b, 7);
    auto n = oompi::from_bytes<nest>(b.data(), b.size());
    std::uint32_t levels = 0;
    for (const nest* p = &n; !p->inner.empty(); p = &p->inner[0]) ++levels;
    dismantle(n);
    return levels == depth;
  });
  expect(o, [depth] {  // a deep nest cut short: rejected
    bytes b;
    for (std::uint32_t i = 0; i < depth; ++i) put64(b, 1);
    auto n = oompi::from_bytes<nest>(b.data(), b.size());  // truncated: must be rejected
    dismantle(n);
    return false;
  });
  return o;
}

}  // namespace deep

TEST_CASE("10^5-deep nesting round-trips or throws serialization_error, on any thread") {
  auto check = [](const deep::outcome& o, const char* where) {
    std::printf("deep nesting, %s: %d round trips, %d serialization errors\n", where,
                o.round_trips, o.errors);
    INFO(where << ": " << o.round_trips << " round trips, " << o.errors << " errors, "
               << o.wrong << " other (" << o.what << ")");
    CHECK(o.wrong == 0);
    CHECK(o.round_trips + o.errors == 5);
    CHECK(o.errors >= 1);  // at least the truncated one
  };
  // The byte streams are right: 1000 levels round-trip (all but the truncated one).
  const deep::outcome shallow = deep::run_all(1000);
  CHECK(shallow.round_trips == 4);
  check(shallow, "1000 levels");
  constexpr std::uint32_t depth = 100000;
  check(deep::run_all(depth), "main thread");
  deep::outcome in_thread;
  std::thread([&] { in_thread = deep::run_all(depth); }).join();  // default stack (8 MiB)
  check(in_thread, "std::thread");

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  deep::outcome small;
  pthread_t t;
  REQUIRE(pthread_create(
              &t, &attr,
              [](void* arg) -> void* {
                *static_cast<deep::outcome*>(arg) = deep::run_all(100000);
                return nullptr;
              },
              &small) == 0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  check(small, "256 KiB pthread");
  CHECK(small.errors >= 4);  // nothing 10^5 deep fits in 256 KiB
}
