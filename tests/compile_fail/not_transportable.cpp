// Must NOT compile: a type without OOMPI_TRANSPORTABLE, serialize or Boost serialization sent as
// an object. The test (cpp.serialization.not_transportable) checks that the error message tells
// the user what to add.
#include <oompi/serialization.hpp>

#include <memory>
#include <vector>

struct plain {
  std::vector<int> data;
  std::shared_ptr<plain> next;
};

void send(const oompi::communicator& comm, const plain& p) { comm.osend(p, 0); }
