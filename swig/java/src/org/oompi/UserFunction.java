package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A user-defined reduction, as in seed 000 (Figs. 12-13): {@code inOut[i] = in[i] op inOut[i]}
 * for {@code count} elements of {@code type}. Override one of the two {@code call} methods:
 * <ul>
 * <li>{@link #call(ByteBuffer, ByteBuffer, int, Datatype)}: zero-copy views of MPI's own memory
 *     (native byte order, position 0, {@code count * extent} bytes). They are valid only during
 *     the call: never keep them.</li>
 * <li>{@link #call(Object, Object, int, Datatype)}: Java arrays of the type's element kind
 *     ({@code double[]} for {@code Datatype.DOUBLE}, ...), copied in and out; predefined types
 *     only.</li>
 * </ul>
 * Make it an {@link Op} with {@code new Op(fn, commutative)}; the Op keeps it alive. An
 * exception thrown by {@code call} ends the reduction's calls and is thrown again, the same
 * Throwable, by the collective on the ranks where it was thrown (other ranks return normally:
 * agree on the outcome, or treat it as fatal). Either form works whatever buffers the
 * collective was given (arrays or direct buffers): MPI always hands native memory to the op.
 */
public abstract class UserFunction extends NativeUserFunction {
  static {
    NativeLoader.load();
  }

  /** Over zero-copy views of MPI's memory. By default: the array form, over copies. */
  public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
    int kind = type.elementKind();
    Object a = arrays(in, count, kind), b = arrays(inOut, count, kind);
    if (a == null)
      throw new UnsupportedOperationException("oompi: the array form of UserFunction.call works "
          + "on predefined element types only; override call(ByteBuffer, ByteBuffer, int, Datatype) "
          + "for " + type.getName());
    call(a, b, count, type);
    back(b, inOut, kind);
  }

  /** Over arrays of the element kind ({@code double[]}, {@code int[]}, ...), copied in and out. */
  public void call(Object in, Object inOut, int count, Datatype type) {
    throw new UnsupportedOperationException("oompi: a UserFunction must override "
        + "call(ByteBuffer, ByteBuffer, int, Datatype) or call(Object, Object, int, Datatype)");
  }

  /** The director entry (MPI's addresses): makes the views and calls the ByteBuffer form. */
  @Override
  public final void call(long in, long inOut, int count, long extent, Datatype type) {
    long bytes = count * extent;
    if (bytes > Integer.MAX_VALUE)
      throw new UnsupportedOperationException("oompi: a UserFunction sees at most 2 GiB per call ("
          + bytes + " bytes here)");
    ByteOrder order = ByteOrder.nativeOrder();
    call(view(in, bytes).order(order), view(inOut, bytes).order(order), count, type);
  }

  private static native ByteBuffer view(long address, long bytes);

  // Element kinds (TypeKind's values) to Java arrays: a copy of the view's elements.
  private static Object arrays(ByteBuffer b, int n, int kind) {
    switch (kind) {
      case 0: case 1: case 2: { byte[] a = new byte[n]; b.get(0, a); return a; }
      case 3: { short[] a = new short[n]; b.asShortBuffer().get(0, a); return a; }
      case 4: { char[] a = new char[n]; b.asCharBuffer().get(0, a); return a; }
      case 5: case 6: { int[] a = new int[n]; b.asIntBuffer().get(0, a); return a; }
      case 7: case 8: { long[] a = new long[n]; b.asLongBuffer().get(0, a); return a; }
      case 9: { float[] a = new float[n]; b.asFloatBuffer().get(0, a); return a; }
      case 10: { double[] a = new double[n]; b.asDoubleBuffer().get(0, a); return a; }
      case 11: {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) a[i] = b.get(i) != 0;
        return a;
      }
      default: return null;  // complex, derived types, pairs: the ByteBuffer form only
    }
  }

  private static void back(Object a, ByteBuffer b, int kind) {
    switch (kind) {
      case 0: case 1: case 2: b.put(0, (byte[]) a); break;
      case 3: b.asShortBuffer().put(0, (short[]) a); break;
      case 4: b.asCharBuffer().put(0, (char[]) a); break;
      case 5: case 6: b.asIntBuffer().put(0, (int[]) a); break;
      case 7: case 8: b.asLongBuffer().put(0, (long[]) a); break;
      case 9: b.asFloatBuffer().put(0, (float[]) a); break;
      case 10: b.asDoubleBuffer().put(0, (double[]) a); break;
      case 11: {
        boolean[] v = (boolean[]) a;
        for (int i = 0; i < v.length; i++) b.put(i, (byte) (v[i] ? 1 : 0));
        break;
      }
      default: throw new AssertionError(kind);
    }
  }
}
