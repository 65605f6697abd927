// Wire format v1 and the serialization back ends, without communication (every rank runs the
// same checks): golden bytes, opt-in fields, graphs, std types, depth, bad input, type check,
// the Boost back end.

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

namespace golden {

struct point {
  double x = 0, y = 0;
  bool operator==(const point& o) const { return x == o.x && y == o.y; }
};
OOMPI_TRANSPORTABLE(point, x, y);

struct shape {
  std::string name;
  std::int64_t id = 0;
  bool closed = false;
  point origin;
  std::vector<point> corners;
  std::vector<std::int32_t> tags;
  float scale = 0;
  std::uint8_t layer = 0;
  std::int16_t depth = 0;
};
OOMPI_TRANSPORTABLE(shape, name, id, closed, origin, corners, tags, scale, layer, depth);

struct list_node {
  std::vector<std::int32_t> data;
  std::shared_ptr<list_node> other, next;
};
OOMPI_TRANSPORTABLE(list_node, data, other, next);

struct chain_item {  // a chain type (docs/wire-format.md 2.1): tests/golden/compact_chain.bin
  std::string name;
  std::int64_t id = 0;
  bool flag = false;
  double weight = 0;
  std::vector<std::int32_t> data;
  std::shared_ptr<chain_item> next;
};
OOMPI_TRANSPORTABLE(chain_item, name, id, flag, weight, data, next);

}  // namespace golden

namespace {

using bytes = std::vector<std::byte>;

// tests/golden, from CMake as in Java and C# (__FILE__ may be relative to the build directory,
// e.g. when ccache's base_dir rewrites the source path).
bytes read_golden(const std::string& name) {
  const std::string path = OOMPI_SOURCE_DIR "/tests/golden/" + name;
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes out(raw.size());
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

template <class T>
T round_trip(const T& value) {
  return oompi::from_bytes<T>(oompi::to_bytes(value));
}

// Breaks the cycles of a list_node graph so shared_ptr can free it.
void unlink(const std::shared_ptr<golden::list_node>& head) {
  std::vector<std::shared_ptr<golden::list_node>> seen;
  auto p = head;
  while (p && std::find(seen.begin(), seen.end(), p) == seen.end()) {
    seen.push_back(p);
    p = p->next;
  }
  for (auto& n : seen) n->other.reset(), n->next.reset();
}

}  // namespace

TEST_CASE("golden: int vector") {
  const std::vector<std::int32_t> v{1, -2, 3, 2147483647, -2147483647 - 1};
  const bytes g = read_golden("int_vector.bin");
  CHECK(oompi::to_bytes(v) == g);
  CHECK(oompi::from_bytes<std::vector<std::int32_t>>(g) == v);
}

TEST_CASE("golden: UTF-8 string") {
  const std::string s = "h\xc3\xa9llo, w\xc3\xb6rld \xe2\x9c\x93";
  const bytes g = read_golden("string.bin");
  CHECK(oompi::to_bytes(s) == g);
  CHECK(oompi::from_bytes<std::string>(g) == s);
}

TEST_CASE("golden: nested struct") {
  golden::shape s;
  s.name = "triangle";
  s.id = -1234567890123;
  s.closed = true;
  s.origin = {0.5, -1.25};
  s.corners = {{0, 0}, {4, 0}, {0, 3}};
  s.tags = {7, 11};
  s.scale = 2.5f;
  s.layer = 200;
  s.depth = -300;
  const bytes g = read_golden("nested_struct.bin");
  CHECK(oompi::to_bytes(s) == g);
  const auto r = oompi::from_bytes<golden::shape>(g);
  CHECK(r.name == s.name);
  CHECK(r.id == s.id);
  CHECK(r.closed);
  CHECK(r.origin == s.origin);
  CHECK(r.corners == s.corners);
  CHECK(r.tags == s.tags);
  CHECK(r.scale == 2.5f);
  CHECK(r.layer == 200);
  CHECK(r.depth == -300);
}

TEST_CASE("golden: list with shared and cyclic references") {
  using golden::list_node;
  auto a = std::make_shared<list_node>(), b = std::make_shared<list_node>(),
       c = std::make_shared<list_node>();
  a->data = {1, 2};
  b->data = {3};
  a->other = c;
  a->next = b;
  b->other = c;
  b->next = c;
  c->next = a;
  const bytes g = read_golden("shared_cyclic_list.bin");
  CHECK(oompi::to_bytes(a) == g);

  const auto ra = oompi::from_bytes<std::shared_ptr<list_node>>(g);
  REQUIRE(ra);
  const auto rb = ra->next;
  const auto rc = ra->other;
  REQUIRE(rb);
  REQUIRE(rc);
  CHECK(ra->data == std::vector<std::int32_t>{1, 2});
  CHECK(rb->data == std::vector<std::int32_t>{3});
  CHECK(rc->data.empty());
  CHECK(rb->other == rc);  // shared: one object, three references
  CHECK(rb->next == rc);
  CHECK(rc->other == nullptr);
  CHECK(rc->next == ra);  // the cycle survives
  unlink(a);
  unlink(ra);
}

// --- compatibility with cereal's own binary archive ------------------------------------------

namespace compat {
struct cnode {
  std::vector<std::int32_t> data;
  std::string label;
  std::shared_ptr<cnode> other, next;
  template <class A>
  void serialize(A& ar) {
    ar(data, label, other, next);
  }
};
}  // namespace compat

TEST_CASE("same bytes as cereal::BinaryOutputArchive on the common subset") {
  auto a = std::make_shared<compat::cnode>(), b = std::make_shared<compat::cnode>();
  a->data = {5, 6, 7};
  a->label = "a";
  a->next = b;
  a->other = b;
  b->label = "bee";
  b->next = a;
  std::ostringstream os;
  {
    cereal::BinaryOutputArchive ar(os);
    ar(a);
  }
  const std::string cb = os.str();
  bytes expected(cb.size());
  std::memcpy(expected.data(), cb.data(), cb.size());
  CHECK(oompi::to_bytes(a) == expected);
  // and cereal reads what oompi writes
  const bytes ours = oompi::to_bytes(a);
  std::istringstream is(std::string(reinterpret_cast<const char*>(ours.data()), ours.size()));
  std::shared_ptr<compat::cnode> back;
  {
    cereal::BinaryInputArchive ar(is);
    ar(back);
  }
  REQUIRE(back);
  CHECK(back->data == a->data);
  CHECK(back->next->label == "bee");
  CHECK(back->next->next == back);
  a->next.reset();
  b->next.reset();
  back->next->next.reset();
}

// --- opt-in fields -----------------------------------------------------------------------------

namespace motor {
struct linked_array {
  std::vector<int> array;
  std::shared_ptr<linked_array> next;
  std::shared_ptr<linked_array> next2;  // not Transportable
  int scratch = 0;                      // not Transportable
};
OOMPI_TRANSPORTABLE(linked_array, array, next);

class account {
public:
  account() = default;
  account(std::string owner, long long cents) : owner_(std::move(owner)), cents_(cents) {}
  const std::string& owner() const { return owner_; }
  long long cents() const { return cents_; }

private:
  std::string owner_;
  long long cents_ = 0;
  OOMPI_TRANSPORTABLE_MEMBERS(account, owner_, cents_);
};
}  // namespace motor

TEST_CASE("only the listed fields travel (Motor's next2 arrives null)") {
  auto head = std::make_shared<motor::linked_array>();
  head->array = {1, 2, 3};
  head->next = std::make_shared<motor::linked_array>();
  head->next->array = {4};
  head->next2 = head->next;
  head->scratch = 99;
  const auto r = round_trip(head);
  CHECK(r->array == std::vector<int>{1, 2, 3});
  REQUIRE(r->next);
  CHECK(r->next->array == std::vector<int>{4});
  CHECK(r->next2 == nullptr);
  CHECK(r->scratch == 0);
  CHECK(oompi::type_signature<motor::linked_array>() == "{array:[i32],next:&@0}");
}

TEST_CASE("private fields with OOMPI_TRANSPORTABLE_MEMBERS") {
  const motor::account a("ada", 123456789012LL);
  const auto r = round_trip(a);
  CHECK(r.owner() == "ada");
  CHECK(r.cents() == 123456789012LL);
}

// --- graphs and pointer kinds -------------------------------------------------------------------

namespace graph {
struct tree {
  int value = 0;
  std::vector<std::shared_ptr<tree>> kids;
  std::weak_ptr<tree> parent;
};
OOMPI_TRANSPORTABLE(tree, value, kids, parent);

struct unode {
  std::string name;
  std::unique_ptr<unode> next;
};
OOMPI_TRANSPORTABLE(unode, name, next);

struct holder {
  std::shared_ptr<int> a, b;  // references to non-class values work too
  std::unique_ptr<double> c;
};
OOMPI_TRANSPORTABLE(holder, a, b, c);

struct mixed {
  std::shared_ptr<int> a;
  std::shared_ptr<double> d;
};
OOMPI_TRANSPORTABLE(mixed, a, d);
}  // namespace graph

TEST_CASE("a tree with shared children and weak parents") {
  auto root = std::make_shared<graph::tree>();
  root->value = 1;
  auto shared_kid = std::make_shared<graph::tree>();
  shared_kid->value = 7;
  shared_kid->parent = root;
  for (int i = 0; i < 3; ++i) {
    auto k = std::make_shared<graph::tree>();
    k->value = 10 + i;
    k->parent = root;
    k->kids.push_back(shared_kid);  // a diamond: every kid shares one grandchild
    root->kids.push_back(k);
  }
  const auto r = round_trip(root);
  REQUIRE(r->kids.size() == 3);
  CHECK(r->kids[2]->value == 12);
  CHECK(r->kids[0]->parent.lock() == r);
  CHECK(r->kids[0]->kids[0] == r->kids[1]->kids[0]);
  CHECK(r->kids[1]->kids[0]->value == 7);
  CHECK(r->kids[1]->kids[0]->parent.lock() == r);
}

TEST_CASE("unique_ptr chains and references to values") {
  graph::unode head;
  head.name = "a";
  head.next = std::make_unique<graph::unode>();
  head.next->name = "b";
  head.next->next = std::make_unique<graph::unode>();
  head.next->next->name = "c";
  const auto r = round_trip(head);
  REQUIRE(r.next);
  REQUIRE(r.next->next);
  CHECK(r.next->next->name == "c");
  CHECK(r.next->next->next == nullptr);

  graph::holder h;
  h.a = std::make_shared<int>(42);
  h.b = h.a;
  h.c = std::make_unique<double>(2.5);
  const auto rh = round_trip(h);
  REQUIRE(rh.a);
  CHECK(*rh.a == 42);
  CHECK(rh.a == rh.b);
  CHECK(*rh.c == 2.5);
}

// --- std types and numbers ----------------------------------------------------------------------

namespace kinds {
enum class color : std::uint8_t { red = 1, green = 2 };
struct everything {
  bool b = false;
  std::int8_t i8 = 0;
  std::uint16_t u16 = 0;
  std::int32_t i32 = 0;
  std::uint64_t u64 = 0;
  float f = 0;
  double d = 0;
  color c = color::red;
  std::array<std::int16_t, 3> fixed{};
  int carray[2] = {0, 0};
  std::vector<bool> bits;
  std::vector<std::string> words;
  std::vector<std::vector<double>> matrix;
  std::list<int> list;
  std::map<std::string, int> map;
  std::set<int> set;
  std::optional<std::string> maybe, nothing;
  std::pair<int, std::string> pair;
  std::tuple<int, double, std::string> tuple;
};
OOMPI_TRANSPORTABLE(everything, b, i8, u16, i32, u64, f, d, c, fixed, carray, bits, words,
                    matrix, list, map, set, maybe, nothing, pair, tuple);
}  // namespace kinds

TEST_CASE("numbers, enums, arrays, containers, optionals, tuples") {
  kinds::everything e;
  e.b = true;
  e.i8 = -5;
  e.u16 = 65000;
  e.i32 = -123456;
  e.u64 = 0xfedcba9876543210ull;
  e.f = 1.5f;
  e.d = -0.125;
  e.c = kinds::color::green;
  e.fixed = {1, -2, 3};
  e.carray[0] = 8;
  e.carray[1] = 9;
  e.bits = {true, false, true};
  e.words = {"x", "", "yz"};
  e.matrix = {{1, 2}, {}, {3}};
  e.list = {4, 5};
  e.map = {{"one", 1}, {"two", 2}};
  e.set = {3, 1, 2};
  e.maybe = "here";
  e.pair = {7, "seven"};
  e.tuple = {1, 2.0, "three"};
  const auto r = round_trip(e);
  CHECK(r.b);
  CHECK(r.i8 == -5);
  CHECK(r.u16 == 65000);
  CHECK(r.i32 == -123456);
  CHECK(r.u64 == 0xfedcba9876543210ull);
  CHECK(r.f == 1.5f);
  CHECK(r.d == -0.125);
  CHECK(r.c == kinds::color::green);
  CHECK(r.fixed == e.fixed);
  CHECK(r.carray[1] == 9);
  CHECK(r.bits == e.bits);
  CHECK(r.words == e.words);
  CHECK(r.matrix == e.matrix);
  CHECK(r.list == e.list);
  CHECK(r.map == e.map);
  CHECK(r.set == e.set);
  CHECK(r.maybe == std::optional<std::string>("here"));
  CHECK(!r.nothing);
  CHECK(r.pair == e.pair);
  CHECK(r.tuple == e.tuple);
}

TEST_CASE("fixed-size arrays carry their size; a wrong size is rejected") {
  const std::array<std::int32_t, 2> a{5, 6};
  const bytes b = oompi::to_bytes(a);
  CHECK(b == oompi::to_bytes(std::vector<std::int32_t>{5, 6}));
  CHECK_THROWS_AS((oompi::from_bytes<std::array<std::int32_t, 3>>(b)), oompi::serialization_error);
}

// --- signatures ------------------------------------------------------------------------------

TEST_CASE("type signatures name wire shapes") {
  CHECK(oompi::type_signature<std::vector<std::int32_t>>() == "[i32]");
  CHECK(oompi::type_signature<std::list<std::int32_t>>() == "[i32]");
  CHECK(oompi::type_signature<std::string>() == "string");
  CHECK(oompi::type_signature<golden::shape>() ==
        "{name:string,id:i64,closed:bool,origin:{x:f64,y:f64},corners:[{x:f64,y:f64}],tags:[i32],"
        "scale:f32,layer:u8,depth:i16}");
  CHECK(oompi::type_signature<std::shared_ptr<golden::list_node>>() ==
        "&{data:[i32],other:&@0,next:&@0}");
  CHECK(oompi::type_signature<std::map<std::string, std::optional<double>>>() ==
        "[(string,?f64)]");
  CHECK(oompi::type_signature<compat::cnode>() == "{[i32],string,&@0,&@0}");
  // FNV-1a 64 of the text
  CHECK(oompi::type_hash<std::vector<std::int32_t>>() == oompi::detail::fnv1a64("[i32]"));
  CHECK(oompi::detail::fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(oompi::detail::fnv1a64("a") == 0xaf63dc4c8601ec8cull);
}

// --- depth ------------------------------------------------------------------------------------

namespace deep {
struct chain {  // the link is the last field: followed by a loop
  std::int32_t value = 0;
  std::shared_ptr<chain> next;
};
OOMPI_TRANSPORTABLE(chain, value, next);

struct head_first {  // the link comes first: recursion
  std::shared_ptr<head_first> next;
  std::int32_t value = 0;
};
OOMPI_TRANSPORTABLE(head_first, next, value);

struct nest {  // nesting through a container, no pointers
  std::vector<nest> inner;
};
OOMPI_TRANSPORTABLE(nest, inner);

template <class N>
std::shared_ptr<N> build(std::size_t n) {
  std::shared_ptr<N> head;
  for (std::size_t i = n; i-- > 0;) {
    auto node = std::make_shared<N>();
    node->value = static_cast<std::int32_t>(i);
    node->next = std::move(head);
    head = std::move(node);
  }
  return head;
}
// shared_ptr chains destroy recursively: take them apart iteratively.
template <class N>
void dismantle(std::shared_ptr<N>& head) {
  while (head) head = std::move(head->next);
}
}  // namespace deep

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
  static_assert(!compact_root<std::shared_ptr<kinds::everything>>::value);
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

// --- type check ------------------------------------------------------------------------------

TEST_CASE("with the type check on, another type is rejected clearly") {
  using codec_list = oompi::detail::object_codec<std::vector<std::int32_t>>;
  using codec_str = oompi::detail::object_codec<std::string>;
  oompi::set_object_type_check(true);
  oompi::byte_buffer buf;
  codec_list::save(buf, {1, 2, 3});
  CHECK(buf.size() == 8 + 8 + 12);
  std::vector<std::int32_t> v;
  codec_list::load(buf.data(), buf.size(), v);
  CHECK(v == std::vector<std::int32_t>{1, 2, 3});
  std::string s;
  bool clear_message = false;
  try {
    codec_str::load(buf.data(), buf.size(), s);
  } catch (const oompi::serialization_error& e) {
    clear_message = std::string(e.what()).find("type check failed") != std::string::npos &&
                    std::string(e.what()).find("string") != std::string::npos;
  }
  CHECK(clear_message);
  oompi::set_object_type_check(false);
  // without the check, the same mistake is caught later or not at all: the hash is what makes
  // it clear
  oompi::byte_buffer plain;
  codec_list::save(plain, {1, 2, 3});
  CHECK(plain.size() == 8 + 12);
}

// --- the Boost back end -----------------------------------------------------------------------

namespace legacy {
struct particle {
  double x = 0, y = 0;
  std::vector<int> history;
  template <class Archive>
  void serialize(Archive& ar, const unsigned int) {
    ar & x & y & history;
  }
};
struct free_fn {
  int a = 0;
};
}  // namespace legacy
namespace boost::serialization {
template <class Archive>
void serialize(Archive& ar, legacy::free_fn& f, const unsigned int) {
  ar & f.a;
}
}  // namespace boost::serialization
OOMPI_BOOST_SERIALIZABLE(legacy::free_fn)

TEST_CASE("Boost.Serialization types travel through the Boost back end") {
  static_assert(!oompi::wire::is_transportable_v<legacy::particle>);
  using codec = oompi::detail::object_codec<legacy::particle>;
  CHECK(std::string(codec::name) == "Boost.Serialization");
  legacy::particle p;
  p.x = 1.5;
  p.y = -2;
  p.history = {1, 2, 3};
  oompi::byte_buffer buf;
  codec::save(buf, p);
  legacy::particle r;
  codec::load(buf.data(), buf.size(), r);
  CHECK(r.x == 1.5);
  CHECK(r.history == p.history);

  std::vector<legacy::particle> many(3, p);
  oompi::byte_buffer slice;
  codec::save_slice(slice, many.data(), many.size());
  std::vector<legacy::particle> back;
  codec::load_slice(slice.data(), slice.size(), back);
  CHECK(back.size() == 3);
  CHECK(back[2].y == -2);

  using free_codec = oompi::detail::object_codec<legacy::free_fn>;
  oompi::byte_buffer fb;
  free_codec::save(fb, legacy::free_fn{17});
  legacy::free_fn f;
  free_codec::load(fb.data(), fb.size(), f);
  CHECK(f.a == 17);

  // truncated Boost streams are rejected too
  CHECK_THROWS_AS(codec::load(buf.data(), buf.size() / 2, r), oompi::serialization_error);
}
