#ifndef OOMPI_COLLECTIVES_SCATTER_HPP
#define OOMPI_COLLECTIVES_SCATTER_HPP

// scatter, scatterv (and iscatter, iscatterv): blocks of the root's buffer, one per process.
//
//   scatter(in, out, root)                in (root only): size() x out's elements
//   scatter(in_place, buf, root)          root: buf is the whole send buffer, its block stays
//                                         in place; elsewhere: buf receives
//   T mine = scatter(all, root)           one element per process
//   scatterv(in, counts, displs, out, root)   counts/displs significant at the root only
//   scatterv(in, counts, out, root)       blocks laid end to end
//   scatterv(in_place, buf, counts[, displs], root)
//   auto mine = scatterv(all, counts, root)   counts at the root only: they are scattered first
// Receive buffers are sized by the caller (only the root knows the counts), except in the
// value-returning forms.

#include "common.hpp"

namespace oompi::detail {

template <class D>
class scatter_ops {
public:
  // --- scatter --------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void scatter(const S& in, R& out, int root) const {
    finish(scatter_call<false>(&in, out, false, root, nullptr), "MPI_Scatter");
  }
  template <class B>
  void scatter(in_place_t, B& buf, int root) const {
    no_in_place_on_intercomm<D>();
    finish(scatter_call<false>(&buf, buf, true, root, nullptr), "MPI_Scatter");
  }
  /// One element of the root's `all` (size() elements) per process.
  template <class B>
  element_t<B> scatter(const B& all, int root) const {
    needs_typed<B>();
    element_t<B> mine{};
    scatter(all, mine, root);
    return mine;
  }

  template <class S, class R, not_in_place<S> = 0>
  request iscatter(S&& in, R& out, int root) const {
    borrowed_send<S>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(scatter_call<true>(&in, out, false, root, &r), r, "MPI_Iscatter");
  }
  template <class B>
  request iscatter(in_place_t, B& buf, int root) const {
    no_in_place_on_intercomm<D>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(scatter_call<true>(&buf, buf, true, root, &r), r, "MPI_Iscatter");
  }
  template <class B>
  future<element_t<B>> iscatter(B&& all, int root) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(all));
    return start_future(element_t<B>{}, std::move(keep), "MPI_Iscatter",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return scatter_call<true>(&input_in<B>(k, all), out, false, root, r);
                        });
  }

  // --- scatterv -------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void scatterv(const S& in, const std::vector<int>& counts, const std::vector<int>& displs,
                R& out, int root) const {
    std::vector<int> scratch;
    finish(scatterv_call<false>(&in, &counts, &displs, out, false, root, nullptr, scratch), "MPI_Scatterv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void scatterv(const S& in, const std::vector<int>& counts, R& out, int root) const {
    std::vector<int> scratch;
    finish(scatterv_call<false>(&in, &counts, nullptr, out, false, root, nullptr, scratch), "MPI_Scatterv");
  }
  template <class B>
  void scatterv(in_place_t, B& buf, const std::vector<int>& counts, const std::vector<int>& displs,
                int root) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch;
    finish(scatterv_call<false>(&buf, &counts, &displs, buf, true, root, nullptr, scratch), "MPI_Scatterv");
  }
  template <class B>
  void scatterv(in_place_t, B& buf, const std::vector<int>& counts, int root) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch;
    finish(scatterv_call<false>(&buf, &counts, nullptr, buf, true, root, nullptr, scratch), "MPI_Scatterv");
  }
  /// counts[i] elements of the root's `all` to process i, end to end. `counts` matters at the
  /// root only: each process's count is scattered first (one more MPI_Scatter).
  template <class B>
  vector_of_elements<B> scatterv(const B& all, const std::vector<int>& counts, int root) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    out.resize(my_count(counts, root));
    scatterv(all, counts, out, root);
    return out;
  }

  // Nonblocking: the request keeps copies of counts and displacements.
  template <class S, class R, not_in_place<S> = 0>
  request iscatterv(S&& in, const std::vector<int>& counts, const std::vector<int>& displs,
                    R& out, int root) const {
    borrowed_send<S>();
    return istart(&in, &counts, &displs, out, false, root);
  }
  template <class S, class R, not_in_place<S> = 0>
  request iscatterv(S&& in, const std::vector<int>& counts, R& out, int root) const {
    borrowed_send<S>();
    return istart(&in, &counts, nullptr, out, false, root);
  }
  template <class B>
  request iscatterv(in_place_t, B& buf, const std::vector<int>& counts,
                    const std::vector<int>& displs, int root) const {
    no_in_place_on_intercomm<D>();
    return istart(&buf, &counts, &displs, buf, true, root);
  }
  template <class B>
  request iscatterv(in_place_t, B& buf, const std::vector<int>& counts, int root) const {
    no_in_place_on_intercomm<D>();
    return istart(&buf, &counts, nullptr, buf, true, root);
  }
  /// As scatterv(all, counts, root); the per-process counts are scattered blocking first.
  template <class B>
  future<vector_of_elements<B>> iscatterv(B&& all, const std::vector<int>& counts, int root) const {
    needs_typed<B>();
    vector_of_elements<B> out(my_count(counts, root));
    auto keep = keep_input(no_binding{}, std::forward<B>(all));
    keep->ints[2] = counts;
    return start_future(std::move(out), std::move(keep), "MPI_Iscatterv",
                        [&](auto& o, auto& k, MPI_Request* r) {
                          return scatterv_call<true>(&input_in<B>(k, all), &k.ints[2], nullptr, o,
                                                     false, root, r, k.ints[1]);
                        });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  template <class S, class R>
  request istart(const S* in, const std::vector<int>* counts, const std::vector<int>* displs,
                 R& out, bool in_place, int root) const {
    auto keep = make_keep(no_binding{});
    keep->ints[2] = *counts;
    if (displs) keep->ints[3] = *displs;
    return start_nonblocking(std::move(keep), "MPI_Iscatterv", [&](auto& k, MPI_Request* r) {
      return scatterv_call<true>(in, &k.ints[2], displs ? &k.ints[3] : nullptr, out, in_place,
                                 root, r, k.ints[1]);
    });
  }

  // This process's count from the root's counts (one MPI_Scatter).
  int my_count(const std::vector<int>& counts, int root) const {
    const D& c = derived();
    check_comm(c, "oompi::scatterv");
    check_root(c, root, "oompi::scatterv");
    const bool at_root = is_root(c, root);
    if (at_root) check_counts(counts, peers(c), "oompi::scatterv", "send");
    int mine = 0;
    finish(MPI_Scatter(at_root ? counts.data() : nullptr, 1, MPI_INT, &mine, 1, MPI_INT, root,
                       c.native()),
           "MPI_Scatter");
    return mine;
  }

  // in_place: `in` and `out` are the same buffer.
  template <bool NB, class S, class R>
  int scatter_call(const S* in, R& out, bool in_place, int root, MPI_Request* req) const {
    const D& c = derived();
    const char* name = NB ? "oompi::iscatter" : "oompi::scatter";
    check_comm(c, name);
    check_root(c, root, name);
    const auto n = static_cast<std::size_t>(peers(c));
    const bool at_root = is_root(c, root);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd{nullptr, 0, MPI_DATATYPE_NULL};
    void* rbuf = MPI_IN_PLACE;
    std::size_t per = 0;
    if (in_place) {
      if (at_root) {
        sd = describe(*in);
        per = block_of(sd, n, name);
      } else {
        static_assert(!std::is_const_v<R>, "oompi::scatter: cannot receive into a const buffer");
        rd = describe(out);
        rbuf = rd.data;
      }
    } else {
      static_assert(!std::is_const_v<R>, "oompi::scatter: cannot receive into a const buffer");
      rd = describe(out);
      rbuf = rd.data;
      if (at_root) {
        sd = describe(*in);
        if constexpr (is_intercomm_v<D>) {
          // MPI_ROOT receives nothing (its receive buffer is not significant): in gives the blocks.
          per = block_of(sd, n, name);
          rd = buffer_desc{nullptr, 0, sd.type};
          rbuf = nullptr;
        } else {
          if (sd.type == rd.type) {
            if (sd.count != n * rd.count) throw_size(name, "send buffer", sd.count, n * rd.count);
            per = rd.count;
          } else {
            per = block_of(sd, n, name);
          }
          check_distinct(sd, rd, name);
        }
      }
    }
    const count_arg s(per, sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type);
    const count_arg r(rd.count, rd.type != MPI_DATATYPE_NULL ? rd.type : sd.type);
    if constexpr (NB)
      return MPI_Iscatter(sd.data, s.count, s.type, rbuf, r.count, r.type, root, c.native(), req);
    else
      return MPI_Scatter(sd.data, s.count, s.type, rbuf, r.count, r.type, root, c.native());
  }

  template <bool NB, class S, class R>
  int scatterv_call(const S* in, const std::vector<int>* counts, const std::vector<int>* displs,
                    R& out, bool in_place, int root, MPI_Request* req,
                    std::vector<int>& scratch) const {
    const D& c = derived();
    const char* name = NB ? "oompi::iscatterv" : "oompi::scatterv";
    check_comm(c, name);
    check_root(c, root, name);
    const int n = peers(c);
    const bool at_root = is_root(c, root);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd{nullptr, 0, MPI_DATATYPE_NULL};
    void* rbuf = MPI_IN_PLACE;
    if (!in_place || !at_root) {
      static_assert(!std::is_const_v<R>, "oompi::scatterv: cannot receive into a const buffer");
      rd = describe(out);
      rbuf = rd.data;
    }
    if (at_root) {
      sd = describe(*in);
      check_counts(*counts, n, name, "send");
      if (displs == nullptr) {
        scratch = displacements_of(*counts, name);
        displs = &scratch;
      }
      check_layout(*counts, *displs, n, sd.count, name, "send");
      if (!in_place) {
        check_distinct(sd, rd, name);
        if constexpr (!is_intercomm_v<D>) {
          if (sd.type == rd.type && static_cast<std::size_t>((*counts)[c.rank()]) != rd.count)
            throw std::invalid_argument(std::string(name) + ": counts[" + std::to_string(c.rank()) +
                                        "] is " + std::to_string((*counts)[c.rank()]) +
                                        " but the root's receive buffer holds " +
                                        std::to_string(rd.count) + " elements");
        }
      }
    }
    const int rcount = to_int(rd.count, name);
    const MPI_Datatype stype = sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type;
    const MPI_Datatype rtype = rd.type != MPI_DATATYPE_NULL ? rd.type : sd.type;
    const int* sc = at_root ? counts->data() : nullptr;
    const int* sdp = at_root ? displs->data() : nullptr;
    if constexpr (NB)
      return MPI_Iscatterv(sd.data, sc, sdp, stype, rbuf, rcount, rtype, root, c.native(), req);
    else
      return MPI_Scatterv(sd.data, sc, sdp, stype, rbuf, rcount, rtype, root, c.native());
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_SCATTER_HPP
