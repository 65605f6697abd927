package mpi;

/** An MPI group (org.oompi.Group). */
public final class Group implements Freeable, Cloneable {
  org.oompi.Group g;
  private boolean freed;

  Group(org.oompi.Group g) { this.g = g; }

  // Package-private: every method that takes a Group checks it here (MPI_ERR_GROUP when freed).
  org.oompi.Group live() throws MPIException {
    if (g == null || freed) throw new MPIException(MPI.ERR_GROUP, "the group is null or freed");
    return g;
  }

  public int getSize() throws MPIException {
    try { return live().getSize(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** This process's rank in the group, MPI.UNDEFINED if not a member. */
  public int getRank() throws MPIException {
    try { return live().getRank(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  @Override public void free() throws MPIException {
    if (g == null || this == MPI.GROUP_EMPTY) return;
    if (freed) return;
    try { g.close(); } catch (RuntimeException e) { throw Errors.of(e); }
    freed = true;
  }

  public boolean isNull() { return g == null || freed; }

  @Override public Group clone() { return new Group(g); }

  public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
    try { return group1.live().translateRanks(ranks1, group2.live()); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI.IDENT, MPI.SIMILAR or MPI.UNEQUAL. */
  public static int compare(Group group1, Group group2) throws MPIException {
    try { return group1.live().compare(group2.live()).swigValue(); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Group union(Group group1, Group group2) throws MPIException {
    try { return new Group(group1.live().setUnion(group2.live())); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Group intersection(Group group1, Group group2) throws MPIException {
    try { return new Group(group1.live().setIntersection(group2.live())); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Group difference(Group group1, Group group2) throws MPIException {
    try { return new Group(group1.live().setDifference(group2.live())); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Group incl(int[] ranks) throws MPIException {
    try { return new Group(live().incl(ranks)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Group excl(int[] ranks) throws MPIException {
    try { return new Group(live().excl(ranks)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** ranges[i] = {first, last, stride}. */
  public Group rangeIncl(int[][] ranges) throws MPIException {
    try { return new Group(live().rangeIncl(flat(ranges))); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Group rangeExcl(int[][] ranges) throws MPIException {
    try { return new Group(live().rangeExcl(flat(ranges))); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private static int[] flat(int[][] ranges) throws MPIException {
    if (ranges == null) throw new MPIException(MPI.ERR_ARG, "null ranges");
    int[] t = new int[3 * ranges.length];
    for (int i = 0; i < ranges.length; i++) {
      if (ranges[i] == null || ranges[i].length != 3)
        throw new MPIException(MPI.ERR_ARG, "range " + i + " is not {first, last, stride}");
      System.arraycopy(ranges[i], 0, t, 3 * i, 3);
    }
    return t;
  }
}
