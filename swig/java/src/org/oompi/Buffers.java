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
}
