#ifndef OOMPI_PORT_HPP
#define OOMPI_PORT_HPP

// Ports (OOMPI, MPI.NET): `comm[r]` names process r of a communicator, so that
//   world[(rank + 1) % size] << values;          // send with tag 0
//   world[(rank + size - 1) % size] >> values;   // receive with tag 0
// A port refers to its communicator: it must not outlive it.

#include "communicator.hpp"

#include <optional>
#include <utility>

namespace oompi {

class port {
public:
  port(const communicator& comm, int rank) noexcept : comm_(&comm), rank_(rank) {}

  /// The rank this port leads to.
  int rank() const noexcept { return rank_; }
  const communicator& comm() const noexcept { return *comm_; }

  template <class B>
  void send(const B& buf, int tag = 0) const { comm_->send(buf, rank_, tag); }
  template <class B>
  void ssend(const B& buf, int tag = 0) const { comm_->ssend(buf, rank_, tag); }
  template <class B>
  void bsend(const B& buf, int tag = 0) const { comm_->bsend(buf, rank_, tag); }
  template <class B>
  void rsend(const B& buf, int tag = 0) const { comm_->rsend(buf, rank_, tag); }
  template <class B, class = detail::enable_if_receivable<B>>
  status recv(B&& buf, int tag = any_tag) const {
    return comm_->recv(std::forward<B>(buf), rank_, tag);
  }
  template <class B>
  B recv(int tag = any_tag) const { return comm_->template recv<B>(rank_, tag); }
  template <class B>
  request isend(B&& buf, int tag = 0) const { return comm_->isend(std::forward<B>(buf), rank_, tag); }
  template <class B>
  request issend(B&& buf, int tag = 0) const { return comm_->issend(std::forward<B>(buf), rank_, tag); }
  template <class B>
  request ibsend(B&& buf, int tag = 0) const { return comm_->ibsend(std::forward<B>(buf), rank_, tag); }
  template <class B>
  request irsend(B&& buf, int tag = 0) const { return comm_->irsend(std::forward<B>(buf), rank_, tag); }
  template <class B>
  auto irecv(B&& buf, int tag = any_tag) const { return comm_->irecv(std::forward<B>(buf), rank_, tag); }
  status probe(int tag = any_tag) const { return comm_->probe(rank_, tag); }
  std::optional<status> iprobe(int tag = any_tag) const { return comm_->iprobe(rank_, tag); }
  message mprobe(int tag = any_tag) const { return comm_->mprobe(rank_, tag); }
  std::optional<message> improbe(int tag = any_tag) const { return comm_->improbe(rank_, tag); }

  // Object graphs (need #include <oompi/serialization.hpp>).
  template <class T>
  void osend(const T& obj, int tag = 0) const { comm_->osend(obj, rank_, tag); }
  template <class T>
  status orecv(T& obj, int tag = any_tag) const { return comm_->orecv(obj, rank_, tag); }
  template <class T>
  T orecv(int tag = any_tag) const { return comm_->template orecv<T>(rank_, tag); }
  template <class T>
  request iosend(const T& obj, int tag = 0) const { return comm_->iosend(obj, rank_, tag); }
  template <class T>
  object_future<T> iorecv(int tag = any_tag) const { return comm_->template iorecv<T>(rank_, tag); }

  /// Sends with tag 0.
  template <class B>
  const port& operator<<(const B& buf) const {
    comm_->send(buf, rank_, 0);
    return *this;
  }
  /// Receives with tag 0 (into a named buffer or a view).
  template <class B, class = detail::enable_if_receivable<B>>
  const port& operator>>(B&& buf) const {
    comm_->recv_ignore_status(std::forward<B>(buf), rank_, 0);
    return *this;
  }

private:
  const communicator* comm_;
  int rank_;
};

inline port communicator::operator[](int rank) const noexcept { return port(*this, rank); }

}  // namespace oompi

#endif  // OOMPI_PORT_HPP
