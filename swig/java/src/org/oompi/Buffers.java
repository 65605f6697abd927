package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.nio.CharBuffer;

/**
 * Direct buffers in native byte order: passed to MPI by address (zero copy) and usable by
 * nonblocking operations, unlike arrays. MPI sends and receives a buffer's elements from its
 * position to its limit.
 */
public final class Buffers {
  private Buffers() {}

  /** A direct byte buffer of {@code bytes} bytes in native byte order. */
  public static ByteBuffer newByteBuffer(int bytes) {
    return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
  }

  public static DoubleBuffer newDoubleBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Double.BYTES)).asDoubleBuffer();
  }

  public static FloatBuffer newFloatBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Float.BYTES)).asFloatBuffer();
  }

  public static IntBuffer newIntBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Integer.BYTES)).asIntBuffer();
  }

  public static LongBuffer newLongBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Long.BYTES)).asLongBuffer();
  }

  public static ShortBuffer newShortBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Short.BYTES)).asShortBuffer();
  }

  public static CharBuffer newCharBuffer(int n) {
    return newByteBuffer(Math.multiplyExact(n, Character.BYTES)).asCharBuffer();
  }

  /**
   * {@code buf} (a primitive array or a direct buffer) as {@code count} elements of
   * {@code type}, for any call that takes a buffer: {@code comm.send(Buffers.typed(a, 1, blk),
   * 1, 0)}. The elements must lie inside the buffer (checked at the call).
   */
  public static TypedBuffer typed(Object buf, long count, Datatype type) {
    if (count < 0) throw new IllegalArgumentException("oompi: negative count " + count);
    return new TypedBuffer(buf, count, type);
  }

  /** {@code buf} as as many whole elements of {@code type} as fit in it. */
  public static TypedBuffer typed(Object buf, Datatype type) {
    return new TypedBuffer(buf, -1, type);
  }
}
