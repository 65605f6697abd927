#ifndef OOMPI_DETAIL_RECEIVE_SAFETY_HPP
#define OOMPI_DETAIL_RECEIVE_SAFETY_HPP

// Making the MPI stop at the receive buffer's end, so that receives need no guard.
//
// Open MPI 4.1 and 5.0 (pml ob1) write a message larger than its receive buffer past the
// buffer's end when the message travels by an RDMA protocol (above the eager limit: vader's CMA
// single copy, tcp): the transfer is sized by the sender's header, and MPI_ERR_TRUNCATE is set
// only after the data has landed (docs/openmpi-truncation-bug.md). This hits every receive:
// blocking, nonblocking, persistent, the receive inside MPI_Sendrecv. With the MCA parameter
// pml_ob1_max_rdma_per_request=0, ob1 has no RDMA protocol to choose: every message above the
// eager limit goes by copy-in/out fragments, which the receiver unpacks through its datatype
// convertor; that stops at the buffer's end and reports MPI_ERR_TRUNCATE. One-sided windows do
// not use ob1's RDMA protocols and keep working.
//
// So oompi::environment, before MPI_Init, sets OMPI_MCA_pml_ob1_max_rdma_per_request=0 in the
// process's environment unless the user set that parameter (environment variable, or an MCA
// parameter file); after MPI_Init it learns which PML runs and the value in effect (from the
// selected PML's shared object and the environment where they tell, else through MPI_T, whose
// first use costs 0.2 s), and turns the receive guard (recv_guard.hpp) off only where the MPI is known to stop
// at the buffer's end:
//   - pml ob1 with the parameter 0, when every process that can send here has it too. The
//     sender picks the protocol (over vader a receiver with the setting still overflows when
//     its sender lacks it), so oompi must know its peers: the user's setting (environment or
//     file) reaches every process of the job; a setting oompi made itself reaches only oompi
//     processes. So with oompi's own setting the guard stays on in an MPMD job (another
//     program may lack it) and in a spawned process (its parent did not pass the setting on:
//     Open MPI gives spawned processes the parent's OMPI_MCA_ variables, so a child of an oompi
//     process sees the setting in its environment). Connecting to another job
//     (connect/accept) turns the guard back on: that job's processes are unknown.
//   - pml ucx (bounds its writes), and MPICH (compiled without the guard).
// Everywhere else (another PML, MPI initialised by someone else without the setting, the user
// set another value) the guard stays on. environment::receive_protection() tells the mode,
// receive_protection_reason() why.

#include "recv_guard.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>
#if defined(OPEN_MPI) && __has_include(<dlfcn.h>)
#include <dlfcn.h>
#define OOMPI_DETAIL_HAVE_DLADDR 1
#endif

namespace oompi {
namespace detail {

inline constexpr const char* k_rdma_param = "pml_ob1_max_rdma_per_request";
inline constexpr const char* k_rdma_env = "OMPI_MCA_pml_ob1_max_rdma_per_request";

/// Who set pml_ob1_max_rdma_per_request: nobody, the user (environment or a file), or oompi.
enum class setting_origin { none, environment, file, oompi };

struct receive_safety_state {
  std::mutex lock;
  setting_origin origin = setting_origin::none;
  std::string file;  // the MCA parameter file that sets it (origin == file)
  std::string reason =
#if defined(MPICH) && !defined(OPEN_MPI)
      "MPICH stops at the receive buffer's end (MPI_ERR_TRUNCATE, nothing written past it)";
#else
      "MPI not yet initialised by an oompi environment: blocking receives are checked with a "
      "matched probe first";
#endif
  bool user_forced = false;  // OOMPI_RECV_GUARD or set_receive_guard decided, not oompi
  std::string forced_note;   // how the user decided
};
inline receive_safety_state& receive_safety() {
  static receive_safety_state s;
  return s;
}

/// True when the MPI itself stops at the receive buffer's end (assessed at MPI_Init).
inline std::atomic<bool> g_mpi_bounds_writes{
#if defined(MPICH) && !defined(OPEN_MPI) && !defined(I_MPI_VERSION) && !defined(MVAPICH2_VERSION)
    true
#else
    false
#endif
};

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

/// Whether the MCA parameter file at `path` sets the parameter ("name = value" lines).
inline bool file_sets_param(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq != std::string::npos && trim(line.substr(0, eq)) == k_rdma_param) return true;
  }
  return false;
}

/// The MCA parameter files Open MPI reads: OMPI_MCA_mca_base_param_files when set, else
/// $HOME/.openmpi/mca-params.conf and <sysconfdir>/openmpi-mca-params.conf (sysconfdir:
/// OPAL_SYSCONFDIR, OPAL_PREFIX/etc, the prefix libmpi was loaded from, /etc/openmpi, /etc).
inline std::vector<std::string> mca_param_files() {
  std::vector<std::string> files;
  if (const char* list = std::getenv("OMPI_MCA_mca_base_param_files")) {
    std::string item;
    for (const char* p = list;; ++p) {
      if (*p == ':' || *p == ',' || *p == '\0') {
        if (!trim(item).empty()) files.push_back(trim(item));
        item.clear();
        if (*p == '\0') break;
      } else {
        item += *p;
      }
    }
    return files;
  }
  const std::string conf = "/openmpi-mca-params.conf";
  if (const char* home = std::getenv("HOME")) files.push_back(home + std::string("/.openmpi/mca-params.conf"));
  if (const char* d = std::getenv("OPAL_SYSCONFDIR")) files.push_back(d + conf);
  if (const char* p = std::getenv("OPAL_PREFIX")) files.push_back(p + std::string("/etc") + conf);
#if defined(OOMPI_DETAIL_HAVE_DLADDR)
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&MPI_Init), &info) && info.dli_fname) {
    const std::string lib = info.dli_fname;  // <prefix>/lib[64][/...]/libmpi.so
    const auto at = lib.find("/lib");
    if (at != std::string::npos && at > 0) files.push_back(lib.substr(0, at) + "/etc" + conf);
  }
#endif
  files.push_back("/etc/openmpi" + conf);
  files.push_back("/etc" + conf);
  return files;
}

/// Finds whether the user set the parameter (environment first: it beats the files).
inline void find_setting_origin(receive_safety_state& s) {
  if (std::getenv(k_rdma_env)) {
    s.origin = setting_origin::environment;
    return;
  }
  for (const auto& f : mca_param_files()) {
    if (file_sets_param(f)) {
      s.origin = setting_origin::file;
      s.file = f;
      return;
    }
  }
  s.origin = setting_origin::none;
}

/// Before MPI_Init (Open MPI): OMPI_MCA_pml_ob1_max_rdma_per_request=0 unless the user set it.
inline void arrange_mpi_bounds_before_init() {
#if defined(OPEN_MPI)
  auto& s = receive_safety();
  std::lock_guard<std::mutex> hold(s.lock);
  find_setting_origin(s);
  if (s.origin == setting_origin::none && ::setenv(k_rdma_env, "0", 0) == 0)
    s.origin = setting_origin::oompi;
#endif
}

#if defined(OPEN_MPI)
/// Reads an int control variable through MPI_T; false when it does not exist (a component
/// that was not selected has its variables deregistered after MPI_Init).
inline bool read_int_cvar(const char* name, int& value) {
  int index = -1;
  if (MPI_T_cvar_get_index(name, &index) != MPI_SUCCESS) return false;
  char n[256];
  char desc[16];
  int nlen = sizeof n, dlen = sizeof desc, verbosity = 0, bind = 0, scope = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_T_enum enumtype;
  if (MPI_T_cvar_get_info(index, n, &nlen, &verbosity, &type, &enumtype, desc, &dlen, &bind,
                          &scope) != MPI_SUCCESS ||
      type != MPI_INT)
    return false;
  MPI_T_cvar_handle h;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &h, &count) != MPI_SUCCESS) return false;
  const bool ok = count == 1 && MPI_T_cvar_read(h, &value) == MPI_SUCCESS;
  MPI_T_cvar_handle_free(&h);
  return ok;
}

#if defined(OOMPI_DETAIL_HAVE_DLADDR)
/// The PML Open MPI selected, learned without MPI_T: its first MPI_T_init_thread opens every
/// MCA component of every framework (64 more shared objects, 0.2 s added to each process's
/// start). The selected module's function table (libmpi's exported mca_pml) points into the
/// component's shared object, mca_pml_ob1.so or mca_pml_ucx.so. Empty when that does not tell
/// (components built into libmpi, a PML wrapped by another such as monitoring): MPI_T decides.
inline std::string selected_pml_from_module() {
  void* table = ::dlsym(RTLD_DEFAULT, "mca_pml");
  if (!table) return {};
  void* fns[3];  // add_procs, del_procs, enable: the table's first entries (ob1 has no progress)
  std::memcpy(fns, table, sizeof fns);
  std::string where;
  for (void* f : fns) {
    Dl_info info;
    if (!f || !::dladdr(f, &info) || !info.dli_fname) return {};
    std::string file = info.dli_fname;
    file = file.substr(file.find_last_of('/') + 1);
    if (!where.empty() && file != where) return {};
    where = file;
  }
  if (where == "mca_pml_ob1.so") return "ob1";
  if (where == "mca_pml_ucx.so") return "ucx";
  return {};
}
#endif

/// The value of pml_ob1_max_rdma_per_request in effect, where the environment decides it: the
/// variable oompi set ("0"), or the user's. Open MPI's environment beats its parameter files
/// (all but an override file, which only MPI_T sees). False: ask MPI_T.
inline bool rdma_setting_from_environment(const receive_safety_state& s, int& value) {
  if (s.origin != setting_origin::oompi && s.origin != setting_origin::environment) return false;
  const char* v = std::getenv(k_rdma_env);
  if (!v || !*v) return false;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 1 << 20) return false;
  for (const auto& f : mca_param_files()) {
    const auto dot = f.rfind(".conf");
    if (dot != std::string::npos && file_sets_param(f.substr(0, dot) + "-override.conf")) return false;
  }
  value = static_cast<int>(n);
  return true;
}

/// Whether other programs can be in this job: an MPMD launch (several app contexts).
inline bool mpmd_job() {
  if (const char* n = std::getenv("OMPI_NUM_APP_CTX"); n && std::atoi(n) > 1) return true;
  int* appnum = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  return flag && appnum && *appnum > 0;
}

inline const char* origin_text(const receive_safety_state& s) {
  switch (s.origin) {
    case setting_origin::environment: return "set in the environment";
    case setting_origin::file: return "set in an MCA parameter file";
    case setting_origin::oompi: return "set by oompi before MPI_Init";
    default: return "Open MPI's default";
  }
}

/// After MPI_Init: what the MPI does with a message larger than the receive buffer.
inline bool assess_open_mpi(receive_safety_state& s, bool owns) {
  int provided = 0, rdma = -1, priority = 0;
  bool ob1 = false, ucx = false;
  if (!owns && s.origin == setting_origin::none) find_setting_origin(s);
  std::string pml;
#if defined(OOMPI_DETAIL_HAVE_DLADDR)
  pml = selected_pml_from_module();
#endif
  if (pml == "ucx") {
    ucx = true;
  } else if (pml == "ob1" && rdma_setting_from_environment(s, rdma)) {
    ob1 = true;
  } else {
    // MPI_T_init_thread with the level MPI runs at: Open MPI 4.1 sets the process's thread level
    // to the one MPI_T asks for (MPI_THREAD_SINGLE here turned a MULTIPLE process into SINGLE:
    // MPI_Query_thread said so and threads deadlocked).
    int level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&level);
    if (MPI_T_init_thread(level, &provided) == MPI_SUCCESS) {
      ob1 = read_int_cvar(k_rdma_param, rdma);
      ucx = read_int_cvar("pml_ucx_priority", priority);
      MPI_T_finalize();
    }
  }
  const std::string guard =
      ": blocking receives are checked with a matched probe first (nonblocking and persistent "
      "receives are not protected)";
  if (ucx && !ob1) {
    s.reason = "Open MPI with pml ucx, which stops at the receive buffer's end";
    return true;
  }
  if (!ob1) {
    s.reason = "Open MPI with a PML oompi cannot identify through MPI_T (not ob1 or ucx)" + guard;
    return false;
  }
  std::string what = "Open MPI pml ob1 with " + std::string(k_rdma_param) + "=" +
                     std::to_string(rdma) + " (" + origin_text(s) +
                     (s.origin == setting_origin::file ? ": " + s.file : std::string()) + ")";
  if (rdma != 0) {
    s.reason = what + ", which writes a larger message past the receive buffer's end" + guard;
    if (!owns) s.reason += "; MPI was initialised before oompi (e.g. by mpi4py) without the setting";
    return false;
  }
  if (s.origin == setting_origin::oompi || s.origin == setting_origin::none) {
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
      s.reason = what + ", but this process was spawned by one that did not pass the setting "
                        "on, and the sender's setting decides" + guard;
      return false;
    }
    if (mpmd_job()) {
      s.reason = what + ", but this is an MPMD job whose other programs may lack the setting, "
                        "and the sender's setting decides" + guard;
      return false;
    }
  }
  s.reason = what + ": messages above the eager limit are copied through the receive's "
                    "datatype, which stops at the buffer's end (MPI_ERR_TRUNCATE)";
  return true;
}
#endif

/// After MPI_Init (or adopting MPI): decides the receive guard. OOMPI_RECV_GUARD=0/1 in the
/// environment forces it off/on.
inline void assess_receive_safety(bool owns) {
  auto& s = receive_safety();
  std::lock_guard<std::mutex> hold(s.lock);
  bool safe = g_mpi_bounds_writes.load();
#if defined(OPEN_MPI)
  safe = assess_open_mpi(s, owns);
#else
  (void)owns;
  if (!safe) s.reason = "an MPI oompi does not know to stop at the receive buffer's end: "
                        "blocking receives are checked with a matched probe first";
#endif
  g_mpi_bounds_writes.store(safe);
#if OOMPI_RECV_GUARD
  const char* forced = std::getenv("OOMPI_RECV_GUARD");
  if (forced && (std::strcmp(forced, "0") == 0 || std::strcmp(forced, "1") == 0)) {
    s.user_forced = true;
    g_recv_guard_off.store(forced[0] == '0');
    s.forced_note = std::string("; the receive guard is turned ") +
                    (forced[0] == '0' ? "off" : "on") + " by OOMPI_RECV_GUARD=" + forced;
    return;
  }
  g_recv_guard_off.store(safe);
#endif
}

/// A job joined by connect/accept: its processes may send without the setting. Turns the
/// guard back on unless the user decided it.
inline void note_foreign_peers(const char* how) {
  auto& s = receive_safety();
  std::lock_guard<std::mutex> hold(s.lock);
  if (!g_mpi_bounds_writes.load()) return;
#if defined(OPEN_MPI)
  g_mpi_bounds_writes.store(false);
  s.reason = std::string("connected to another job (") + how +
             "), whose processes may send without " + k_rdma_param +
             "=0: blocking receives are checked with a matched probe first";
#if OOMPI_RECV_GUARD
  if (!s.user_forced) g_recv_guard_off.store(false);
#endif
#else
  (void)how;
#endif
}

/// "mpi" (the MPI stops at the buffer's end), "guard" (oompi's probe guard on blocking
/// receives) or "none" (guard turned off on an MPI not known to be safe).
inline const char* receive_protection() noexcept {
  if (recv_guard_on()) return "guard";
  return g_mpi_bounds_writes.load() ? "mpi" : "none";
}

inline std::string receive_protection_reason() {
  auto& s = receive_safety();
  std::lock_guard<std::mutex> hold(s.lock);
  return s.reason + s.forced_note;
}

/// set_receive_guard: the user decides from now on.
inline void force_receive_guard(bool on) {
#if OOMPI_RECV_GUARD
  auto& s = receive_safety();
  std::lock_guard<std::mutex> hold(s.lock);
  s.user_forced = true;
  s.forced_note = std::string("; the receive guard is turned ") + (on ? "on" : "off") +
                  " by set_receive_guard";
  g_recv_guard_off.store(!on, std::memory_order_relaxed);
#else
  (void)on;
#endif
}

}  // namespace detail
}  // namespace oompi

#endif  // OOMPI_DETAIL_RECEIVE_SAFETY_HPP
