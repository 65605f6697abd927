#ifndef OOMPI_NEIGHBOR_COLLECTIVES_HPP
#define OOMPI_NEIGHBOR_COLLECTIVES_HPP

// Neighbourhood collectives of the topology communicators (a CRTP mixin): each process
// exchanges data with its neighbours only. For a Cartesian communicator the neighbours are,
// per dimension, the process at -1 then the one at +1 (oompi::proc_null at a non-periodic
// border: its block is left alone); for a graph those listed by neighbors(); for a distributed
// graph the sources (receive side) and destinations (send side).
//
// Buffers hold one block per neighbour, in neighbour order. Block sizes come from the buffers:
// a receive buffer of n elements and k in-neighbours has blocks of n / k elements; sizes that do
// not divide, or that disagree with the send side for the same datatype, throw
// std::invalid_argument before MPI sees them.
//
// Nonblocking forms return an oompi::request (or an oompi::future for value-returning ones).
// Receive buffers are borrowed: keep them alive and untouched until completion. A send buffer
// given by lvalue is borrowed too; one given by rvalue is moved into the request. Count,
// displacement and datatype arrays are copied into the request.

#include "buffer.hpp"
#include "error.hpp"
#include "request.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi::detail {

// MPI arrays for possibly empty vectors: some libraries reject a null pointer even when the
// count is 0 (Open MPI's MPI_Graph_create, for one).
template <class T>
const T* array_arg(const std::vector<T>& v) noexcept {
  static const T none{};
  return v.empty() ? &none : v.data();
}
inline int* out_array_arg(std::vector<int>& v) noexcept {
  thread_local int none = 0;
  return v.empty() ? &none : v.data();
}
// A buffer address for MPI. A side without neighbours has an empty buffer (null) but a count
// that matches the other side (Open MPI checks the two against each other); MPICH refuses a
// null buffer whose count is not 0, though nothing is read or written there.
inline void* block_arg(void* p) noexcept {
  static char none;
  return p ? p : &none;
}

// Everything a nonblocking neighbour collective must keep alive.
template <class S>
struct neighbor_keep final : keep_alive {
  explicit neighbor_keep(S&& s) : send(std::move(s)) {}
  S send;
  std::vector<int> counts[4];  // send counts, send displs, recv counts, recv displs
  std::vector<MPI_Aint> byte_displs[2];
  std::vector<MPI_Datatype> types[2];
  std::vector<MPI_Count> wide[2];  // send and receive counts of alltoallw_call
};
struct neighbor_arrays final : keep_alive {
  std::vector<int> counts[4];
  std::vector<MPI_Aint> byte_displs[2];
  std::vector<MPI_Datatype> types[2];
  std::vector<MPI_Count> wide[2];
};

// MPI_(I)neighbor_alltoallw (nonblocking when r is given) with the arrays of `w`: counts[0]
// and [2], byte_displs and types. MPICH 4.0's form with int counts exchanges nothing when a
// process's in- and out-degrees differ (pmodels/mpich#6233) while its MPI-4 MPI_Count form is
// right, so where the library has that form oompi calls it, the widened counts kept in `w`.
template <class K>
void alltoallw_call(K& w, const void* sb, void* rb, MPI_Comm comm, MPI_Request* r) {
  int rc = MPI_SUCCESS;
#if MPI_VERSION >= 4
  w.wide[0].assign(w.counts[0].begin(), w.counts[0].end());
  w.wide[1].assign(w.counts[2].begin(), w.counts[2].end());
  rc = r ? MPI_Ineighbor_alltoallw_c(sb, array_arg(w.wide[0]), array_arg(w.byte_displs[0]),
                                     array_arg(w.types[0]), rb, array_arg(w.wide[1]),
                                     array_arg(w.byte_displs[1]), array_arg(w.types[1]), comm, r)
         : MPI_Neighbor_alltoallw_c(sb, array_arg(w.wide[0]), array_arg(w.byte_displs[0]),
                                    array_arg(w.types[0]), rb, array_arg(w.wide[1]),
                                    array_arg(w.byte_displs[1]), array_arg(w.types[1]), comm);
#else
  rc = r ? MPI_Ineighbor_alltoallw(sb, array_arg(w.counts[0]), array_arg(w.byte_displs[0]),
                                   array_arg(w.types[0]), rb, array_arg(w.counts[2]),
                                   array_arg(w.byte_displs[1]), array_arg(w.types[1]), comm, r)
         : MPI_Neighbor_alltoallw(sb, array_arg(w.counts[0]), array_arg(w.byte_displs[0]),
                                  array_arg(w.types[0]), rb, array_arg(w.counts[2]),
                                  array_arg(w.byte_displs[1]), array_arg(w.types[1]), comm);
#endif
  if (rc != MPI_SUCCESS)
    throw_mpi_error(r ? "MPI_Ineighbor_alltoallw" : "MPI_Neighbor_alltoallw", rc);
}

// Which neighbour alltoall routine a receive-order probe is about.
enum class neighbor_op { alltoall, alltoallv, alltoallw };

// In a periodic Cartesian dimension of extent 1 or 2 both neighbours are the same process (in
// extent 1 every such dimension's neighbours are the process itself), and MPI requires the
// block sent towards -1 to land in the receiver's +1 block and vice versa: block s of the
// sender lands in block s^1 of the receiver (MPI-3.1 errata, MPI-4.1 §8.6, Example 8.10).
// Libraries that tell such messages apart only by their order get this wrong in different
// ways: Open MPI 4.1 and 5.0.x pair them in posting order in the nonblocking forms
// (open-mpi/ompi#14430); MPICH 4.0 posts its receives in reverse order in (i)neighbor_alltoall
// (right for one such dimension, wrong for two dimensions of extent 1) and in posting order in
// the v and w forms (both fixed later: pmodels/mpich#5777, #7945).
//
// oompi measures the order instead of trusting it: on a one-process periodic grid with `ndims`
// dimensions over MPI_COMM_SELF, send block i carries i, so the receive block it lands in
// tells the position in which the library matched that receive. Returns that position per
// block, or an empty vector when the probe fails or is no permutation (then oompi trusts the
// library). Assumes what the libraries above do: sends matched in block order, receives in an
// order that depends on the block index only.
inline std::vector<int> probe_cart_recv_order(neighbor_op op, bool nonblocking, int ndims) {
  MPI_Comm grid = MPI_COMM_NULL;
  std::vector<int> dims(static_cast<std::size_t>(ndims), 1), periods(dims.size(), 1);
  if (MPI_Cart_create(MPI_COMM_SELF, ndims, dims.data(), periods.data(), 0, &grid) != MPI_SUCCESS)
    return {};
  MPI_Comm_set_errhandler(grid, MPI_ERRORS_RETURN);
  const int k = 2 * ndims;
  std::vector<int> send(static_cast<std::size_t>(k)), pos(send.size(), -1), ones(send.size(), 1);
  std::iota(send.begin(), send.end(), 0);
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Request* rp = nonblocking ? &r : nullptr;
  int rc = MPI_SUCCESS;
  switch (op) {
    case neighbor_op::alltoall:
      rc = rp ? MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, pos.data(), 1, MPI_INT, grid, rp)
              : MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, pos.data(), 1, MPI_INT, grid);
      break;
    case neighbor_op::alltoallv:
      rc = rp ? MPI_Ineighbor_alltoallv(send.data(), ones.data(), send.data(), MPI_INT, pos.data(),
                                        ones.data(), send.data(), MPI_INT, grid, rp)
              : MPI_Neighbor_alltoallv(send.data(), ones.data(), send.data(), MPI_INT, pos.data(),
                                       ones.data(), send.data(), MPI_INT, grid);
      break;
    case neighbor_op::alltoallw: {
      neighbor_arrays w;
      w.counts[0] = w.counts[2] = ones;
      for (int i = 0; i < k; ++i) w.byte_displs[0].push_back(i * static_cast<MPI_Aint>(sizeof(int)));
      w.byte_displs[1] = w.byte_displs[0];
      w.types[0] = w.types[1] = std::vector<MPI_Datatype>(send.size(), MPI_INT);
      try {
        alltoallw_call(w, send.data(), pos.data(), grid, rp);
      } catch (...) {
        rc = MPI_ERR_OTHER;
      }
      break;
    }
  }
  if (rc == MPI_SUCCESS && rp) rc = MPI_Wait(rp, MPI_STATUS_IGNORE);
  MPI_Comm_free(&grid);
  std::vector<int> seen = pos;
  std::sort(seen.begin(), seen.end());
  if (rc != MPI_SUCCESS || seen != send) return {};
  return pos;
}
// The probe's result, once per process and routine form.
inline const std::vector<int>& cart_recv_order(neighbor_op op, bool nonblocking, int ndims) {
  static std::mutex m;
  static std::map<std::tuple<neighbor_op, bool, int>, std::vector<int>> known;
  const std::lock_guard<std::mutex> lock(m);
  const auto [it, fresh] = known.try_emplace({op, nonblocking, ndims});
  if (fresh) it->second = probe_cart_recv_order(op, nonblocking, ndims);
  return it->second;
}

// What oompi passes to MPI as receive block j is the caller's block perm[j] (empty: j).
template <class V>
void permute(V& v, const std::vector<int>& perm) {
  if (perm.empty()) return;
  V out(v.size());
  for (std::size_t j = 0; j < v.size(); ++j) out[j] = v[static_cast<std::size_t>(perm[j])];
  v = std::move(out);
}

// The result of a value-form gather: a vector of T for a single value, of the elements for a
// container.
template <class T, class = void>
struct gathered {
  using type = std::vector<T>;
};
template <class T>
struct gathered<T, std::enable_if_t<!has_datatype_v<T>>> {
  using type = std::vector<typename T::value_type>;
};
template <class T>
using value_vector = typename gathered<std::remove_cv_t<T>>::type;

/// CRTP base: Derived provides native(), require(routine), in_degree(), out_degree().
template <class Derived>
class neighbor_collectives {
public:
  // --- allgather: every neighbour gets the same block ----------------------------------------

  /// Sends `send` to every out-neighbour and receives one block from each in-neighbour into
  /// `recv` (in_degree() blocks of the send size).
  template <class S, class R>
  void neighbor_allgather(const S& send, R& recv) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Neighbor_allgather";
    d().require(routine);
    const buffer_desc sd = describe(send), rd = describe(recv);
    const std::size_t block = gather_block(routine, sd, rd, d().in_degree());
    with_int_count(sd, [&](void* sp, int sn, MPI_Datatype st) {
      with_int_count(buffer_desc{block_arg(rd.data), block, rd.type}, [&](void* rp, int rn, MPI_Datatype rt) {
        OOMPI_CHECK(MPI_Neighbor_allgather, (sp, sn, st, rp, rn, rt, d().native()));
      });
    });
  }
  /// Returns one value per in-neighbour.
  template <class T, class = std::enable_if_t<has_datatype_v<T>>>
  std::vector<T> neighbor_allgather(const T& value) const {
    std::vector<T> out(static_cast<std::size_t>(d().in_degree()));
    neighbor_allgather(value, out);
    return out;
  }
  /// Returns the in-neighbours' vectors, concatenated (all the size of `values`).
  template <class T, class A>
  std::vector<T> neighbor_allgather(const std::vector<T, A>& values) const {
    std::vector<T> out(values.size() * static_cast<std::size_t>(d().in_degree()));
    neighbor_allgather(values, out);
    return out;
  }

  template <class S, class R>
  request ineighbor_allgather(S&& send, R& recv) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Ineighbor_allgather";
    d().require(routine);
    return start<false>(std::forward<S>(send), [&](const auto& s, auto*) {
      const buffer_desc sd = describe(s), rd = describe(recv);
      const std::size_t block = gather_block(routine, sd, rd, d().in_degree());
      MPI_Request r = MPI_REQUEST_NULL;
      with_int_count(sd, [&](void* sp, int sn, MPI_Datatype st) {
        with_int_count(buffer_desc{block_arg(rd.data), block, rd.type}, [&](void* rp, int rn, MPI_Datatype rt) {
          OOMPI_CHECK(MPI_Ineighbor_allgather, (sp, sn, st, rp, rn, rt, d().native(), &r));
        });
      });
      return r;
    });
  }
  /// Nonblocking value form: the future yields one value (or block) per in-neighbour.
  template <class T>
  future<value_vector<T>> ineighbor_allgather(const T& value) const {
    auto out = std::make_unique<kept<value_vector<T>>>();
    if constexpr (has_datatype_v<T>) {
      out->value.resize(static_cast<std::size_t>(d().in_degree()));
    } else {
      out->value.resize(value.size() * static_cast<std::size_t>(d().in_degree()));
    }
    T copy = value;
    request r = ineighbor_allgather(std::move(copy), out->value);
    return future<value_vector<T>>(std::move(out), std::move(r));
  }

  // --- allgatherv: blocks of different sizes ----------------------------------------------

  /// `counts[i]` elements from in-neighbour i land at `displs[i]` in `recv`.
  template <class S, class R>
  void neighbor_allgatherv(const S& send, R& recv, const std::vector<int>& counts,
                           const std::vector<int>& displs) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Neighbor_allgatherv";
    d().require(routine);
    const buffer_desc sd = describe(send), rd = describe(recv);
    check_layout(routine, "receive", counts, displs, d().in_degree(), rd.count);
    with_int_count(sd, [&](void* sp, int sn, MPI_Datatype st) {
      OOMPI_CHECK(MPI_Neighbor_allgatherv, (sp, sn, st, rd.data, array_arg(counts),
                                            array_arg(displs), rd.type, d().native()));
    });
  }
  /// As above, blocks packed one after another.
  template <class S, class R>
  void neighbor_allgatherv(const S& send, R& recv, const std::vector<int>& counts) const {
    neighbor_allgatherv(send, recv, counts, packed_displs(counts));
  }
  /// Returns the in-neighbours' vectors concatenated; their sizes are exchanged first.
  template <class T, class A>
  std::vector<T> neighbor_allgatherv(const std::vector<T, A>& values) const {
    const std::vector<int> counts = neighbor_allgather(checked_int("MPI_Neighbor_allgatherv",
                                                                   values.size()));
    std::vector<T> out(total(counts));
    neighbor_allgatherv(values, out, counts);
    return out;
  }

  template <class S, class R>
  request ineighbor_allgatherv(S&& send, R& recv, std::vector<int> counts,
                               std::vector<int> displs) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Ineighbor_allgatherv";
    d().require(routine);
    return start<true>(std::forward<S>(send), [&](const auto& s, auto* keep) {
      const buffer_desc sd = describe(s), rd = describe(recv);
      check_layout(routine, "receive", counts, displs, d().in_degree(), rd.count);
      keep->counts[2] = std::move(counts);
      keep->counts[3] = std::move(displs);
      MPI_Request r = MPI_REQUEST_NULL;
      with_int_count(sd, [&](void* sp, int sn, MPI_Datatype st) {
        OOMPI_CHECK(MPI_Ineighbor_allgatherv,
                    (sp, sn, st, rd.data, array_arg(keep->counts[2]), array_arg(keep->counts[3]),
                     rd.type, d().native(), &r));
      });
      return r;
    });
  }
  template <class S, class R>
  request ineighbor_allgatherv(S&& send, R& recv, std::vector<int> counts) const {
    std::vector<int> displs = packed_displs(counts);
    return ineighbor_allgatherv(std::forward<S>(send), recv, std::move(counts), std::move(displs));
  }

  // --- alltoall: a different block for every neighbour ----------------------------------------

  /// Block i of `send` goes to out-neighbour i; block j of `recv` comes from in-neighbour j.
  template <class S, class R>
  void neighbor_alltoall(const S& send, R& recv) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Neighbor_alltoall";
    d().require(routine);
    const buffer_desc sd = describe(send), rd = describe(recv);
    const auto [sblock, rblock] = alltoall_blocks(routine, sd, rd);
    // Where the library pairs blocks wrongly, the exchange goes through alltoallw, whose
    // receive blocks oompi can place itself.
    const bool fix = !d().recv_perm(neighbor_op::alltoall, false).empty();
    with_int_count(buffer_desc{block_arg(sd.data), sblock, sd.type}, [&](void* sp, int sn, MPI_Datatype st) {
      with_int_count(buffer_desc{block_arg(rd.data), rblock, rd.type}, [&](void* rp, int rn, MPI_Datatype rt) {
        if (!fix) {
          OOMPI_CHECK(MPI_Neighbor_alltoall, (sp, sn, st, rp, rn, rt, d().native()));
          return;
        }
        neighbor_arrays w;
        uniform_blocks(w, sd, sblock, sn, st, rd, rblock, rn, rt,
                       d().recv_perm(neighbor_op::alltoallw, false));
        alltoallw_call(w, sp, rp, d().native(), nullptr);
      });
    });
  }
  /// Returns the in-neighbours' blocks (each the size of one block of `values`, which holds
  /// out_degree() blocks).
  template <class T, class A>
  std::vector<T> neighbor_alltoall(const std::vector<T, A>& values) const {
    std::vector<T> out(alltoall_result_size("MPI_Neighbor_alltoall", values.size()));
    neighbor_alltoall(values, out);
    return out;
  }

  template <class S, class R>
  request ineighbor_alltoall(S&& send, R& recv) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Ineighbor_alltoall";
    d().require(routine);
    auto blocks = [&](const buffer_desc& sd, const buffer_desc& rd) {
      return alltoall_blocks(routine, sd, rd);
    };
    if (d().recv_perm(neighbor_op::alltoall, true).empty()) {
      return start<false>(std::forward<S>(send), [&](const auto& s, auto*) {
        const buffer_desc sd = describe(s), rd = describe(recv);
        const auto [sblock, rblock] = blocks(sd, rd);
        MPI_Request r = MPI_REQUEST_NULL;
        with_int_count(buffer_desc{block_arg(sd.data), sblock, sd.type}, [&](void* sp, int sn, MPI_Datatype st) {
          with_int_count(buffer_desc{block_arg(rd.data), rblock, rd.type}, [&](void* rp, int rn, MPI_Datatype rt) {
            OOMPI_CHECK(MPI_Ineighbor_alltoall, (sp, sn, st, rp, rn, rt, d().native(), &r));
          });
        });
        return r;
      });
    }
    return start<true>(std::forward<S>(send), [&](const auto& s, auto* keep) {
      const buffer_desc sd = describe(s), rd = describe(recv);
      const auto [sblock, rblock] = blocks(sd, rd);
      MPI_Request r = MPI_REQUEST_NULL;
      with_int_count(buffer_desc{block_arg(sd.data), sblock, sd.type}, [&](void* sp, int sn, MPI_Datatype st) {
        with_int_count(buffer_desc{block_arg(rd.data), rblock, rd.type}, [&](void* rp, int rn, MPI_Datatype rt) {
          uniform_blocks(*keep, sd, sblock, sn, st, rd, rblock, rn, rt,
                         d().recv_perm(neighbor_op::alltoallw, true));
          alltoallw_call(*keep, sp, rp, d().native(), &r);
        });
      });
      return r;
    });
  }
  template <class T, class A>
  future<std::vector<T>> ineighbor_alltoall(const std::vector<T, A>& values) const {
    auto out = std::make_unique<kept<std::vector<T>>>(
        alltoall_result_size("MPI_Ineighbor_alltoall", values.size()));
    request r = ineighbor_alltoall(std::vector<T>(values.begin(), values.end()), out->value);
    return future<std::vector<T>>(std::move(out), std::move(r));
  }

  // --- alltoallv: blocks of different sizes -----------------------------------------------

  template <class S, class R>
  void neighbor_alltoallv(const S& send, const std::vector<int>& send_counts,
                          const std::vector<int>& send_displs, R& recv,
                          const std::vector<int>& recv_counts,
                          const std::vector<int>& recv_displs) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Neighbor_alltoallv";
    d().require(routine);
    const buffer_desc sd = describe(send), rd = describe(recv);
    check_layout(routine, "send", send_counts, send_displs, d().out_degree(), sd.count);
    check_layout(routine, "receive", recv_counts, recv_displs, d().in_degree(), rd.count);
    const std::vector<int> fix = d().recv_perm(neighbor_op::alltoallv, false);
    if (!fix.empty()) {
      std::vector<int> rc = recv_counts, rdis = recv_displs;
      permute(rc, fix);
      permute(rdis, fix);
      OOMPI_CHECK(MPI_Neighbor_alltoallv,
                  (sd.data, array_arg(send_counts), array_arg(send_displs), sd.type, rd.data,
                   array_arg(rc), array_arg(rdis), rd.type, d().native()));
      return;
    }
    OOMPI_CHECK(MPI_Neighbor_alltoallv,
                (sd.data, array_arg(send_counts), array_arg(send_displs), sd.type, rd.data,
                 array_arg(recv_counts), array_arg(recv_displs), rd.type, d().native()));
  }
  /// As above, blocks packed one after another on both sides.
  template <class S, class R>
  void neighbor_alltoallv(const S& send, const std::vector<int>& send_counts, R& recv,
                          const std::vector<int>& recv_counts) const {
    neighbor_alltoallv(send, send_counts, packed_displs(send_counts), recv, recv_counts,
                       packed_displs(recv_counts));
  }
  /// Sends send_counts[i] elements (packed) to out-neighbour i; returns the received blocks
  /// concatenated. The counts are exchanged first.
  template <class T, class A>
  std::vector<T> neighbor_alltoallv(const std::vector<T, A>& values,
                                    const std::vector<int>& send_counts) const {
    const char* routine = "MPI_Neighbor_alltoallv";
    d().require(routine);
    if (send_counts.size() != static_cast<std::size_t>(d().out_degree()))
      throw std::invalid_argument(std::string(routine) + ": " +
                                  std::to_string(send_counts.size()) + " send counts for " +
                                  std::to_string(d().out_degree()) + " out-neighbours");
    std::vector<int> recv_counts(static_cast<std::size_t>(d().in_degree()));
    neighbor_alltoall(send_counts, recv_counts);
    std::vector<T> out(total(recv_counts));
    neighbor_alltoallv(values, send_counts, out, recv_counts);
    return out;
  }

  template <class S, class R>
  request ineighbor_alltoallv(S&& send, std::vector<int> send_counts,
                              std::vector<int> send_displs, R& recv,
                              std::vector<int> recv_counts, std::vector<int> recv_displs) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Ineighbor_alltoallv";
    d().require(routine);
    const std::vector<int> fix = d().recv_perm(neighbor_op::alltoallv, true);
    return start<true>(std::forward<S>(send), [&](const auto& s, auto* keep) {
      const buffer_desc sd = describe(s), rd = describe(recv);
      check_layout(routine, "send", send_counts, send_displs, d().out_degree(), sd.count);
      check_layout(routine, "receive", recv_counts, recv_displs, d().in_degree(), rd.count);
      keep->counts[0] = std::move(send_counts);
      keep->counts[1] = std::move(send_displs);
      keep->counts[2] = std::move(recv_counts);
      keep->counts[3] = std::move(recv_displs);
      permute(keep->counts[2], fix);
      permute(keep->counts[3], fix);
      MPI_Request r = MPI_REQUEST_NULL;
      OOMPI_CHECK(MPI_Ineighbor_alltoallv,
                  (sd.data, array_arg(keep->counts[0]), array_arg(keep->counts[1]), sd.type,
                   rd.data, array_arg(keep->counts[2]), array_arg(keep->counts[3]), rd.type,
                   d().native(), &r));
      return r;
    });
  }
  template <class S, class R>
  request ineighbor_alltoallv(S&& send, std::vector<int> send_counts, R& recv,
                              std::vector<int> recv_counts) const {
    std::vector<int> sdispls = packed_displs(send_counts), rdispls = packed_displs(recv_counts);
    return ineighbor_alltoallv(std::forward<S>(send), std::move(send_counts), std::move(sdispls),
                               recv, std::move(recv_counts), std::move(rdispls));
  }

  // --- alltoallw: blocks of different datatypes, displacements in bytes ---------------------

  /// Block i of `send` is send_counts[i] elements of send_types[i] at byte send_displs[i] from
  /// the start of `send` (likewise for `recv`). The buffers' own element types only give their
  /// extent in bytes, against which every block is checked.
  template <class S, class R>
  void neighbor_alltoallw(const S& send, const std::vector<int>& send_counts,
                          const std::vector<MPI_Aint>& send_displs,
                          const std::vector<MPI_Datatype>& send_types, R& recv,
                          const std::vector<int>& recv_counts,
                          const std::vector<MPI_Aint>& recv_displs,
                          const std::vector<MPI_Datatype>& recv_types) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Neighbor_alltoallw";
    d().require(routine);
    const buffer_desc sd = describe(send), rd = describe(recv);
    check_w_layout(routine, "send", send_counts, send_displs, send_types, d().out_degree(), sd);
    check_w_layout(routine, "receive", recv_counts, recv_displs, recv_types, d().in_degree(), rd);
    const std::vector<int> fix = d().recv_perm(neighbor_op::alltoallw, false);
    neighbor_arrays w;
    w.counts[0] = send_counts;
    w.byte_displs[0] = send_displs;
    w.types[0] = send_types;
    w.counts[2] = recv_counts;
    w.byte_displs[1] = recv_displs;
    w.types[1] = recv_types;
    permute(w.counts[2], fix);
    permute(w.byte_displs[1], fix);
    permute(w.types[1], fix);
    alltoallw_call(w, sd.data, rd.data, d().native(), nullptr);
  }

  template <class S, class R>
  request ineighbor_alltoallw(S&& send, std::vector<int> send_counts,
                              std::vector<MPI_Aint> send_displs,
                              std::vector<MPI_Datatype> send_types, R& recv,
                              std::vector<int> recv_counts, std::vector<MPI_Aint> recv_displs,
                              std::vector<MPI_Datatype> recv_types) const {
    static_assert(!std::is_const_v<R>, "oompi: cannot receive into a const buffer");
    const char* routine = "MPI_Ineighbor_alltoallw";
    d().require(routine);
    const std::vector<int> fix = d().recv_perm(neighbor_op::alltoallw, true);
    return start<true>(std::forward<S>(send), [&](const auto& s, auto* keep) {
      const buffer_desc sd = describe(s), rd = describe(recv);
      check_w_layout(routine, "send", send_counts, send_displs, send_types, d().out_degree(), sd);
      check_w_layout(routine, "receive", recv_counts, recv_displs, recv_types, d().in_degree(),
                     rd);
      keep->counts[0] = std::move(send_counts);
      keep->counts[2] = std::move(recv_counts);
      keep->byte_displs[0] = std::move(send_displs);
      keep->byte_displs[1] = std::move(recv_displs);
      keep->types[0] = std::move(send_types);
      keep->types[1] = std::move(recv_types);
      permute(keep->counts[2], fix);
      permute(keep->byte_displs[1], fix);
      permute(keep->types[1], fix);
      MPI_Request r = MPI_REQUEST_NULL;
      alltoallw_call(*keep, sd.data, rd.data, d().native(), &r);
      return r;
    });
  }

protected:
  /// The receive blocks to give MPI so that `op` delivers as MPI requires, as for permute()
  /// (see probe_cart_recv_order); empty when the library is right. Cartesian communicators
  /// hide this.
  std::vector<int> recv_perm(neighbor_op /*op*/, bool /*nonblocking*/) const { return {}; }

private:
  const Derived& d() const noexcept { return static_cast<const Derived&>(*this); }

  // Starts a nonblocking operation. An lvalue send buffer is borrowed; an rvalue one is moved
  // into the request's keep-alive first (so MPI reads it from its final address). `Arrays`
  // says whether the operation needs count/displacement arrays kept alive.
  template <bool Arrays, class S, class F>
  static request start(S&& send, F&& go) {
    if constexpr (std::is_lvalue_reference_v<S> && !Arrays) {
      return request(go(send, static_cast<neighbor_arrays*>(nullptr)));
    } else if constexpr (std::is_lvalue_reference_v<S>) {
      auto keep = std::make_unique<neighbor_arrays>();
      const MPI_Request r = go(send, keep.get());
      return request(r, std::move(keep));
    } else {
      using V = std::remove_cv_t<std::remove_reference_t<S>>;
      auto keep = std::make_unique<neighbor_keep<V>>(std::move(send));
      const MPI_Request r = go(keep->send, keep.get());
      return request(r, std::move(keep));
    }
  }

  // alltoall as alltoallw: uniform blocks, the receive blocks permuted by `perm`.
  template <class K>
  void uniform_blocks(K& w, const buffer_desc& sd, std::size_t sblock, int sn, MPI_Datatype st,
                      const buffer_desc& rd, std::size_t rblock, int rn, MPI_Datatype rt,
                      const std::vector<int>& perm) const {
    MPI_Aint lb = 0, sext = 0, rext = 0;
    OOMPI_CHECK(MPI_Type_get_extent, (sd.type, &lb, &sext));
    OOMPI_CHECK(MPI_Type_get_extent, (rd.type, &lb, &rext));
    const auto out = static_cast<std::size_t>(d().out_degree());
    const auto in = static_cast<std::size_t>(d().in_degree());
    w.counts[0].assign(out, sn);
    w.types[0].assign(out, st);
    w.byte_displs[0].resize(out);
    for (std::size_t j = 0; j < out; ++j)
      w.byte_displs[0][j] = static_cast<MPI_Aint>(j * sblock) * sext;
    w.counts[2].assign(in, rn);
    w.types[1].assign(in, rt);
    w.byte_displs[1].resize(in);
    for (std::size_t j = 0; j < in; ++j)
      w.byte_displs[1][j] = static_cast<MPI_Aint>(j * rblock) * rext;
    permute(w.byte_displs[1], perm);
  }

  static int checked_int(const char* routine, std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX))
      throw std::length_error(std::string(routine) + ": more than INT_MAX elements in one block");
    return static_cast<int>(n);
  }
  static std::size_t total(const std::vector<int>& counts) {
    return static_cast<std::size_t>(std::accumulate(counts.begin(), counts.end(), 0LL));
  }
  static std::vector<int> packed_displs(const std::vector<int>& counts) {
    std::vector<int> displs(counts.size());
    long long at = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (at > INT_MAX)
        throw std::length_error("oompi: displacement beyond INT_MAX; give displacements");
      displs[i] = static_cast<int>(at);
      at += counts[i] > 0 ? counts[i] : 0;
    }
    return displs;
  }

  // Block size of a send buffer holding one block per out-neighbour.
  static std::size_t send_block(const char* routine, const buffer_desc& sd, int out) {
    if (out == 0) {
      if (sd.count != 0)
        throw std::invalid_argument(std::string(routine) + ": send buffer of " +
                                    std::to_string(sd.count) +
                                    " elements, but this process has no out-neighbours");
      return 0;
    }
    if (sd.count % static_cast<std::size_t>(out) != 0)
      throw std::invalid_argument(std::string(routine) + ": send buffer of " +
                                  std::to_string(sd.count) + " elements is not " +
                                  std::to_string(out) + " equal blocks (one per out-neighbour)");
    return sd.count / static_cast<std::size_t>(out);
  }
  // Block size of a receive buffer holding one block per in-neighbour; with the send datatype
  // it must equal the send block (`send_known`: the send block size is meaningful).
  static std::size_t recv_block(const char* routine, const buffer_desc& sd, const buffer_desc& rd,
                                std::size_t sblock, int in, bool send_known = true) {
    if (in == 0) return 0;
    if (rd.count % static_cast<std::size_t>(in) != 0)
      throw std::invalid_argument(std::string(routine) + ": receive buffer of " +
                                  std::to_string(rd.count) + " elements is not " +
                                  std::to_string(in) + " equal blocks (one per in-neighbour)");
    const std::size_t rblock = rd.count / static_cast<std::size_t>(in);
    if (send_known && sd.type == rd.type && rblock != sblock)
      throw std::invalid_argument(std::string(routine) + ": mismatched counts: blocks of " +
                                  std::to_string(sblock) + " elements sent, the receive buffer (" +
                                  std::to_string(rd.count) + " elements for " +
                                  std::to_string(in) + " in-neighbours) has blocks of " +
                                  std::to_string(rblock));
    return rblock;
  }
  // Element count of `count` elements of `from` in elements of `to` (0 if not whole).
  static std::size_t matching_count(std::size_t count, MPI_Datatype from, MPI_Datatype to) {
    if (from == to) return count;
    int fs = 0, ts = 0;
    OOMPI_CHECK(MPI_Type_size, (from, &fs));
    OOMPI_CHECK(MPI_Type_size, (to, &ts));
    if (ts == 0 || (count * static_cast<std::size_t>(fs)) % static_cast<std::size_t>(ts) != 0)
      return 0;
    return count * static_cast<std::size_t>(fs) / static_cast<std::size_t>(ts);
  }
  // Receive block of an allgather. Without in-neighbours it still matches the send block:
  // some libraries (Open MPI) check the two counts against each other locally.
  std::size_t gather_block(const char* routine, const buffer_desc& sd,
                           const buffer_desc& rd, int in) const {
    if (in == 0) return matching_count(sd.count, sd.type, rd.type);
    return recv_block(routine, sd, rd, sd.count, in);
  }
  // Send and receive blocks of an alltoall; a side without neighbours gets the other side's
  // block size (Open MPI refuses sendcount * size != recvcount * size even then).
  std::pair<std::size_t, std::size_t> alltoall_blocks(const char* routine, const buffer_desc& sd,
                                                      const buffer_desc& rd) const {
    const int in = d().in_degree(), out = d().out_degree();
    std::size_t sblock = send_block(routine, sd, out);
    std::size_t rblock = recv_block(routine, sd, rd, sblock, in, out > 0);
    if (out == 0) sblock = matching_count(rblock, rd.type, sd.type);
    if (in == 0) rblock = matching_count(sblock, sd.type, rd.type);
    return {sblock, rblock};
  }
  std::size_t alltoall_result_size(const char* routine, std::size_t n) const {
    d().require(routine);
    const int in = d().in_degree(), out = d().out_degree();
    if (in == 0) return 0;
    if (out == 0)
      throw std::invalid_argument(std::string(routine) +
                                  ": no out-neighbours, so the block size cannot be inferred; "
                                  "pass a receive buffer");
    if (n % static_cast<std::size_t>(out) != 0)
      throw std::invalid_argument(std::string(routine) + ": " + std::to_string(n) +
                                  " elements are not " + std::to_string(out) +
                                  " equal blocks (one per out-neighbour)");
    return n / static_cast<std::size_t>(out) * static_cast<std::size_t>(in);
  }
  // counts/displs: one per neighbour, non-negative, every block inside the buffer.
  static void check_layout(const char* routine, const char* side, const std::vector<int>& counts,
                           const std::vector<int>& displs, int degree, std::size_t size) {
    const auto n = static_cast<std::size_t>(degree);
    if (counts.size() != n || displs.size() != n)
      throw std::invalid_argument(std::string(routine) + ": " + std::to_string(counts.size()) +
                                  " " + side + " counts and " + std::to_string(displs.size()) +
                                  " displacements for " + std::to_string(n) + " neighbours");
    for (std::size_t i = 0; i < n; ++i) {
      if (counts[i] < 0 || displs[i] < 0)
        throw std::invalid_argument(std::string(routine) + ": negative " + side +
                                    " count or displacement for neighbour " + std::to_string(i));
      if (static_cast<std::size_t>(displs[i]) + static_cast<std::size_t>(counts[i]) > size)
        throw std::out_of_range(std::string(routine) + ": " + side + " block " +
                                std::to_string(i) + " (" + std::to_string(counts[i]) +
                                " elements at " + std::to_string(displs[i]) +
                                ") leaves the buffer of " + std::to_string(size) + " elements");
    }
  }
  static void check_w_layout(const char* routine, const char* side, const std::vector<int>& counts,
                             const std::vector<MPI_Aint>& displs,
                             const std::vector<MPI_Datatype>& types, int degree,
                             const buffer_desc& b) {
    const auto n = static_cast<std::size_t>(degree);
    if (counts.size() != n || displs.size() != n || types.size() != n)
      throw std::invalid_argument(std::string(routine) + ": " + std::to_string(counts.size()) +
                                  " " + side + " counts, " + std::to_string(displs.size()) +
                                  " displacements and " + std::to_string(types.size()) +
                                  " datatypes for " + std::to_string(n) + " neighbours");
    MPI_Aint lb = 0, extent = 0;
    OOMPI_CHECK(MPI_Type_get_extent, (b.type, &lb, &extent));
    const auto bytes = static_cast<long double>(extent) * static_cast<long double>(b.count);
    for (std::size_t i = 0; i < n; ++i) {
      if (counts[i] < 0 || displs[i] < 0)
        throw std::invalid_argument(std::string(routine) + ": negative " + side +
                                    " count or displacement for neighbour " + std::to_string(i));
      if (types[i] == MPI_DATATYPE_NULL)
        throw std::invalid_argument(std::string(routine) + ": null " + side +
                                    " datatype for neighbour " + std::to_string(i));
      if (counts[i] == 0) continue;
      MPI_Aint tlb = 0, textent = 0;
      OOMPI_CHECK(MPI_Type_get_true_extent, (types[i], &tlb, &textent));
      MPI_Aint elb = 0, eextent = 0;
      OOMPI_CHECK(MPI_Type_get_extent, (types[i], &elb, &eextent));
      // Bytes touched: from displ + true lb to the true end of the last element.
      const long double end = static_cast<long double>(displs[i]) + tlb +
                              static_cast<long double>(counts[i] - 1) * eextent + textent;
      if (static_cast<long double>(displs[i]) + tlb < 0 || end > bytes)
        throw std::out_of_range(std::string(routine) + ": " + side + " block " +
                                std::to_string(i) + " (" + std::to_string(counts[i]) +
                                " elements at byte " + std::to_string(displs[i]) +
                                ") leaves the buffer of " +
                                std::to_string(static_cast<long long>(bytes)) + " bytes");
    }
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_NEIGHBOR_COLLECTIVES_HPP
