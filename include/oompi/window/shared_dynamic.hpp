#ifndef OOMPI_WINDOW_SHARED_DYNAMIC_HPP
#define OOMPI_WINDOW_SHARED_DYNAMIC_HPP

// One-sided communication: shared-memory windows (shared_query) and dynamic windows (attach,
// detach, address_of).
// Part of <oompi/window.hpp> (include that one).

#include "creation.hpp"

namespace oompi {

template <class B, class>
inline MPI_Aint window::attach(B&& buf) const {
  const detail::buffer_desc d = detail::describe_out(buf);
  const auto span = detail::type_span<detail::element_t<B>>(d.count, d.type);
  return attach(d.data, static_cast<MPI_Aint>(span.second));
}

inline MPI_Aint window::attach(void* base, MPI_Aint bytes) const {
  require("MPI_Win_attach");
  if (!dynamic_)
    throw std::logic_error("MPI_Win_attach: only a dynamic window (create_dynamic) takes "
                           "attached memory");
  if (bytes < 0) throw std::invalid_argument("MPI_Win_attach: negative size");
  OOMPI_CHECK(MPI_Win_attach, (win_, base, bytes));
  return address_of(base);
}

template <class B, class>
inline void window::detach(B&& buf) const {
  detach(detail::describe_out(buf).data);
}

inline void window::detach(const void* base) const {
  require("MPI_Win_detach");
  OOMPI_CHECK(MPI_Win_detach, (win_, base));
}

inline MPI_Aint window::address_of(const void* p) {
  detail::require_running("MPI_Get_address");
  MPI_Aint a = 0;
  OOMPI_CHECK(MPI_Get_address, (p, &a));
  return a;
}

inline shared_region window::shared_query(int rank) const {
  require("MPI_Win_shared_query");
  check_rank("MPI_Win_shared_query", rank, true);
  shared_region s{nullptr, 0, 0};
  OOMPI_CHECK(MPI_Win_shared_query, (win_, rank, &s.size, &s.disp_unit, &s.base));
  return s;
}

template <class T>
inline typed_buffer<T> window::shared_query(int rank) const {
  const shared_region s = shared_query(rank);
  return typed_buffer<T>(static_cast<T*>(s.base), static_cast<std::size_t>(s.size) / sizeof(T));
}

}  // namespace oompi

#endif  // OOMPI_WINDOW_SHARED_DYNAMIC_HPP
