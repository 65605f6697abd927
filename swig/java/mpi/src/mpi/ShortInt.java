package mpi;

/** Records of MPI.SHORT_INT (MAXLOC/MINLOC pairs in C layout): value and index. Use MPI.shortInt. */
public final class ShortInt extends Struct {
  private final int value, index;

  ShortInt() {
    super(MPI.SHORT_INT);
    value = addShort();
    index = addInt();
  }

  @Override protected Data newData() { return new Data(); }

  /** One pair. */
  public final class Data extends Struct.Data {
    public short getValue() { return getShort(value); }
    public int getIndex() { return getInt(index); }
    public void putValue(short v) { putShort(value, v); }
    public void putIndex(int i) { putInt(index, i); }
  }
}
