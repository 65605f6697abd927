// Motor's LinkedArray (seed 004, Fig. 5) with oompi: a linked list whose `array` and `next`
// fields are Transportable and whose `next2` is not. Rank 0 builds a list, sends the whole list
// around the ring of ranks with osend/orecv (one message per list, whatever its length), then
// scatters an array of lists with the split representation and gathers them back.
//
//   mpirun -np 4 ./linked_list [nodes]
//
// Exits nonzero if anything arrives wrong.

#include <oompi/serialization.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <vector>

struct linked_array {
  std::vector<int> array;
  std::shared_ptr<linked_array> next;
  std::shared_ptr<linked_array> next2;  // not transported: arrives null
};
OOMPI_TRANSPORTABLE(linked_array, array, next);

// A list of `nodes` elements holding 1024 ints in all, spread evenly over the nodes.
std::shared_ptr<linked_array> make_list(int nodes, int seed) {
  std::shared_ptr<linked_array> head;
  for (int i = nodes - 1; i >= 0; --i) {
    auto n = std::make_shared<linked_array>();
    for (int k = i * 1024 / nodes; k < (i + 1) * 1024 / nodes; ++k) n->array.push_back(k + seed);
    n->next = std::move(head);
    if (n->next) n->next2 = n->next->next;  // a shortcut that stays home
    head = std::move(n);
  }
  return head;
}

// Checks a received list: every int in order, no next2.
bool valid(const std::shared_ptr<linked_array>& head, int nodes, int seed) {
  int count = 0, expect = 0;
  for (auto* p = head.get(); p; p = p->next.get(), ++count) {
    if (p->next2) return false;
    for (int v : p->array)
      if (v != seed + expect++) return false;
  }
  return count == nodes && expect == 1024;
}

// shared_ptr chains destroy recursively; take long ones apart in a loop.
void free_list(std::shared_ptr<linked_array>& head) {
  while (head) {
    head->next2.reset();
    head = std::move(head->next);
  }
}

int main(int argc, char** argv) {
  oompi::environment env(argc, argv);
  auto world = oompi::communicator::world();
  const int rank = world.rank(), size = world.size();
  const int nodes = argc > 1 ? std::atoi(argv[1]) : 100000;
  int failures = 0;

  // 1. The whole list around the ring: 0 -> 1 -> ... -> size-1 -> 0.
  if (rank == 0) {
    auto list = make_list(nodes, 7);
    world[1 % size].osend(list, 0);
    auto back = world[size - 1].orecv<std::shared_ptr<linked_array>>(0);
    if (!valid(back, nodes, 7)) ++failures;
    std::printf("a list of %d nodes went around %d ranks: %s\n", nodes, size,
                failures ? "WRONG" : "ok");
    free_list(list);
    free_list(back);
  } else {
    auto list = world[rank - 1].orecv<std::shared_ptr<linked_array>>(0);
    if (!valid(list, nodes, 7)) ++failures;
    world[(rank + 1) % size].osend(list, 0);
    free_list(list);
  }

  // 2. Scatter an array of short lists (each rank's slice serialized separately, one Scatterv),
  //    check them, and gather them back in rank order.
  std::vector<std::shared_ptr<linked_array>> all;
  if (rank == 0)
    for (int i = 0; i < 3 * size; ++i) all.push_back(make_list(16, 1000 * i));
  auto mine = world.oscatter(all, 0);
  for (std::size_t k = 0; k < mine.size(); ++k)
    if (!valid(mine[k], 16, 1000 * (3 * rank + static_cast<int>(k)))) ++failures;
  auto gathered = world.ogather(mine, 0);
  if (rank == 0) {
    bool same = gathered.size() == all.size();
    for (std::size_t i = 0; same && i < all.size(); ++i) same = valid(gathered[i], 16, 1000 * static_cast<int>(i));
    if (!same) ++failures;
    std::printf("scattered and gathered %zu lists: %s\n", all.size(), same ? "ok" : "WRONG");
  }

  // Every rank's verdict.
  const int total = world.oallreduce(failures, [](int a, int b) { return a + b; });
  if (rank == 0) std::printf("%s\n", total ? "FAILED" : "passed");
  return total ? 1 : 0;
}
