package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The memory of a primitive array as bytes, in native order: how C (and Open MPI's bindings,
 * which pinned the array) see an int[] sent as MPI.BYTE or MPI.CHAR. The blocking calls send
 * such a copy and copy a receive back; org.oompi takes only arrays of the message's own type.
 */
final class RawArrays {
  private RawArrays() {}

  /** A direct native-order copy of a's elements from index off to the end. */
  static ByteBuffer bytesOf(Object a, int off) throws MPIException {
    int n = java.lang.reflect.Array.getLength(a) - off;
    ByteBuffer bb = ByteBuffer.allocateDirect(n * elementSize(a)).order(ByteOrder.nativeOrder());
    if (a instanceof byte[]) bb.put((byte[]) a, off, n);
    else if (a instanceof char[]) bb.asCharBuffer().put((char[]) a, off, n);
    else if (a instanceof short[]) bb.asShortBuffer().put((short[]) a, off, n);
    else if (a instanceof int[]) bb.asIntBuffer().put((int[]) a, off, n);
    else if (a instanceof long[]) bb.asLongBuffer().put((long[]) a, off, n);
    else if (a instanceof float[]) bb.asFloatBuffer().put((float[]) a, off, n);
    else bb.asDoubleBuffer().put((double[]) a, off, n);
    return bb.clear();
  }

  /**
   * bytesOf in reverse: bb's bytes into a's elements from index off, when bb is such a copy (a
   * buffer of another size, e.g. the empty one of a non-root rank, leaves a alone).
   */
  static void copyBack(ByteBuffer bb, Object a, int off) {
    int size;
    try {
      size = elementSize(a);
    } catch (MPIException e) {
      return;
    }
    if (bb.capacity() != (long) (java.lang.reflect.Array.getLength(a) - off) * size) return;
    ByteBuffer src = bb.duplicate().clear().order(ByteOrder.nativeOrder());
    int n = java.lang.reflect.Array.getLength(a) - off;
    if (a instanceof byte[]) src.get((byte[]) a, off, n);
    else if (a instanceof char[]) src.asCharBuffer().get((char[]) a, off, n);
    else if (a instanceof short[]) src.asShortBuffer().get((short[]) a, off, n);
    else if (a instanceof int[]) src.asIntBuffer().get((int[]) a, off, n);
    else if (a instanceof long[]) src.asLongBuffer().get((long[]) a, off, n);
    else if (a instanceof float[]) src.asFloatBuffer().get((float[]) a, off, n);
    else if (a instanceof double[]) src.asDoubleBuffer().get((double[]) a, off, n);
  }

  private static int elementSize(Object a) throws MPIException {
    if (a instanceof byte[]) return 1;
    if (a instanceof char[] || a instanceof short[]) return 2;
    if (a instanceof int[] || a instanceof float[]) return 4;
    if (a instanceof long[] || a instanceof double[]) return 8;
    throw new MPIException(MPI.ERR_BUFFER, "not a numeric primitive array: " + a.getClass().getName());
  }
}
