package mpi;

/** A graph communicator: general (org.oompi.GraphComm) or distributed (DistGraphComm). */
public final class GraphComm extends Intracomm {
  GraphComm(org.oompi.Comm c) { super(c); }

  private org.oompi.GraphComm graph() throws MPIException {
    org.oompi.Comm x = c();
    if (!(x instanceof org.oompi.GraphComm)) throw new MPIException(MPI.ERR_TOPOLOGY, "not a graph communicator");
    return (org.oompi.GraphComm) x;
  }

  @Override public GraphComm dup() throws MPIException {
    try { return new GraphComm(c().dup()); } catch (RuntimeException e) { throw err(e); }
  }

  @Override public GraphComm clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  /** MPI_Graph_get: index and edges. */
  public GraphParms getDims() throws MPIException {
    try {
      org.oompi.GraphComm g = graph();
      return new GraphParms(g.index(), g.edges());
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public int[] getNeighbors(int rank) throws MPIException {
    try { return graph().neighbors(rank); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Dist_graph_neighbors (unweighted). */
  public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
    try {
      org.oompi.Comm x = c();
      if (x instanceof org.oompi.DistGraphComm) {
        org.oompi.DistGraphComm d = (org.oompi.DistGraphComm) x;
        return new DistGraphNeighbors(d.sources(), d.destinations());
      }
      int[] n = graph().neighbors();
      return new DistGraphNeighbors(n, n);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }
}
