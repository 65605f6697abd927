package mpi;

/**
 * The status of a completed receive, probe or request: source, tag, error, size. A plain value
 * over org.oompi.Status (no native memory).
 */
public final class Status {
  private final org.oompi.Status s;  // null: the empty status (a null request's)
  private int index = MPI.UNDEFINED;
  private boolean procNull;  // a receive or probe from MPI.PROC_NULL
  // What setElements/setCancelled wrote (MPI_Status_set_elements/_set_cancelled change only
  // this copy of the status, as in C); null: what the operation reported.
  private Long bytesSet;
  private Boolean cancelledSet;

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

  public boolean isCancelled() throws MPIException {
    return cancelledSet != null ? cancelledSet : s != null && s.isCancelled();
  }

  /** MPI_Status_set_cancelled (for generalized requests and layered libraries). */
  public void setCancelled(boolean flag) throws MPIException { cancelledSet = flag; }

  /**
   * MPI_Status_set_elements: afterwards getElements(type) is count and getCount(type) the whole
   * number of type it makes. MPI.ERR_COUNT for a negative count, MPI.ERR_TYPE for a type whose
   * basic elements differ in size (no byte count would be exact).
   */
  public void setElements(Datatype type, int count) throws MPIException { setElementsX(type, new Count(count)); }

  /** MPI_Status_set_elements_x. */
  public void setElementsX(Datatype type, Count count) throws MPIException {
    if (count == null || count.getCount() < 0)
      throw new MPIException(MPI.ERR_COUNT, "setElements: count must be >= 0");
    long size = type.bytes(), unit = 0;
    try {
      long perType = size == 0 ? 0 : Bufs.type(type).elementsIn(size);
      long u = perType > 0 && size % perType == 0 ? size / perType : 0;
      // every basic element is u bytes: u bytes hold one whole element, u - 1 none (0 or UNDEFINED)
      if (u > 0 && Bufs.type(type).elementsIn(u) == 1 && Bufs.type(type).elementsIn(u - 1) <= 0) unit = u;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
    if (unit == 0)
      throw new MPIException(MPI.ERR_TYPE, "setElements: the type's elements are not all one size");
    bytesSet = count.getCount() * unit;
  }

  /** MPI_Get_elements_x. */
  public Count getElementsX(Datatype type) throws MPIException { return new Count(getElements(type)); }

  public int getSource() { return s == null ? (procNull ? MPI.PROC_NULL : MPI.ANY_SOURCE) : s.getSource(); }

  public int getTag() { return s == null ? MPI.ANY_TAG : s.getTag(); }

  public int getError() { return s == null ? MPI.SUCCESS : s.getError(); }

  /** The index of the request in the array given to waitAny/testAny/waitSome...; else UNDEFINED. */
  public int getIndex() { return index; }

  org.oompi.Status raw() { return s; }

  private long getBytes() { return bytesSet != null ? bytesSet : s == null ? 0 : s.getCountBytes(); }

  @Override public String toString() {
    return "Status(source=" + getSource() + ", tag=" + getTag() + ", bytes=" + getBytes() + ")";
  }
}
