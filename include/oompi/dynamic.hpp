#ifndef OOMPI_DYNAMIC_HPP
#define OOMPI_DYNAMIC_HPP

// Dynamic processes: starting new processes (spawn) and joining independently started jobs
// (ports and published names). Each gives an intercommunicator to the other side.
//
//   auto workers = world.spawn("./worker", {"--size", "100"}, 4);   // collective over world
//   auto parent = oompi::intercommunicator::parent();               // in a worker; null if none
//
//   oompi::port_name port;                        // MPI_Open_port; the destructor closes it
//   oompi::published_name pub("svc", port.str()); // MPI_Publish_name; the destructor unpublishes
//   auto client = world.accept(port.str());       // server side
//   auto server = world.connect(oompi::lookup_name("svc"));  // client side
//
// As in MPI, the program, arguments, count, hints and port name are read at the root only; the
// root checks them and tells the others its verdict, so bad input throws on every process of the
// communicator instead of leaving them blocked. A spawned program must be visible at the root:
// Open MPI ends the whole job when it cannot start one, so spawn refuses a program it cannot find
// (a path that is not executable, a name not on PATH) unless the hints name other hosts
// ("host", "hostfile", "add-host", "add-hostfile"), where the root cannot look.
//
// Processes stay connected until both sides call disconnect() on their intercommunicator (and on
// any communicator made from it); MPI_Finalize waits for connected processes.

#include "detail/receive_safety.hpp"
#include "error.hpp"
#include "info.hpp"
#include "intercommunicator.hpp"
#include "intracommunicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#if __has_include(<unistd.h>)
#include <unistd.h>
#define OOMPI_DETAIL_HAS_ACCESS 1
#endif

namespace oompi {

/// One program of intracommunicator::spawn_multiple.
struct spawn_command {
  std::string program;
  std::vector<std::string> args;
  int maxprocs = 1;
  /// Hints of this program (MPI_Info keys such as "wdir", "host", "env").
  std::vector<std::pair<std::string, std::string>> hints;
};

namespace detail {

// Verdicts the root of a dynamic-process call broadcasts before MPI sees the call.
enum spawn_verdict : int { verdict_ok = 0, verdict_bad_count, verdict_no_program, verdict_bad_port };

inline bool names_other_hosts(MPI_Info hints) {
  if (hints == MPI_INFO_NULL) return false;
  for (const char* key : {"host", "hostfile", "add-host", "add-hostfile"}) {
    int len = 0, flag = 0;
    MPI_Info_get_valuelen(hints, key, &len, &flag);
    if (flag) return true;
  }
  return false;
}

// True when `program` can be started from here: an executable path (relative to `wdir` when
// given), or a name found on PATH.
inline bool program_is_executable(const std::string& program, MPI_Info hints) {
#ifdef OOMPI_DETAIL_HAS_ACCESS
  if (program.empty()) return false;
  if (names_other_hosts(hints)) return true;
  if (program.find('/') != std::string::npos) {
    std::string path = program;
    int len = 0, flag = 0;
    if (hints != MPI_INFO_NULL) MPI_Info_get_valuelen(hints, "wdir", &len, &flag);
    if (flag && program.front() != '/') {
      std::string wdir(static_cast<std::size_t>(len) + 1, '\0');
      MPI_Info_get(hints, "wdir", len + 1, wdir.data(), &flag);
      wdir.resize(static_cast<std::size_t>(len));
      path = wdir + "/" + program;
    }
    return ::access(path.c_str(), X_OK) == 0;
  }
  const char* env = std::getenv("PATH");
  const std::string dirs = env ? env : "";
  for (std::size_t begin = 0; begin <= dirs.size();) {
    std::size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > begin ? dirs.substr(begin, end - begin) : ".";
    if (::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    begin = end + 1;
  }
  return false;
#else
  return !program.empty();
#endif
}

// argv for MPI: the strings' characters, null-terminated; MPI_ARGV_NULL when there are none.
struct argv_list {
  explicit argv_list(const std::vector<std::string>& args) {
    for (const auto& a : args) ptrs.push_back(const_cast<char*>(a.c_str()));
    ptrs.push_back(nullptr);
  }
  char** get() { return ptrs.size() > 1 ? ptrs.data() : MPI_ARGV_NULL; }
  std::vector<char*> ptrs;
};

inline void check_root(const char* routine, const communicator& comm, int root) {
  if (root < 0 || root >= comm.size())
    throw std::out_of_range(std::string(routine) + ": root " + std::to_string(root) +
                            " is not a rank of the communicator (size " +
                            std::to_string(comm.size()) + ")");
}

// The root's verdict and a number (the process count of a spawn), known to every process.
inline std::pair<int, int> share_verdict(const communicator& comm, int root, int verdict,
                                         int number) {
  int pair[2] = {verdict, number};
  OOMPI_CHECK(MPI_Bcast, (pair, 2, MPI_INT, root, comm.native()));
  return {pair[0], pair[1]};
}

[[noreturn]] OOMPI_DETAIL_COLD inline void throw_verdict(const char* routine, int verdict,
                                                          const std::string& what, bool at_root) {
  const std::string where = at_root ? "" : " (at the root)";
  switch (verdict) {
    case verdict_bad_count:
      throw std::invalid_argument(std::string(routine) + ": " +
                                  (at_root ? what : "the process count") +
                                  " must be at least 1" + where);
    case verdict_no_program:
      throw std::invalid_argument(std::string(routine) + ": " +
                                  (at_root ? "\"" + what + "\"" : "the program") +
                                  " is not an executable file or a program on PATH" + where);
    default:
      throw std::invalid_argument(std::string(routine) + ": " +
                                  (at_root ? what : "the port name") + " is empty or longer than "
                                  "MPI_MAX_PORT_NAME" + where);
  }
}

// Wraps a new intercommunicator; per-process spawn codes go to `errcodes` when given, else the
// first failure throws (the intercommunicator is freed).
inline intercommunicator spawned(const char* routine, MPI_Comm inter, std::vector<int>& codes,
                                 std::vector<int>* errcodes) {
  intercommunicator result(inter, true);
  if (errcodes) {
    *errcodes = std::move(codes);
  } else {
    for (int code : codes)
      if (code != MPI_SUCCESS) throw error(routine, code);
  }
  return result;
}

}  // namespace detail

inline intercommunicator intracommunicator::spawn(const std::string& program,
                                                  const std::vector<std::string>& args,
                                                  int maxprocs, const info& hints, int root,
                                                  std::vector<int>* errcodes) const {
  constexpr const char* routine = "MPI_Comm_spawn";
  require(routine);
  detail::check_root(routine, *this, root);
  int verdict = detail::verdict_ok;
  if (rank() == root) {
    if (maxprocs < 1)
      verdict = detail::verdict_bad_count;
    else if (!detail::program_is_executable(program, hints.native()))
      verdict = detail::verdict_no_program;
  }
  const auto [shared, total] = detail::share_verdict(*this, root, verdict, maxprocs);
  if (shared != detail::verdict_ok)
    detail::throw_verdict(routine, shared,
                          shared == detail::verdict_bad_count
                              ? "maxprocs " + std::to_string(maxprocs) : program,
                          rank() == root);
  detail::argv_list argv(args);
  std::vector<int> codes(static_cast<std::size_t>(total), MPI_SUCCESS);
  MPI_Comm inter = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_spawn, (program.c_str(), argv.get(), maxprocs, hints.native(), root,
                               native(), &inter, codes.data()));
  return detail::spawned(routine, inter, codes, errcodes);
}

inline intercommunicator intracommunicator::spawn_multiple(
    const std::vector<spawn_command>& commands, int root, std::vector<int>* errcodes) const {
  constexpr const char* routine = "MPI_Comm_spawn_multiple";
  require(routine);
  detail::check_root(routine, *this, root);
  int verdict = detail::verdict_ok, total = 0;
  std::string what;
  std::vector<info> infos;
  if (rank() == root) {
    if (commands.empty()) {
      verdict = detail::verdict_bad_count;
      what = "the number of commands";
    }
    for (const auto& c : commands) {
      infos.emplace_back(c.hints.empty() ? info::null() : info());
      for (const auto& kv : c.hints) infos.back().set(kv.first, kv.second);
      if (verdict != detail::verdict_ok) continue;
      if (c.maxprocs < 1) {
        verdict = detail::verdict_bad_count;
        what = "maxprocs " + std::to_string(c.maxprocs) + " of \"" + c.program + "\"";
      } else if (!detail::program_is_executable(c.program, infos.back().native())) {
        verdict = detail::verdict_no_program;
        what = c.program;
      }
      total += c.maxprocs;
    }
  }
  const auto [shared, count] = detail::share_verdict(*this, root, verdict, total);
  if (shared != detail::verdict_ok) detail::throw_verdict(routine, shared, what, rank() == root);
  // Only the root's arrays are read; the others pass empty ones.
  std::vector<char*> programs;
  std::vector<detail::argv_list> argvs;
  std::vector<char**> argv_ptrs;  // each null-terminated, possibly empty
  std::vector<int> maxprocs;
  std::vector<MPI_Info> info_handles;
  argvs.reserve(commands.size());
  if (rank() == root) {
    for (std::size_t i = 0; i < commands.size(); ++i) {
      programs.push_back(const_cast<char*>(commands[i].program.c_str()));
      argvs.emplace_back(commands[i].args);
      argv_ptrs.push_back(argvs.back().ptrs.data());
      maxprocs.push_back(commands[i].maxprocs);
      info_handles.push_back(infos[i].native());
    }
  }
  std::vector<int> codes(static_cast<std::size_t>(count), MPI_SUCCESS);
  MPI_Comm inter = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_spawn_multiple,
              (static_cast<int>(programs.size()), programs.data(),
               std::all_of(commands.begin(), commands.end(),
                           [](const spawn_command& c) { return c.args.empty(); })
                   ? MPI_ARGVS_NULL : argv_ptrs.data(),
               maxprocs.data(), info_handles.data(), root, native(), &inter, codes.data()));
  return detail::spawned(routine, inter, codes, errcodes);
}

namespace detail {
using port_fn = int (*)(const char*, MPI_Info, int, MPI_Comm, MPI_Comm*);

inline intercommunicator join(const char* routine, port_fn fn, const intracommunicator& comm,
                              const std::string& port, int root, const info& hints) {
  check_root(routine, comm, root);
  int verdict = verdict_ok;
  if (comm.rank() == root &&
      (port.empty() || port.size() >= static_cast<std::size_t>(MPI_MAX_PORT_NAME)))
    verdict = verdict_bad_port;
  if (const int shared = share_verdict(comm, root, verdict, 0).first; shared != verdict_ok)
    throw_verdict(routine, shared, "the port name \"" + port.substr(0, 40) + "\"",
                  comm.rank() == root);
  // The other job's processes may send without pml_ob1_max_rdma_per_request=0: receives get
  // the probe guard back (detail/receive_safety.hpp).
  note_foreign_peers(routine);
  MPI_Comm inter = MPI_COMM_NULL;
  if (const int rc = fn(port.c_str(), hints.native(), root, comm.native(), &inter);
      rc != MPI_SUCCESS)
    throw_mpi_error(routine, rc);
  return intercommunicator(inter, true);
}
}  // namespace detail

inline intercommunicator intracommunicator::accept(const std::string& port, int root,
                                                   const info& hints) const {
  require("MPI_Comm_accept");
  return detail::join("MPI_Comm_accept", &MPI_Comm_accept, *this, port, root, hints);
}

inline intercommunicator intracommunicator::connect(const std::string& port, int root,
                                                    const info& hints) const {
  require("MPI_Comm_connect");
  return detail::join("MPI_Comm_connect", &MPI_Comm_connect, *this, port, root, hints);
}

inline intercommunicator intercommunicator::parent() {
  detail::require_running("MPI_Comm_get_parent");
  MPI_Comm p = MPI_COMM_NULL;
  OOMPI_CHECK(MPI_Comm_get_parent, (&p));
  return p == MPI_COMM_NULL ? intercommunicator() : intercommunicator(p, false);
}

/// A port opened by MPI_Open_port, to accept connections on; the destructor closes it.
class port_name {
public:
  /// Opens a port (MPI chooses its name).
  explicit port_name(const info& hints = info::null()) {
    detail::require_running("MPI_Open_port");
    char name[MPI_MAX_PORT_NAME + 1] = {};
    OOMPI_CHECK(MPI_Open_port, (hints.native(), name));
    name_ = name;
  }
  port_name(port_name&& o) noexcept : name_(std::exchange(o.name_, std::string())) {}
  port_name& operator=(port_name&& o) noexcept {
    if (this != &o) {
      reset();
      name_ = std::exchange(o.name_, std::string());
    }
    return *this;
  }
  port_name(const port_name&) = delete;
  port_name& operator=(const port_name&) = delete;
  ~port_name() { reset(); }

  /// The port's name, to give to connect() in the other job.
  const std::string& str() const {
    if (name_.empty()) throw std::logic_error("oompi::port_name: the port is closed");
    return name_;
  }
  bool is_open() const noexcept { return !name_.empty(); }
  /// Closes the port (MPI_Close_port); closing a closed port does nothing.
  void close() {
    if (name_.empty()) return;
    detail::require_running("MPI_Close_port");
    const std::string name = std::exchange(name_, std::string());
    OOMPI_CHECK(MPI_Close_port, (name.c_str()));
  }

private:
  void reset() noexcept {
    if (!name_.empty() && detail::mpi_usable()) MPI_Close_port(name_.c_str());
    name_.clear();
  }
  std::string name_;
};

/// A service name published for a port (MPI_Publish_name); the destructor unpublishes it.
class published_name {
public:
  published_name(std::string service, std::string port, const info& hints = info::null())
      : service_(std::move(service)), port_(std::move(port)) {
    detail::require_running("MPI_Publish_name");
    if (service_.empty() || port_.empty())
      throw std::invalid_argument("MPI_Publish_name: empty service or port name");
    OOMPI_CHECK(MPI_Publish_name, (service_.c_str(), hints.native(), port_.c_str()));
    published_ = true;
  }
  published_name(published_name&& o) noexcept
      : service_(std::move(o.service_)), port_(std::move(o.port_)),
        published_(std::exchange(o.published_, false)) {}
  published_name& operator=(published_name&&) = delete;
  published_name(const published_name&) = delete;
  published_name& operator=(const published_name&) = delete;
  ~published_name() {
    if (published_ && detail::mpi_usable())
      MPI_Unpublish_name(service_.c_str(), MPI_INFO_NULL, port_.c_str());
  }

  const std::string& service() const noexcept { return service_; }
  const std::string& port() const noexcept { return port_; }
  /// Unpublishes now (MPI_Unpublish_name); a second call does nothing.
  void unpublish(const info& hints = info::null()) {
    if (!published_) return;
    detail::require_running("MPI_Unpublish_name");
    published_ = false;
    OOMPI_CHECK(MPI_Unpublish_name, (service_.c_str(), hints.native(), port_.c_str()));
  }

private:
  std::string service_, port_;
  bool published_ = false;
};

/// The port published under `service` (MPI_Lookup_name); an unknown name throws oompi::error
/// of class MPI_ERR_NAME.
inline std::string lookup_name(const std::string& service, const info& hints = info::null()) {
  detail::require_running("MPI_Lookup_name");
  if (service.empty()) throw std::invalid_argument("MPI_Lookup_name: empty service name");
  char port[MPI_MAX_PORT_NAME + 1] = {};
  OOMPI_CHECK(MPI_Lookup_name, (service.c_str(), hints.native(), port));
  return port;
}

}  // namespace oompi

#endif  // OOMPI_DYNAMIC_HPP
