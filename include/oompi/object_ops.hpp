#ifndef OOMPI_OBJECT_OPS_HPP
#define OOMPI_OBJECT_OPS_HPP

// Object-graph transport (osend/orecv/obcast/oscatter/ogather ...) as a mixin of the
// communicators. The serialization itself is opt-in: include <oompi/serialization.hpp>.
// (Filled in by the object-graph work.)

namespace oompi::detail {

/// CRTP base: Derived is a communicator.
template <class Derived>
class object_ops {};

}  // namespace oompi::detail

#endif  // OOMPI_OBJECT_OPS_HPP
