package mpi;

/**
 * What every communicator of this package holds: the org.oompi.Comm, its error handler, and
 * the small facts the buffer rules need (this process's rank, the root rules of collectives).
 */
abstract class CommBase {
  /** null before MPI.Init (COMM_WORLD, COMM_SELF) and after free(). */
  org.oompi.Comm c;
  /**
   * getErrhandler reports ERRORS_ARE_FATAL until one is set (MPI's default for communicators,
   * and what Open MPI's bindings reported), but an error with none set throws MPIException;
   * only ERRORS_ARE_FATAL set explicitly (or restored from getErrhandler) aborts.
   */
  final ErrhandlerSlot handler = new ErrhandlerSlot(Errhandler.FATAL, null, "Comm");
  private org.oompi.CommFuture pending;  // iDup: the communicator once the request completes
  private int rank = -1;
  private int inter = -1;

  CommBase(org.oompi.Comm c) { this.c = c; }

  final void attach(org.oompi.Comm c) {
    this.c = c;
    rank = -1;
    inter = -1;
  }

  final void pending(org.oompi.CommFuture f) { pending = f; }

  final org.oompi.CommFuture pendingFuture() { return pending; }

  /** The communicator, or MPIException(ERR_COMM) if there is none. */
  final org.oompi.Comm c() throws MPIException {
    org.oompi.Comm x = c;
    if (x != null) return x;
    if (pending != null) {
      try {
        attach(typed(pending.get()));
      } catch (RuntimeException e) {
        throw Errors.of(e);
      }
      pending = null;
      return c;
    }
    throw new MPIException(MPI.ERR_COMM, Environment.isUp()
        ? "the communicator was freed (or is MPI.COMM_NULL)" : "MPI is not initialized");
  }

  final MPIException err(RuntimeException e) { return Errors.of(this, e); }

  /**
   * A communicator org.oompi returned as a plain Comm (dup, idup) as the class of the topology
   * it carries, so that CartComm and GraphComm reach their queries on it.
   */
  static org.oompi.Comm typed(org.oompi.Comm x) {
    if (x == null || x.getClass() != org.oompi.Comm.class || x.isNull() || x.isInter()) return x;
    switch (x.topology()) {
      case CARTESIAN: return x.asCart();
      case GRAPH: return x.asGraph();
      case DIST_GRAPH: return x.asDistGraph();
      default: return x;
    }
  }

  final int myRank() throws MPIException {
    int r = rank;
    if (r < 0) {
      try { rank = r = c().getRank(); } catch (RuntimeException e) { throw err(e); }
    }
    return r;
  }

  final boolean inter() throws MPIException {
    int i = inter;
    if (i < 0) {
      try { inter = i = c().isInter() ? 1 : 0; } catch (RuntimeException e) { throw err(e); }
    }
    return i == 1;
  }

  /** Whether this process is the root that receives (gather, reduce) or sends (scatter). */
  final boolean isRoot(int root) throws MPIException {
    return inter() ? root == MPI.ROOT : root == myRank();
  }

  /** The size of the group on the other side of a rooted collective's data. */
  final int peers() throws MPIException {
    try {
      org.oompi.Comm x = c();
      return inter() ? ((org.oompi.Intercomm) x).getRemoteSize() : x.getSize();
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** The size of this process's own group (reduceScatter's counts on an intercommunicator). */
  final int localSize() throws MPIException {
    try { return c().getSize(); } catch (RuntimeException e) { throw err(e); }
  }

  /** An intercommunicator's root group, other than the root itself, takes no part in the data. */
  final boolean idle(int root) throws MPIException {
    return inter() && root == MPI.PROC_NULL;
  }

  /** Helper for oompi's liveness question. */
  static final class Environment {
    static boolean isUp() {
      return org.oompi.Environment.initialized() && !org.oompi.Environment.finalized();
    }
  }
}
