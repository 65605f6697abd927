#ifndef OOMPI_COLLECTIVES_GATHER_HPP
#define OOMPI_COLLECTIVES_GATHER_HPP

// gather, gatherv (and igather, igatherv): every process's buffer, concatenated at the root.
//
//   gather(in, out, root)                 out (root only): size() x in's elements
//   gather(in_place, buf, root)           root: buf holds all, its own block already in place
//   auto all = gather(x, root)            std::vector at the root, empty elsewhere
//   gatherv(in, out, counts, displs, root) counts/displs significant at the root only
//   gatherv(in, out, counts, root)        blocks laid end to end
//   gatherv(in, out, root)                counts gathered first (one more MPI_Gather)
//   gatherv(in_place, buf, counts[, displs], root)
//   auto all = gatherv(x, root)

#include "common.hpp"

namespace oompi::detail {

template <class D>
class gather_ops {
public:
  // --- gather ---------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void gather(const S& in, R& out, int root) const {
    finish(gather_call<false>(&in, out, root, nullptr), "MPI_Gather");
  }
  template <class R>
  void gather(in_place_t, R& buf, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::gather: the in-place buffer is written at the root");
    finish(gather_call<false>(static_cast<const R*>(nullptr), buf, root, nullptr), "MPI_Gather");
  }
  /// Every process's `in`, concatenated in rank order, at the root (empty elsewhere).
  template <class B>
  vector_of_elements<B> gather(const B& in, int root) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    gather(in, out, root);
    return out;
  }

  template <class S, class R, not_in_place<S> = 0>
  request igather(S&& in, R& out, int root) const {
    borrowed_send<S>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(gather_call<true>(&in, out, root, &r), r, "MPI_Igather");
  }
  template <class R>
  request igather(in_place_t, R& buf, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::igather: the in-place buffer is written at the root");
    MPI_Request r = MPI_REQUEST_NULL;
    return started(gather_call<true>(static_cast<const R*>(nullptr), buf, root, &r), r, "MPI_Igather");
  }
  template <class B>
  future<vector_of_elements<B>> igather(B&& in, int root) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Igather",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return gather_call<true>(&input_in<B>(k, in), out, root, r);
                        });
  }

  // --- gatherv --------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void gatherv(const S& in, R& out, const std::vector<int>& counts, const std::vector<int>& displs,
               int root) const {
    std::vector<int> scratch[2];
    finish(gatherv_call<false>(&in, out, &counts, &displs, root, nullptr, scratch), "MPI_Gatherv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void gatherv(const S& in, R& out, const std::vector<int>& counts, int root) const {
    std::vector<int> scratch[2];
    finish(gatherv_call<false>(&in, out, &counts, nullptr, root, nullptr, scratch), "MPI_Gatherv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void gatherv(const S& in, R& out, int root) const {
    std::vector<int> scratch[2];
    finish(gatherv_call<false>(&in, out, nullptr, nullptr, root, nullptr, scratch), "MPI_Gatherv");
  }
  template <class R>
  void gatherv(in_place_t, R& buf, const std::vector<int>& counts, const std::vector<int>& displs,
               int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::gatherv: the in-place buffer is written at the root");
    std::vector<int> scratch[2];
    finish(gatherv_call<false>(static_cast<const R*>(nullptr), buf, &counts, &displs, root, nullptr, scratch),
           "MPI_Gatherv");
  }
  template <class R>
  void gatherv(in_place_t, R& buf, const std::vector<int>& counts, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::gatherv: the in-place buffer is written at the root");
    std::vector<int> scratch[2];
    finish(gatherv_call<false>(static_cast<const R*>(nullptr), buf, &counts, nullptr, root, nullptr, scratch),
           "MPI_Gatherv");
  }
  /// Every process's `in` (of any size), concatenated in rank order, at the root.
  template <class B>
  vector_of_elements<B> gatherv(const B& in, int root) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    gatherv(in, out, root);
    return out;
  }

  // Nonblocking: the request keeps copies of counts and displacements. Forms without counts
  // gather them first with a blocking MPI_Gather.
  template <class S, class R, not_in_place<S> = 0>
  request igatherv(S&& in, R& out, const std::vector<int>& counts,
                   const std::vector<int>& displs, int root) const {
    borrowed_send<S>();
    return istart(&in, out, &counts, &displs, root);
  }
  template <class S, class R, not_in_place<S> = 0>
  request igatherv(S&& in, R& out, const std::vector<int>& counts, int root) const {
    borrowed_send<S>();
    return istart(&in, out, &counts, nullptr, root);
  }
  template <class S, class R, not_in_place<S> = 0>
  request igatherv(S&& in, R& out, int root) const {
    borrowed_send<S>();
    return istart(&in, out, nullptr, nullptr, root);
  }
  template <class R>
  request igatherv(in_place_t, R& buf, const std::vector<int>& counts,
                   const std::vector<int>& displs, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::igatherv: the in-place buffer is written at the root");
    return istart(static_cast<const R*>(nullptr), buf, &counts, &displs, root);
  }
  template <class R>
  request igatherv(in_place_t, R& buf, const std::vector<int>& counts, int root) const {
    no_in_place_on_intercomm<D>();
    static_assert(!std::is_const_v<R>, "oompi::igatherv: the in-place buffer is written at the root");
    return istart(static_cast<const R*>(nullptr), buf, &counts, nullptr, root);
  }
  template <class B>
  future<vector_of_elements<B>> igatherv(B&& in, int root) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Igatherv",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return gatherv_call<true>(&input_in<B>(k, in), out, nullptr, nullptr,
                                                    root, r, k.ints);
                        });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  template <class S, class R>
  request istart(const S* in, R& out, const std::vector<int>* counts,
                 const std::vector<int>* displs, int root) const {
    auto keep = make_keep(no_binding{});
    if (counts) keep->ints[2] = *counts;
    if (displs) keep->ints[3] = *displs;
    return start_nonblocking(std::move(keep), "MPI_Igatherv", [&](auto& k, MPI_Request* r) {
      return gatherv_call<true>(in, out, counts ? &k.ints[2] : nullptr,
                                displs ? &k.ints[3] : nullptr, root, r, k.ints);
    });
  }

  // in == nullptr: in place.
  template <bool NB, class S, class R>
  int gather_call(const S* in, R& out, int root, MPI_Request* req) const {
    const D& c = derived();
    const char* name = NB ? "oompi::igather" : "oompi::gather";
    check_comm(c, name);
    check_root(c, root, name);
    const int n = peers(c);
    const bool at_root = is_root(c, root);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd{nullptr, 0, MPI_DATATYPE_NULL};
    const void* sbuf = MPI_IN_PLACE;
    std::size_t per = 0;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
      if (at_root) {
        if (is_intercomm_v<D> && sd.count == 0) {
          // MPI_ROOT sends nothing (its send buffer is not significant, here empty): out, as
          // given, is the blocks. (A non-empty one still gives the block's shape.)
          rd = describe(out);
          per = block_of(rd, static_cast<std::size_t>(n), name);
          sd = buffer_desc{nullptr, 0, MPI_DATATYPE_NULL};
          sbuf = nullptr;
        } else {
          rd = prepare_blocks(out, static_cast<std::size_t>(n), sd, per, name);
          check_distinct(sd, rd, name);
        }
      }
    } else {
      if (at_root) {
        rd = describe(out);
        per = block_of(rd, static_cast<std::size_t>(n), name);
      } else {
        sd = describe(out);
        sbuf = sd.data;
      }
    }
    const count_arg s(sd.count, sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type);
    const count_arg r(per, rd.type != MPI_DATATYPE_NULL ? rd.type : sd.type);
    if constexpr (NB)
      return MPI_Igather(sbuf, s.count, s.type, rd.data, r.count, r.type, root, c.native(), req);
    else
      return MPI_Gather(sbuf, s.count, s.type, rd.data, r.count, r.type, root, c.native());
  }

  // counts == nullptr: gather them first; displs == nullptr: end to end. scratch[0..1] hold
  // what is computed (kept by the request when nonblocking).
  template <bool NB, class S, class R>
  int gatherv_call(const S* in, R& out, const std::vector<int>* counts,
                   const std::vector<int>* displs, int root, MPI_Request* req,
                   std::vector<int>* scratch) const {
    const D& c = derived();
    const char* name = NB ? "oompi::igatherv" : "oompi::gatherv";
    check_comm(c, name);
    check_root(c, root, name);
    const int n = peers(c);
    const bool at_root = is_root(c, root);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd{nullptr, 0, MPI_DATATYPE_NULL};
    const void* sbuf = MPI_IN_PLACE;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
    } else {
      if (!at_root) {
        sd = describe(out);
        sbuf = sd.data;
      }
    }
    const int scount = to_int(sd.count, name);
    if (counts == nullptr) {
      scratch[0].assign(at_root ? static_cast<std::size_t>(n) : 0, 0);
      if (const int rc = MPI_Gather(&scount, 1, MPI_INT, scratch[0].data(), 1, MPI_INT, root, c.native());
          rc != MPI_SUCCESS)
        return rc;
      counts = &scratch[0];
    }
    if (at_root) {
      check_counts(*counts, n, name, "receive");
      if (displs == nullptr) {
        scratch[1] = displacements_of(*counts, name);
        displs = &scratch[1];
      }
      resize_for_layout(out, *counts, *displs);
      rd = describe(out);
      check_layout(*counts, *displs, n, rd.count, name, "receive");
      if (in != nullptr) {
        check_distinct(sd, rd, name);
        if constexpr (!is_intercomm_v<D>) {
          if (sd.type == rd.type && static_cast<std::size_t>((*counts)[c.rank()]) != sd.count)
            throw std::invalid_argument(std::string(name) + ": counts[" + std::to_string(c.rank()) +
                                        "] is " + std::to_string((*counts)[c.rank()]) +
                                        " but the root sends " + std::to_string(sd.count) +
                                        " elements");
        }
      }
    }
    const MPI_Datatype stype = sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type;
    const MPI_Datatype rtype = rd.type != MPI_DATATYPE_NULL ? rd.type : sd.type;
    const int* rc_ptr = at_root ? counts->data() : nullptr;
    const int* rd_ptr = at_root ? displs->data() : nullptr;
    if constexpr (NB)
      return MPI_Igatherv(sbuf, scount, stype, rd.data, rc_ptr, rd_ptr, rtype, root, c.native(), req);
    else
      return MPI_Gatherv(sbuf, scount, stype, rd.data, rc_ptr, rd_ptr, rtype, root, c.native());
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_GATHER_HPP
