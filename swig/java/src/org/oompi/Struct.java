package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A C-like record over a ByteBuffer and its MPI struct datatype (seed 000's Struct). A subclass
 * declares its fields with the add methods, in order, keeping the offsets they return, and a
 * {@link Data} subclass whose getters and putters read and write a record through those offsets:
 *
 * <pre>{@code
 * public class Complex extends Struct {
 *   private final int real = addDouble(), imag = addDouble();
 *   @Override protected Data newData() { return new Data(); }
 *   public class Data extends Struct.Data {
 *     public double getReal() { return getDouble(real); }
 *     public void putReal(double r) { putDouble(real, r); }
 *     ...
 *   }
 * }
 * Complex type = new Complex();
 * ByteBuffer buf = Buffers.newByteBuffer(type.getExtent() * n);
 * Complex.Data c = type.getData(buf, i);
 * comm.send(Buffers.typed(buf, n, type.getType()), 1, 0);
 * }</pre>
 *
 * Fields are laid out as a C compiler lays out the same struct (each at a multiple of its
 * alignment, the extent rounded up to the largest one), so records match a C or C++ peer's. The
 * datatype is built and committed at the first getType() and freed by close().
 */
public abstract class Struct implements AutoCloseable {
  private final List<Integer> lengths = new ArrayList<>();
  private final List<Long> offsets = new ArrayList<>();
  private final List<Datatype> types = new ArrayList<>();
  private int size;       // bytes so far
  private int alignment = 1;
  private Datatype type;  // built at the first getType()

  /** Tells the library how to make a Data object of the subclass: {@code return new Data();} */
  protected abstract Data newData();

  private int add(Datatype t, int bytes, int align, int count) {
    if (type != null)
      throw new IllegalStateException("oompi: fields are added before the first getType()");
    if (count < 1) throw new IllegalArgumentException("oompi: a field needs count >= 1, not " + count);
    int offset = (size + align - 1) / align * align;
    lengths.add(count);
    offsets.add((long) offset);
    types.add(t);
    size = offset + bytes * count;
    alignment = Math.max(alignment, align);
    return offset;
  }

  protected final int addByte() { return addByte(1); }
  protected final int addByte(int count) { return add(Datatype.INT8, 1, 1, count); }
  protected final int addBoolean() { return addBoolean(1); }
  protected final int addBoolean(int count) { return add(Datatype.BOOLEAN, 1, 1, count); }
  protected final int addShort() { return addShort(1); }
  protected final int addShort(int count) { return add(Datatype.SHORT, 2, 2, count); }
  protected final int addChar() { return addChar(1); }
  protected final int addChar(int count) { return add(Datatype.CHAR, 2, 2, count); }
  protected final int addInt() { return addInt(1); }
  protected final int addInt(int count) { return add(Datatype.INT, 4, 4, count); }
  protected final int addLong() { return addLong(1); }
  protected final int addLong(int count) { return add(Datatype.LONG, 8, 8, count); }
  protected final int addFloat() { return addFloat(1); }
  protected final int addFloat(int count) { return add(Datatype.FLOAT, 4, 4, count); }
  protected final int addDouble() { return addDouble(1); }
  protected final int addDouble(int count) { return add(Datatype.DOUBLE, 8, 8, count); }

  /** A nested record (or {@code count} of them) of another Struct. */
  protected final int addStruct(Struct s, int count) {
    return add(s.getType(), s.getExtent(), s.alignment, count);
  }
  protected final int addStruct(Struct s) { return addStruct(s, 1); }

  /**
   * Places the next field at byte {@code offset} (at least the end of the previous one): a
   * record with MPI's explicit displacements (Open MPI's Java API, {@code setOffset(16).addData(t)}).
   */
  protected final Struct setOffset(int offset) {
    if (type != null)
      throw new IllegalStateException("oompi: fields are added before the first getType()");
    if (offset < size)
      throw new IllegalArgumentException("oompi: offset " + offset + " overlaps the fields before it (" + size + " bytes)");
    size = offset;
    return this;
  }

  /** A field of {@code count} elements of any datatype (its extent apart), unaligned. */
  protected final int addData(Datatype t, int count) {
    long ext = t.getExtent();
    if (ext > Integer.MAX_VALUE) throw new IllegalArgumentException("oompi: a field of " + ext + " bytes");
    return add(t, (int) ext, 1, count);
  }
  protected final int addData(Datatype t) { return addData(t, 1); }

  /** Bytes from one record to the next (the C struct's sizeof). */
  public final int getExtent() { return (size + alignment - 1) / alignment * alignment; }

  /** The committed MPI struct datatype of one record, resized to getExtent(). */
  public final synchronized Datatype getType() {
    if (type == null) {
      if (lengths.isEmpty()) throw new IllegalStateException("oompi: a Struct needs at least one field");
      try (Datatype s = Datatype.createStruct(lengths.stream().mapToInt(Integer::intValue).toArray(),
                                              offsets.stream().mapToLong(Long::longValue).toArray(),
                                              new DatatypeVector(types))) {
        type = Datatype.resized(s, 0, getExtent());
      }
    }
    return type;
  }

  /**
   * The record at {@code index} of a native-order ByteBuffer holding records of this Struct
   * (absolute: the buffer's position does not matter).
   */
  public final <D extends Data> D getData(ByteBuffer buffer, int index) {
    if (buffer.order() != ByteOrder.nativeOrder())
      throw new IllegalArgumentException(
          "oompi: records are in native byte order; use Buffers.newByteBuffer or .order(ByteOrder.nativeOrder())");
    long offset = (long) index * getExtent();
    if (index < 0 || offset + getExtent() > buffer.capacity())
      throw new IndexOutOfBoundsException("oompi: record " + index + " is outside a buffer of "
          + buffer.capacity() / getExtent() + " records");
    return newDataAt(buffer, (int) offset);
  }

  /** Frees the datatype (if built). */
  @Override
  public synchronized void close() {
    if (type != null) {
      type.close();
      type = null;
    }
  }

  /** One record: reads and writes fields at the offsets the add methods returned. */
  public abstract class Data {
    private ByteBuffer buffer;
    private int base;

    protected final byte getByte(int field) { return buffer.get(base + field); }
    protected final byte getByte(int field, int i) { return buffer.get(base + field + i); }
    protected final void putByte(int field, byte v) { buffer.put(base + field, v); }
    protected final void putByte(int field, int i, byte v) { buffer.put(base + field + i, v); }
    protected final boolean getBoolean(int field) { return buffer.get(base + field) != 0; }
    protected final void putBoolean(int field, boolean v) { buffer.put(base + field, (byte) (v ? 1 : 0)); }
    protected final short getShort(int field) { return buffer.getShort(base + field); }
    protected final short getShort(int field, int i) { return buffer.getShort(base + field + 2 * i); }
    protected final void putShort(int field, short v) { buffer.putShort(base + field, v); }
    protected final void putShort(int field, int i, short v) { buffer.putShort(base + field + 2 * i, v); }
    protected final char getChar(int field) { return buffer.getChar(base + field); }
    protected final char getChar(int field, int i) { return buffer.getChar(base + field + 2 * i); }
    protected final void putChar(int field, char v) { buffer.putChar(base + field, v); }
    protected final void putChar(int field, int i, char v) { buffer.putChar(base + field + 2 * i, v); }
    protected final int getInt(int field) { return buffer.getInt(base + field); }
    protected final int getInt(int field, int i) { return buffer.getInt(base + field + 4 * i); }
    protected final void putInt(int field, int v) { buffer.putInt(base + field, v); }
    protected final void putInt(int field, int i, int v) { buffer.putInt(base + field + 4 * i, v); }
    protected final long getLong(int field) { return buffer.getLong(base + field); }
    protected final long getLong(int field, int i) { return buffer.getLong(base + field + 8 * i); }
    protected final void putLong(int field, long v) { buffer.putLong(base + field, v); }
    protected final void putLong(int field, int i, long v) { buffer.putLong(base + field + 8 * i, v); }
    protected final float getFloat(int field) { return buffer.getFloat(base + field); }
    protected final float getFloat(int field, int i) { return buffer.getFloat(base + field + 4 * i); }
    protected final void putFloat(int field, float v) { buffer.putFloat(base + field, v); }
    protected final void putFloat(int field, int i, float v) { buffer.putFloat(base + field + 4 * i, v); }
    protected final double getDouble(int field) { return buffer.getDouble(base + field); }
    protected final double getDouble(int field, int i) { return buffer.getDouble(base + field + 8 * i); }
    protected final void putDouble(int field, double v) { buffer.putDouble(base + field, v); }
    protected final void putDouble(int field, int i, double v) { buffer.putDouble(base + field + 8 * i, v); }
    /** A nested record's Data (of the Struct given to addStruct) at {@code field}. */
    protected final <D extends Struct.Data> D getStruct(Struct s, int field, int i) {
      return s.newDataAt(buffer, base + field + i * s.getExtent());
    }
  }

  @SuppressWarnings("unchecked")
  private <D extends Data> D newDataAt(ByteBuffer buffer, int at) {
    Data d = newData();
    d.buffer = buffer;
    d.base = at;
    return (D) d;
  }
}
