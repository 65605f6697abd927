#ifndef OOMPI_COLLECTIVES_ALLGATHER_HPP
#define OOMPI_COLLECTIVES_ALLGATHER_HPP

// allgather, allgatherv (and iallgather, iallgatherv): every process's buffer, concatenated,
// on every process.
//
//   allgather(in, out)                    out: size() x in's elements
//   allgather(in_place, buf)              buf holds all; this rank's block already in place
//   auto all = allgather(x)               std::vector of size() x x's elements
//   allgatherv(in, out, counts, displs)
//   allgatherv(in, out, counts)           blocks laid end to end
//   allgatherv(in, out)                   counts exchanged first (one more MPI_Allgather)
//   allgatherv(in_place, buf, counts[, displs])
//   auto all = allgatherv(x)

#include "common.hpp"

namespace oompi::detail {

template <class D>
class allgather_ops {
public:
  // --- allgather ------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void allgather(const S& in, R& out) const {
    finish(allgather_call<false>(&in, out, nullptr), "MPI_Allgather");
  }
  template <class R>
  void allgather(in_place_t, R& buf) const {
    no_in_place_on_intercomm<D>();
    finish(allgather_call<false>(static_cast<const R*>(nullptr), buf, nullptr), "MPI_Allgather");
  }
  /// Every process's `in`, concatenated in rank order.
  template <class B>
  vector_of_elements<B> allgather(const B& in) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    allgather(in, out);
    return out;
  }

  template <class S, class R, not_in_place<S> = 0>
  request iallgather(S&& in, R& out) const {
    borrowed_send<S>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(allgather_call<true>(&in, out, &r), r, "MPI_Iallgather");
  }
  template <class R>
  request iallgather(in_place_t, R& buf) const {
    no_in_place_on_intercomm<D>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(allgather_call<true>(static_cast<const R*>(nullptr), buf, &r), r, "MPI_Iallgather");
  }
  template <class B>
  future<vector_of_elements<B>> iallgather(B&& in) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Iallgather",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return allgather_call<true>(&input_in<B>(k, in), out, r);
                        });
  }

  // --- allgatherv -----------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void allgatherv(const S& in, R& out, const std::vector<int>& counts,
                  const std::vector<int>& displs) const {
    std::vector<int> scratch[2];
    finish(allgatherv_call<false>(&in, out, &counts, &displs, nullptr, scratch), "MPI_Allgatherv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void allgatherv(const S& in, R& out, const std::vector<int>& counts) const {
    std::vector<int> scratch[2];
    finish(allgatherv_call<false>(&in, out, &counts, nullptr, nullptr, scratch), "MPI_Allgatherv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void allgatherv(const S& in, R& out) const {
    std::vector<int> scratch[2];
    finish(allgatherv_call<false>(&in, out, nullptr, nullptr, nullptr, scratch), "MPI_Allgatherv");
  }
  template <class R>
  void allgatherv(in_place_t, R& buf, const std::vector<int>& counts,
                  const std::vector<int>& displs) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch[2];
    finish(allgatherv_call<false>(static_cast<const R*>(nullptr), buf, &counts, &displs, nullptr, scratch),
           "MPI_Allgatherv");
  }
  template <class R>
  void allgatherv(in_place_t, R& buf, const std::vector<int>& counts) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch[2];
    finish(allgatherv_call<false>(static_cast<const R*>(nullptr), buf, &counts, nullptr, nullptr, scratch),
           "MPI_Allgatherv");
  }
  /// Every process's `in` (of any size), concatenated in rank order.
  template <class B>
  vector_of_elements<B> allgatherv(const B& in) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    allgatherv(in, out);
    return out;
  }

  // Nonblocking: the request keeps copies of counts and displacements. Forms without counts
  // exchange them first with a blocking MPI_Allgather.
  template <class S, class R, not_in_place<S> = 0>
  request iallgatherv(S&& in, R& out, const std::vector<int>& counts,
                      const std::vector<int>& displs) const {
    borrowed_send<S>();
    return istart(&in, out, &counts, &displs);
  }
  template <class S, class R, not_in_place<S> = 0>
  request iallgatherv(S&& in, R& out, const std::vector<int>& counts) const {
    borrowed_send<S>();
    return istart(&in, out, &counts, nullptr);
  }
  template <class S, class R, not_in_place<S> = 0>
  request iallgatherv(S&& in, R& out) const {
    borrowed_send<S>();
    return istart(&in, out, nullptr, nullptr);
  }
  template <class R>
  request iallgatherv(in_place_t, R& buf, const std::vector<int>& counts,
                      const std::vector<int>& displs) const {
    no_in_place_on_intercomm<D>();
    return istart(static_cast<const R*>(nullptr), buf, &counts, &displs);
  }
  template <class R>
  request iallgatherv(in_place_t, R& buf, const std::vector<int>& counts) const {
    no_in_place_on_intercomm<D>();
    return istart(static_cast<const R*>(nullptr), buf, &counts, nullptr);
  }
  template <class B>
  future<vector_of_elements<B>> iallgatherv(B&& in) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Iallgatherv",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return allgatherv_call<true>(&input_in<B>(k, in), out, nullptr, nullptr,
                                                       r, k.ints);
                        });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  template <class S, class R>
  request istart(const S* in, R& out, const std::vector<int>* counts,
                 const std::vector<int>* displs) const {
    auto keep = make_keep(no_binding{});
    if (counts) keep->ints[2] = *counts;
    if (displs) keep->ints[3] = *displs;
    return start_nonblocking(std::move(keep), "MPI_Iallgatherv", [&](auto& k, MPI_Request* r) {
      return allgatherv_call<true>(in, out, counts ? &k.ints[2] : nullptr,
                                   displs ? &k.ints[3] : nullptr, r, k.ints);
    });
  }

  template <bool NB, class S, class R>
  int allgather_call(const S* in, R& out, MPI_Request* req) const {
    static_assert(!std::is_const_v<R>, "oompi::allgather: cannot receive into a const buffer");
    const D& c = derived();
    const char* name = NB ? "oompi::iallgather" : "oompi::allgather";
    check_comm(c, name);
    const auto n = static_cast<std::size_t>(peers(c));
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd;
    const void* sbuf = MPI_IN_PLACE;
    std::size_t per = 0;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
      rd = prepare_blocks(out, n, sd, per, name);
      check_distinct(sd, rd, name);
    } else {
      rd = describe(out);
      per = block_of(rd, n, name);
    }
    const count_arg s(sd.count, sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type);
    const count_arg r(per, rd.type);
    if constexpr (NB)
      return MPI_Iallgather(sbuf, s.count, s.type, rd.data, r.count, r.type, c.native(), req);
    else
      return MPI_Allgather(sbuf, s.count, s.type, rd.data, r.count, r.type, c.native());
  }

  template <bool NB, class S, class R>
  int allgatherv_call(const S* in, R& out, const std::vector<int>* counts,
                      const std::vector<int>* displs, MPI_Request* req,
                      std::vector<int>* scratch) const {
    static_assert(!std::is_const_v<R>, "oompi::allgatherv: cannot receive into a const buffer");
    const D& c = derived();
    const char* name = NB ? "oompi::iallgatherv" : "oompi::allgatherv";
    check_comm(c, name);
    const int n = peers(c);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL};
    const void* sbuf = MPI_IN_PLACE;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
    } else {
    }
    const int scount = to_int(sd.count, name);
    if (counts == nullptr) {
      scratch[0].assign(static_cast<std::size_t>(n), 0);
      if (const int rc = MPI_Allgather(&scount, 1, MPI_INT, scratch[0].data(), 1, MPI_INT, c.native());
          rc != MPI_SUCCESS)
        return rc;
      counts = &scratch[0];
    }
    check_counts(*counts, n, name, "receive");
    if (displs == nullptr) {
      scratch[1] = displacements_of(*counts, name);
      displs = &scratch[1];
    }
    resize_for_layout(out, *counts, *displs);
    const buffer_desc rd = describe(out);
    check_layout(*counts, *displs, n, rd.count, name, "receive");
    if (in != nullptr) {
      check_distinct(sd, rd, name);
      if constexpr (!is_intercomm_v<D>) {
        if (sd.type == rd.type && static_cast<std::size_t>((*counts)[c.rank()]) != sd.count)
          throw std::invalid_argument(std::string(name) + ": counts[" + std::to_string(c.rank()) +
                                      "] is " + std::to_string((*counts)[c.rank()]) +
                                      " but this process sends " + std::to_string(sd.count) +
                                      " elements");
      }
    }
    const MPI_Datatype stype = sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type;
    if constexpr (NB)
      return MPI_Iallgatherv(sbuf, scount, stype, rd.data, counts->data(), displs->data(), rd.type,
                             c.native(), req);
    else
      return MPI_Allgatherv(sbuf, scount, stype, rd.data, counts->data(), displs->data(), rd.type,
                            c.native());
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_ALLGATHER_HPP
