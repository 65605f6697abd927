package mpi;

import java.nio.ByteBuffer;

/**
 * A reduction operation: the predefined ones (MPI.SUM, ...) or {@code new Op(function,
 * commute)} over org.oompi.Op. A reduction call tells its Op the datatype it runs on, so the
 * UserFunction receives this API's Datatype.
 */
public final class Op implements Freeable {
  final org.oompi.Op op;
  private final Adapter adapter;
  private boolean freed;

  Op(org.oompi.Op op) {
    this.op = op;
    this.adapter = null;
  }

  /** MPI_Op_create over a UserFunction. */
  public Op(UserFunction function, boolean commute) throws MPIException {
    if (function == null) throw new MPIException(MPI.ERR_OP, "the function is null");
    adapter = new Adapter(function);
    try {
      op = new org.oompi.Op(adapter, commute);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** The op for a reduction on {@code type} (user functions then see that type). */
  org.oompi.Op on(Datatype type) throws MPIException {
    if (freed) throw new MPIException(MPI.ERR_OP, "the operation was freed");
    if (adapter != null) adapter.type = type;
    return op;
  }

  public boolean isCommutative() throws MPIException {
    if (freed) throw new MPIException(MPI.ERR_OP, "the operation was freed");
    try { return op.isCommutative(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** Frees a user op (MPI_Op_free: a predefined op is an error, MPI_ERR_OP). */
  @Override public void free() throws MPIException {
    if (adapter == null) throw new MPIException(MPI.ERR_OP, "a predefined operation cannot be freed");
    if (freed) return;
    try { op.close(); } catch (RuntimeException e) { throw Errors.of(e); }
    freed = true;
  }

  public boolean isNull() { return freed; }

  /** The org.oompi function that calls the user's: ByteBuffer form, or arrays if not overridden. */
  private static final class Adapter extends org.oompi.UserFunction {
    final UserFunction f;
    final boolean buffers;  // f overrides call(ByteBuffer, ...)
    volatile Datatype type;

    Adapter(UserFunction f) {
      this.f = f;
      boolean b;
      try {
        b = f.getClass().getMethod("call", ByteBuffer.class, ByteBuffer.class, int.class,
            Datatype.class).getDeclaringClass() != UserFunction.class;
      } catch (NoSuchMethodException e) {
        b = false;
      }
      buffers = b;
    }

    @Override
    public void call(ByteBuffer in, ByteBuffer inOut, int count, org.oompi.Datatype t) {
      Datatype dt = type;
      try {
        if (buffers) {
          f.call(in, inOut, count, dt);
          return;
        }
        int n = in.capacity() / dt.baseSize;
        Object a = Arrays.of(in, dt.baseType, n), b = Arrays.of(inOut, dt.baseType, n);
        f.call(a, b, count, dt);
        Arrays.back(b, inOut, dt.baseType);
      } catch (MPIException e) {
        throw new Errors.Carrier(e);
      }
    }
  }

  /** Copies between MPI's memory and arrays of a base type. */
  private static final class Arrays {
    static Object of(ByteBuffer b, int base, int n) {
      switch (base) {
        case Datatype.CHAR: { char[] a = new char[n]; b.asCharBuffer().get(0, a); return a; }
        case Datatype.SHORT: { short[] a = new short[n]; b.asShortBuffer().get(0, a); return a; }
        case Datatype.INT: { int[] a = new int[n]; b.asIntBuffer().get(0, a); return a; }
        case Datatype.LONG: { long[] a = new long[n]; b.asLongBuffer().get(0, a); return a; }
        case Datatype.FLOAT: { float[] a = new float[n]; b.asFloatBuffer().get(0, a); return a; }
        case Datatype.DOUBLE: { double[] a = new double[n]; b.asDoubleBuffer().get(0, a); return a; }
        case Datatype.BOOLEAN: {
          boolean[] a = new boolean[n];
          for (int i = 0; i < n; i++) a[i] = b.get(i) != 0;
          return a;
        }
        default: { byte[] a = new byte[n]; b.get(0, a); return a; }
      }
    }

    static void back(Object a, ByteBuffer b, int base) {
      switch (base) {
        case Datatype.CHAR: b.asCharBuffer().put(0, (char[]) a); break;
        case Datatype.SHORT: b.asShortBuffer().put(0, (short[]) a); break;
        case Datatype.INT: b.asIntBuffer().put(0, (int[]) a); break;
        case Datatype.LONG: b.asLongBuffer().put(0, (long[]) a); break;
        case Datatype.FLOAT: b.asFloatBuffer().put(0, (float[]) a); break;
        case Datatype.DOUBLE: b.asDoubleBuffer().put(0, (double[]) a); break;
        case Datatype.BOOLEAN: {
          boolean[] v = (boolean[]) a;
          for (int i = 0; i < v.length; i++) b.put(i, (byte) (v[i] ? 1 : 0));
          break;
        }
        default: b.put(0, (byte[]) a);
      }
    }
  }
}
