package mpi;

/**
 * The status of a completed receive, probe or request: source, tag, error, size. A plain value
 * over org.oompi.Status (no native memory).
 */
public final class Status {
  private final org.oompi.Status s;  // null: the empty status (a null request's)
  private int index = MPI.UNDEFINED;
  private boolean procNull;  // a receive or probe from MPI.PROC_NULL

  /** The status of a probe or receive from MPI.PROC_NULL: source PROC_NULL, tag ANY_TAG, empty. */
  static Status procNull() {
    Status st = new Status(null);
    st.procNull = true;
    return st;
  }

  Status(org.oompi.Status s) { this.s = s; }

  Status(org.oompi.Status s, int index) {
    this.s = s;
    this.index = index;
  }

  /** Elements of type received (MPI_Get_count); MPI.UNDEFINED if not a whole number. */
  public int getCount(Datatype type) throws MPIException {
    long bytes = type.bytes();
    long got = getBytes();
    if (bytes == 0) return got == 0 ? 0 : MPI.UNDEFINED;
    return got % bytes == 0 ? (int) (got / bytes) : MPI.UNDEFINED;
  }

  /**
   * Basic elements of type's type map received (MPI_Get_elements): MPI.UNDEFINED when the data
   * ends inside one (a derived type counts the elements it is made of, not its base type's).
   */
  public int getElements(Datatype type) throws MPIException {
    try {
      long n = Bufs.type(type).elementsIn(getBytes());
      return n == MPI.UNDEFINED ? MPI.UNDEFINED : (int) n;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public long getCountLong(Datatype type) throws MPIException { return getCount(type); }

  public long getElementsLong(Datatype type) throws MPIException { return getElements(type); }

  public boolean isCancelled() throws MPIException { return s != null && s.isCancelled(); }

  public int getSource() { return s == null ? (procNull ? MPI.PROC_NULL : MPI.ANY_SOURCE) : s.getSource(); }

  public int getTag() { return s == null ? MPI.ANY_TAG : s.getTag(); }

  public int getError() { return s == null ? MPI.SUCCESS : s.getError(); }

  /** The index of the request in the array given to waitAny/testAny/waitSome...; else UNDEFINED. */
  public int getIndex() { return index; }

  org.oompi.Status raw() { return s; }

  private long getBytes() { return s == null ? 0 : s.getCountBytes(); }

  @Override public String toString() {
    return "Status(source=" + getSource() + ", tag=" + getTag() + ", bytes=" + getBytes() + ")";
  }
}
