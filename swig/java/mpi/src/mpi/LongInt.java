package mpi;

/** Records of MPI.LONG_INT (MAXLOC/MINLOC pairs in C layout): value and index. Use MPI.longInt. */
public final class LongInt extends Struct {
  private final int value, index;

  LongInt() {
    super(MPI.LONG_INT);
    value = addLong();
    index = addInt();
  }

  @Override protected Data newData() { return new Data(); }

  /** One pair. */
  public final class Data extends Struct.Data {
    public long getValue() { return getLong(value); }
    public int getIndex() { return getInt(index); }
    public void putValue(long v) { putLong(value, v); }
    public void putIndex(int i) { putInt(index, i); }
  }
}
