package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * An MPI datatype over an org.oompi.Datatype. As in Open MPI's Java API, every type has a
 * <em>base type</em> (the Java element type of the buffers it describes: derived types inherit
 * it from their old type, struct types are bytes) and sizes, extents and bounds are given in
 * units of that base type (bytes for struct types and the MAXLOC pairs).
 */
public final class Datatype implements Freeable, Cloneable {
  // Base types (Open MPI's numbering).
  static final int NULL = 0, BYTE = 1, CHAR = 2, SHORT = 3, BOOLEAN = 4, INT = 5, LONG = 6,
      FLOAT = 7, DOUBLE = 8;

  final org.oompi.Datatype type;  // null for DATATYPE_NULL
  final int baseType;
  final int baseSize;
  /** An array (or direct buffer) of the base type, passed as-is, is exactly this type. */
  final boolean natural;
  private final boolean predefined;
  private boolean freed;

  /** The Java array and java.nio buffer classes of the base type (checked at every call). */
  final Class<?> arrayClass;
  final Class<? extends Buffer> bufferClass;

  Datatype(org.oompi.Datatype type, int baseType, boolean natural, boolean predefined) {
    this.type = type;
    this.baseType = baseType;
    this.baseSize = sizeOf(baseType);
    this.natural = natural;
    this.predefined = predefined;
    this.arrayClass = arrayClassOf(baseType);
    this.bufferClass = bufferClassOf(baseType);
  }

  private Datatype(org.oompi.Datatype type, Datatype old) {
    this(type, old.baseType, false, false);
  }

  static int sizeOf(int base) {
    switch (base) {
      case BYTE: case BOOLEAN: return 1;
      case CHAR: case SHORT: return 2;
      case INT: case FLOAT: return 4;
      case LONG: case DOUBLE: return 8;
      default: return 1;
    }
  }

  /** The Java array class of this type's base type. */
  Class<?> arrayClass() { return arrayClass; }

  private static Class<?> arrayClassOf(int baseType) {
    switch (baseType) {
      case CHAR: return char[].class;
      case SHORT: return short[].class;
      case BOOLEAN: return boolean[].class;
      case INT: return int[].class;
      case LONG: return long[].class;
      case FLOAT: return float[].class;
      case DOUBLE: return double[].class;
      default: return byte[].class;
    }
  }

  /** The java.nio buffer class of this type's base type (ByteBuffer: any type). */
  Class<? extends Buffer> bufferClass() { return bufferClass; }

  private static Class<? extends Buffer> bufferClassOf(int baseType) {
    switch (baseType) {
      case CHAR: return CharBuffer.class;
      case SHORT: return ShortBuffer.class;
      case INT: return IntBuffer.class;
      case LONG: return LongBuffer.class;
      case FLOAT: return FloatBuffer.class;
      case DOUBLE: return DoubleBuffer.class;
      default: return ByteBuffer.class;
    }
  }

  org.oompi.Datatype live() throws MPIException {
    if (type == null) throw new MPIException(MPI.ERR_TYPE, "MPI.DATATYPE_NULL is not a datatype");
    if (freed || type.isNull()) throw new MPIException(MPI.ERR_TYPE, "the datatype was freed");
    return type;
  }

  private volatile long[] byteBounds;  // {true lb, extent} in bytes, read once (types never change)

  /** The lowest byte count elements of this type touch, from the buffer's start (may be < 0). */
  long lowestByte(int count) throws MPIException {
    if (count <= 0) return 0;
    long[] b = byteBounds;
    if (b == null) {
      try { b = new long[] {live().getTrueLb(), live().getExtent()}; } catch (RuntimeException e) { throw Errors.of(e); }
      byteBounds = b;
    }
    return b[0] + Math.min(0, (count - 1) * b[1]);
  }

  /** Lower bound, in units of the base type. */
  public int getLb() throws MPIException {
    try { return (int) (live().getLb() / baseSize); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** Extent, in units of the base type. */
  public int getExtent() throws MPIException {
    try { return (int) (live().getExtent() / baseSize); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public int getTrueLb() throws MPIException {
    try { return (int) (live().getTrueLb() / baseSize); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public int getTrueExtent() throws MPIException {
    try { return (int) (live().getTrueExtent() / baseSize); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The number of base-type elements one element of this type holds. */
  public int getSize() throws MPIException {
    try { return (int) (live().getSize() / baseSize); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  long bytes() throws MPIException {
    try { return live().getSize(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** oompi commits every type it makes: this checks that the type is still usable. */
  public void commit() throws MPIException { live(); }

  /** Frees a derived type (MPI_Type_free: a predefined type is an error, MPI_ERR_TYPE). */
  @Override public void free() throws MPIException {
    if (predefined || type == null)
      throw new MPIException(MPI.ERR_TYPE, "a predefined datatype cannot be freed");
    if (freed) return;
    try { type.close(); } catch (RuntimeException e) { throw Errors.of(e); }
    freed = true;
  }

  public boolean isNull() { return type == null || freed; }

  @Override public Datatype clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  public Datatype dup() throws MPIException {
    try { return new Datatype(live().dup(), this); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
    try { return new Datatype(org.oompi.Datatype.contiguous(count, oldType.live()), oldType); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** count blocks of blockLength old elements, block starts stride old extents apart. */
  public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
      throws MPIException {
    try { return new Datatype(org.oompi.Datatype.vector(count, blockLength, stride, oldType.live()), oldType); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** As createVector with the stride in bytes. */
  public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
      throws MPIException {
    try { return new Datatype(org.oompi.Datatype.hvector(count, blockLength, stride, oldType.live()), oldType); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
      throws MPIException {
    try { return new Datatype(org.oompi.Datatype.indexed(blockLengths, displacements, oldType.live()), oldType); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** As createIndexed with byte displacements. */
  public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
      throws MPIException {
    try {
      return new Datatype(org.oompi.Datatype.hindexed(blockLengths, longs(displacements), oldType.live()), oldType);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static Datatype createIndexedBlock(int blockLength, int[] displacements, Datatype oldType)
      throws MPIException {
    try {
      return new Datatype(org.oompi.Datatype.indexedBlock(blockLength, displacements, oldType.live()), oldType);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The general constructor: byte displacements; the base type of the result is bytes. */
  public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
      throws MPIException {
    try {
      if (types == null) throw new NullPointerException("null types");
      org.oompi.DatatypeVector v = new org.oompi.DatatypeVector();
      for (Datatype t : types) v.add(t.live());
      return new Datatype(org.oompi.Datatype.createStruct(blockLengths, longs(displacements), v),
          BYTE, false, false);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** A new lower bound and extent, in units of the base type. */
  public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
    try {
      long s = oldType.baseSize;
      return new Datatype(org.oompi.Datatype.resized(oldType.live(), lb * s, extent * s), oldType);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Type_create_subarray; order MPI.ORDER_C or MPI.ORDER_FORTRAN. */
  public static Datatype createSubarray(int[] sizes, int[] subSizes, int[] starts, int order,
                                        Datatype oldType) throws MPIException {
    try {
      if (order == MPI.ORDER_FORTRAN) {  // Fortran order is C order over the reversed dimensions
        sizes = reversed(sizes);
        subSizes = reversed(subSizes);
        starts = reversed(starts);
      } else if (order != MPI.ORDER_C) {
        throw new MPIException(MPI.ERR_ARG, "order must be MPI.ORDER_C or MPI.ORDER_FORTRAN");
      }
      return new Datatype(org.oompi.Datatype.subarray(sizes, subSizes, starts, oldType.live()), oldType);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /**
   * MPI_Type_create_darray. MPI numbers the process grid row-major in both orders, so Fortran
   * order is C order over the reversed dimensions with the rank of the reversed coordinates.
   */
  public static Datatype createDarray(int size, int rank, int[] gsizes, int[] distribs,
                                      int[] dargs, int[] psizes, int order, Datatype oldType)
      throws MPIException {
    if (order == MPI.ORDER_FORTRAN) {
      if (psizes == null) throw new MPIException(MPI.ERR_ARG, "createDarray: null psizes");
      rank = reversedGridRank(rank, psizes);
      gsizes = reversed(gsizes);
      distribs = reversed(distribs);
      dargs = reversed(dargs);
      psizes = reversed(psizes);
    } else if (order != MPI.ORDER_C) {
      throw new MPIException(MPI.ERR_ARG, "order must be MPI.ORDER_C or MPI.ORDER_FORTRAN");
    }
    try {
      return new Datatype(org.oompi.Datatype.darray(size, rank, gsizes, distribs, dargs, psizes,
          oldType.live()), oldType);
    } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private String name;

  /** Sets the print name (kept by this object: oompi's types have read-only names). */
  public void setName(String name) throws MPIException { live(); this.name = name; }

  public String getName() throws MPIException {
    if (name != null) return name;
    try { return live().getName(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  @Override public String toString() {
    try { return getName(); } catch (MPIException e) { return "Datatype(freed)"; }
  }

  private static long[] longs(int[] a) {
    if (a == null) throw new NullPointerException("null displacements");
    long[] r = new long[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[i];
    return r;
  }

  /** rank's row-major coordinates in the grid psizes, as a row-major rank of the reversed grid. */
  private static int reversedGridRank(int rank, int[] psizes) throws MPIException {
    long total = 1;
    for (int p : psizes) {
      if (p <= 0) throw new MPIException(MPI.ERR_ARG, "createDarray: a process grid dimension is " + p);
      total *= p;
    }
    if (rank < 0 || rank >= total) return rank;  // oompi's darray refuses it with its own message
    int[] coords = new int[psizes.length];
    for (int i = psizes.length - 1, r = rank; i >= 0; i--) {
      coords[i] = r % psizes[i];
      r /= psizes[i];
    }
    int out = 0;
    for (int i = psizes.length - 1; i >= 0; i--) out = out * psizes[i] + coords[i];
    return out;
  }

  private static int[] reversed(int[] a) {
    if (a == null) throw new NullPointerException("null array");
    int[] r = new int[a.length];
    for (int i = 0; i < a.length; i++) r[i] = a[a.length - 1 - i];
    return r;
  }

  // --- user attributes (MPI_Type_create_keyval ...): the values live on this object -------------
  private static final Attributes.Keys KEYS = new Attributes.Keys();
  private final Attributes attrs = new Attributes(KEYS);

  public static int createKeyval() throws MPIException { return KEYS.create(); }

  public static void freeKeyval(int keyval) throws MPIException { KEYS.free(keyval); }

  public void setAttr(int keyval, Object value) throws MPIException { attrs.set(keyval, value); }

  public void deleteAttr(int keyval) throws MPIException { attrs.delete(keyval); }

  /** The attribute, or null when none is set; MPI.ERR_KEYVAL for a keyval never created. */
  public Object getAttr(int keyval) throws MPIException { return attrs.get(keyval); }
}
