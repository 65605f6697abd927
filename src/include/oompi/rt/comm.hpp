#ifndef OOMPI_RT_COMM_HPP
#define OOMPI_RT_COMM_HPP

// Communicators for the bindings: point-to-point on run-time buffers (through the core), a
// first set of collectives, dup and close.
//
// Copies share one communicator. close() frees a communicator made by dup() (collectively:
// every rank closes it) and marks all copies closed; world() and self() are never freed, closing
// them only closes that handle. A dup'ed communicator that is never closed is not freed by the
// garbage collector (MPI_Comm_free is collective; finalizer threads must not call it): it lives
// until MPI_Finalize. Close communicators you create.
//
// The *_part functions take [offset, offset + count) of the buffer (bounds checked here, for
// every language); the bindings that want offset/count overloads (Java) rename them to the
// plain name, the others hide them.

#include "buffer.hpp"
#include "datatype.hpp"
#include "group.hpp"
#include "message.hpp"
#include "op.hpp"
#include "request.hpp"
#include "status.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace oompi::rt {

class cart_comm;
class comm_future;
class dist_graph_comm;
class graph_comm;
class info;
class intercomm;

class comm {
public:
  /// A null communicator.
  comm() = default;
#ifndef SWIG
  comm(const comm&) = default;
  comm(comm&&) noexcept = default;
  comm& operator=(const comm&) = default;
  comm& operator=(comm&&) noexcept = default;
#endif
  /// Virtual: a binding may free a cart_comm, dist_graph_comm or intercomm through a comm*.
  virtual ~comm() = default;

  /// MPI_COMM_WORLD.
  static comm world();
  /// MPI_COMM_SELF.
  static comm self();

  /// This process's rank.
  int rank() const;
  /// Number of processes.
  int size() const;
  /// A new communicator with the same group (MPI_Comm_dup; collective). Close it when done.
  comm dup() const;
  /// Frees the communicator if this library made it (collective), closes every copy.
  void close();
  /// True when this handle is null or closed.
  bool is_null() const noexcept;

  // --- communicators (src/comm_create.cpp); every new one is collective: close it ----------
  /// Partitions the processes by `color` (MPI_Comm_split), ordered by `key`, then by rank here.
  /// A process with color `undefined` gets a null communicator (is_null() true).
  comm split(int color, int key = 0) const;
  /// One communicator per shared-memory node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED).
  comm split_shared(int key = 0) const;
  /// The communicator of the members of `g`, a subgroup of this one (MPI_Comm_create,
  /// collective over this communicator); processes outside `g` get a null communicator.
  comm create(const group& g) const;
  /// As create(), but collective over the members of `g` only (MPI_Comm_create_group).
  comm create_group(const group& g, int tag = 0) const;
  /// The group of this communicator (the local group of an intercommunicator).
  group get_group() const;
  /// ident (the same communicator), congruent, similar or unequal (MPI_Comm_compare).
  comparison compare(const comm& other) const;
  /// The communicator's name (MPI_Comm_get_name / MPI_Comm_set_name).
  std::string name() const;
  void set_name(const std::string& name) const;
  /// True for an intercommunicator.
  bool is_inter() const;
  /// The private duplicate that object collectives run on (made collectively on first use,
  /// cached on this communicator, freed with it or at MPI_Finalize): the very one C++'s
  /// obcast/oscatter/ogather use, so that object collectives of any language never match user
  /// messages and pair across languages. Not owned: close() on it does nothing to MPI.
  comm object_comm() const;
  /// The topology this communicator carries (none, cartesian, graph, dist_graph).
  topology_kind topology() const;
  /// A Cartesian grid over these processes (MPI_Cart_create; collective): dims[i] processes
  /// along dimension i, periods[i] nonzero when it wraps around; `reorder` lets MPI renumber.
  /// Processes beyond the grid's size get a null communicator.
  cart_comm create_cart(const std::vector<int>& dims, const std::vector<int>& periods,
                        bool reorder = false) const;
  /// A distributed graph where each process names its own in-neighbours (`sources`) and
  /// out-neighbours (`destinations`) (MPI_Dist_graph_create_adjacent; collective).
  dist_graph_comm create_dist_graph(const std::vector<int>& sources,
                                    const std::vector<int>& destinations,
                                    bool reorder = false) const;
  /// A graph over these processes where every process passes the whole graph
  /// (MPI_Graph_create; collective): node i's neighbours are edges[index[i-1] .. index[i])
  /// (index[-1] = 0). Processes beyond the graph's nodes get a null communicator.
  graph_comm create_graph(const std::vector<int>& index, const std::vector<int>& edges,
                          bool reorder = false) const;
  /// This communicator (shared, not a copy) as the topology class it carries, for a binding
  /// that holds it as a plain comm (what dup() returns); std::logic_error when it carries
  /// another topology or none.
  cart_comm as_cart() const;
  graph_comm as_graph() const;
  dist_graph_comm as_dist_graph() const;
  /// MPI_Dist_graph_create (collective): any process gives any edges, from sources[i] to the
  /// next degrees[i] entries of `destinations`; `weighted`: with `weights`, one per entry of
  /// `destinations` (a process giving no edges of a weighted graph passes none), else
  /// `weights` must be empty. Inconsistent lengths: std::invalid_argument.
  dist_graph_comm create_dist_graph_general(const std::vector<int>& sources,
                                            const std::vector<int>& degrees,
                                            const std::vector<int>& destinations,
                                            const std::vector<int>& weights, bool weighted,
                                            bool reorder = false) const;
  /// create_dist_graph with a weight per edge (MPI_Dist_graph_create_adjacent; collective).
  dist_graph_comm create_dist_graph_weighted(const std::vector<int>& sources,
                                             const std::vector<int>& source_weights,
                                             const std::vector<int>& destinations,
                                             const std::vector<int>& destination_weights,
                                             bool reorder = false) const;
  /// The rank MPI would give this process in a Cartesian grid of `dims` over these processes
  /// (MPI_Cart_map; local): `undefined` (MPI_UNDEFINED) beyond the grid's size. The arguments
  /// are checked as create_cart checks them (std::invalid_argument).
  int cart_map(const std::vector<int>& dims, const std::vector<int>& periods) const;
  /// The rank MPI would give this process in a graph of create_graph's form (MPI_Graph_map;
  /// local): `undefined` beyond the graph's nodes. Checked as create_graph checks it.
  int graph_map(const std::vector<int>& index, const std::vector<int>& edges) const;

  // --- packing (src/pack.cpp): MPI_Pack / MPI_Unpack into and out of byte buffers ----------
  /// Bytes that packing `count` elements of `type` may take (MPI_Pack_size).
  std::int64_t pack_size(std::int64_t count, const datatype& type) const;
  /// Packs `in` into the bytes of `out` from byte `position` (MPI_Pack); returns the position
  /// after it. std::out_of_range when `position` is outside `out` or the data would not fit.
  std::int64_t pack(const buffer& in, buffer& out, std::int64_t position) const;
  /// Unpacks `out`'s elements from the bytes of `in` at byte `position` (MPI_Unpack); returns
  /// the position after them. std::out_of_range when `in` holds too few bytes there.
  std::int64_t unpack(const buffer& in, std::int64_t position, buffer& out) const;
  /// An intercommunicator between this group and a disjoint one (MPI_Intercomm_create;
  /// collective over both): `local_leader` is a rank here; the leaders reach each other in
  /// `peer` (remote_leader is that rank in `peer`, significant at the local leader only).
  intercomm create_intercomm(int local_leader, const comm& peer, int remote_leader,
                             int tag = 0) const;

  // --- hints, nonblocking dup, predefined attributes (src/info.cpp) -----------------------
  /// dup() with hints (MPI_Comm_dup_with_info; collective); a null info means none.
  comm dup_with_info(const info& hints) const;
  /// Sets hints (MPI_Comm_set_info; collective). A null info is refused.
  void set_info(const info& hints) const;
  /// The hints in use (MPI_Comm_get_info): a new info object (close it).
  info get_info() const;
  /// Nonblocking dup (MPI_Comm_idup; collective): its request, and the new communicator once
  /// that completes (comm_future.get()).
  comm_future idup() const;
  /// The largest tag (MPI_TAG_UB, at least 32767).
  static int tag_ub();
  /// Whether wtime() is synchronised across processes (MPI_WTIME_IS_GLOBAL).
  static bool wtime_is_global();
  /// How many processes the job may have in all (MPI_UNIVERSE_SIZE); -1 when not known.
  static int universe_size();
  /// This program's number in an MPMD launch (MPI_APPNUM); -1 when there is none.
  static int appnum();

  // --- dynamic processes (src/dynamic.cpp; the core's dynamic.hpp) ---------------------
  // Collective; program, args, maxprocs and port are read at `root` only, which checks them
  // and shares its verdict, so bad input throws on every process.
  /// Starts `maxprocs` copies of `program` with `args` (MPI_Comm_spawn); the intercommunicator
  /// to them. A program the root cannot find or execute is refused (std::invalid_argument).
  intercomm spawn(const std::string& program, const std::vector<std::string>& args,
                  int maxprocs, int root = 0) const;
  /// spawn() with hints (MPI_Info keys such as "wdir", "host", "env"; read at the root only, as
  /// MPI says). Hints closed at the root: closed_error on every process.
  intercomm spawn(const std::string& program, const std::vector<std::string>& args,
                  int maxprocs, const info& hints, int root = 0) const;
  /// Starts several programs in one new world (MPI_Comm_spawn_multiple): command i is
  /// programs[i] with args[i], maxprocs[i] copies, and hints[i] (an info; a null info means
  /// none). `args` and `hints` may be empty (none for every command) or hold one entry per
  /// program. Mismatched lengths, maxprocs < 1, a closed info or a program the root cannot
  /// find: std::invalid_argument everywhere.
  intercomm spawn_multiple(const std::vector<std::string>& programs,
                           const std::vector<std::vector<std::string>>& args,
                           const std::vector<int>& maxprocs, const std::vector<info>& hints,
                           int root = 0) const;
  /// Waits for a job to connect to `port` (MPI_Comm_accept).
  intercomm accept(const std::string& port, int root = 0) const;
  /// Connects to a job accepting on `port` (MPI_Comm_connect).
  intercomm connect(const std::string& port, int root = 0) const;
  /// Waits for pending communication, then frees the communicator (MPI_Comm_disconnect;
  /// collective) and closes every copy. World and self cannot be disconnected.
  void disconnect();

  // --- point-to-point ------------------------------------------------------------------
  void send(const buffer& buf, int dest, int tag = 0) const;
  void ssend(const buffer& buf, int dest, int tag = 0) const;
  /// Receives into buf; a larger message fails with MPI_ERR_TRUNCATE.
  status recv(buffer& buf, int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  /// recv without asking MPI for a status (MPI_STATUS_IGNORE): the ports' receive, cheapest
  /// when source, tag and size are known.
  void recv_ignore_status(buffer& buf, int source, int tag) const;
  status sendrecv(const buffer& sendbuf, int dest, int sendtag, buffer& recvbuf, int source,
                  int recvtag) const;
  request isend(const async_buffer& buf, int dest, int tag = 0) const;
  request irecv(async_buffer& buf, int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
#ifndef SWIG
  /// isend/irecv for a binding that keeps the memory valid itself until the operation
  /// completes (C#'s pooled pins): the bare MPI_Request, which the caller completes with
  /// request::wait_native/test_native or hands to request::adopt. No allocation.
  MPI_Request isend_native(const buffer& buf, int dest, int tag) const;
  MPI_Request irecv_native(buffer& buf, int source, int tag) const;
#endif
  status probe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  /// The status of a matching message if one is there; nullptr otherwise.
  status* iprobe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;

  // Send modes. bsend/ibsend/bsend_init need an attached buffer (buffer_attachment): without
  // one, or when it is too small, oompi::error with MPI's class (MPI_ERR_BUFFER).
  void bsend(const buffer& buf, int dest, int tag = 0) const;
  /// Ready send: the matching receive must already be posted (else MPI's behaviour is
  /// undefined).
  void rsend(const buffer& buf, int dest, int tag = 0) const;
  /// Sends buf to dest, then receives into the same buffer from source.
  status sendrecv_replace(buffer& buf, int dest, int sendtag, int source, int recvtag) const;
  request issend(const async_buffer& buf, int dest, int tag = 0) const;
  request ibsend(const async_buffer& buf, int dest, int tag = 0) const;
  request irsend(const async_buffer& buf, int dest, int tag = 0) const;

  // Persistent requests: the request keeps buf alive until it is closed; start() it.
  request send_init(const async_buffer& buf, int dest, int tag = 0) const;
  request ssend_init(const async_buffer& buf, int dest, int tag = 0) const;
  request bsend_init(const async_buffer& buf, int dest, int tag = 0) const;
  request rsend_init(const async_buffer& buf, int dest, int tag = 0) const;
  request recv_init(async_buffer& buf, int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;

  /// Matched probe: blocks until a message matches; only the returned message receives it.
  message mprobe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  /// The matched message if one is there; nullptr otherwise.
  message* improbe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;

  // Object receives in posting order (issue 25; oompi/detail/object_match.hpp): the bindings'
  // iorecv posts one (a ticket), then takes the message assigned to it; each message goes to the
  // oldest posted receive it matches, as MPI's posted receives do. While any is posted, mprobe
  // waits its turn behind them too.
  /// The first message of a blocking object receive: mprobe, after the posted object receives.
  message object_mprobe(int source = MPI_ANY_SOURCE, int tag = MPI_ANY_TAG) const;
  /// Posts an object receive; returns its ticket (> 0).
  std::int64_t post_object_recv(int source, int tag) const;
  /// The message assigned to the receive, if any yet (nullptr: still waiting); the ticket is
  /// used up once a message is returned.
  message* test_object_recv(std::int64_t ticket) const;
  /// Blocks until a message is assigned to the receive; the ticket is used up.
  message wait_object_recv(std::int64_t ticket) const;
  /// Withdraws a receive not taken yet (later ones take its place); a message already assigned
  /// to it is received and dropped (a matched receive cannot be cancelled). Unknown or used
  /// tickets are ignored.
  void cancel_object_recv(std::int64_t ticket) const;

  // No default arguments here: Java's recv(buf, offset, count) would clash with
  // recv(buf, source, tag).
  void send_part(const buffer& buf, std::int64_t offset, std::int64_t count, int dest,
                 int tag) const;
  status recv_part(buffer& buf, std::int64_t offset, std::int64_t count, int source,
                   int tag) const;

  // --- collectives (src/collectives.cpp, on the core's) ---------------------------------
  // Counts come from the buffers: a receive buffer must hold exactly what the collective
  // delivers (std::invalid_argument otherwise). Root-only buffers (the receive buffer of
  // gather/reduce, the send buffer of scatter) may be empty on the other ranks. Counts and
  // displacements of the v forms are in elements. *_in_place: `buf` plays the role MPI gives
  // it on this rank (rooted ones: the whole buffer at the root, this rank's part elsewhere).
  // Nonblocking forms take async buffers, which the request keeps alive, with the count and
  // displacement vectors, until it completes.
  void barrier() const;
  void bcast(buffer& buf, int root) const;
  void reduce(const buffer& sendbuf, buffer& recvbuf, const op& operation, int root) const;
  void reduce_in_place(buffer& buf, const op& operation, int root) const;
  void allreduce(const buffer& sendbuf, buffer& recvbuf, const op& operation) const;
  void allreduce_in_place(buffer& buf, const op& operation) const;
  void gather(const buffer& sendbuf, buffer& recvbuf, int root) const;
  void gather_in_place(buffer& buf, int root) const;
  void gatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
               const std::vector<int>& displs, int root) const;
  void scatter(const buffer& sendbuf, buffer& recvbuf, int root) const;
  void scatter_in_place(buffer& buf, int root) const;
  void scatterv(const buffer& sendbuf, const std::vector<int>& counts,
                const std::vector<int>& displs, buffer& recvbuf, int root) const;
  void allgather(const buffer& sendbuf, buffer& recvbuf) const;
  void allgather_in_place(buffer& buf) const;
  void allgatherv(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                  const std::vector<int>& displs) const;
  void alltoall(const buffer& sendbuf, buffer& recvbuf) const;
  void alltoall_in_place(buffer& buf) const;
  void alltoallv(const buffer& sendbuf, const std::vector<int>& sendcounts,
                 const std::vector<int>& senddispls, buffer& recvbuf,
                 const std::vector<int>& recvcounts, const std::vector<int>& recvdispls) const;
  /// Block i of sendbuf is sendcounts[i] elements of sendtypes[i] at byte senddispls[i] (the
  /// same for the receive side): per-peer datatypes (MPI_Alltoallw). Blocks reaching outside
  /// a buffer: std::invalid_argument before MPI sees them.
  void alltoallw(const buffer& sendbuf, const std::vector<int>& sendcounts,
                 const std::vector<int>& senddispls, const std::vector<datatype>& sendtypes,
                 buffer& recvbuf, const std::vector<int>& recvcounts,
                 const std::vector<int>& recvdispls, const std::vector<datatype>& recvtypes) const;
  void reduce_scatter_block(const buffer& sendbuf, buffer& recvbuf, const op& operation) const;
  void reduce_scatter(const buffer& sendbuf, buffer& recvbuf, const std::vector<int>& counts,
                      const op& operation) const;
  void scan(const buffer& sendbuf, buffer& recvbuf, const op& operation) const;
  void scan_in_place(buffer& buf, const op& operation) const;
  void exscan(const buffer& sendbuf, buffer& recvbuf, const op& operation) const;
  void exscan_in_place(buffer& buf, const op& operation) const;
  // In-place v-forms: `buf` is the whole receive buffer, this rank's block already in place.
  void gatherv_in_place(buffer& buf, const std::vector<int>& counts,
                        const std::vector<int>& displs, int root) const;
  void allgatherv_in_place(buffer& buf, const std::vector<int>& counts,
                           const std::vector<int>& displs) const;
  void alltoallv_in_place(buffer& buf, const std::vector<int>& counts,
                          const std::vector<int>& displs) const;

  request ibarrier() const;
  request ibcast(async_buffer& buf, int root) const;
  request ireduce(const async_buffer& sendbuf, async_buffer& recvbuf, const op& operation,
                  int root) const;
  request iallreduce(const async_buffer& sendbuf, async_buffer& recvbuf,
                     const op& operation) const;
  request iallreduce_in_place(async_buffer& buf, const op& operation) const;
  request igather(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const;
  request igatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                   const std::vector<int>& counts, const std::vector<int>& displs,
                   int root) const;
  request iscatter(const async_buffer& sendbuf, async_buffer& recvbuf, int root) const;
  request iscatterv(const async_buffer& sendbuf, const std::vector<int>& counts,
                    const std::vector<int>& displs, async_buffer& recvbuf, int root) const;
  request iallgather(const async_buffer& sendbuf, async_buffer& recvbuf) const;
  request iallgatherv(const async_buffer& sendbuf, async_buffer& recvbuf,
                      const std::vector<int>& counts, const std::vector<int>& displs) const;
  request ialltoall(const async_buffer& sendbuf, async_buffer& recvbuf) const;
  request ialltoallv(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                     const std::vector<int>& senddispls, async_buffer& recvbuf,
                     const std::vector<int>& recvcounts,
                     const std::vector<int>& recvdispls) const;
  /// alltoallw, nonblocking: the request keeps the counts, displacements and types.
  request ialltoallw(const async_buffer& sendbuf, const std::vector<int>& sendcounts,
                     const std::vector<int>& senddispls, const std::vector<datatype>& sendtypes,
                     async_buffer& recvbuf, const std::vector<int>& recvcounts,
                     const std::vector<int>& recvdispls,
                     const std::vector<datatype>& recvtypes) const;
  request ireduce_scatter_block(const async_buffer& sendbuf, async_buffer& recvbuf,
                                const op& operation) const;
  request iscan(const async_buffer& sendbuf, async_buffer& recvbuf, const op& operation) const;
  request ireduce_scatter(const async_buffer& sendbuf, async_buffer& recvbuf,
                          const std::vector<int>& counts, const op& operation) const;
  request iexscan(const async_buffer& sendbuf, async_buffer& recvbuf,
                  const op& operation) const;

#ifndef SWIG
  struct state;
  MPI_Comm native(const char* what) const;
#endif
#ifndef SWIG
  friend class interop;  // wraps communicators of other libraries (interop.hpp)
  friend class intercomm;  // make plain communicators (merge)
  friend class topo_comm;
  friend class window;  // windows over the communicator (window.hpp)
  friend class keyval;  // attributes (attribute.hpp)
  friend class comm_future;
#endif

protected:
  explicit comm(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
  const state& live(const char* what) const;
  const state& live_intra(const char* what) const;  // refuses intercommunicators
  std::shared_ptr<state> st_;
};

/// The pending result of comm.idup(): wait for (or test) its request, alone or in a request set,
/// then get() the communicator. Unretrieved, the new communicator is never freed (like one never
/// closed): get() it and close it.
class comm_future {
public:
  comm_future() = default;
  /// The duplication's request.
  request get_request() const;
  /// Waits for the duplication if it is still pending, then returns the new communicator (the
  /// same one on every call; close it when done).
  comm get();
  bool is_null() const noexcept { return !st_; }

#ifndef SWIG
  struct state;
  explicit comm_future(std::shared_ptr<state> s) noexcept : st_(std::move(s)) {}
#endif

private:
  std::shared_ptr<state> st_;
};

}  // namespace oompi::rt

#endif  // OOMPI_RT_COMM_HPP
