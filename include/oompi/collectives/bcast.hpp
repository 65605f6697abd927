#ifndef OOMPI_COLLECTIVES_BCAST_HPP
#define OOMPI_COLLECTIVES_BCAST_HPP

// bcast, ibcast: the root's buffer is copied to every process.

#include "common.hpp"

namespace oompi::detail {

template <class D>
class bcast_ops {
public:
  /// Broadcasts `buf` from `root`; buf has the same size on every process.
  template <class B>
  void bcast(B& buf, int root) const {
    static_assert(!std::is_const_v<B>, "oompi::bcast: the buffer is written on the receiving ranks");
    finish(call<false>(buf, root, nullptr, "oompi::bcast"), "MPI_Bcast");
  }
  /// Broadcasts a std::vector/std::string, resizing it on the receiving ranks to the root's
  /// size first (one more broadcast, of the size).
  template <class B>
  void bcast(B& buf, int root, resize_to_fit_t) const {
    static_assert(is_resizable<B>::value,
                  "oompi::bcast(buf, root, resize_to_fit) resizes a std::vector or std::string");
    const D& c = derived();
    check_comm(c, "oompi::bcast");
    check_root(c, root, "oompi::bcast");
    unsigned long long n = buffer_traits<B>::size(buf);
    finish(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, c.native()), "MPI_Bcast");
    if (receives(c, root)) buffer_traits<B>::resize(buf, static_cast<std::size_t>(n));
    bcast(buf, root);
  }

  /// Nonblocking broadcast into a borrowed buffer.
  template <class B>
  request ibcast(B& buf, int root) const {
    static_assert(!std::is_const_v<B>, "oompi::ibcast: the buffer is written on the receiving ranks");
    MPI_Request r = MPI_REQUEST_NULL;
    finish(call<true>(buf, root, &r, "oompi::ibcast"), "MPI_Ibcast");
    return request(r);
  }
  /// Nonblocking broadcast of a buffer the future owns: get() returns it.
  template <class B, if_rvalue<B> = 0>
  future<B> ibcast(B&& buf, int root) const {
    return start_future(std::move(buf), make_keep(no_binding{}), "MPI_Ibcast",
                        [&](B& v, auto&, MPI_Request* r) { return call<true>(v, root, r, "oompi::ibcast"); });
  }

private:
  const D& derived() const noexcept { return static_cast<const D&>(*this); }

  static bool receives(const D& c, int root) noexcept {
    if constexpr (is_intercomm_v<D>)
      return root >= 0;
    else
      return root != c.rank();
  }

  template <bool NB, class B>
  int call(B& buf, int root, MPI_Request* req, const char* name) const {
    const D& c = derived();
    check_comm(c, name);
    check_root(c, root, name);
    const buffer_desc d = describe(buf);
    const count_arg a(d.count, d.type);
    if constexpr (NB)
      return MPI_Ibcast(d.data, a.count, a.type, root, c.native(), req);
    else
      return MPI_Bcast(d.data, a.count, a.type, root, c.native());
  }
};

}  // namespace oompi::detail

#endif  // OOMPI_COLLECTIVES_BCAST_HPP
