#ifndef OOMPI_SERIALIZATION_HPP
#define OOMPI_SERIALIZATION_HPP

// Object graphs (opt-in): include this header to send whole objects with osend/orecv/iosend/
// iorecv, obcast, oscatter/ogather/oallgather/oalltoall and oreduce. It brings in cereal and the
// wire format v1 back end; <oompi/serialization/boost.hpp> adds the Boost.Serialization back end.
//
//   struct node { std::vector<int> data; std::shared_ptr<node> next, next2; };
//   OOMPI_TRANSPORTABLE(node, data, next);        // next2 is not transported: arrives null
//   world.osend(head, 1);                          // the whole list, one message
//   auto head = world.orecv<std::shared_ptr<node>>(0);

#include "oompi.hpp"
#include "serialization/codec.hpp"
#include "serialization/error.hpp"
#include "serialization/signature.hpp"
#include "serialization/transportable.hpp"
#include "serialization/wire.hpp"

#endif  // OOMPI_SERIALIZATION_HPP
