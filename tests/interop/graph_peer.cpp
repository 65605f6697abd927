// The C++ side of the cross-language MPMD tests: one C++ rank and one rank of another language
// exchange object graphs in wire format v1 with osend/orecv.
//
//   mpirun -np 1 graph_peer : -np 1 java -cp ... Peer        (the world has exactly 2 ranks)
//
// The C++ program is rank 0, the other language's program rank 1. Types are those of the golden
// files (tests/golden/README.md, tests/test_serialization.cpp namespace golden):
//   point      { float64 x, y }
//   shape      { string name; int64 id; bool closed; point origin; point[] corners;
//                int32[] tags; float32 scale; uint8 layer; int16 depth }
//   list_node  { int32[] data; list_node other; list_node next }   (references)
// The exchange, in this order:
//   1. rank 0 osends the golden shape to rank 1, tag 1 (the value of nested_struct.bin);
//   2. rank 0 osends the golden graph, tag 2 (a -> list of shared_cyclic_list.bin);
//   3. rank 1 checks both, then osends back, tag 3, the shape with id + 1 and name + "!";
//   4. rank 1 osends back, tag 4, the graph with every data element multiplied by 10 and the
//      same sharing and cycle (a.other == b.other == b.next == c, c.next == a, c.other null);
//   5. rank 1 osends, tag 5, a chain of 1000 list_nodes built by itself: node i has data [i],
//      other = the head (node 0), next = node i + 1 (null for the last);
//   6. rank 1 osends, tag 6, a list of 300 chain_nodes { int32[] data; chain_node next }:
//      node i has data [i, -i], and the last one's next is node 100 (a tail and a cycle);
//   7. rank 0 sends, tag 7, the bytes of a compact chain (wire 1.1, docs/wire-format.md 2.1:
//      what the Java, C# and Python writers send; C++'s osend writes 1.0): 300 chain_nodes,
//      node i with data [i, 2i], the last linking back to node 7; rank 1 orecvs and checks it;
//   8. rank 0 checks 3, 4, 5 and 6 and prints "graph_peer: ok".
// Any mismatch aborts the job (exit code nonzero on every rank).
#include <oompi/oompi.hpp>
#include "golden_types.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

using golden::list_node;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "graph_peer: FAILED: %s\n", what.c_str());
  oompi::environment::abort(1);
}

void check(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

golden::shape golden_shape() {
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
  return s;
}

// a{[1,2], other c, next b}, b{[3], other c, next c}, c{[], other null, next a}
std::shared_ptr<list_node> golden_graph() {
  auto a = std::make_shared<list_node>(), b = std::make_shared<list_node>(),
       c = std::make_shared<list_node>();
  a->data = {1, 2};
  b->data = {3};
  a->other = c, a->next = b;
  b->other = c, b->next = c;
  c->next = a;
  return a;
}

// Breaks every cycle reachable from head so the shared_ptrs can free the graph.
void unlink(std::shared_ptr<list_node> head) {
  std::vector<std::shared_ptr<list_node>> all;
  for (auto p = head; p && std::find(all.begin(), all.end(), p) == all.end(); p = p->next)
    all.push_back(p);
  for (auto& n : all) n->other.reset(), n->next.reset();
}

}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const auto world = oompi::communicator::world();
  check(world.size() == 2, "needs exactly 2 ranks (mpirun -np 1 graph_peer : -np 1 ...)");
  check(world.rank() == 0, "graph_peer must be rank 0 (first in the MPMD command)");

  auto graph = golden_graph();
  world.osend(golden_shape(), 1, 1);
  world.osend(graph, 1, 2);
  unlink(graph);

  const auto s = world.orecv<golden::shape>(1, 3);
  auto expect = golden_shape();
  check(s.name == expect.name + "!", "shape.name: got '" + s.name + "'");
  check(s.id == expect.id + 1, "shape.id: got " + std::to_string(s.id));
  check(s.closed && s.origin.x == 0.5 && s.origin.y == -1.25, "shape.closed/origin");
  check(s.corners.size() == 3 && s.corners[1].x == 4 && s.corners[2].y == 3,
        "shape.corners");
  check(s.tags == expect.tags && s.scale == 2.5f && s.layer == 200 && s.depth == -300,
        "shape.tags/scale/layer/depth");

  const auto a = world.orecv<std::shared_ptr<list_node>>(1, 4);
  check(a && a->next && a->other, "graph: a, a.next, a.other");
  const auto b = a->next, c = a->other;
  check(a->data == std::vector<std::int32_t>{10, 20} && b->data == std::vector<std::int32_t>{30} &&
                   c->data.empty(), "graph: data not multiplied by 10");
  check(b->other == c && b->next == c && c->next == a && !c->other,
        "graph: sharing or cycle lost");
  unlink(a);

  const auto head = world.orecv<std::shared_ptr<list_node>>(1, 5);
  int n = 0;
  for (auto p = head; p; p = p->next, ++n) {
    check(p->data == std::vector<std::int32_t>{n}, "chain: data of node " + std::to_string(n));
    check(p->other == head, "chain: other of node " + std::to_string(n) + " is not the head");
  }
  check(n == 1000, "chain: " + std::to_string(n) + " nodes instead of 1000");
  if (head) head->other.reset();
  for (auto p = head; p; p = p->next) p->other.reset();

  // read by the linear-chain path (no identity tables): the cycle must close on node 100
  auto ring = world.orecv<std::shared_ptr<golden::chain_node>>(1, 6);
  std::vector<golden::chain_node*> nodes;
  for (auto* p = ring.get(); p && nodes.size() <= 300; p = p->next.get()) nodes.push_back(p);
  check(nodes.size() == 301, "ring: " + std::to_string(nodes.size()) + " links followed, not a cycle");
  for (int i = 0; i < 300; ++i)
    check(nodes[i]->data == std::vector<std::int32_t>{i, -i}, "ring: data of node " + std::to_string(i));
  check(nodes[300] == nodes[100], "ring: the last node does not link back to node 100");
  nodes[299]->next.reset();
  while (ring) ring = std::move(ring->next);

  std::vector<std::shared_ptr<golden::chain_node>> out(300);
  for (int i = 0; i < 300; ++i) {
    out[i] = std::make_shared<golden::chain_node>();
    out[i]->data = {i, 2 * i};
    if (i > 0) out[i - 1]->next = out[i];
  }
  out[299]->next = out[7];
  oompi::byte_buffer compact;
  oompi::wire::save_compact(compact, out[0]);
  const auto* raw = reinterpret_cast<const unsigned char*>(compact.data());
  world.send(std::vector<unsigned char>(raw, raw + compact.size()), 1, 7);
  for (auto& n : out) n->next.reset();

  std::printf("graph_peer: ok\n");
  return 0;
}
