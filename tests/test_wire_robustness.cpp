// The wire decoder and encoder at their limits, without communication (every rank runs the same
// checks): deep graphs against the thread's stack, truncated, corrupt and random input, and
// what a failed read frees.

#include <catch2/catch.hpp>

#include <oompi/serialization.hpp>
#include <oompi/serialization/boost.hpp>

#include <boost/serialization/vector.hpp>
#include <cereal/archives/binary.hpp>
#include <cereal/types/memory.hpp>

#include <pthread.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "serialization_support.hpp"

// --- depth ------------------------------------------------------------------------------------

TEST_CASE("a list of 10^6 nodes round-trips") {
  auto head = deep::build<deep::chain>(1000000);
  const bytes b = oompi::to_bytes(head);
  CHECK(b.size() == 1000000u * 8 + 4);  // per node: id, value; then a null
  auto r = oompi::from_bytes<std::shared_ptr<deep::chain>>(b);
  std::size_t count = 0;
  bool in_order = true;
  for (auto* p = r.get(); p; p = p->next.get()) in_order &= p->value == static_cast<int>(count++);
  CHECK(count == 1000000u);
  CHECK(in_order);
  deep::dismantle(head);
  deep::dismantle(r);
}

TEST_CASE("a graph too deep for the stack fails with serialization_error") {
  auto head = deep::build<deep::head_first>(1000000);
  CHECK_THROWS_AS(oompi::to_bytes(head), oompi::serialization_error);
  deep::dismantle(head);

  // The same shape read from bytes: 10^6 nested new objects.
  bytes b;
  auto put32 = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(std::byte((v >> (8 * i)) & 0xff));
  };
  for (std::uint32_t i = 1; i <= 1000000; ++i) put32(0x80000000u | i);
  put32(0);
  for (int i = 0; i < 1000000; ++i) put32(0);
  CHECK_THROWS_AS(oompi::from_bytes<std::shared_ptr<deep::head_first>>(b),
                  oompi::serialization_error);

  // Nesting through containers: [ [ [ ... ] ] ], 8 bytes per level.
  bytes n;
  for (int i = 0; i < 500000; ++i) {
    n.push_back(std::byte{1});
    for (int j = 0; j < 7; ++j) n.push_back(std::byte{0});
  }
  for (int j = 0; j < 8; ++j) n.push_back(std::byte{0});
  CHECK_THROWS_AS(oompi::from_bytes<deep::nest>(n), oompi::serialization_error);
}

namespace {
struct thread_result {
  bool threw_serialization_error = false;
  bool other = false;
};
void* deep_on_small_stack(void* arg) {
  auto* result = static_cast<thread_result*>(arg);
  try {
    auto head = deep::build<deep::head_first>(20000);
    try {
      (void)oompi::to_bytes(head);
    } catch (const oompi::serialization_error&) {
      result->threw_serialization_error = true;
    }
    // destroying 20000 nodes recursively would not fit in this stack either
    deep::dismantle(head);
  } catch (...) {
    result->other = true;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("the depth limit follows the thread's stack size") {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  thread_result result;
  pthread_t t;
  REQUIRE(pthread_create(&t, &attr, &deep_on_small_stack, &result) == 0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  CHECK(result.threw_serialization_error);
  CHECK(!result.other);
  // A modest recursive depth is fine on the main thread.
  auto head = deep::build<deep::head_first>(1000);
  auto r = round_trip(head);
  CHECK(r->next->next->value == 2);
  deep::dismantle(head);
  deep::dismantle(r);
}

// --- bad input ------------------------------------------------------------------------------

TEST_CASE("every truncation of a valid stream is rejected") {
  const bytes g = read_golden("shared_cyclic_list.bin");
  int rejected = 0;
  for (std::size_t n = 0; n < g.size(); ++n) {
    try {
      auto r = oompi::from_bytes<std::shared_ptr<golden::list_node>>(g.data(), n);
      unlink(r);
    } catch (const oompi::serialization_error&) {
      ++rejected;
    }
  }
  CHECK(rejected == static_cast<int>(g.size()));
  const bytes s = read_golden("nested_struct.bin");
  for (std::size_t n = 0; n < s.size(); ++n)
    CHECK_THROWS_AS(oompi::from_bytes<golden::shape>(s.data(), n), oompi::serialization_error);
}

namespace counted {
struct cnode {
  static inline int live = 0;
  cnode() { ++live; }
  cnode(const cnode&) = delete;
  cnode& operator=(cnode&&) = default;
  ~cnode() { --live; }
  std::vector<std::int32_t> data;
  std::shared_ptr<cnode> other;
  std::unique_ptr<cnode> child;
  std::shared_ptr<cnode> next;
};
OOMPI_TRANSPORTABLE(cnode, data, other, child, next);
}  // namespace counted

TEST_CASE("a failed read frees everything it built, cycles included") {
  using counted::cnode;
  bytes good;
  {
    // a -> b -> c -> a (cycle), a.other = c, b.child unique, a long tail after c
    auto a = std::make_shared<cnode>(), b = std::make_shared<cnode>(), c = std::make_shared<cnode>();
    a->data = {1};
    a->next = b;
    a->other = c;
    b->next = c;
    b->child = std::make_unique<cnode>();
    b->child->child = std::make_unique<cnode>();
    c->next = a;
    good = oompi::to_bytes(a);
    c->next.reset();
  }
  REQUIRE(cnode::live == 0);
  int rejected = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    try {
      (void)oompi::from_bytes<std::shared_ptr<cnode>>(good.data(), n);
    } catch (const oompi::serialization_error&) {
      ++rejected;
    }
    if (cnode::live != 0) break;
  }
  CHECK(rejected == static_cast<int>(good.size()));
  CHECK(cnode::live == 0);
  // a long chain that fails at its end is freed without recursion
  {
    auto head = std::make_shared<cnode>();
    auto* p = head.get();
    for (int i = 0; i < 300000; ++i) {
      p->next = std::make_shared<cnode>();
      p = p->next.get();
    }
    good = oompi::to_bytes(head);
    while (head) head = std::move(head->next);
  }
  CHECK_THROWS_AS(oompi::from_bytes<std::shared_ptr<cnode>>(good.data(), good.size() - 1),
                  oompi::serialization_error);
  CHECK(cnode::live == 0);
}

TEST_CASE("corrupt streams are rejected with serialization_error") {
  using golden::list_node;
  const bytes g = read_golden("shared_cyclic_list.bin");
  auto with = [&](std::size_t at, std::uint32_t v) {
    bytes b = g;
    std::memcpy(b.data() + at, &v, 4);
    return b;
  };
  auto load = [](const bytes& b) { return oompi::from_bytes<std::shared_ptr<list_node>>(b); };
  // a reference to an object that has not appeared yet
  CHECK_THROWS_AS(load(with(36, 7)), oompi::serialization_error);
  // a new object out of sequence
  CHECK_THROWS_AS(load(with(20, 0x80000005u)), oompi::serialization_error);
  // a size far beyond the message
  {
    bytes b = g;
    b[11] = std::byte{0x7f};
    CHECK_THROWS_AS(load(b), oompi::serialization_error);
  }
  // trailing bytes
  {
    bytes b = g;
    b.push_back(std::byte{0});
    CHECK_THROWS_AS(load(b), oompi::serialization_error);
  }
  // a bool that is neither 0 nor 1
  {
    bytes s = read_golden("nested_struct.bin");
    s[24] = std::byte{2};
    CHECK_THROWS_AS(oompi::from_bytes<golden::shape>(s), oompi::serialization_error);
  }
  // a back-reference naming an object of another type
  {
    graph::mixed m;
    m.a = std::make_shared<int>(1);
    m.d = std::make_shared<double>(2);
    bytes b = oompi::to_bytes(m);  // new 1 + int, new 2 + double
    const std::uint32_t back = 1;  // d refers back to object 1, an int
    std::memcpy(b.data() + 8, &back, 4);
    b.resize(12);
    CHECK_THROWS_AS(oompi::from_bytes<graph::mixed>(b), oompi::serialization_error);
  }
  // a second reference into a unique_ptr field
  {
    graph::unode u;
    u.name = "a";
    u.next = std::make_unique<graph::unode>();
    bytes b = oompi::to_bytes(u);  // "a", new 1, "" , null
    b.resize(b.size() - 4);
    const std::uint32_t back = 1;
    const auto* p = reinterpret_cast<const std::byte*>(&back);
    b.insert(b.end(), p, p + 4);
    CHECK_THROWS_AS(oompi::from_bytes<graph::unode>(b), oompi::serialization_error);
  }
}

TEST_CASE("random corruption never crashes") {
  const bytes g = read_golden("shared_cyclic_list.bin");
  const bytes s = read_golden("nested_struct.bin");
  std::mt19937 rng(12345);
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    bytes b = round % 2 ? g : s;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) b[rng() % b.size()] = std::byte(rng() & 0xff);
    try {
      if (round % 2) {
        auto r = oompi::from_bytes<std::shared_ptr<golden::list_node>>(b);
        unlink(r);
      } else {
        (void)oompi::from_bytes<golden::shape>(b);
      }
      ++accepted;
    } catch (const oompi::serialization_error&) {
      ++rejected;
    }
  }
  CHECK(accepted + rejected == 20000);
  CHECK(rejected > 0);
}
