package mpi;

/** Records of MPI.DOUBLE_INT (MAXLOC/MINLOC pairs in C layout): value and index. Use MPI.doubleInt. */
public final class DoubleInt extends Struct {
  private final int value, index;

  DoubleInt() {
    super(MPI.DOUBLE_INT);
    value = addDouble();
    index = addInt();
  }

  @Override protected Data newData() { return new Data(); }

  /** One pair. */
  public final class Data extends Struct.Data {
    public double getValue() { return getDouble(value); }
    public int getIndex() { return getInt(index); }
    public void putValue(double v) { putDouble(value, v); }
    public void putIndex(int i) { putInt(index, i); }
  }
}
