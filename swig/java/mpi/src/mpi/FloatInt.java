package mpi;

/** Records of MPI.FLOAT_INT (MAXLOC/MINLOC pairs in C layout): value and index. Use MPI.floatInt. */
public final class FloatInt extends Struct {
  private final int value, index;

  FloatInt() {
    super(MPI.FLOAT_INT);
    value = addFloat();
    index = addInt();
  }

  @Override protected Data newData() { return new Data(); }

  /** One pair. */
  public final class Data extends Struct.Data {
    public float getValue() { return getFloat(value); }
    public int getIndex() { return getInt(index); }
    public void putValue(float v) { putFloat(value, v); }
    public void putIndex(int i) { putInt(index, i); }
  }
}
