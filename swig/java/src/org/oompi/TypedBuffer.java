package org.oompi;

import java.util.Objects;

/**
 * A buffer seen as {@code count} elements of an explicit datatype: a derived type (seed 000's
 * {@code send(A, 1, blk, 1, 0)} is {@code send(Buffers.typed(A, 1, blk), 1, 0)}), a MAXLOC pair
 * ({@link Datatype#valueIndex}) or a struct type over a ByteBuffer. Accepted wherever a buffer is;
 * the elements must lie inside the array or the buffer's position..limit, else the call throws
 * IndexOutOfBoundsException before MPI sees it. Keeps its datatype reachable.
 */
public final class TypedBuffer {
  final Object buffer;
  final long count;  // -1: as many whole elements as fit
  final Datatype type;  // its native object is read at each call (close() deletes it)

  TypedBuffer(Object buffer, long count, Datatype type) {
    this.buffer = Objects.requireNonNull(buffer, "oompi: the buffer is null");
    this.type = Objects.requireNonNull(type, "oompi: the datatype is null");
    if (buffer instanceof TypedBuffer)
      throw new IllegalArgumentException("oompi: a TypedBuffer cannot wrap another TypedBuffer");
    if (count < -1) throw new IllegalArgumentException("oompi: negative count " + count);
    this.count = count;
  }

  public Object buffer() { return buffer; }
  public Datatype type() { return type; }
  /** The element count, or -1 for as many whole elements as fit. */
  public long count() { return count; }
}
