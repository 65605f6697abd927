// Rank 1 of the interop exchange written in C++ (graph_peer.cpp describes the protocol): checks
// graph_peer and the PEER form of oompi_add_mpi_test, and shows the other languages what their
// side does.
#include <oompi/oompi.hpp>

#include "golden_types.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

using golden::list_node;

namespace {
void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "graph_mirror: %s\n", what);
  oompi::environment::abort(1);
}
}  // namespace

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  const auto world = oompi::communicator::world();
  auto s = world.orecv<golden::shape>(0, 1);
  auto a = world.orecv<std::shared_ptr<list_node>>(0, 2);
  if (s.name != "triangle" || s.id != -1234567890123 || !a || !a->next || !a->other ||
      a->next->next != a->other || a->other->next != a) {
    std::fprintf(stderr, "graph_mirror: golden values arrived wrong\n");
    oompi::environment::abort(1);
  }
  s.id += 1;
  s.name += "!";
  world.osend(s, 0, 3);
  for (auto* n : {a.get(), a->next.get(), a->other.get()})
    for (auto& v : n->data) v *= 10;
  world.osend(a, 0, 4);
  a->other->next.reset(), a->next.reset(), a->other.reset();

  std::vector<std::shared_ptr<list_node>> chain(1000);
  for (auto& n : chain) n = std::make_shared<list_node>();
  for (std::size_t i = 0; i < chain.size(); ++i) {
    chain[i]->data = {static_cast<std::int32_t>(i)};
    chain[i]->other = chain[0];
    if (i + 1 < chain.size()) chain[i]->next = chain[i + 1];
  }
  world.osend(chain[0], 0, 5);
  chain[0]->other.reset();

  std::vector<std::shared_ptr<golden::chain_node>> ring(300);
  for (std::size_t i = 0; i < ring.size(); ++i) {
    ring[i] = std::make_shared<golden::chain_node>();
    ring[i]->data = {static_cast<std::int32_t>(i), -static_cast<std::int32_t>(i)};
    if (i > 0) ring[i - 1]->next = ring[i];
  }
  ring.back()->next = ring[100];
  world.osend(ring[0], 0, 6);
  for (auto& n : ring) n->next.reset();

  // 7: a compact chain of 300 nodes, data [i, 2i], closing on node 7
  auto got = world.orecv<std::shared_ptr<golden::chain_node>>(0, 7);
  std::vector<golden::chain_node*> nodes;
  for (auto* p = got.get(); p && nodes.size() <= 300; p = p->next.get()) nodes.push_back(p);
  check(nodes.size() == 301, "compact chain: not 300 nodes and a cycle");
  for (int i = 0; i < 300; ++i)
    check(nodes[i]->data == std::vector<std::int32_t>{i, 2 * i}, "compact chain: data");
  check(nodes[300] == nodes[7], "compact chain: the last node does not link back to node 7");
  nodes[299]->next.reset();
  while (got) got = std::move(got->next);
  return 0;
}
