package mpi;

/** The answer of GraphComm.getDistGraphNeighbors() (oompi's graphs carry no weights). */
public final class DistGraphNeighbors {
  private final int[] sources, destinations;

  DistGraphNeighbors(int[] sources, int[] destinations) {
    this.sources = sources;
    this.destinations = destinations;
  }

  public int getInDegree() { return sources.length; }

  public int getOutDegree() { return destinations.length; }

  public boolean isWeighted() { return false; }

  public int getSource(int i) { return sources[i]; }

  public int getDestination(int i) { return destinations[i]; }

  public int getSourceWeight(int i) { return 1; }

  public int getDestinationWeight(int i) { return 1; }
}
