// Lists at the root of a message, without communication (every rank runs the same checks):
// linear chains (no identity table, the general path's bytes) and compact chains (wire 1.1),
// their golden file, every shape, and their bad input.

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

// --- linear chains: a root std::shared_ptr to a type whose only reference is its last field ---

namespace linear {
struct lnode {
  static inline int live = 0;
  lnode() { ++live; }
  lnode(const lnode&) = delete;
  lnode& operator=(lnode&&) = default;
  ~lnode() { --live; }
  std::vector<std::int32_t> data;
  std::string name;
  bool flag = false;
  std::shared_ptr<lnode> next;
};
OOMPI_TRANSPORTABLE(lnode, data, name, flag, next);

// n nodes; the last one's next is node `back` (a cycle), or null when back < 0.
std::vector<std::shared_ptr<lnode>> make(int n, int back) {
  std::vector<std::shared_ptr<lnode>> v;
  for (int i = 0; i < n; ++i) {
    v.push_back(std::make_shared<lnode>());
    v.back()->data.assign(static_cast<std::size_t>(i % 3), i);
    v.back()->name = std::string(static_cast<std::size_t>(i % 2), 'x');
    v.back()->flag = i % 2 == 1;
    if (i > 0) v[static_cast<std::size_t>(i) - 1]->next = v.back();
  }
  if (back >= 0 && n > 0) v.back()->next = v[static_cast<std::size_t>(back)];
  return v;
}
// The shape of a received list: its nodes' fields in order, then the index the last link goes
// back to (-1 for null). Breaks the list apart (iteratively) as it goes.
std::string shape_of(std::shared_ptr<lnode> head) {
  std::vector<lnode*> seen;
  std::string out;
  std::shared_ptr<lnode> keep = head;
  for (lnode* p = head.get(); p;) {
    const auto at = std::find(seen.begin(), seen.end(), p);
    if (at != seen.end()) return out + "->" + std::to_string(at - seen.begin());
    seen.push_back(p);
    out += "[" + std::to_string(p->data.size()) + p->name + (p->flag ? "t" : "f") + "]";
    p = p->next.get();
  }
  return out + "->-1";
}
void release(std::vector<std::shared_ptr<lnode>>& v) {
  for (auto& n : v) n->next.reset();
  v.clear();
}
void release(std::shared_ptr<lnode>& head) {
  std::vector<lnode*> seen;
  for (lnode* p = head.get(); p && std::find(seen.begin(), seen.end(), p) == seen.end();
       p = p->next.get())
    seen.push_back(p);
  std::vector<std::shared_ptr<lnode>> hold;
  for (lnode* p : seen) hold.push_back(p->next);  // keep each alive while its link is cut
  for (lnode* p : seen) p->next.reset();
  hold.clear();
  head.reset();
}
}  // namespace linear

TEST_CASE("linear chains use no identity table and keep the general path's bytes") {
  using linear::lnode;
  using oompi::wire::detail::linear_root;
  static_assert(linear_root<std::shared_ptr<lnode>>::value);
  static_assert(linear_root<std::shared_ptr<deep::chain>>::value);
  static_assert(!linear_root<std::shared_ptr<golden::list_node>>::value);  // `other` is a reference
  static_assert(!linear_root<std::shared_ptr<deep::head_first>>::value);   // link not last
  static_assert(!linear_root<std::shared_ptr<const lnode>>::value);
  static_assert(!linear_root<lnode>::value);  // by value: the general path
  // {nodes, index the last one links back to (-1: null)}: plain lists, a self loop, a full
  // cycle (Brent's mu = 0), rho shapes with tails of 1 and 3 before the cycle
  const std::vector<std::pair<int, int>> shapes = {{0, -1}, {1, -1}, {5, -1}, {1, 0}, {4, 0},
                                                  {7, 3},  {5, 4},  {2, 1},  {9, 1}};
  for (const auto& [n, back] : shapes) {
    CAPTURE(n, back);
    auto v = linear::make(n, back);
    std::shared_ptr<lnode> head = n ? v.front() : nullptr;
    oompi::byte_buffer general;
    {
      oompi::wire::output_archive ar(general);
      ar(head);  // through cereal's dispatch: the identity table
    }
    const bytes fast = oompi::to_bytes(head);
    REQUIRE(fast.size() == general.size());
    CHECK(std::memcmp(fast.data(), general.data(), fast.size()) == 0);
    const std::string expect = linear::shape_of(head);
    // read by the linear reader and by the general one
    auto a = oompi::from_bytes<std::shared_ptr<lnode>>(fast);
    std::shared_ptr<lnode> b;
    {
      oompi::wire::input_archive ar(fast.data(), fast.size());
      ar(b);
      ar.finish();
    }
    CHECK(linear::shape_of(a) == expect);
    CHECK(linear::shape_of(b) == expect);
    linear::release(a);
    linear::release(b);
    linear::release(v);
    head.reset();
    CHECK(lnode::live == 0);
  }
}

TEST_CASE("a linear chain's bad input is rejected and frees what it built") {
  using linear::lnode;
  auto v = linear::make(6, 2);
  const bytes good = oompi::to_bytes(v.front());
  linear::release(v);
  auto load = [](const bytes& b) {
    auto r = oompi::from_bytes<std::shared_ptr<lnode>>(b);
    linear::release(r);
  };
  // every truncation
  int rejected = 0;
  for (std::size_t n = 0; n < good.size(); ++n) {
    try {
      load(bytes(good.begin(), good.begin() + static_cast<long>(n)));
    } catch (const oompi::serialization_error&) {
      ++rejected;
    }
  }
  CHECK(rejected == static_cast<int>(good.size()));
  CHECK(lnode::live == 0);
  // the closing back-reference (last 4 bytes: id 3) names an object not yet read, or is 0x7fffffff
  for (std::uint32_t id : {7u, 0x7fffffffu}) {
    bytes b = good;
    std::memcpy(b.data() + b.size() - 4, &id, 4);
    CHECK_THROWS_AS(load(b), oompi::serialization_error);
    CHECK(lnode::live == 0);
  }
  // the closing link made a new object out of sequence (id 9 where 7 is due), or trailing bytes
  {
    bytes b = good;
    const std::uint32_t id = 0x80000009u;
    std::memcpy(b.data() + b.size() - 4, &id, 4);
    CHECK_THROWS_AS(load(b), oompi::serialization_error);
    b = good;
    b.push_back(std::byte{0});
    CHECK_THROWS_AS(load(b), oompi::serialization_error);
    CHECK(lnode::live == 0);
  }
  // a read that fails before its first reference leaves the receiving pointer alone; one that
  // fails later leaves it holding an emptied node, as the general reader does
  {
    auto old = std::make_shared<lnode>();
    old->name = "old";
    std::shared_ptr<lnode> target = old;
    CHECK_THROWS_AS(oompi::from_bytes(good.data(), 3, target), oompi::serialization_error);
    CHECK(target == old);
    CHECK(target->name == "old");
    CHECK_THROWS_AS(oompi::from_bytes(good.data(), good.size() - 1, target),
                    oompi::serialization_error);
    REQUIRE(target);
    CHECK(target != old);
    CHECK(target->data.empty());
    CHECK(target->next == nullptr);
    target.reset();
    old.reset();
    CHECK(lnode::live == 0);
  }
  // a cycle of 200000 nodes that fails at its last byte is freed without recursion
  {
    auto w = linear::make(200000, 0);
    const bytes big = oompi::to_bytes(w.front());
    linear::release(w);
    CHECK_THROWS_AS(load(bytes(big.begin(), big.end() - 1)), oompi::serialization_error);
    CHECK(lnode::live == 0);
  }
}

namespace compact {
bytes save(const std::shared_ptr<linear::lnode>& head) {
  oompi::byte_buffer out;
  oompi::wire::save_compact(out, head);
  return bytes(out.data(), out.data() + out.size());
}
std::string reject(const bytes& b) {  // the error a chain reader gives, "" if none
  try {
    auto r = oompi::from_bytes<std::shared_ptr<linear::lnode>>(b);
    linear::release(r);
  } catch (const oompi::serialization_error& e) {
    return e.what();
  }
  return "";
}
bytes u32(std::uint32_t v) {
  bytes b(4);
  std::memcpy(b.data(), &v, 4);
  return b;
}
bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
bytes raw(std::initializer_list<int> v) {
  bytes out;
  for (int x : v) out.push_back(static_cast<std::byte>(x));
  return out;
}
}  // namespace compact

TEST_CASE("golden: compact chain (wire 1.1)") {
  using golden::chain_item;
  const bytes g = read_golden("compact_chain.bin");
  auto head = oompi::from_bytes<std::shared_ptr<chain_item>>(g);
  REQUIRE(head);
  REQUIRE(head->next);
  REQUIRE(head->next->next);
  const chain_item &a = *head, &b = *head->next, &c = *head->next->next;
  CHECK(a.name == "first");
  CHECK(a.id == -5);
  CHECK(a.flag);
  CHECK(a.weight == 0.5);
  CHECK(a.data == std::vector<std::int32_t>{1, 2, 3});
  CHECK(b.name.empty());
  CHECK(b.id == std::int64_t{1} << 40);
  CHECK(!b.flag);
  CHECK(b.weight == -2.25);
  REQUIRE(b.data.size() == 200);
  for (int i = 0; i < 200; ++i) CHECK(b.data[static_cast<std::size_t>(i)] == i);
  CHECK(c.name == "drei \xe2\x9c\x93");
  CHECK(c.id == 7);
  CHECK(c.flag);
  CHECK(c.weight == 1e300);
  CHECK(c.data.empty());
  CHECK(c.next == head->next);  // closes on node 2
  // the compact writer gives the file's bytes; C++'s default writer the 1.0 form, 45 bytes more
  oompi::byte_buffer out;
  oompi::wire::save_compact(out, head);
  CHECK(bytes(out.data(), out.data() + out.size()) == g);
  const bytes v10 = oompi::to_bytes(head);
  CHECK(v10.size() == 940);
  auto again = oompi::from_bytes<std::shared_ptr<chain_item>>(v10);
  CHECK(again->next->next->next == again->next);
  again->next->next->next.reset();
  head->next->next->next.reset();
}

TEST_CASE("compact chains round-trip in every shape, through shared and unique links") {
  using linear::lnode;
  using oompi::wire::detail::compact_root;
  static_assert(compact_root<std::shared_ptr<lnode>>::value);
  static_assert(compact_root<std::unique_ptr<graph::unode>>::value);
  static_assert(compact_root<std::shared_ptr<deep::chain>>::value);
  static_assert(!compact_root<std::shared_ptr<golden::list_node>>::value);  // two references
  static_assert(!compact_root<std::shared_ptr<golden::shape>>::value);  // no link
  static_assert(!compact_root<lnode>::value);
  // roots that are references to values, not structs, still compile and travel as in 1.0
  static_assert(!compact_root<std::shared_ptr<int>>::value);
  static_assert(!compact_root<std::unique_ptr<std::string>>::value);
  CHECK(*round_trip(std::make_shared<int>(5)) == 5);
  CHECK(*round_trip(std::make_unique<std::string>("x")) == "x");
  const std::vector<std::pair<int, int>> shapes = {{1, -1}, {5, -1}, {1, 0}, {4, 0},
                                                  {7, 3},  {5, 4},  {2, 1}, {9, 1}};
  for (const auto& [n, back] : shapes) {
    CAPTURE(n, back);
    auto v = linear::make(n, back);
    const std::string expect = linear::shape_of(v.front());
    const bytes b = compact::save(v.front());
    CHECK(b.size() < oompi::to_bytes(v.front()).size());
    auto got = oompi::from_bytes<std::shared_ptr<lnode>>(b);
    CHECK(linear::shape_of(got) == expect);
    linear::release(got);
    linear::release(v);
    CHECK(lnode::live == 0);
  }
  CHECK(compact::save(nullptr) == compact::u32(0));  // a null root: the 1.0 null reference
  // 10^6 nodes with sizes of 0 ... 299 (one- and two-byte varints): no recursion either way
  {
    std::vector<std::shared_ptr<lnode>> v;
    std::shared_ptr<lnode> head;
    for (int i = 0; i < 1000000; ++i) {
      auto node = std::make_shared<lnode>();
      node->data.assign(static_cast<std::size_t>(i % 300 == 7 ? 299 : 0), i);
      node->next = std::move(head);
      head = std::move(node);
    }
    const bytes b = compact::save(head);
    auto got = oompi::from_bytes<std::shared_ptr<lnode>>(b);
    std::size_t count = 0, ints = 0;
    for (lnode* p = got.get(); p; p = p->next.get()) ++count, ints += p->data.size();
    CHECK(count == 1000000);
    CHECK(ints == 299u * 3334);
    while (got) got = std::move(got->next);
    while (head) head = std::move(head->next);
    CHECK(lnode::live == 0);
  }
  // unique links: a list reads; a cycle cannot
  {
    using graph::unode;
    auto u = std::make_unique<unode>();
    u->name = "a";
    u->next = std::make_unique<unode>();
    u->next->name = std::string(130, 'b');
    oompi::byte_buffer out;
    oompi::wire::save_compact(out, u);
    const bytes b(out.data(), out.data() + out.size());
    auto got = oompi::from_bytes<std::unique_ptr<unode>>(b);
    REQUIRE(got);
    REQUIRE(got->next);
    CHECK(got->name == "a");
    CHECK(got->next->name == std::string(130, 'b'));
    CHECK(got->next->next == nullptr);
    bytes cyc = b;
    std::memcpy(cyc.data() + 8, compact::u32(1).data(), 4);  // close = 1
    try {
      (void)oompi::from_bytes<std::unique_ptr<unode>>(cyc);
      FAIL("a cycle was read into std::unique_ptr links");
    } catch (const oompi::serialization_error& e) {
      CHECK(std::string(e.what()).find("std::unique_ptr") != std::string::npos);
    }
  }
}

TEST_CASE("a compact chain's bad input is rejected and frees what it built") {
  using linear::lnode;
  using compact::cat;
  using compact::raw;
  using compact::u32;
  auto v = linear::make(6, 2);
  const bytes good = compact::save(v.front());
  linear::release(v);
  int rejected = 0;
  for (std::size_t n = 0; n < good.size(); ++n)
    rejected += !compact::reject(bytes(good.begin(), good.begin() + static_cast<long>(n))).empty();
  CHECK(rejected == static_cast<int>(good.size()));
  CHECK(lnode::live == 0);
  const bytes marker = u32(0x80000000u);
  // node: data size (varint), ints; name size (varint), chars; flag
  const bytes node = raw({1, 7, 0, 0, 0, 1, 'x', 1});
  CHECK(compact::reject(cat({marker, u32(1), u32(0), node})).empty());  // the valid base
  const std::pair<bytes, const char*> bad[] = {
      {cat({marker, u32(0), u32(0)}), "0 nodes"},
      {cat({marker, u32(9), u32(0), node}), "9 nodes with only 8 bytes"},
      {cat({marker, u32(0x7fffffff), u32(0), node}), "bytes left"},
      {cat({marker, u32(1), u32(2), node}), "closing on node 2"},
      {cat({marker, u32(1), u32(0), raw({0x81, 0x00, 7, 0, 0, 0, 0, 0})}), "shortest form"},
      {cat({marker, u32(1), u32(0), raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                        0x02, 0})}), "2^64"},
      {cat({marker, u32(1), u32(0), raw({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                        0x81, 0})}), "2^64"},
      {cat({marker, u32(1), u32(0), raw({9, 7, 0, 0, 0, 0, 0})}), "a size of 9 with only 6"},
      {cat({marker, u32(1), u32(0), raw({1, 7, 0, 0, 0, 0, 2})}), "bool byte is 2"},
      {cat({marker, u32(1), u32(0), node, raw({0})}), "left over"},
      {cat({marker, u32(2), u32(0), node, marker}), ""},  // a marker where a node is due
  };
  for (const auto& [b, what] : bad) {
    CAPTURE(what);
    const std::string e = compact::reject(b);
    CHECK(!e.empty());
    CHECK(e.find(what) != std::string::npos);
    CHECK(lnode::live == 0);
  }
  // a compact chain where the type is not a chain type, or not at the start of the message
  try {
    (void)oompi::from_bytes<std::shared_ptr<golden::list_node>>(
        cat({marker, u32(1), u32(0), raw({0})}));
    FAIL("a compact chain was read into a type with two references");
  } catch (const oompi::serialization_error& e) {
    CHECK(std::string(e.what()).find("compact chain") != std::string::npos);
  }
  CHECK_THROWS_AS(oompi::from_bytes<std::vector<std::shared_ptr<lnode>>>(
                      cat({raw({1, 0, 0, 0, 0, 0, 0, 0}), good})),
                  oompi::serialization_error);
  CHECK(lnode::live == 0);
  // a failure before the first node leaves the target alone; after it, an emptied node
  {
    auto old = std::make_shared<lnode>();
    old->name = "old";
    std::shared_ptr<lnode> target = old;
    CHECK_THROWS_AS(oompi::from_bytes(good.data(), 11, target), oompi::serialization_error);
    CHECK(target == old);
    CHECK_THROWS_AS(oompi::from_bytes(good.data(), good.size() - 1, target),
                    oompi::serialization_error);
    REQUIRE(target);
    CHECK(target != old);
    CHECK(target->name.empty());
    CHECK(target->next == nullptr);
    target.reset();
    old.reset();
    CHECK(lnode::live == 0);
  }
  // a cycle of 200000 nodes that fails at its last byte is freed without recursion
  {
    auto w = linear::make(200000, 0);
    const bytes big = compact::save(w.front());
    linear::release(w);
    CHECK(!compact::reject(bytes(big.begin(), big.end() - 1)).empty());
    CHECK(lnode::live == 0);
  }
}
