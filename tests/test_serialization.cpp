// Wire format v1 and the serialization back ends, without communication (every rank runs the
// same checks): golden bytes, cereal compatibility, opt-in fields, graphs, std types,
// signatures, type check, the Boost back end. Chains: test_wire_chains.cpp; depth and bad
// input: test_wire_robustness.cpp.

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

struct holder {
  std::shared_ptr<int> a, b;  // references to non-class values work too
  std::unique_ptr<double> c;
};
OOMPI_TRANSPORTABLE(holder, a, b, c);

struct bnode {  // a binary tree or DAG: one link inside, one last
  std::int32_t id = 0;
  std::string name;
  std::shared_ptr<bnode> left, right;
};
OOMPI_TRANSPORTABLE(bnode, id, name, left, right);

struct opaque {  // its own cereal function: oompi cannot see what it holds
  int v = 0;
  template <class A>
  void serialize(A& ar) {
    ar(v);
  }
};
struct with_weak {
  std::shared_ptr<with_weak> next;
  std::weak_ptr<with_weak> back;
};
OOMPI_TRANSPORTABLE(with_weak, next, back);
struct weak_deep_inside {
  std::vector<std::map<int, std::pair<int, std::weak_ptr<int>>>> m;
};
OOMPI_TRANSPORTABLE(weak_deep_inside, m);

// Node i's children are 2i+1 and 2i+2 (a complete tree), or, from `shared_from` on, nodes of
// the next index range that two parents share.
std::vector<std::shared_ptr<bnode>> build(int n, int shared_from) {
  std::vector<std::shared_ptr<bnode>> all;
  for (int i = 0; i < n; ++i) {
    all.push_back(std::make_shared<bnode>());
    all.back()->id = i;
    all.back()->name = "node " + std::to_string(i);
  }
  for (int i = 0; i < n; ++i) {
    const int l = i < shared_from ? 2 * i + 1 : i + 1, r = i < shared_from ? 2 * i + 2 : i + 2;
    if (l < n) all[i]->left = all[l];
    if (r < n) all[i]->right = all[r];
  }
  return all;
}
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

TEST_CASE("trees and DAGs: the same bytes whether or not their nodes have other owners") {
  using oompi::wire::detail::weak_free_v;
  static_assert(weak_free_v<std::shared_ptr<graph::bnode>>);
  static_assert(weak_free_v<std::vector<std::map<std::string, std::tuple<int, std::optional<graph::bnode>>>>>);
  static_assert(!weak_free_v<graph::tree>);  // its parent is a std::weak_ptr
  static_assert(!weak_free_v<graph::with_weak>);
  static_assert(!weak_free_v<graph::weak_deep_inside>);
  static_assert(!weak_free_v<std::vector<graph::opaque>>);  // what it holds is unknown

  for (const int shared_from : {1000, 3}) {  // a tree, then a DAG below node 3
    auto all = graph::build(300, shared_from);
    const bytes with_owners = oompi::to_bytes(all[0]);  // every node owned twice: the table path
    auto root = all[0];
    all.clear();  // now a tree's nodes have one owner each: no table entries
    const bytes alone = oompi::to_bytes(root);
    CHECK(alone == with_owners);
    const auto r = oompi::from_bytes<std::shared_ptr<graph::bnode>>(alone);
    CHECK(oompi::to_bytes(r) == alone);  // as received (pointers read in place)
    if (shared_from == 3) {
      REQUIRE(r->left->left->right);
      CHECK(r->left->left->right == r->left->right->left);  // node 5, shared
      CHECK(r->left->left->right->id == 5);
      CHECK(r->left->left->right->name == "node 5");
    } else {
      CHECK(r->right->right->left->id == 13);
    }
  }
  // a cycle through a field that is not the last one
  auto a = std::make_shared<graph::bnode>(), b = std::make_shared<graph::bnode>();
  a->left = b;
  b->right = a;
  b->id = 2;
  const auto r = round_trip(a);
  CHECK(r->left->right == r);
  CHECK(r->left->id == 2);
  r->left->right.reset();
  a->left.reset();
  // a weak reference to a node that has one owner still finds it
  auto w = std::make_shared<graph::with_weak>();
  w->next = std::make_shared<graph::with_weak>();
  w->next->back = w->next;
  const auto rw = round_trip(w);
  CHECK(rw->next->back.lock() == rw->next);
  rw->next->back.reset();
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
