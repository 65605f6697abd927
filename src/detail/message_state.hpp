#ifndef OOMPI_RT_DETAIL_MESSAGE_STATE_HPP
#define OOMPI_RT_DETAIL_MESSAGE_STATE_HPP

// The state of a facade message, shared by comm.cpp (mprobe) and message.cpp (receive).

#include "comm_state.hpp"

#include <oompi/message.hpp>
#include <oompi/rt/message.hpp>

namespace oompi::rt {

struct message::state {
  oompi::message m;
  std::shared_ptr<comm::state> c;  // the communicator's core object receives it
  bool received = false;
};

}  // namespace oompi::rt

#endif
