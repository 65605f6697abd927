package mpi;

/** The answer of GraphComm.getDims(). */
public final class GraphParms {
  private final int[] index, edges;

  GraphParms(int[] index, int[] edges) {
    this.index = index;
    this.edges = edges;
  }

  public int getIndexCount() { return index.length; }

  public int getIndex(int i) { return index[i]; }

  public int getEdgeCount() { return edges.length; }

  public int getEdge(int i) { return edges[i]; }
}
