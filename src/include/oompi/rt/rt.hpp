#ifndef OOMPI_RT_RT_HPP
#define OOMPI_RT_RT_HPP

// The whole runtime facade.
#include "attribute.hpp"  // keyvals (issue 15)
#include "buffer.hpp"
#include "buffer_attachment.hpp"
#include "comm.hpp"
#include "common.hpp"
#include "datatype.hpp"
#include "environment.hpp"
#include "file.hpp"  // MPI-IO (issue 15)
#include "group.hpp"
#include "info.hpp"  // MPI_Info (issue 15)
#include "intercomm.hpp"
#include "interop.hpp"
#include "message.hpp"
#include "op.hpp"
#include "request.hpp"
#include "status.hpp"
#include "topology.hpp"
#include "window.hpp"

#endif  // OOMPI_RT_RT_HPP
