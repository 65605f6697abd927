#ifndef OOMPI_COLLECTIVES_REDUCE_HPP
#define OOMPI_COLLECTIVES_REDUCE_HPP

// reduce, allreduce (and ireduce, iallreduce): element-wise reduction with an op (op.hpp).
//
//   reduce(in, out, op, root)             out at the root only
//   reduce(in_place, buf, op, root)       root: buf is input and result; elsewhere: input
//   B r = reduce(x, op, root)             the result at the root, B{} elsewhere
//   allreduce(in, out, op)
//   allreduce(in_place, buf, op)
//   B r = allreduce(x, op)                e.g. double s = world.allreduce(x, oompi::ops::sum)
// Blocking forms reduce more than INT_MAX elements in chunks; nonblocking forms refuse them.

#include "common.hpp"

namespace oompi::detail {

template <class D>
class reduce_ops {
public:
  // --- reduce ---------------------------------------------------------------------------

  template <class S, class R, class Op, not_in_place<S> = 0>
  void reduce(const S& in, R& out, Op&& op, int root) const {
    same_elements<S, R>();
    const D& c = derived();
    buffer_desc sd, rd;
    prepare_reduce(c, in, out, root, sd, rd, "oompi::reduce");
    auto&& b = bind_op<element_t<S>, false>(std::forward<Op>(op), sd.type);
    const int rc = for_each_chunk(sd.count, [&](std::size_t at, int n) {
      return MPI_Reduce(element_at(sd, at), element_at(rd, at), n, sd.type, b.native(), root, c.native());
    });
    finish(rc, "MPI_Reduce", b);
  }
  template <class R, class Op>
  void reduce(in_place_t, R& buf, Op&& op, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::reduce: the in-place buffer is written at the root");
    const D& c = derived();
    check_comm(c, "oompi::reduce");
    check_root(c, root, "oompi::reduce");
    const buffer_desc d = describe(buf);
    const bool at_root = is_root(c, root);
    auto&& b = bind_op<element_t<R>, false>(std::forward<Op>(op), d.type);
    const int rc = for_each_chunk(d.count, [&](std::size_t at, int n) {
      void* p = element_at(d, at);
      return at_root ? MPI_Reduce(MPI_IN_PLACE, p, n, d.type, b.native(), root, c.native())
                     : MPI_Reduce(p, nullptr, n, d.type, b.native(), root, c.native());
    });
    finish(rc, "MPI_Reduce", b);
  }
  /// The reduction of every process's `in` at the root; B{} on the other processes.
  template <class B, class Op>
  B reduce(const B& in, Op&& op, int root) const {
    B out = is_root(derived(), root) ? make_like(in) : B{};
    reduce(in, out, std::forward<Op>(op), root);
    return out;
  }

  template <class S, class R, class Op, not_in_place<S> = 0>
  request ireduce(S&& in, R& out, Op&& op, int root) const {
    borrowed_send<S>();
    same_elements<S, R>();
    const D& c = derived();
    buffer_desc sd, rd;
    prepare_reduce(c, in, out, root, sd, rd, "oompi::ireduce");
    const int n = single_chunk(sd.count, "oompi::ireduce");
    return start_nonblocking(make_keep(bind_op<element_t<S>, true>(std::forward<Op>(op), sd.type)),
                             "MPI_Ireduce", [&](auto& k, MPI_Request* r) {
                               return MPI_Ireduce(sd.data, rd.data, n, sd.type, k.op.native(), root,
                                                  c.native(), r);
                             });
  }
  template <class R, class Op>
  request ireduce(in_place_t, R& buf, Op&& op, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::ireduce: the in-place buffer is written at the root");
    const D& c = derived();
    check_comm(c, "oompi::ireduce");
    check_root(c, root, "oompi::ireduce");
    const buffer_desc d = describe(buf);
    const int n = single_chunk(d.count, "oompi::ireduce");
    const bool at_root = is_root(c, root);
    return start_nonblocking(make_keep(bind_op<element_t<R>, true>(std::forward<Op>(op), d.type)),
                             "MPI_Ireduce", [&](auto& k, MPI_Request* r) {
                               return at_root ? MPI_Ireduce(MPI_IN_PLACE, d.data, n, d.type, k.op.native(),
                                                            root, c.native(), r)
                                              : MPI_Ireduce(d.data, nullptr, n, d.type, k.op.native(),
                                                            root, c.native(), r);
                             });
  }
  template <class B, class Op>
  future<std::decay_t<B>> ireduce(B&& in, Op&& op, int root) const {
    using V = std::decay_t<B>;
    const D& c = derived();
    check_comm(c, "oompi::ireduce");
    check_root(c, root, "oompi::ireduce");
    V out = is_root(c, root) ? make_like(in) : V{};
    const MPI_Datatype t = describe(in).type;
    auto keep = keep_input(bind_op<element_t<V>, true>(std::forward<Op>(op), t), std::forward<B>(in));
    return start_future(std::move(out), std::move(keep), "MPI_Ireduce",
                        [&](V& o, auto& k, MPI_Request* r) {
                          const V& x = input_in<B>(k, in);
                          buffer_desc sd, rd;
                          prepare_reduce(c, x, o, root, sd, rd, "oompi::ireduce");
                          return MPI_Ireduce(sd.data, rd.data, single_chunk(sd.count, "oompi::ireduce"),
                                             sd.type, k.op.native(), root, c.native(), r);
                        });
  }

  // --- allreduce ------------------------------------------------------------------------

  template <class S, class R, class Op, not_in_place<S> = 0>
  void allreduce(const S& in, R& out, Op&& op) const {
    same_elements<S, R>();
    const D& c = derived();
    buffer_desc sd, rd;
    prepare_allreduce(c, in, out, sd, rd, "oompi::allreduce");
    auto&& b = bind_op<element_t<S>, false>(std::forward<Op>(op), sd.type);
    const int rc = for_each_chunk(sd.count, [&](std::size_t at, int n) {
      return MPI_Allreduce(element_at(sd, at), element_at(rd, at), n, sd.type, b.native(), c.native());
    });
    finish(rc, "MPI_Allreduce", b);
  }
  template <class R, class Op>
  void allreduce(in_place_t, R& buf, Op&& op) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::allreduce: the in-place buffer is written");
    const D& c = derived();
    check_comm(c, "oompi::allreduce");
    const buffer_desc d = describe(buf);
    auto&& b = bind_op<element_t<R>, false>(std::forward<Op>(op), d.type);
    const int rc = for_each_chunk(d.count, [&](std::size_t at, int n) {
      return MPI_Allreduce(MPI_IN_PLACE, element_at(d, at), n, d.type, b.native(), c.native());
    });
    finish(rc, "MPI_Allreduce", b);
  }
  /// The reduction of every process's `in`: `double s = world.allreduce(x, oompi::ops::sum);`
  template <class B, class Op>
  B allreduce(const B& in, Op&& op) const {
    B out = make_like(in);
    allreduce(in, out, std::forward<Op>(op));
    return out;
  }

  template <class S, class R, class Op, not_in_place<S> = 0>
  request iallreduce(S&& in, R& out, Op&& op) const {
    borrowed_send<S>();
    same_elements<S, R>();
    const D& c = derived();
    buffer_desc sd, rd;
    prepare_allreduce(c, in, out, sd, rd, "oompi::iallreduce");
    const int n = single_chunk(sd.count, "oompi::iallreduce");
    return start_nonblocking(make_keep(bind_op<element_t<S>, true>(std::forward<Op>(op), sd.type)),
                             "MPI_Iallreduce", [&](auto& k, MPI_Request* r) {
                               return MPI_Iallreduce(sd.data, rd.data, n, sd.type, k.op.native(),
                                                     c.native(), r);
                             });
  }
  template <class R, class Op>
  request iallreduce(in_place_t, R& buf, Op&& op) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::iallreduce: the in-place buffer is written");
    const D& c = derived();
    check_comm(c, "oompi::iallreduce");
    const buffer_desc d = describe(buf);
    const int n = single_chunk(d.count, "oompi::iallreduce");
    return start_nonblocking(make_keep(bind_op<element_t<R>, true>(std::forward<Op>(op), d.type)),
                             "MPI_Iallreduce", [&](auto& k, MPI_Request* r) {
                               return MPI_Iallreduce(MPI_IN_PLACE, d.data, n, d.type, k.op.native(),
                                                     c.native(), r);
                             });
  }
  template <class B, class Op>
  future<std::decay_t<B>> iallreduce(B&& in, Op&& op) const {
    using V = std::decay_t<B>;
    const D& c = derived();
    check_comm(c, "oompi::iallreduce");
    V out = make_like(in);
    const MPI_Datatype t = describe(in).type;
    auto keep = keep_input(bind_op<element_t<V>, true>(std::forward<Op>(op), t), std::forward<B>(in));
    return start_future(std::move(out), std::move(keep), "MPI_Iallreduce",
                        [&](V& o, auto& k, MPI_Request* r) {
                          const buffer_desc sd = describe(input_in<B>(k, in));
                          const buffer_desc rd = describe(o);
                          return MPI_Iallreduce(sd.data, rd.data, single_chunk(sd.count, "oompi::iallreduce"),
                                                sd.type, k.op.native(), c.native(), r);
                        });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  template <class S, class R>
  static void prepare_reduce(const D& c, const S& in, R& out, int root, buffer_desc& sd,
                             buffer_desc& rd, const char* name) {
    check_comm(c, name);
    check_root(c, root, name);
    sd = describe(in);
    if constexpr (is_intercomm_v<D>) {
      if (sd.count == 0 && is_root(c, root)) {
        // MPI_ROOT contributes nothing (its send buffer is not significant, here empty): out,
        // as given, gives the count. (A non-empty one still gives the shape.) MPI never reads
        // the send buffer there, but MPICH refuses a null one with a count: any address will do.
        static const char unread = 0;
        rd = describe(out);
        sd = buffer_desc{const_cast<char*>(&unread), rd.count, rd.type};
        return;
      }
    }
    rd = buffer_desc{nullptr, 0, sd.type};  // ignored off the root
    if (is_root(c, root)) {
      rd = prepare_recv(out, sd.count, name);
      check_same_type(sd, rd, name);
      check_distinct(sd, rd, name);
    }
  }
  template <class S, class R>
  static void prepare_allreduce(const D& c, const S& in, R& out, buffer_desc& sd, buffer_desc& rd,
                                const char* name) {
    check_comm(c, name);
    sd = describe(in);
    rd = prepare_recv(out, sd.count, name);
    check_same_type(sd, rd, name);
    check_distinct(sd, rd, name);
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_REDUCE_HPP
