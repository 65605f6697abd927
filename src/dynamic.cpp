// Dynamic processes for the bindings: spawn, parent, accept/connect, disconnect, ports and
// published names, on the core's dynamic.hpp (which checks the root's input and shares the
// verdict).
#include <oompi/rt/comm.hpp>
#include <oompi/rt/environment.hpp>
#include <oompi/rt/info.hpp>
#include <oompi/rt/intercomm.hpp>

#include "detail/comm_state.hpp"
#include "detail/reclaim.hpp"

#include <oompi/dynamic.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace oompi::rt {

intercomm comm::spawn(const std::string& program, const std::vector<std::string>& args,
                      int maxprocs, int root) const {
  return spawn(program, args, maxprocs, info(), root);
}

intercomm comm::spawn(const std::string& program, const std::vector<std::string>& args,
                      int maxprocs, const info& hints, int root) const {
  constexpr const char* routine = "MPI_Comm_spawn";
  const auto& s = live_intra("comm.spawn");
  oompi::detail::require_running(routine);
  oompi::detail::check_root(routine, s.c, root);
  detail::drain();
  // Hints are read at the root only; a closed info there must throw on every process.
  oompi::info h = oompi::info::null();
  int bad = 0;
  if (s.c.rank() == root) {
    try {
      h = hints.core("comm.spawn");
    } catch (const std::exception&) {  // closed: every process must hear of it
      bad = 1;
    }
  }
  OOMPI_CHECK(MPI_Bcast, (&bad, 1, MPI_INT, root, s.c.native()));
  if (bad) throw closed_error("comm.spawn: the hints (an info) have been closed at the root");
  auto ic = s.c.spawn(program, args, maxprocs, h, root);
  return intercomm(state::adopt(ic.release(), true));
}

namespace {
// The root's commands, or the reason they are malformed.
std::vector<oompi::spawn_command> commands_of(const std::vector<std::string>& programs,
                                              const std::vector<std::vector<std::string>>& args,
                                              const std::vector<int>& maxprocs,
                                              const std::vector<info>& hints, std::string& why) {
  const std::size_t n = programs.size();
  std::vector<oompi::spawn_command> cmds;
  if (maxprocs.size() != n) why = "maxprocs has another length than programs";
  else if (!args.empty() && args.size() != n) why = "args is neither empty nor one list per program";
  else if (!hints.empty() && hints.size() != n) why = "hints is neither empty nor one per program";
  if (!why.empty()) return cmds;
  for (std::size_t i = 0; i < n; ++i) {
    oompi::spawn_command c;
    c.program = programs[i];
    if (!args.empty()) c.args = args[i];
    c.maxprocs = maxprocs[i];
    if (!hints.empty()) {
      const info& h = hints[i];
      try {
        if (h.native("comm.spawn_multiple") != MPI_INFO_NULL)  // a null info: no hints
          for (const auto& k : h.keys()) c.hints.emplace_back(k, h.get(k));
      } catch (const std::exception& e) {  // closed: every process must hear of it
        why = "the hints of command " + std::to_string(i) + ": " + e.what();
        return {};
      }
    }
    cmds.push_back(std::move(c));
  }
  return cmds;
}
}  // namespace

intercomm comm::spawn_multiple(const std::vector<std::string>& programs,
                               const std::vector<std::vector<std::string>>& args,
                               const std::vector<int>& maxprocs, const std::vector<info>& hints,
                               int root) const {
  constexpr const char* routine = "MPI_Comm_spawn_multiple";
  const auto& s = live_intra("comm.spawn_multiple");
  oompi::detail::require_running(routine);
  oompi::detail::check_root(routine, s.c, root);
  detail::drain();
  // The lists are read at the root only: its verdict on their shape is shared first (the core
  // then checks counts and programs and shares that verdict too), so all throw or none.
  std::string why;
  std::vector<oompi::spawn_command> cmds;
  if (s.c.rank() == root) cmds = commands_of(programs, args, maxprocs, hints, why);
  int bad = why.empty() ? 0 : 1;
  OOMPI_CHECK(MPI_Bcast, (&bad, 1, MPI_INT, root, s.c.native()));
  if (bad)
    throw std::invalid_argument(std::string(routine) + ": " +
                                (why.empty() ? std::string("malformed commands (at the root)") : why));
  auto ic = s.c.spawn_multiple(cmds, root);
  return intercomm(state::adopt(ic.release(), true));
}

namespace {
// accept and connect: once MPI runs and what finished requests left is freed, join() makes the
// intercommunicator; its handle, for the caller to own.
template <class Join>
MPI_Comm joined(const char* routine, Join&& join) {
  oompi::detail::require_running(routine);
  detail::drain();
  return join().release();
}
}  // namespace

intercomm comm::accept(const std::string& port, int root) const {
  const auto& s = live_intra("comm.accept");
  const MPI_Comm ic = joined("MPI_Comm_accept", [&] { return s.c.accept(port, root); });
  return intercomm(state::adopt(ic, true));
}

intercomm comm::connect(const std::string& port, int root) const {
  const auto& s = live_intra("comm.connect");
  const MPI_Comm ic = joined("MPI_Comm_connect", [&] { return s.c.connect(port, root); });
  return intercomm(state::adopt(ic, true));
}

void comm::disconnect() {
  const auto& s = live("comm.disconnect");
  oompi::detail::require_running("MPI_Comm_disconnect");
  MPI_Comm h = s.handle();
  if (h == MPI_COMM_WORLD || h == MPI_COMM_SELF)
    throw std::logic_error("comm.disconnect: world and self cannot be disconnected");
  // Closed first (every copy), then disconnected through the core, which knows the MPI's faults.
  st_->owned = false;
  close();
  oompi::communicator(h, true).disconnect();
}

intercomm intercomm::parent() {
  oompi::detail::require_running("MPI_Comm_get_parent");
  MPI_Comm h = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_get_parent, (&h));
  if (h == MPI_COMM_NULL) return intercomm();
  return intercomm(state::adopt(h, false));
}

std::string environment::open_port() { return oompi::port_name().str(); }
void environment::close_port(const std::string& port) {
  oompi::detail::require_running("MPI_Close_port");
  if (port.empty()) throw std::invalid_argument("MPI_Close_port: empty port name");
  OOMPI_CHECK(MPI_Close_port, (port.c_str()));
}
void environment::publish_name(const std::string& service, const std::string& port) {
  oompi::detail::require_running("MPI_Publish_name");
  if (service.empty() || port.empty())
    throw std::invalid_argument("MPI_Publish_name: empty service or port name");
  OOMPI_CHECK(MPI_Publish_name, (service.c_str(), MPI_INFO_NULL, port.c_str()));
}
void environment::unpublish_name(const std::string& service, const std::string& port) {
  oompi::detail::require_running("MPI_Unpublish_name");
  if (service.empty() || port.empty())
    throw std::invalid_argument("MPI_Unpublish_name: empty service or port name");
  OOMPI_CHECK(MPI_Unpublish_name, (service.c_str(), MPI_INFO_NULL, port.c_str()));
}
std::string environment::lookup_name(const std::string& service) {
  return oompi::lookup_name(service);
}

}  // namespace oompi::rt
