#include <oompi/rt/status.hpp>

namespace oompi::rt {

std::int64_t status::get_count(const datatype& type) const {
  return static_cast<std::int64_t>(s_.count(type.native("status.get_count")));
}

bool status::cancelled() const { return s_.cancelled(); }

}  // namespace oompi::rt
