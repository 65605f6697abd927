#ifndef OOMPI_COLLECTIVES_REDUCE_SCATTER_HPP
#define OOMPI_COLLECTIVES_REDUCE_SCATTER_HPP

// reduce_scatter_block, reduce_scatter (and their i-forms): an element-wise reduction whose
// result is split into blocks, block i to process i.
//
//   reduce_scatter_block(in, out, op)     in: size() x out's elements
//   reduce_scatter_block(in_place, buf, op)   result in buf's first size()-th
//   auto mine = reduce_scatter_block(in, op)
//   reduce_scatter(in, out, counts, op)   in: sum(counts) elements, out: counts[rank()]
//   reduce_scatter(in_place, buf, counts, op) result in buf's first counts[rank()] elements
//   auto mine = reduce_scatter(in, counts, op)
// On an intercommunicator the buffer forms pass the sizes to MPI unchecked.

#include "common.hpp"

namespace oompi::detail {

template <class D>
class reduce_scatter_ops {
public:
  // --- reduce_scatter_block -------------------------------------------------------------

  template <class S, class R, class Op, not_in_place<S> = 0>
  void reduce_scatter_block(const S& in, R& out, Op&& op) const {
    same_elements<S, R>();
    buffer_desc sd, rd;
    block_args(&in, out, sd, rd, "oompi::reduce_scatter_block");
    auto&& b = bind_op<element_t<S>, false>(std::forward<Op>(op), sd.type);
    finish(MPI_Reduce_scatter_block(sd.data, rd.data, to_int(rd.count, "oompi::reduce_scatter_block"),
                                    sd.type, b.native(), derived().native()),
           "MPI_Reduce_scatter_block", b);
  }
  template <class R, class Op>
  void reduce_scatter_block(in_place_t, R& buf, Op&& op) const {
    no_in_place_on_intercomm<D>();
    buffer_desc sd, rd;
    block_args(static_cast<const R*>(nullptr), buf, sd, rd, "oompi::reduce_scatter_block");
    auto&& b = bind_op<element_t<R>, false>(std::forward<Op>(op), rd.type);
    finish(MPI_Reduce_scatter_block(MPI_IN_PLACE, rd.data, to_int(rd.count, "oompi::reduce_scatter_block"),
                                    rd.type, b.native(), derived().native()),
           "MPI_Reduce_scatter_block", b);
  }
  /// This process's block of the reduction of every process's `in`.
  template <class B, class Op>
  vector_of_elements<B> reduce_scatter_block(const B& in, Op&& op) const {
    needs_typed<B>();
    static_assert(!is_intercomm_v<D>, "oompi::reduce_scatter_block: on an intercommunicator pass the output buffer");
    vector_of_elements<B> out;
    reduce_scatter_block(in, out, std::forward<Op>(op));
    return out;
  }

  template <class S, class R, class Op, not_in_place<S> = 0>
  request ireduce_scatter_block(S&& in, R& out, Op&& op) const {
    borrowed_send<S>();
    same_elements<S, R>();
    buffer_desc sd, rd;
    block_args(&in, out, sd, rd, "oompi::ireduce_scatter_block");
    const int n = to_int(rd.count, "oompi::ireduce_scatter_block");
    return start_nonblocking(make_keep(bind_op<element_t<S>, true>(std::forward<Op>(op), sd.type)),
                             "MPI_Ireduce_scatter_block", [&](auto& k, MPI_Request* r) {
                               return MPI_Ireduce_scatter_block(sd.data, rd.data, n, sd.type, k.op.native(),
                                                                derived().native(), r);
                             });
  }
  template <class R, class Op>
  request ireduce_scatter_block(in_place_t, R& buf, Op&& op) const {
    no_in_place_on_intercomm<D>();
    buffer_desc sd, rd;
    block_args(static_cast<const R*>(nullptr), buf, sd, rd, "oompi::ireduce_scatter_block");
    const int n = to_int(rd.count, "oompi::ireduce_scatter_block");
    return start_nonblocking(make_keep(bind_op<element_t<R>, true>(std::forward<Op>(op), rd.type)),
                             "MPI_Ireduce_scatter_block", [&](auto& k, MPI_Request* r) {
                               return MPI_Ireduce_scatter_block(MPI_IN_PLACE, rd.data, n, rd.type,
                                                                k.op.native(), derived().native(), r);
                             });
  }
  template <class B, class Op>
  future<vector_of_elements<B>> ireduce_scatter_block(B&& in, Op&& op) const {
    needs_typed<B>();
    static_assert(!is_intercomm_v<D>, "oompi::ireduce_scatter_block: on an intercommunicator pass the output buffer");
    const MPI_Datatype t = describe(in).type;
    auto keep = keep_input(bind_op<element_t<B>, true>(std::forward<Op>(op), t), std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Ireduce_scatter_block",
                        [&](auto& o, auto& k, MPI_Request* r) {
                          buffer_desc sd, rd;
                          block_args(&input_in<B>(k, in), o, sd, rd, "oompi::ireduce_scatter_block");
                          return MPI_Ireduce_scatter_block(sd.data, rd.data,
                                                           to_int(rd.count, "oompi::ireduce_scatter_block"),
                                                           sd.type, k.op.native(), derived().native(), r);
                        });
  }

  // --- reduce_scatter -------------------------------------------------------------------

  template <class S, class R, class Op, not_in_place<S> = 0>
  void reduce_scatter(const S& in, R& out, const std::vector<int>& counts, Op&& op) const {
    same_elements<S, R>();
    buffer_desc sd, rd;
    v_args(&in, out, counts, sd, rd, "oompi::reduce_scatter");
    auto&& b = bind_op<element_t<S>, false>(std::forward<Op>(op), sd.type);
    finish(MPI_Reduce_scatter(sd.data, rd.data, counts.data(), sd.type, b.native(), derived().native()),
           "MPI_Reduce_scatter", b);
  }
  template <class R, class Op>
  void reduce_scatter(in_place_t, R& buf, const std::vector<int>& counts, Op&& op) const {
    no_in_place_on_intercomm<D>();
    buffer_desc sd, rd;
    v_args(static_cast<const R*>(nullptr), buf, counts, sd, rd, "oompi::reduce_scatter");
    auto&& b = bind_op<element_t<R>, false>(std::forward<Op>(op), rd.type);
    finish(MPI_Reduce_scatter(MPI_IN_PLACE, rd.data, counts.data(), rd.type, b.native(), derived().native()),
           "MPI_Reduce_scatter", b);
  }
  /// This process's counts[rank()] elements of the reduction of every process's `in`.
  template <class B, class Op>
  vector_of_elements<B> reduce_scatter(const B& in, const std::vector<int>& counts, Op&& op) const {
    needs_typed<B>();
    static_assert(!is_intercomm_v<D>, "oompi::reduce_scatter: on an intercommunicator pass the output buffer");
    vector_of_elements<B> out;
    reduce_scatter(in, out, counts, std::forward<Op>(op));
    return out;
  }

  // Nonblocking: the request keeps a copy of the counts.
  template <class S, class R, class Op, not_in_place<S> = 0>
  request ireduce_scatter(S&& in, R& out, const std::vector<int>& counts, Op&& op) const {
    borrowed_send<S>();
    same_elements<S, R>();
    buffer_desc sd, rd;
    v_args(&in, out, counts, sd, rd, "oompi::ireduce_scatter");
    auto keep = make_keep(bind_op<element_t<S>, true>(std::forward<Op>(op), sd.type));
    keep->ints[0] = counts;
    return start_nonblocking(std::move(keep), "MPI_Ireduce_scatter", [&](auto& k, MPI_Request* r) {
      return MPI_Ireduce_scatter(sd.data, rd.data, k.ints[0].data(), sd.type, k.op.native(),
                                 derived().native(), r);
    });
  }
  template <class R, class Op>
  request ireduce_scatter(in_place_t, R& buf, const std::vector<int>& counts, Op&& op) const {
    no_in_place_on_intercomm<D>();
    buffer_desc sd, rd;
    v_args(static_cast<const R*>(nullptr), buf, counts, sd, rd, "oompi::ireduce_scatter");
    auto keep = make_keep(bind_op<element_t<R>, true>(std::forward<Op>(op), rd.type));
    keep->ints[0] = counts;
    return start_nonblocking(std::move(keep), "MPI_Ireduce_scatter", [&](auto& k, MPI_Request* r) {
      return MPI_Ireduce_scatter(MPI_IN_PLACE, rd.data, k.ints[0].data(), rd.type, k.op.native(),
                                 derived().native(), r);
    });
  }
  template <class B, class Op>
  future<vector_of_elements<B>> ireduce_scatter(B&& in, const std::vector<int>& counts, Op&& op) const {
    needs_typed<B>();
    static_assert(!is_intercomm_v<D>, "oompi::ireduce_scatter: on an intercommunicator pass the output buffer");
    const MPI_Datatype t = describe(in).type;
    auto keep = keep_input(bind_op<element_t<B>, true>(std::forward<Op>(op), t), std::forward<B>(in));
    keep->ints[0] = counts;
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Ireduce_scatter",
                        [&](auto& o, auto& k, MPI_Request* r) {
                          buffer_desc sd, rd;
                          v_args(&input_in<B>(k, in), o, k.ints[0], sd, rd, "oompi::ireduce_scatter");
                          return MPI_Ireduce_scatter(sd.data, rd.data, k.ints[0].data(), sd.type,
                                                     k.op.native(), derived().native(), r);
                        });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  // in == nullptr: in place on out. rd describes this process's block (in place: the first
  // block of out).
  template <class S, class R>
  void block_args(const S* in, R& out, buffer_desc& sd, buffer_desc& rd, const char* name) const {
    static_assert(!std::is_const_v<R>, "oompi::reduce_scatter_block: cannot receive into a const buffer");
    const D& c = derived();
    check_comm(c, name);
    const auto n = static_cast<std::size_t>(c.size());
    if (in == nullptr) {
      rd = describe(out);
      sd = rd;
      rd.count = block_of(rd, n, name);
      return;
    }
    sd = describe(*in);
    if constexpr (is_intercomm_v<D>) {
      rd = describe(out);
    } else {
      rd = prepare_recv(out, block_of(sd, n, name), name);
      check_same_type(sd, rd, name);
    }
    check_distinct(sd, rd, name);
  }

  template <class S, class R>
  void v_args(const S* in, R& out, const std::vector<int>& counts, buffer_desc& sd, buffer_desc& rd,
              const char* name) const {
    static_assert(!std::is_const_v<R>, "oompi::reduce_scatter: cannot receive into a const buffer");
    const D& c = derived();
    check_comm(c, name);
    check_counts(counts, c.size(), name, "receive");
    const std::size_t total = sum_counts(counts, name);
    const auto mine = static_cast<std::size_t>(counts[static_cast<std::size_t>(c.rank())]);
    if (in == nullptr) {
      rd = describe(out);
      if (rd.count != total) throw_size(name, "in-place buffer", rd.count, total);
      sd = rd;
      return;
    }
    sd = describe(*in);
    if constexpr (is_intercomm_v<D>) {
      rd = describe(out);
    } else {
      if (sd.count != total) throw_size(name, "send buffer", sd.count, total);
      rd = prepare_recv(out, mine, name);
      check_same_type(sd, rd, name);
    }
    check_distinct(sd, rd, name);
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_REDUCE_SCATTER_HPP
