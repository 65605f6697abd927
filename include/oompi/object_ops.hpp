#ifndef OOMPI_OBJECT_OPS_HPP
#define OOMPI_OBJECT_OPS_HPP

// Object-graph transport as a mixin of the communicators (Motor's "O" operations):
//
//   osend / orecv        one message per object; the receive matches it with MPI_Mprobe, sizes
//                        it with MPI_Get_count and takes it with MPI_Mrecv (no size message, no
//                        guessed buffer, safe when several threads receive at once)
//   iosend               the request owns the serialized bytes
//   iorecv               an object_future: test() polls MPI_Improbe, then MPI_Imrecv, so no
//                        buffer size is ever guessed
//   obcast               the root's object to every rank
//   oscatter / ogather / oallgather / oalltoall
//                        arrays of objects with Motor's split representation: each rank's slice
//                        is serialized separately into one buffer (an independent graph: objects
//                        shared between slices arrive as copies) and one MPI_Scatterv / Gatherv /
//                        Allgatherv / Alltoallv moves them after the sizes are exchanged
//   oreduce / oallreduce a reduction of objects with any callable, in rank order
//
// The collectives run on a private duplicate of the communicator, made on first use and cached
// as an attribute of it (freed with it, or at MPI_Finalize), so they never match user messages.
// A failure on one rank (bad arguments at the root, an object that cannot be serialized, a
// throwing reduction) is reported to the others, so every rank throws and none is left waiting.
//
// The serialization itself is opt-in: #include <oompi/serialization.hpp>. This header only
// declares the hook (serialization/codec_fwd.hpp) and does not pull in cereal.

#include "detail/object_support.hpp"
#include "object_future.hpp"
#include "buffer.hpp"
#include "detail/object_match.hpp"
#include "error.hpp"
#include "request.hpp"
#include "serialization/byte_buffer.hpp"
#include "serialization/codec_fwd.hpp"
#include "serialization/error.hpp"
#include "status.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace oompi {

namespace detail {

/// CRTP base: Derived is a communicator (native(), rank(), size(), require(routine)).
template <class Derived>
class object_ops {
public:
  // --- point to point ---------------------------------------------------------------------

  /// Sends the object (its whole transported graph) as one message.
  template <class T>
  void osend(const T& obj, int dest, int tag = 0) const {
    derived().require("oompi::osend");
    send_object(obj, dest, tag, derived().native());
  }
  /// Receives one object message into obj (any size; matched probe, so thread-safe).
  template <class T>
  status orecv(T& obj, int source = any_source, int tag = any_tag) const {
    static_assert(!std::is_const_v<T>, "oompi: cannot receive into a const object");
    derived().require("oompi::orecv");
    return recv_object(obj, source, tag, derived().native());
  }
  /// Receives and returns one object.
  template <class T>
  T orecv(int source = any_source, int tag = any_tag) const {
    T obj{};
    orecv(obj, source, tag);
    return obj;
  }
  /// Nonblocking send: serializes now; the request owns the bytes until it completes.
  template <class T>
  request iosend(const T& obj, int dest, int tag = 0) const {
    derived().require("oompi::iosend");
    auto owned = std::make_unique<kept<byte_buffer>>();
    object_codec<T>::save(owned->value, obj);
    const MPI_Request r =
        isend_bytes(owned->value.data(), owned->value.size(), dest, tag, derived().native());
    return request(r, std::move(owned));
  }
  /// Nonblocking receive of an object of unknown size.
  template <class T>
  object_future<T> iorecv(int source = any_source, int tag = any_tag) const {
    derived().require("oompi::iorecv");
    (void)sizeof(object_codec<T>);  // a type that cannot travel fails to compile here
    return object_future<T>(derived().native(), source, tag);
  }

  // --- collectives (on the private communicator) -------------------------------------------

  /// The root's object replaces obj on every other rank.
  template <class T>
  void obcast(T& obj, int root) const {
    static_assert(!std::is_const_v<T>, "oompi: obcast needs a modifiable object");
    derived().require("oompi::obcast");
    const MPI_Comm comm = object_comm(derived().native());
    const bool at_root = derived().rank() == root;
    std::uint64_t meta[2] = {0, failure_none};
    byte_buffer buf;
    std::exception_ptr local;
    if (at_root) {
      try {
        object_codec<T>::save(buf, obj);
        meta[0] = buf.size();
      } catch (...) {
        local = std::current_exception();
        meta[1] = failure_serialize;
      }
    }
    OOMPI_CHECK(MPI_Bcast, (meta, 2, MPI_UINT64_T, root, comm));
    const bool refused = !at_root && pickled_bytes_follow(meta[1]);
    if (!refused) raise_failures("oompi::obcast", meta[1], local);
    if (!at_root) buf.resize(static_cast<std::size_t>(meta[0]));
    bcast_bytes(buf.data(), buf.size(), root, comm);
    if (refused) {
      drain_pickled_buffers(buf, root, comm);
      throw_remote_failure("oompi::obcast", meta[1]);
    }
    if (!at_root) object_codec<T>::load(buf.data(), buf.size(), obj);
  }

  /// Splits the root's array into size() blocks as even as possible (the first size() % n
  /// ranks get one more) and returns this rank's block. `all` matters at the root only.
  template <class T>
  std::vector<T> oscatter(const std::vector<T>& all, int root) const {
    std::vector<std::size_t> counts;
    if (derived().rank() == root) {
      const auto p = static_cast<std::size_t>(derived().size());
      for (std::size_t i = 0; i < p; ++i) counts.push_back(all.size() / p + (i < all.size() % p));
    }
    return oscatterv(all, counts, root);
  }
  /// Returns this rank's block of the root's array: counts[i] elements for rank i, in order.
  /// `all` and `counts` matter at the root only.
  template <class T>
  std::vector<T> oscatterv(const std::vector<T>& all, const std::vector<std::size_t>& counts,
                           int root) const {
    derived().require("oompi::oscatter");
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const bool at_root = derived().rank() == root;
    byte_buffer buf;
    std::vector<std::uint64_t> meta;  // at the root: per rank {slice bytes, code}
    std::vector<std::size_t> offsets;
    std::exception_ptr local;
    if (at_root) {
      meta.assign(2 * static_cast<std::size_t>(p), 0);
      offsets.assign(static_cast<std::size_t>(p) + 1, 0);
      std::uint64_t code = failure_none;
      std::size_t total = 0;
      for (std::size_t c : counts) total += c;
      if (counts.size() != static_cast<std::size_t>(p) || total != all.size()) {
        local = std::make_exception_ptr(std::invalid_argument(
            "oompi::oscatterv: counts must have one entry per rank and add up to the array "
            "size"));
        code = failure_argument;
      } else {
        try {
          std::size_t first = 0;
          for (int i = 0; i < p; ++i) {
            object_codec<T>::save_slice(buf, all.data() + first, counts[i]);
            first += counts[i];
            offsets[i + 1] = buf.size();
            meta[2 * i] = offsets[i + 1] - offsets[i];
          }
          if (!fits_int(buf.size())) code = failure_large_path;
        } catch (...) {
          local = std::current_exception();
          code = failure_serialize;
        }
      }
      for (int i = 0; i < p; ++i) meta[2 * i + 1] = code;
    }
    std::uint64_t mine[2] = {0, 0};
    OOMPI_CHECK(MPI_Scatter, (meta.data(), 2, MPI_UINT64_T, mine, 2, MPI_UINT64_T, root, comm));
    const bool refused = !at_root && pickled_bytes_follow(mine[1]);  // take them, then throw
    if (!refused) raise_failures("oompi::oscatter", mine[1], local);

    std::vector<T> out;
    if (!(mine[1] & failure_large_path)) {
      if (at_root) {
        std::vector<int> sizes(p), displs(p);
        for (int i = 0; i < p; ++i) {
          sizes[i] = static_cast<int>(meta[2 * i]);
          displs[i] = static_cast<int>(offsets[i]);
        }
        OOMPI_CHECK(MPI_Scatterv, (buf.data(), sizes.data(), displs.data(), MPI_BYTE,
                                   MPI_IN_PLACE, 0, MPI_BYTE, root, comm));
      } else {
        buf.resize(static_cast<std::size_t>(mine[0]));
        OOMPI_CHECK(MPI_Scatterv, (nullptr, nullptr, nullptr, MPI_BYTE, buf.data(),
                                   static_cast<int>(mine[0]), MPI_BYTE, root, comm));
      }
    } else if (at_root) {  // more than INT_MAX bytes: one message per rank
      std::vector<MPI_Request> reqs;
      for (int i = 0; i < p; ++i)
        if (i != root)
          reqs.push_back(isend_bytes(buf.data() + offsets[i], offsets[i + 1] - offsets[i], i,
                                     object_tag_large, comm));
      wait_requests(reqs);
    } else {
      buf.resize(static_cast<std::size_t>(mine[0]));
      std::vector<MPI_Request> reqs{irecv_bytes(buf.data(), buf.size(), root, object_tag_large, comm)};
      wait_requests(reqs);
    }
    if (refused) throw_remote_failure("oompi::oscatter", mine[1]);
    if (at_root)
      object_codec<T>::load_slice(buf.data() + offsets[root], offsets[root + 1] - offsets[root], out);
    else
      object_codec<T>::load_slice(buf.data(), buf.size(), out);
    return out;
  }

  /// The concatenation, in rank order, of every rank's array, at the root (empty elsewhere).
  template <class T>
  std::vector<T> ogather(const std::vector<T>& mine, int root) const {
    return gather_impl(mine, root, false);
  }
  /// The concatenation, in rank order, of every rank's array, on every rank.
  template <class T>
  std::vector<T> oallgather(const std::vector<T>& mine) const {
    return gather_impl(mine, 0, true);
  }

  /// out[i] goes to rank i; returns what each rank sent to this one, in rank order. Each
  /// element is serialized on its own (an independent graph).
  template <class T>
  std::vector<T> oalltoall(const std::vector<T>& out) const {
    derived().require("oompi::oalltoall");
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const auto np = static_cast<std::size_t>(p);
    byte_buffer buf;
    std::vector<std::size_t> soff(np + 1, 0);
    std::uint64_t code = failure_none;
    std::exception_ptr local;
    if (out.size() != np) {
      local = std::make_exception_ptr(std::invalid_argument(
          "oompi::oalltoall: the array needs one object per rank (" + std::to_string(p) + ")"));
      code = failure_argument;
    } else {
      try {
        for (std::size_t i = 0; i < np; ++i) {
          object_codec<T>::save(buf, out[i]);
          soff[i + 1] = buf.size();
        }
      } catch (...) {
        local = std::current_exception();
        code = failure_serialize;
      }
    }
    std::vector<std::uint64_t> smeta(2 * np), rmeta(2 * np);
    for (std::size_t i = 0; i < np; ++i) {
      smeta[2 * i] = code == failure_none ? soff[i + 1] - soff[i] : 0;
      smeta[2 * i + 1] = code;
    }
    OOMPI_CHECK(MPI_Alltoall, (smeta.data(), 2, MPI_UINT64_T, rmeta.data(), 2, MPI_UINT64_T, comm));
    std::uint64_t all_codes = code;
    for (std::size_t i = 0; i < np; ++i) all_codes |= rmeta[2 * i + 1];
    raise_failures("oompi::oalltoall", all_codes, local);

    std::vector<std::size_t> roff(np + 1, 0);
    for (std::size_t i = 0; i < np; ++i) roff[i + 1] = roff[i] + rmeta[2 * i];
    int large = !fits_int(soff[np]) || !fits_int(roff[np]);
    OOMPI_CHECK(MPI_Allreduce, (MPI_IN_PLACE, &large, 1, MPI_INT, MPI_MAX, comm));
    byte_buffer rbuf(roff[np]);
    if (!large) {
      std::vector<int> sc(np), sd(np), rc(np), rd(np);
      for (std::size_t i = 0; i < np; ++i) {
        sc[i] = static_cast<int>(soff[i + 1] - soff[i]);
        sd[i] = static_cast<int>(soff[i]);
        rc[i] = static_cast<int>(roff[i + 1] - roff[i]);
        rd[i] = static_cast<int>(roff[i]);
      }
      OOMPI_CHECK(MPI_Alltoallv, (buf.data(), sc.data(), sd.data(), MPI_BYTE, rbuf.data(),
                                  rc.data(), rd.data(), MPI_BYTE, comm));
    } else {
      std::vector<MPI_Request> reqs;
      for (int i = 0; i < p; ++i)
        reqs.push_back(irecv_bytes(rbuf.data() + roff[i], roff[i + 1] - roff[i], i,
                                   object_tag_large, comm));
      for (int i = 0; i < p; ++i)
        reqs.push_back(isend_bytes(buf.data() + soff[i], soff[i + 1] - soff[i], i,
                                   object_tag_large, comm));
      wait_requests(reqs);
    }
    std::vector<T> in(np);
    for (std::size_t i = 0; i < np; ++i)
      object_codec<T>::load(rbuf.data() + roff[i], roff[i + 1] - roff[i], in[i]);
    return in;
  }

  /// op(op(op(x0, x1), x2), ...) over the ranks' objects in rank order (so op need not be
  /// commutative), at the root; a default-constructed T elsewhere. op(const T&, const T&) -> T.
  /// If op throws, the rank where it threw rethrows it and the root throws too.
  template <class T, class Op>
  T oreduce(const T& obj, Op op, int root) const {
    derived().require("oompi::oreduce");
    const MPI_Comm comm = object_comm(derived().native());
    reduction<T> red = reduce_to_zero(obj, op, comm);
    const int me = derived().rank();
    if (root != 0) {
      if (me == 0) {
        bool notify = red.failed;
        if (!notify) {
          try {
            send_object(*red.value, root, object_tag_forward, comm);
          } catch (const error&) {
            throw;
          } catch (...) {  // could not serialize the result: the root must still hear
            red.local = std::current_exception();
            notify = true;
          }
        }
        if (notify) send_bytes(nullptr, 0, root, object_tag_reduce_failed, comm);
      } else if (me == root) {
        red.value.emplace();
        if (recv_object(*red.value, 0, MPI_ANY_TAG, comm, object_tag_reduce_failed).tag() ==
            object_tag_reduce_failed)
          red.failed = true;
      }
    }
    if (red.local) std::rethrow_exception(red.local);
    if (me != root) return T{};
    if (red.failed)
      throw serialization_error("oompi::oreduce: the reduction failed on another rank");
    return std::move(*red.value);
  }
  /// The reduction, on every rank.
  template <class T, class Op>
  T oallreduce(const T& obj, Op op) const {
    derived().require("oompi::oallreduce");
    const MPI_Comm comm = object_comm(derived().native());
    reduction<T> red = reduce_to_zero(obj, op, comm);
    const bool at_zero = derived().rank() == 0;
    std::uint64_t meta[2] = {0, red.failed ? std::uint64_t{failure_serialize} : 0};
    byte_buffer buf;
    if (at_zero && !red.failed) {
      try {
        object_codec<T>::save(buf, *red.value);
        meta[0] = buf.size();
      } catch (...) {
        if (!red.local) red.local = std::current_exception();
        meta[1] = failure_serialize;
      }
    }
    OOMPI_CHECK(MPI_Bcast, (meta, 2, MPI_UINT64_T, 0, comm));
    // A pickling Python rank 0 whose reduction succeeded broadcasts its pickle: take it first.
    const bool refused = !at_zero && pickled_bytes_follow(meta[1]);
    if (red.local && !refused) std::rethrow_exception(red.local);
    if (meta[1] != failure_none && !refused)
      throw serialization_error("oompi::oallreduce: the reduction failed on another rank");
    if (!at_zero) buf.resize(static_cast<std::size_t>(meta[0]));
    bcast_bytes(buf.data(), buf.size(), 0, comm);
    if (refused) {
      if (red.local) std::rethrow_exception(red.local);
      throw_remote_failure("oompi::oallreduce", meta[1]);
    }
    if (at_zero) return std::move(*red.value);
    T result{};
    object_codec<T>::load(buf.data(), buf.size(), result);
    return result;
  }

private:
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }

  template <class T>
  std::vector<T> gather_impl(const std::vector<T>& mine, int root, bool all) const {
    const char* op = all ? "oompi::oallgather" : "oompi::ogather";
    derived().require(op);
    const MPI_Comm comm = object_comm(derived().native());
    const int p = derived().size();
    const int me = derived().rank();
    const auto np = static_cast<std::size_t>(p);
    byte_buffer buf;
    std::uint64_t my_meta[2] = {0, failure_none};
    std::exception_ptr local;
    try {
      object_codec<T>::save_slice(buf, mine.data(), mine.size());
      my_meta[0] = buf.size();
    } catch (...) {
      local = std::current_exception();
      my_meta[1] = failure_serialize;
    }
    std::vector<std::uint64_t> meta(2 * np);
    OOMPI_CHECK(MPI_Allgather, (my_meta, 2, MPI_UINT64_T, meta.data(), 2, MPI_UINT64_T, comm));
    std::uint64_t codes = 0;
    for (std::size_t i = 0; i < np; ++i) codes |= meta[2 * i + 1];
    raise_failures(op, codes, local);

    std::vector<std::size_t> off(np + 1, 0);
    for (std::size_t i = 0; i < np; ++i) off[i + 1] = off[i] + meta[2 * i];
    const bool large = !fits_int(off[np]);
    const bool receives = all || me == root;
    byte_buffer rbuf(receives ? off[np] : 0);
    if (!large) {
      std::vector<int> counts(np), displs(np);
      for (std::size_t i = 0; i < np; ++i) {
        counts[i] = static_cast<int>(meta[2 * i]);
        displs[i] = static_cast<int>(off[i]);
      }
      if (all)
        OOMPI_CHECK(MPI_Allgatherv, (buf.data(), static_cast<int>(buf.size()), MPI_BYTE, rbuf.data(),
                                     counts.data(), displs.data(), MPI_BYTE, comm));
      else
        OOMPI_CHECK(MPI_Gatherv, (buf.data(), static_cast<int>(buf.size()), MPI_BYTE, rbuf.data(),
                                  counts.data(), displs.data(), MPI_BYTE, root, comm));
    } else if (all) {  // more than INT_MAX bytes in all: one broadcast per rank
      for (int i = 0; i < p; ++i) {
        if (i == me && !buf.empty()) std::memcpy(rbuf.data() + off[i], buf.data(), buf.size());
        bcast_bytes(rbuf.data() + off[i], off[i + 1] - off[i], i, comm);
      }
    } else {
      std::vector<MPI_Request> reqs;
      if (me == root) {
        for (int i = 0; i < p; ++i) {
          if (i == me) {
            if (!buf.empty()) std::memcpy(rbuf.data() + off[i], buf.data(), buf.size());
          } else {
            reqs.push_back(irecv_bytes(rbuf.data() + off[i], off[i + 1] - off[i], i,
                                       object_tag_large, comm));
          }
        }
      } else {
        reqs.push_back(isend_bytes(buf.data(), buf.size(), root, object_tag_large, comm));
      }
      wait_requests(reqs);
    }
    std::vector<T> out;
    if (receives)
      for (std::size_t i = 0; i < np; ++i)
        object_codec<T>::load_slice(rbuf.data() + off[i], off[i + 1] - off[i], out);
    return out;
  }

  template <class T>
  struct reduction {
    std::optional<T> value;   // at rank 0: the result (unless failed)
    bool failed = false;      // some rank in this subtree failed
    std::exception_ptr local; // this rank's own failure
  };

  // Binomial tree towards rank 0 that keeps rank order: at step `mask` a rank that is a
  // multiple of 2*mask holds x[r .. r+mask) and receives x[r+mask .. r+2*mask). A rank that
  // fails still receives from all its children (so none blocks) and reports upwards.
  template <class T, class Op>
  reduction<T> reduce_to_zero(const T& obj, Op& op, MPI_Comm comm) const {
    const int p = derived().size();
    const int me = derived().rank();
    reduction<T> red;
    const T* current = &obj;
    for (int mask = 1; mask < p; mask <<= 1) {
      if (me & mask) {
        if (red.failed) {
          send_bytes(nullptr, 0, me - mask, object_tag_reduce_failed, comm);
        } else {
          try {
            send_object(*current, me - mask, object_tag_reduce, comm);
          } catch (const error&) {
            throw;
          } catch (...) {  // could not serialize: tell the parent instead
            red.local = std::current_exception();
            red.failed = true;
            send_bytes(nullptr, 0, me - mask, object_tag_reduce_failed, comm);
          }
        }
        return red;
      }
      if (me + mask < p) {
        T other{};
        try {
          if (recv_object(other, me + mask, MPI_ANY_TAG, comm, object_tag_reduce_failed).tag() ==
              object_tag_reduce_failed)
            red.failed = true;
        } catch (const error&) {
          throw;
        } catch (...) {
          if (!red.local) red.local = std::current_exception();
          red.failed = true;
        }
        if (!red.failed) {
          try {
            red.value.emplace(op(*current, std::as_const(other)));
            current = &*red.value;
          } catch (...) {
            red.local = std::current_exception();
            red.failed = true;
          }
        }
      }
    }
    if (me == 0 && !red.failed && !red.value) {
      try {
        red.value.emplace(deep_copy(obj));  // one rank: the result is a copy of its object
      } catch (...) {
        red.local = std::current_exception();
        red.failed = true;
      }
    }
    return red;
  }
};

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_OBJECT_OPS_HPP
