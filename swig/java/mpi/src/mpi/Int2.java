package mpi;

/** Records of MPI.INT2 (MAXLOC/MINLOC pairs in C layout): value and index. Use MPI.int2. */
public final class Int2 extends Struct {
  private final int value, index;

  Int2() {
    super(MPI.INT2);
    value = addInt();
    index = addInt();
  }

  @Override protected Data newData() { return new Data(); }

  /** One pair. */
  public final class Data extends Struct.Data {
    public int getValue() { return getInt(value); }
    public int getIndex() { return getInt(index); }
    public void putValue(int v) { putInt(value, v); }
    public void putIndex(int i) { putInt(index, i); }
  }
}
