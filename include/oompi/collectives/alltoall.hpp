#ifndef OOMPI_COLLECTIVES_ALLTOALL_HPP
#define OOMPI_COLLECTIVES_ALLTOALL_HPP

// alltoall, alltoallv, alltoallw (and their i-forms): block i of every process's buffer goes
// to process i.
//
//   alltoall(in, out)                     in and out: size() equal blocks
//   alltoall(in_place, buf)
//   auto got = alltoall(x)
//   alltoallv(in, scounts, sdispls, out, rcounts, rdispls)
//   alltoallv(in, scounts, out, rcounts)  blocks laid end to end
//   alltoallv(in, scounts, out)           rcounts exchanged first (one more MPI_Alltoall)
//   alltoallv(in_place, buf, counts[, displs])
//   auto got = alltoallv(x, scounts)
//   alltoallw(in, scounts, sdispls, stypes, out, rcounts, rdispls, rtypes)
//       displacements in bytes from the buffer's start, one datatype per process
//   alltoallw(in_place, buf, counts, displs, types)

#include "common.hpp"

namespace oompi::detail {

template <class D>
class alltoall_ops {
public:
  // --- alltoall -------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void alltoall(const S& in, R& out) const {
    finish(alltoall_call<false>(&in, out, nullptr), "MPI_Alltoall");
  }
  template <class R>
  void alltoall(in_place_t, R& buf) const {
    no_in_place_on_intercomm<D>();
    finish(alltoall_call<false>(static_cast<const R*>(nullptr), buf, nullptr), "MPI_Alltoall");
  }
  template <class B>
  vector_of_elements<B> alltoall(const B& in) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    alltoall(in, out);
    return out;
  }

  template <class S, class R, not_in_place<S> = 0>
  request ialltoall(S&& in, R& out) const {
    borrowed_send<S>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(alltoall_call<true>(&in, out, &r), r, "MPI_Ialltoall");
  }
  template <class R>
  request ialltoall(in_place_t, R& buf) const {
    no_in_place_on_intercomm<D>();
    MPI_Request r = MPI_REQUEST_NULL;
    return started(alltoall_call<true>(static_cast<const R*>(nullptr), buf, &r), r, "MPI_Ialltoall");
  }
  template <class B>
  future<vector_of_elements<B>> ialltoall(B&& in) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Ialltoall",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return alltoall_call<true>(&input_in<B>(k, in), out, r);
                        });
  }

  // --- alltoallv ------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void alltoallv(const S& in, const std::vector<int>& scounts, const std::vector<int>& sdispls,
                 R& out, const std::vector<int>& rcounts, const std::vector<int>& rdispls) const {
    std::vector<int> scratch[4];
    finish(alltoallv_call<false>(&in, &scounts, &sdispls, out, &rcounts, &rdispls, nullptr, scratch),
           "MPI_Alltoallv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void alltoallv(const S& in, const std::vector<int>& scounts, R& out,
                 const std::vector<int>& rcounts) const {
    std::vector<int> scratch[4];
    finish(alltoallv_call<false>(&in, &scounts, nullptr, out, &rcounts, nullptr, nullptr, scratch),
           "MPI_Alltoallv");
  }
  template <class S, class R, not_in_place<S> = 0>
  void alltoallv(const S& in, const std::vector<int>& scounts, R& out) const {
    std::vector<int> scratch[4];
    finish(alltoallv_call<false>(&in, &scounts, nullptr, out, nullptr, nullptr, nullptr, scratch),
           "MPI_Alltoallv");
  }
  template <class R>
  void alltoallv(in_place_t, R& buf, const std::vector<int>& counts,
                 const std::vector<int>& displs) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch[4];
    finish(alltoallv_call<false>(static_cast<const R*>(nullptr), nullptr, nullptr, buf, &counts,
                                 &displs, nullptr, scratch),
           "MPI_Alltoallv");
  }
  template <class R>
  void alltoallv(in_place_t, R& buf, const std::vector<int>& counts) const {
    no_in_place_on_intercomm<D>();
    std::vector<int> scratch[4];
    finish(alltoallv_call<false>(static_cast<const R*>(nullptr), nullptr, nullptr, buf, &counts,
                                 nullptr, nullptr, scratch),
           "MPI_Alltoallv");
  }
  /// scounts[i] elements of `in` (end to end) to process i; returns what every process sent
  /// here, in rank order.
  template <class B>
  vector_of_elements<B> alltoallv(const B& in, const std::vector<int>& scounts) const {
    needs_typed<B>();
    vector_of_elements<B> out;
    alltoallv(in, scounts, out);
    return out;
  }

  // Nonblocking: the request keeps copies of counts and displacements. The form without
  // rcounts exchanges them first with a blocking MPI_Alltoall.
  template <class S, class R, not_in_place<S> = 0>
  request ialltoallv(S&& in, const std::vector<int>& scounts, const std::vector<int>& sdispls,
                     R& out, const std::vector<int>& rcounts, const std::vector<int>& rdispls) const {
    borrowed_send<S>();
    return istart(&in, &scounts, &sdispls, out, &rcounts, &rdispls);
  }
  template <class S, class R, not_in_place<S> = 0>
  request ialltoallv(S&& in, const std::vector<int>& scounts, R& out,
                     const std::vector<int>& rcounts) const {
    borrowed_send<S>();
    return istart(&in, &scounts, nullptr, out, &rcounts, nullptr);
  }
  template <class S, class R, not_in_place<S> = 0>
  request ialltoallv(S&& in, const std::vector<int>& scounts, R& out) const {
    borrowed_send<S>();
    return istart(&in, &scounts, nullptr, out, nullptr, nullptr);
  }
  template <class R>
  request ialltoallv(in_place_t, R& buf, const std::vector<int>& counts,
                     const std::vector<int>& displs) const {
    no_in_place_on_intercomm<D>();
    return istart(static_cast<const R*>(nullptr), nullptr, nullptr, buf, &counts, &displs);
  }
  template <class R>
  request ialltoallv(in_place_t, R& buf, const std::vector<int>& counts) const {
    no_in_place_on_intercomm<D>();
    return istart(static_cast<const R*>(nullptr), nullptr, nullptr, buf, &counts, nullptr);
  }
  template <class B>
  future<vector_of_elements<B>> ialltoallv(B&& in, const std::vector<int>& scounts) const {
    needs_typed<B>();
    auto keep = keep_input(no_binding{}, std::forward<B>(in));
    keep->ints[0] = scounts;
    return start_future(vector_of_elements<B>{}, std::move(keep), "MPI_Ialltoallv",
                        [&](auto& out, auto& k, MPI_Request* r) {
                          return alltoallv_call<true>(&input_in<B>(k, in), &k.ints[0], nullptr, out,
                                                      nullptr, nullptr, r, k.ints);
                        });
  }

  // --- alltoallw ------------------------------------------------------------------------

  template <class S, class R, not_in_place<S> = 0>
  void alltoallw(const S& in, const std::vector<int>& scounts, const std::vector<int>& sdispls,
                 const std::vector<MPI_Datatype>& stypes, R& out, const std::vector<int>& rcounts,
                 const std::vector<int>& rdispls, const std::vector<MPI_Datatype>& rtypes) const {
    finish(alltoallw_call<false>(&in, &scounts, &sdispls, &stypes, out, rcounts, rdispls, rtypes, nullptr),
           "MPI_Alltoallw");
  }
  template <class R>
  void alltoallw(in_place_t, R& buf, const std::vector<int>& counts, const std::vector<int>& displs,
                 const std::vector<MPI_Datatype>& types) const {
    no_in_place_on_intercomm<D>();
    finish(alltoallw_call<false>(static_cast<const R*>(nullptr), nullptr, nullptr, nullptr, buf,
                                 counts, displs, types, nullptr),
           "MPI_Alltoallw");
  }
  /// Nonblocking: the request keeps copies of the counts, displacements and type lists.
  template <class S, class R, not_in_place<S> = 0>
  request ialltoallw(S&& in, const std::vector<int>& scounts, const std::vector<int>& sdispls,
                     const std::vector<MPI_Datatype>& stypes, R& out,
                     const std::vector<int>& rcounts, const std::vector<int>& rdispls,
                     const std::vector<MPI_Datatype>& rtypes) const {
    borrowed_send<S>();
    auto keep = std::make_unique<collective_keep<no_binding, std::vector<MPI_Datatype>, std::vector<MPI_Datatype>>>(
        no_binding{}, stypes, rtypes);
    keep->ints[0] = scounts;
    keep->ints[1] = sdispls;
    keep->ints[2] = rcounts;
    keep->ints[3] = rdispls;
    return start_nonblocking(std::move(keep), "MPI_Ialltoallw", [&](auto& k, MPI_Request* r) {
      return alltoallw_call<true>(&in, &k.ints[0], &k.ints[1], &std::get<0>(k.owned), out,
                                  k.ints[2], k.ints[3], std::get<1>(k.owned), r);
    });
  }
  template <class R>
  request ialltoallw(in_place_t, R& buf, const std::vector<int>& counts,
                     const std::vector<int>& displs, const std::vector<MPI_Datatype>& types) const {
    no_in_place_on_intercomm<D>();
    auto keep = std::make_unique<collective_keep<no_binding, std::vector<MPI_Datatype>>>(no_binding{}, types);
    keep->ints[2] = counts;
    keep->ints[3] = displs;
    return start_nonblocking(std::move(keep), "MPI_Ialltoallw", [&](auto& k, MPI_Request* r) {
      return alltoallw_call<true>(static_cast<const R*>(nullptr), nullptr, nullptr, nullptr, buf,
                                  k.ints[2], k.ints[3], std::get<0>(k.owned), r);
    });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  template <class S, class R>
  request istart(const S* in, const std::vector<int>* sc, const std::vector<int>* sd, R& out,
                 const std::vector<int>* rc, const std::vector<int>* rd) const {
    auto keep = make_keep(no_binding{});
    // ints[0..3]: scounts, sdispls, rcounts, rdispls (given or computed)
    if (sc) keep->ints[0] = *sc;
    if (sd) keep->ints[1] = *sd;
    if (rc) keep->ints[2] = *rc;
    if (rd) keep->ints[3] = *rd;
    return start_nonblocking(std::move(keep), "MPI_Ialltoallv", [&](auto& k, MPI_Request* r) {
      return alltoallv_call<true>(in, sc ? &k.ints[0] : nullptr, sd ? &k.ints[1] : nullptr, out,
                                  rc ? &k.ints[2] : nullptr, rd ? &k.ints[3] : nullptr, r, k.ints);
    });
  }

  template <bool NB, class S, class R>
  int alltoall_call(const S* in, R& out, MPI_Request* req) const {
    static_assert(!std::is_const_v<R>, "oompi::alltoall: cannot receive into a const buffer");
    const D& c = derived();
    const char* name = NB ? "oompi::ialltoall" : "oompi::alltoall";
    check_comm(c, name);
    const auto n = static_cast<std::size_t>(peers(c));
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL}, rd;
    const void* sbuf = MPI_IN_PLACE;
    std::size_t sper = 0, rper = 0;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
      sper = block_of(sd, n, name);
      rd = prepare_blocks(out, n, buffer_desc{sd.data, sper, sd.type}, rper, name);
      check_distinct(sd, rd, name);
    } else {
      rd = describe(out);
      rper = block_of(rd, n, name);
    }
    const count_arg s(sper, sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type);
    const count_arg r(rper, rd.type);
    if constexpr (NB)
      return MPI_Ialltoall(sbuf, s.count, s.type, rd.data, r.count, r.type, c.native(), req);
    else
      return MPI_Alltoall(sbuf, s.count, s.type, rd.data, r.count, r.type, c.native());
  }

  // in == nullptr: in place (sc, sd unused). Missing rcounts are exchanged; missing
  // displacements laid end to end. scratch[0..3] hold what is computed.
  template <bool NB, class S, class R>
  int alltoallv_call(const S* in, const std::vector<int>* sc, const std::vector<int>* sdp, R& out,
                     const std::vector<int>* rc, const std::vector<int>* rdp, MPI_Request* req,
                     std::vector<int>* scratch) const {
    static_assert(!std::is_const_v<R>, "oompi::alltoallv: cannot receive into a const buffer");
    const D& c = derived();
    const char* name = NB ? "oompi::ialltoallv" : "oompi::alltoallv";
    check_comm(c, name);
    const int n = peers(c);
    buffer_desc sd{nullptr, 0, MPI_DATATYPE_NULL};
    const void* sbuf = MPI_IN_PLACE;
    if (in != nullptr) {
      sd = describe(*in);
      sbuf = sd.data;
      check_counts(*sc, n, name, "send");
      if (sdp == nullptr) {
        scratch[1] = displacements_of(*sc, name);
        sdp = &scratch[1];
      }
      check_layout(*sc, *sdp, n, sd.count, name, "send");
      if (rc == nullptr) {
        scratch[2].assign(static_cast<std::size_t>(n), 0);
        if (const int e = MPI_Alltoall(sc->data(), 1, MPI_INT, scratch[2].data(), 1, MPI_INT, c.native());
            e != MPI_SUCCESS)
          return e;
        rc = &scratch[2];
      }
    } else {
    }
    check_counts(*rc, n, name, "receive");
    if (rdp == nullptr) {
      scratch[3] = displacements_of(*rc, name);
      rdp = &scratch[3];
    }
    resize_for_layout(out, *rc, *rdp);
    const buffer_desc rd = describe(out);
    check_layout(*rc, *rdp, n, rd.count, name, "receive");
    if (in != nullptr) check_distinct(sd, rd, name);
    const MPI_Datatype stype = sd.type != MPI_DATATYPE_NULL ? sd.type : rd.type;
    const int* scp = in != nullptr ? sc->data() : nullptr;
    const int* sdpp = in != nullptr ? sdp->data() : nullptr;
    if constexpr (NB)
      return MPI_Ialltoallv(sbuf, scp, sdpp, stype, rd.data, rc->data(), rdp->data(), rd.type,
                            c.native(), req);
    else
      return MPI_Alltoallv(sbuf, scp, sdpp, stype, rd.data, rc->data(), rdp->data(), rd.type,
                           c.native());
  }

  // One count, byte displacement and datatype per process; each block inside the buffer.
  static void check_w(const std::vector<int>& counts, const std::vector<int>& displs,
                      const std::vector<MPI_Datatype>& types, int n, const buffer_desc& d,
                      const char* name, const char* which) {
    const auto need = static_cast<std::size_t>(n);
    if (counts.size() != need || displs.size() != need || types.size() != need)
      throw std::invalid_argument(std::string(name) + ": " + which +
                                  " counts, displacements and types need one entry per process (" +
                                  std::to_string(n) + "), got " + std::to_string(counts.size()) +
                                  ", " + std::to_string(displs.size()) + " and " +
                                  std::to_string(types.size()));
    MPI_Aint lb = 0, extent = 0;
    OOMPI_CHECK(MPI_Type_get_extent, (d.type, &lb, &extent));
    const auto bytes = static_cast<long long>(extent) * static_cast<long long>(d.count);
    for (std::size_t i = 0; i < need; ++i) {
      if (counts[i] < 0 || displs[i] < 0)
        throw std::invalid_argument(std::string(name) + ": negative " + which +
                                    " count or displacement");
      if (types[i] == MPI_DATATYPE_NULL)
        throw std::invalid_argument(std::string(name) + ": null " + which + " datatype for process " +
                                    std::to_string(i));
      if (counts[i] == 0) continue;
      MPI_Aint tlb = 0, text = 0;
      OOMPI_CHECK(MPI_Type_get_extent, (types[i], &tlb, &text));
      const long long end = displs[i] + static_cast<long long>(counts[i]) * text;
      if (end > bytes)
        throw std::invalid_argument(std::string(name) + ": the " + which + " block of process " +
                                    std::to_string(i) + " ends at byte " + std::to_string(end) +
                                    ", past the buffer's " + std::to_string(bytes));
    }
  }

  template <bool NB, class S, class R>
  int alltoallw_call(const S* in, const std::vector<int>* sc, const std::vector<int>* sdp,
                     const std::vector<MPI_Datatype>* st, R& out, const std::vector<int>& rc,
                     const std::vector<int>& rdp, const std::vector<MPI_Datatype>& rt,
                     MPI_Request* req) const {
    static_assert(!std::is_const_v<R>, "oompi::alltoallw: cannot receive into a const buffer");
    const D& c = derived();
    const char* name = NB ? "oompi::ialltoallw" : "oompi::alltoallw";
    check_comm(c, name);
    const int n = peers(c);
    const buffer_desc rd = describe(out);
    check_w(rc, rdp, rt, n, rd, name, "receive");
    const void* sbuf = MPI_IN_PLACE;
    const int* scp = nullptr;
    const int* sdpp = nullptr;
    const MPI_Datatype* stp = nullptr;
    if (in != nullptr) {
      const buffer_desc sd = describe(*in);
      check_w(*sc, *sdp, *st, n, sd, name, "send");
      check_distinct(sd, rd, name);
      sbuf = sd.data;
      scp = sc->data();
      sdpp = sdp->data();
      stp = st->data();
    } else {
    }
    if constexpr (NB)
      return MPI_Ialltoallw(sbuf, scp, sdpp, stp, rd.data, rc.data(), rdp.data(), rt.data(),
                            c.native(), req);
    else
      return MPI_Alltoallw(sbuf, scp, sdpp, stp, rd.data, rc.data(), rdp.data(), rt.data(),
                           c.native());
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_ALLTOALL_HPP
