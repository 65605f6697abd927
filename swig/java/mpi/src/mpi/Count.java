package mpi;

/** An MPI_Count (a long): what Status.getElementsX answers and setElementsX takes. */
public final class Count implements Comparable<Count> {
  private long count;

  public Count(long count) { this.count = count; }

  public long getCount() { return count; }

  public void setCount(long count) { this.count = count; }

  @Override public boolean equals(Object o) { return o instanceof Count && ((Count) o).count == count; }

  @Override public int hashCode() { return Long.hashCode(count); }

  @Override public int compareTo(Count o) { return Long.compare(count, o.count); }

  @Override public String toString() { return Long.toString(count); }
}
