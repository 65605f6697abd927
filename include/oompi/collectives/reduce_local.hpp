#ifndef OOMPI_COLLECTIVES_REDUCE_LOCAL_HPP
#define OOMPI_COLLECTIVES_REDUCE_LOCAL_HPP

// oompi::reduce_local(in, inout, op): inout[i] = in[i] (x) inout[i] on this process only
// (MPI_Reduce_local), with any op a collective takes. More than INT_MAX elements are reduced
// in chunks.

#include "common.hpp"

namespace oompi {

template <class S, class R, class Op>
void reduce_local(const S& in, R& inout, Op&& op) {
  static_assert(!std::is_const_v<R>, "oompi::reduce_local: inout is written");
  detail::same_elements<S, R>();
  const char* name = "oompi::reduce_local";
  detail::require_running(name);
  const detail::buffer_desc sd = detail::describe(in);
  const detail::buffer_desc rd = detail::describe(inout);
  if (sd.count != rd.count) detail::throw_size(name, "inout buffer", rd.count, sd.count);
  detail::check_same_type(sd, rd, name);
  detail::check_distinct(sd, rd, name);
  auto&& b = detail::bind_op<detail::element_t<S>, false>(std::forward<Op>(op), sd.type);
  const int rc = detail::for_each_chunk(sd.count, [&](std::size_t at, int n) {
    return MPI_Reduce_local(detail::element_at(sd, at), detail::element_at(rd, at), n, sd.type,
                            b.native());
  });
  detail::finish(rc, "MPI_Reduce_local", b);
}

}  // namespace oompi

#endif  // OOMPI_COLLECTIVES_REDUCE_LOCAL_HPP
