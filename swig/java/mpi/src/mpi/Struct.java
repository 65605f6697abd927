package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A C-like record over a ByteBuffer and its MPI struct datatype (seed 000, Figs. 9-10). The
 * subclass declares fields with the add methods (keeping the offsets they return), a Data
 * subclass reading and writing them, and newData(). The layout (C alignment) and the datatype
 * are org.oompi.Struct's; records are read and written in native byte order in any ByteBuffer.
 */
public abstract class Struct {
  /** org.oompi's layout of the fields (its add methods are protected: reached from here). */
  private static final class Layout extends org.oompi.Struct {
    @Override protected org.oompi.Struct.Data newData() { return null; }
    int field(char kind, int count) {
      switch (kind) {
        case 'B': return addByte(count);
        case 'Z': return addBoolean(count);
        case 'S': return addShort(count);
        case 'C': return addChar(count);
        case 'I': return addInt(count);
        case 'J': return addLong(count);
        case 'F': return addFloat(count);
        default: return addDouble(count);
      }
    }
    int nested(org.oompi.Struct s, int count) { return addStruct(s, count); }
    void offset(int offset) { setOffset(offset); }
    int data(org.oompi.Datatype t, int count) { return addData(t, count); }
  }

  private final Layout layout = new Layout();
  private Datatype type;
  private final Datatype predefined;  // the MAXLOC pairs use MPI's own pair types

  protected Struct() { predefined = null; }

  Struct(Datatype predefined) { this.predefined = predefined; }

  /** Tells the library how to make a Data object: {@code return new Data();} */
  protected abstract Data newData();

  // The add methods run in field initializers (Fig. 9): unchecked exceptions only.
  private int add(char kind, int count) { return layout.field(kind, count); }

  public final int addByte() { return add('B', 1); }
  public final int addByte(int count) { return add('B', count); }
  public final int addBoolean() { return add('Z', 1); }
  public final int addBoolean(int count) { return add('Z', count); }
  public final int addShort() { return add('S', 1); }
  public final int addShort(int count) { return add('S', count); }
  public final int addChar() { return add('C', 1); }
  public final int addChar(int count) { return add('C', count); }
  public final int addInt() { return add('I', 1); }
  public final int addInt(int count) { return add('I', count); }
  public final int addLong() { return add('J', 1); }
  public final int addLong(int count) { return add('J', count); }
  public final int addFloat() { return add('F', 1); }
  public final int addFloat(int count) { return add('F', count); }
  public final int addDouble() { return add('D', 1); }
  public final int addDouble(int count) { return add('D', count); }

  /** A nested record (or count of them) of another Struct. */
  public final int addStruct(Struct struct) { return addStruct(struct, 1); }

  public final int addStruct(Struct struct, int count) { return layout.nested(struct.layout, count); }

  /** Places the next field at byte offset (MPI's explicit displacements). */
  public final Struct setOffset(int offset) {
    layout.offset(offset);
    return this;
  }

  /** A field of count elements of any datatype. */
  public final int addData(Datatype type, int count) throws MPIException {
    return layout.data(Bufs.type(type), count);
  }

  public final int addData(Datatype type) throws MPIException { return addData(type, 1); }

  /** Bytes from one record to the next. */
  public final int getExtent() { return layout.getExtent(); }

  /** The record's datatype (bytes as base type), made and committed at the first call. */
  public final synchronized Datatype getType() throws MPIException {
    if (predefined != null) return predefined;
    if (type == null) {
      try {
        type = new Datatype(layout.getType(), Datatype.BYTE, false, false);
      } catch (RuntimeException e) {
        throw Errors.of(e);
      }
    }
    return type;
  }

  /** The record at index of buffer (any ByteBuffer; its position does not matter). */
  public final <D extends Data> D getData(ByteBuffer buffer, int index) {
    int ext = getExtent();
    if (index < 0 || (long) (index + 1) * ext > buffer.capacity())
      throw new IndexOutOfBoundsException("record " + index + " is outside a buffer of "
          + buffer.capacity() / ext + " records");
    return at(buffer.duplicate().order(ByteOrder.nativeOrder()), index * ext);
  }

  /** The record at the start of buffer. */
  public final <D extends Data> D getData(ByteBuffer buffer) { return getData(buffer, 0); }

  @SuppressWarnings("unchecked")
  private <D extends Data> D at(ByteBuffer b, int base) {
    Data d = newData();
    d.buffer = b;
    d.base = base;
    return (D) d;
  }

  /** One record: reads and writes fields at the offsets the add methods returned. */
  public abstract class Data {
    private ByteBuffer buffer;
    private int base;

    /** The byte offset of element `index` (of `size` bytes) of the field at `field`. */
    private int at(int field, int index, int size) { return base + field + size * index; }

    protected final byte getByte(int field) { return buffer.get(base + field); }
    protected final byte getByte(int field, int index) { return buffer.get(at(field, index, 1)); }
    protected final void putByte(int field, byte v) { buffer.put(base + field, v); }
    protected final void putByte(int field, int index, byte v) { buffer.put(at(field, index, 1), v); }
    protected final boolean getBoolean(int field) { return buffer.get(base + field) != 0; }
    protected final boolean getBoolean(int field, int index) { return buffer.get(at(field, index, 1)) != 0; }
    protected final void putBoolean(int field, boolean v) { buffer.put(base + field, (byte) (v ? 1 : 0)); }
    protected final void putBoolean(int field, int index, boolean v) { buffer.put(at(field, index, 1), (byte) (v ? 1 : 0)); }
    protected final short getShort(int field) { return buffer.getShort(base + field); }
    protected final short getShort(int field, int index) { return buffer.getShort(at(field, index, 2)); }
    protected final void putShort(int field, short v) { buffer.putShort(base + field, v); }
    protected final void putShort(int field, int index, short v) { buffer.putShort(at(field, index, 2), v); }
    protected final char getChar(int field) { return buffer.getChar(base + field); }
    protected final char getChar(int field, int index) { return buffer.getChar(at(field, index, 2)); }
    protected final void putChar(int field, char v) { buffer.putChar(base + field, v); }
    protected final void putChar(int field, int index, char v) { buffer.putChar(at(field, index, 2), v); }
    protected final int getInt(int field) { return buffer.getInt(base + field); }
    protected final int getInt(int field, int index) { return buffer.getInt(at(field, index, 4)); }
    protected final void putInt(int field, int v) { buffer.putInt(base + field, v); }
    protected final void putInt(int field, int index, int v) { buffer.putInt(at(field, index, 4), v); }
    protected final long getLong(int field) { return buffer.getLong(base + field); }
    protected final long getLong(int field, int index) { return buffer.getLong(at(field, index, 8)); }
    protected final void putLong(int field, long v) { buffer.putLong(base + field, v); }
    protected final void putLong(int field, int index, long v) { buffer.putLong(at(field, index, 8), v); }
    protected final float getFloat(int field) { return buffer.getFloat(base + field); }
    protected final float getFloat(int field, int index) { return buffer.getFloat(at(field, index, 4)); }
    protected final void putFloat(int field, float v) { buffer.putFloat(base + field, v); }
    protected final void putFloat(int field, int index, float v) { buffer.putFloat(at(field, index, 4), v); }
    protected final double getDouble(int field) { return buffer.getDouble(base + field); }
    protected final double getDouble(int field, int index) { return buffer.getDouble(at(field, index, 8)); }
    protected final void putDouble(int field, double v) { buffer.putDouble(base + field, v); }
    protected final void putDouble(int field, int index, double v) { buffer.putDouble(at(field, index, 8), v); }

    /** A view of the field's bytes (one element of type) in the record's buffer. */
    protected final ByteBuffer getBuffer(Datatype type, int field) {
      int ext;
      try { ext = type.getExtent() * type.baseSize; } catch (MPIException e) { throw new IllegalStateException(e); }
      return buffer.duplicate().clear().position(base + field).limit(base + field + ext).slice()
          .order(ByteOrder.nativeOrder());
    }

    /** The nested record of struct at field (index-th of them). */
    protected final <D extends Struct.Data> D getData(Struct struct, int field, int index) {
      return struct.at(buffer, base + field + index * struct.getExtent());
    }

    protected final <D extends Struct.Data> D getData(Struct struct, int field) {
      return getData(struct, field, 0);
    }
  }
}
