// The C++ rank of the cross-language object-collective tests (java.interop_collectives with
// org.oompi.tests.CollPeerJava, csharp.interop_collectives with OompiTests.dll coll_peer,
// python.interop_collectives with python_tests/coll_peer_python.py): one C++ rank (0) and p - 1
// managed ranks (of one language or several) take part in the same object collectives, so they must
// agree on the private communicator (oompi::detail::object_comm, comm.object_comm() of the
// facade), the {size, code} framing, the split representation, the reduction tree and its tags,
// the large path and the failure reports of include/oompi/object_ops.hpp.
//
//   mpirun -np 1 coll_peer : -np N-1 <the managed program>
//
// p ranks, L = p - 1 (a managed rank). One round, then a second with the large-path limit
// lowered to 64 bytes on every rank (oompi::detail::object_int_limit, C#'s Comm.ObjectIntLimit,
// Java's ObjectTransport.objectIntLimit, Python's oompi.objects.OBJECT_INT_LIMIT), so that the split collectives and oalltoall move their
// bytes point to point:
//   1. obcast from 0: the golden graph (a shared_ptr<list_node>);
//   2. obcast from L: a chain of 100 nodes, node i has data [i], other = the head;
//   3. oscatter from 0 of 2p + 1 nodes with data [10], [11], ... sharing one `other` (data
//      [-1]): rank 0 keeps 3, every other rank gets 2 (and its own copy of the shared node);
//   4. ogather to 0, then to L: rank r contributes r + 2 nodes with data [100 r + i] sharing one
//      `other` with data [-r];
//   5. oallgather of the same;
//   6. oscatterv from L with counts[i] = i + 1 (0 for L itself): node k has data [77 + k];
//   7. oalltoall: rank r sends rank i a cycle a <-> b with a.data = [r, i], b.data = [i, r],
//      a.other = b.other = a; then an oalltoall of strings "r>i";
//   8. oreduce to 0, oreduce to L, oallreduce, with a function that is not commutative: strings
//      ("0;1;2;" ...), and list nodes x_r = {data [r], other = itself} folded by
//      cat(a, b) = {data a.data ++ b.data, other = itself, next = b}.
// Then failures, each followed by an obcast from 0 and one from L that show every rank is still
// in step:
//   9. oscatterv from 0 with counts of the wrong length: every rank throws (invalid argument);
//  10. oscatterv from L with counts that do not add up: every rank throws (invalid argument);
//  11. ogather to 0 where rank L cannot serialize its part: every rank throws (serialization);
//  12. obcast from 0 of a shape that the managed ranks receive as a type that cannot travel:
//      C++ succeeds, the managed ranks take part and then throw;
//  13. oalltoall where rank L passes one object too many: every rank throws (invalid argument);
//  14. oallreduce of list nodes where the function throws when its right operand ends with L's
//      data, which happens on rank T = L & (L - 1) (C++ at p = 2, a managed rank at p = 4): T
//      throws its own exception, every other rank a serialization error;
//  15. oreduce to L with the same function: T throws its own, L a serialization error, the others
//      return null.
// With --pickled (python.interop_collectives), steps 16-23 follow: the Python ranks leave type=
// out (they pickle) in the steps A-H of python_tests/pickled_steps.py, with 1 MiB of data, and
// this rank refuses each one while taking part in every message the Python ranks send.
// Any mismatch aborts the job.
#include <oompi/oompi.hpp>
#include "golden_types.hpp"

#include <climits>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
using golden::list_node;
using node_ptr = std::shared_ptr<list_node>;
using ints = std::vector<std::int32_t>;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "coll_peer: FAILED: %s\n", what.c_str());
  oompi::environment::abort(1);
}
void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}
node_ptr node(ints data) {
  auto n = std::make_shared<list_node>();
  n->data = std::move(data);
  return n;
}
void unlink(const std::vector<node_ptr>& nodes) {
  for (auto& n : nodes)
    if (n) n->other.reset(), n->next.reset();
}
void check_gathered(const std::vector<node_ptr>& all, int p, const std::string& what) {
  std::size_t k = 0;
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < r + 2; ++i, ++k) {
      check(k < all.size() && all[k] && all[k]->data == ints{100 * r + i},
            what + ": element " + std::to_string(k));
      check(all[k]->other && all[k]->other == all[k - i]->other && all[k]->other->data[0] == -r,
            what + ": sharing within a slice");
    }
  check(k == all.size(), what + ": size " + std::to_string(all.size()));
  if (!all.empty()) check(all[0]->other != all[2]->other, what + ": slices share nothing");
  std::vector<node_ptr> others;
  for (auto& n : all) others.push_back(n->other);
  unlink(others);
}

enum class expect { argument, serialization, own };
struct picky_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class F>
void expect_throw(const std::string& what, F f, expect kind) {
  try {
    f();
  } catch (const std::invalid_argument&) {
    if (kind == expect::argument) return;
    fail(what + ": invalid_argument");
  } catch (const oompi::serialization_error&) {
    if (kind == expect::serialization) return;
    fail(what + ": serialization_error");
  } catch (const picky_error&) {
    if (kind == expect::own) return;
    fail(what + ": the function's own exception");
  }
  fail(what + ": did not throw");
}

void in_step(const oompi::communicator& world, int n) {
  auto x = node({1000 + n});
  world.obcast(x, 0);
  node_ptr y;
  world.obcast(y, world.size() - 1);
  check(y && y->data == ints{2000 + n}, "in step after " + std::to_string(n));
}

// x_r of step 8 and its fold
node_ptr reduce_leaf(int r) {
  auto x = node({r});
  x->other = x;
  return x;
}
node_ptr cat(const node_ptr& a, const node_ptr& b) {
  auto c = node(a->data);
  c->data.insert(c->data.end(), b->data.begin(), b->data.end());
  c->other = c;
  c->next = b;
  return c;
}
void check_reduced(const node_ptr& got, int p, const std::string& what) {
  ints want;
  for (int r = 0; r < p; ++r) want.push_back(r);
  check(got && got->data == want, what + ": data in rank order");
  check(got->other == got, what + ": other is the node itself");
  if (p > 1)
    check(got->next && got->next->data.back() == p - 1 && got->next->other == got->next,
          what + ": next is the last right operand");
  unlink({got->next, got});
}

void round(const oompi::communicator& world, const std::string& pass) {
  const int p = world.size(), last = p - 1;

  // 1. obcast from 0
  auto a = node({1, 2}), b = node({3}), c = node({});
  a->other = c, a->next = b, b->other = c, b->next = c, c->next = a;
  world.obcast(a, 0);
  unlink({a, b, c});

  // 2. obcast from L
  node_ptr head;
  world.obcast(head, last);
  int n = 0;
  std::vector<node_ptr> chain;
  for (auto q = head; q; q = q->next, ++n) {
    check(q->data == ints{n}, pass + "chain data " + std::to_string(n));
    check(q->other == head, pass + "chain other " + std::to_string(n));
    chain.push_back(q);
  }
  check(n == 100, pass + "chain length " + std::to_string(n));
  unlink(chain);

  // 3. oscatter from 0
  auto shared = node({-1});
  std::vector<node_ptr> all;
  for (int i = 0; i < 2 * p + 1; ++i) {
    all.push_back(node({10 + i}));
    all.back()->other = shared;
  }
  const auto mine = world.oscatter(all, 0);
  check(mine.size() == 3 && mine[0]->data[0] == 10 && mine[2]->data[0] == 12 &&
            mine[0]->other == mine[2]->other && mine[0]->other->data[0] == -1,
        pass + "oscatter: rank 0's slice");

  // 4. ogather to 0 and to L, 5. oallgather
  auto own = node({0});
  std::vector<node_ptr> contrib;
  for (int i = 0; i < 2; ++i) {
    contrib.push_back(node({i}));
    contrib.back()->other = own;
  }
  check_gathered(world.ogather(contrib, 0), p, pass + "ogather to 0");
  check(world.ogather(contrib, last).empty(), pass + "ogather to L: empty off the root");
  check_gathered(world.oallgather(contrib), p, pass + "oallgather");

  // 6. oscatterv from L
  const auto got = world.oscatterv(std::vector<node_ptr>{}, {}, last);
  check(got.size() == 1 && got[0]->data == ints{77}, pass + "oscatterv from L");

  // 7. oalltoall: a cycle per pair, then strings
  std::vector<node_ptr> out;
  for (int i = 0; i < p; ++i) {
    auto x = node({0, i}), y = node({i, 0});
    x->next = y, y->next = x, x->other = x, y->other = x;
    out.push_back(x);
  }
  const auto in = world.oalltoall(out);
  check(in.size() == static_cast<std::size_t>(p), pass + "oalltoall: size");
  for (int r = 0; r < p; ++r) {
    const auto& x = in[r];
    const std::string what = pass + "oalltoall: from rank " + std::to_string(r);
    check(x && x->data == ints{r, 0} && x->other == x, what + ": first node");
    check(x->next && x->next->data == ints{0, r} && x->next->next == x && x->next->other == x,
          what + ": cycle and sharing");
    if (r != 0) check(x != out[0], what + ": a copy");
  }
  for (auto& x : out) unlink({x->next, x});
  for (auto& x : in) unlink({x->next, x});
  std::vector<std::string> words;
  for (int i = 0; i < p; ++i) words.push_back("0>" + std::to_string(i));
  const auto heard = world.oalltoall(words);
  for (int r = 0; r < p; ++r)
    check(heard[r] == std::to_string(r) + ">0", pass + "oalltoall of strings from " + std::to_string(r));

  // 8. oreduce / oallreduce in rank order
  std::string want;
  for (int r = 0; r < p; ++r) want += std::to_string(r) + ";";
  const auto concat = [](const std::string& x, const std::string& y) { return x + y; };
  check(world.oreduce(std::string("0;"), concat, 0) == want, pass + "oreduce of strings to 0");
  check(world.oreduce(std::string("0;"), concat, last).empty(), pass + "oreduce to L: empty off the root");
  check(world.oallreduce(std::string("0;"), concat) == want, pass + "oallreduce of strings");
  check_reduced(world.oreduce(reduce_leaf(0), cat, 0), p, pass + "oreduce of nodes to 0");
  check(!world.oreduce(reduce_leaf(0), cat, last), pass + "oreduce of nodes to L: null off the root");
  check_reduced(world.oallreduce(reduce_leaf(0), cat), p, pass + "oallreduce of nodes");
}
// Steps A-H of python_tests/pickled_steps.py as steps first .. first + 7: the Python ranks
// pickle, with 1 MiB of data.
void pickled(const oompi::communicator& world, int first) {
  const int p = world.size(), last = p - 1;
  int n = first;
  node_ptr refused;
  // A. obcast from L (a pickle with an out-of-band buffer)
  expect_throw("A. pickled obcast from L", [&] { world.obcast(refused, last); }, expect::argument);
  in_step(world, n++);
  // B. oscatter from L (Scatterv), C. on the large path
  for (std::size_t limit : {static_cast<std::size_t>(INT_MAX), std::size_t{64}}) {
    oompi::detail::object_int_limit = limit;
    expect_throw("B/C. pickled oscatter from L", [&] { world.oscatter(std::vector<node_ptr>{}, last); },
                 expect::argument);
    oompi::detail::object_int_limit = static_cast<std::size_t>(INT_MAX);
    in_step(world, n++);
  }
  // D. obcast from here to pickling ranks: this rank succeeds, they throw
  auto big = node(ints(std::size_t{1} << 18, 5));
  world.obcast(big, 0);
  in_step(world, n++);
  oompi::detail::object_int_limit = 64;  // E .. G on the large path
  // E. oscatter from here
  const auto kept = world.oscatter(std::vector<node_ptr>(static_cast<std::size_t>(p), big), 0);
  check(kept.size() == 1 && kept[0]->data.size() == big->data.size(), "E. oscatter: rank 0's slice");
  in_step(world, n++);
  // F. oallgather, G. oalltoall
  expect_throw("F. oallgather, Python pickles", [&] { world.oallgather(std::vector<node_ptr>{big}); },
               expect::argument);
  in_step(world, n++);
  expect_throw("G. oalltoall, Python pickles",
               [&] { world.oalltoall(std::vector<node_ptr>(static_cast<std::size_t>(p), big)); },
               expect::argument);
  oompi::detail::object_int_limit = static_cast<std::size_t>(INT_MAX);
  in_step(world, n++);
  // H. oallreduce: this rank cannot read the pickles it receives
  expect_throw("H. oallreduce, Python pickles",
               [&] { world.oallreduce(std::string(std::size_t{1} << 20, 'h'),
                                      [](const std::string& x, const std::string& y) { return x + y; }); },
               expect::serialization);
  in_step(world, n++);
}
}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const auto world = oompi::communicator::world();
  const int p = world.size(), last = p - 1;
  check(p >= 2 && world.rank() == 0, "run as rank 0, before the managed ranks");

  round(world, "");
  oompi::detail::object_int_limit = 64;  // the managed ranks lower theirs too
  round(world, "large path: ");
  oompi::detail::object_int_limit = static_cast<std::size_t>(INT_MAX);

  // 9. bad counts at the C++ root
  std::vector<node_ptr> three{node({1}), node({2}), node({3})};
  expect_throw("oscatterv, bad counts at 0", [&] { world.oscatterv(three, {3}, 0); }, expect::argument);
  in_step(world, 9);
  // 10. bad counts at a managed root
  expect_throw("oscatterv, bad counts at L",
               [&] { world.oscatterv(std::vector<node_ptr>{}, {}, last); }, expect::argument);
  in_step(world, 10);
  // 11. a managed rank cannot serialize its shapes
  std::vector<golden::shape> shapes(2);
  shapes[0].name = "ok";
  expect_throw("ogather, L cannot serialize", [&] { world.ogather(shapes, 0); }, expect::serialization);
  in_step(world, 11);
  // 12. the managed ranks receive as a type that cannot travel
  golden::shape s;
  s.name = "sent";
  world.obcast(s, 0);
  in_step(world, 12);
  // 13. oalltoall, one object too many at L
  expect_throw("oalltoall, wrong length at L",
               [&] { world.oalltoall(std::vector<std::string>(static_cast<std::size_t>(p), "x")); },
               expect::argument);
  in_step(world, 13);
  // 14. oallreduce, the function throws on rank T
  const int thrower = last & (last - 1);
  const auto picky = [last](const node_ptr& x, const node_ptr& y) {
    if (y->data.back() == last) throw picky_error("picky: rank L's data");
    return cat(x, y);
  };
  expect_throw("oallreduce, the function throws on T", [&] { world.oallreduce(reduce_leaf(0), picky); },
               thrower == 0 ? expect::own : expect::serialization);
  in_step(world, 14);
  // 15. oreduce to L, the same
  if (thrower == 0)
    expect_throw("oreduce to L, the function throws on T", [&] { world.oreduce(reduce_leaf(0), picky, last); },
                 expect::own);
  else
    check(!world.oreduce(reduce_leaf(0), picky, last), "oreduce to L, the function throws on T: null at 0");
  in_step(world, 15);

  if (argc > 1 && std::string(argv[1]) == "--pickled") pickled(world, 16);

  std::printf("coll_peer: ok (%d ranks)\n", p);
  return 0;
}
