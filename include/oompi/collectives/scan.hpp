#ifndef OOMPI_COLLECTIVES_SCAN_HPP
#define OOMPI_COLLECTIVES_SCAN_HPP

// scan, exscan (and iscan, iexscan): prefix reductions over the ranks (intracommunicators
// only). scan includes the calling rank's own value; exscan stops before it, and MPI defines
// no result on rank 0: its output buffer is left as it was (value forms: B{}).
//
//   scan(in, out, op)      scan(in_place, buf, op)      B r = scan(x, op)
//   exscan(in, out, op)    exscan(in_place, buf, op)    B r = exscan(x, op)

#include "common.hpp"

namespace oompi::detail {

template <class D>
class scan_ops {
  using scan_fn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  using iscan_fn = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*);

public:
  template <class S, class R, class Op, not_in_place<S> = 0>
  void scan(const S& in, R& out, Op&& op) const {
    run<MPI_Scan>(&in, out, std::forward<Op>(op), "oompi::scan", "MPI_Scan");
  }
  template <class R, class Op>
  void scan(in_place_t, R& buf, Op&& op) const {
    run<MPI_Scan>(static_cast<const R*>(nullptr), buf, std::forward<Op>(op), "oompi::scan", "MPI_Scan");
  }
  template <class B, class Op>
  B scan(const B& in, Op&& op) const {
    B out = make_like(in);
    scan(in, out, std::forward<Op>(op));
    return out;
  }
  template <class S, class R, class Op, not_in_place<S> = 0>
  void exscan(const S& in, R& out, Op&& op) const {
    run<MPI_Exscan>(&in, out, std::forward<Op>(op), "oompi::exscan", "MPI_Exscan");
  }
  template <class R, class Op>
  void exscan(in_place_t, R& buf, Op&& op) const {
    run<MPI_Exscan>(static_cast<const R*>(nullptr), buf, std::forward<Op>(op), "oompi::exscan", "MPI_Exscan");
  }
  template <class B, class Op>
  B exscan(const B& in, Op&& op) const {
    B out = make_like(in);
    exscan(in, out, std::forward<Op>(op));
    return out;
  }

  template <class S, class R, class Op, not_in_place<S> = 0>
  request iscan(S&& in, R& out, Op&& op) const {
    borrowed_send<S>();
    return irun<MPI_Iscan>(&in, out, std::forward<Op>(op), "oompi::iscan", "MPI_Iscan");
  }
  template <class R, class Op>
  request iscan(in_place_t, R& buf, Op&& op) const {
    return irun<MPI_Iscan>(static_cast<const R*>(nullptr), buf, std::forward<Op>(op), "oompi::iscan", "MPI_Iscan");
  }
  template <class B, class Op>
  future<std::decay_t<B>> iscan(B&& in, Op&& op) const {
    return ivalue<MPI_Iscan>(std::forward<B>(in), std::forward<Op>(op), "oompi::iscan", "MPI_Iscan");
  }
  template <class S, class R, class Op, not_in_place<S> = 0>
  request iexscan(S&& in, R& out, Op&& op) const {
    borrowed_send<S>();
    return irun<MPI_Iexscan>(&in, out, std::forward<Op>(op), "oompi::iexscan", "MPI_Iexscan");
  }
  template <class R, class Op>
  request iexscan(in_place_t, R& buf, Op&& op) const {
    return irun<MPI_Iexscan>(static_cast<const R*>(nullptr), buf, std::forward<Op>(op), "oompi::iexscan", "MPI_Iexscan");
  }
  template <class B, class Op>
  future<std::decay_t<B>> iexscan(B&& in, Op&& op) const {
    return ivalue<MPI_Iexscan>(std::forward<B>(in), std::forward<Op>(op), "oompi::iexscan", "MPI_Iexscan");
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  // in == nullptr: in place on out.
  template <class S, class R>
  void args(const S* in, R& out, buffer_desc& sd, buffer_desc& rd, const char* name) const {
    static_assert(!is_intercomm_v<D>, "oompi: MPI defines scan and exscan on intracommunicators only");
    static_assert(!std::is_const_v<R>, "oompi::scan: cannot receive into a const buffer");
    same_elements<S, R>();
    check_comm(derived(), name);
    if (in == nullptr) {
      rd = describe(out);
      sd = buffer_desc{MPI_IN_PLACE, rd.count, rd.type};
      return;
    }
    sd = describe(*in);
    rd = prepare_recv(out, sd.count, name);
    check_same_type(sd, rd, name);
    check_distinct(sd, rd, name);
  }

  template <scan_fn Fn, class S, class R, class Op>
  void run(const S* in, R& out, Op&& op, const char* name, const char* routine) const {
    buffer_desc sd, rd;
    args(in, out, sd, rd, name);
    auto&& b = bind_op<element_t<R>, false>(std::forward<Op>(op), rd.type);
    const int rc = for_each_chunk(rd.count, [&](std::size_t at, int n) {
      const void* s = in == nullptr ? MPI_IN_PLACE : element_at(sd, at);
      return Fn(s, element_at(rd, at), n, rd.type, b.native(), derived().native());
    });
    finish(rc, routine, b);
  }

  template <iscan_fn Fn, class S, class R, class Op>
  request irun(const S* in, R& out, Op&& op, const char* name, const char* routine) const {
    buffer_desc sd, rd;
    args(in, out, sd, rd, name);
    const int n = single_chunk(rd.count, name);
    return start_nonblocking(make_keep(bind_op<element_t<R>, true>(std::forward<Op>(op), rd.type)),
                             routine, [&](auto& k, MPI_Request* r) {
                               return Fn(sd.data, rd.data, n, rd.type, k.op.native(), derived().native(), r);
                             });
  }

  template <iscan_fn Fn, class B, class Op>
  future<std::decay_t<B>> ivalue(B&& in, Op&& op, const char* name, const char* routine) const {
    using V = std::decay_t<B>;
    check_comm(derived(), name);
    V out = make_like(in);
    const MPI_Datatype t = describe(in).type;
    auto keep = keep_input(bind_op<element_t<V>, true>(std::forward<Op>(op), t), std::forward<B>(in));
    return start_future(std::move(out), std::move(keep), routine, [&](V& o, auto& k, MPI_Request* r) {
      buffer_desc sd, rd;
      args(&input_in<B>(k, in), o, sd, rd, name);
      return Fn(sd.data, rd.data, single_chunk(rd.count, name), rd.type, k.op.native(), derived().native(), r);
    });
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_SCAN_HPP
