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
    try { return new GraphComm(typed(c().dup())); } catch (RuntimeException e) { throw err(e); }
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
        if (d.isWeighted())
          return new DistGraphNeighbors(d.sources(), d.sourceWeights(), d.destinations(), d.destinationWeights());
        return new DistGraphNeighbors(d.sources(), null, d.destinations(), null);
      }
      int[] n = graph().neighbors();
      return new DistGraphNeighbors(n, null, n, null);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** MPI_Graph_map: this process's rank in such a graph, or MPI.UNDEFINED (outside it). */
  public int map(int[] index, int[] edges) throws MPIException {
    if (index == null || edges == null) throw new MPIException(MPI.ERR_ARG, "null index or edges");
    try { return c().graphMap(index, edges); } catch (RuntimeException e) { throw err(e); }
  }
}
