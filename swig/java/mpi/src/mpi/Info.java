package mpi;

/** MPI_Info hints (org.oompi.Info): string keys and values. */
public final class Info implements Freeable, Cloneable {
  org.oompi.Info i;  // null: MPI.INFO_NULL
  private boolean freed;

  Info(org.oompi.Info i) { this.i = i; }

  /** MPI_Info_create. */
  public Info() throws MPIException {
    try { i = org.oompi.Info.create(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private org.oompi.Info live() throws MPIException {
    if (i == null || freed) throw new MPIException(MPI.ERR_ARG, "the info object is null or freed");
    return i;
  }

  /** For oompi calls: INFO_NULL is oompi's null info. */
  org.oompi.Info handle() { return i == null ? new org.oompi.Info() : i; }

  public void set(String key, String value) throws MPIException {
    try { live().set(key, value); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The value of key, or null if it is not set. */
  public String get(String key) throws MPIException {
    try {
      org.oompi.Info in = live();
      return in.contains(key) ? in.get(key) : null;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public void delete(String key) throws MPIException {
    try {
      if (!live().remove(key)) throw new MPIException(MPI.ERR_ARG, "no key " + key);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public int size() throws MPIException {
    try { return live().getSize(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public String getKey(int n) throws MPIException {
    try {
      org.oompi.StringVector k = live().keys();
      if (n < 0 || n >= k.size()) throw new MPIException(MPI.ERR_ARG, "no key number " + n);
      return k.get(n);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  @Override public Info clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  public Info dup() throws MPIException {
    try { return new Info(live().dup()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  @Override public void free() throws MPIException {
    if (i == null || this == MPI.INFO_NULL) return;
    if (freed) return;
    try { i.close(); } catch (RuntimeException e) { throw Errors.of(e); }
    freed = true;
  }

  public boolean isNull() { return i == null || freed; }
}
