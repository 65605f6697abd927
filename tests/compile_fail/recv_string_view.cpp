// A string_view's characters are const: it can be sent, not received into.
#include <oompi/oompi.hpp>
#include <string_view>
void f(const oompi::communicator& world) {
  std::string_view sv("abc");
  world.recv(sv, 0);
}
