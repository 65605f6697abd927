package mpi;

/** The answer of GraphComm.getDistGraphNeighbors(): neighbours, and weights when the graph has them. */
public final class DistGraphNeighbors {
  private final int[] sources, sourceWeights, destinations, destWeights;

  DistGraphNeighbors(int[] sources, int[] sourceWeights, int[] destinations, int[] destWeights) {
    this.sources = sources;
    this.sourceWeights = sourceWeights;
    this.destinations = destinations;
    this.destWeights = destWeights;
  }

  public int getInDegree() { return sources.length; }

  public int getOutDegree() { return destinations.length; }

  public boolean isWeighted() { return sourceWeights != null; }

  public int getSource(int i) { return sources[i]; }

  public int getDestination(int i) { return destinations[i]; }

  /** The weight of in-edge i (1 when the graph is unweighted). */
  public int getSourceWeight(int i) { return sourceWeights == null ? 1 : sourceWeights[i]; }

  public int getDestinationWeight(int i) { return destWeights == null ? 1 : destWeights[i]; }
}
