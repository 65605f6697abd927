#ifndef OOMPI_OOMPI_HPP
#define OOMPI_OOMPI_HPP

// The whole oompi core: #include <oompi/oompi.hpp>.

#include "attribute.hpp"
#include "buffer.hpp"
#include "communicator.hpp"
#include "datatype.hpp"
#include "dynamic.hpp"
#include "environment.hpp"
#include "error.hpp"
#include "file.hpp"
#include "group.hpp"
#include "info.hpp"
#include "intercommunicator.hpp"
#include "intracommunicator.hpp"
#include "message.hpp"
#include "port.hpp"
#include "request.hpp"
#include "status.hpp"
#include "topology.hpp"
#include "window.hpp"

#endif  // OOMPI_OOMPI_HPP
