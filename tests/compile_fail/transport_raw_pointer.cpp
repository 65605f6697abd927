// A raw pointer field cannot travel: who would own the received object?
#include <oompi/serialization.hpp>

struct raw_node {
  int value = 0;
  raw_node* next = nullptr;
};
OOMPI_TRANSPORTABLE(raw_node, value, next);

void send(const oompi::communicator& comm, const raw_node& n) { comm.osend(n, 0); }
