package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Datatype;
import org.oompi.Op;
import org.oompi.Request;

/** Buffers.typed: derived and pair datatypes over arrays and direct buffers, bounds checked. */
class TypedBufferTest extends WorldTest {
  @Test
  void vectorBlockOfAnArray() {
    // Seed 000, Fig. 8: the leading 3x3 block of a 5x5 matrix, broadcast from rank 0.
    double[] a = new double[25];
    for (int i = 0; i < 25; i++) a[i] = rank == 0 ? i : -1;
    try (Datatype blk = Datatype.vector(3, 3, 5, Datatype.DOUBLE)) {
      world.bcast(Buffers.typed(a, 1, blk), 0);
    }
    for (int i = 0; i < 25; i++) {
      boolean inBlock = i % 5 < 3 && i / 5 < 3;
      assertEquals(inBlock || rank == 0 ? i : -1, a[i], 0.0, "element " + i);
    }
  }

  @Test
  void maxlocOverDoubleIntPairs() {
    // Seed 000, Fig. 11: 30 pairs per rank; MAXLOC keeps the largest value and its rank.
    long ext = Datatype.DOUBLE_INT.getExtent();
    assertEquals(16, ext);
    ByteBuffer in = Buffers.newByteBuffer(30 * (int) ext), out = Buffers.newByteBuffer(30 * (int) ext);
    for (int k = 0; k < 30; k++) {
      in.putDouble(k * (int) ext, ((rank + 1) * (k + 3)) % 7);
      in.putInt(k * (int) ext + 8, rank);
    }
    world.allreduce(Buffers.typed(in, 30, Datatype.DOUBLE_INT), Buffers.typed(out, Datatype.DOUBLE_INT), Op.MAXLOC);
    for (int k = 0; k < 30; k++) {
      int best = 0;
      for (int r = 1; r < size; r++)
        if (((r + 1) * (k + 3)) % 7 > ((best + 1) * (k + 3)) % 7) best = r;
      assertEquals(((best + 1) * (k + 3)) % 7, out.getDouble(k * (int) ext), 0.0);
      assertEquals(best, out.getInt(k * (int) ext + 8));
    }
  }

  @Test
  void nonblockingOverADirectBuffer() {
    // Every other double of 8, around the ring, nonblocking.
    DoubleBuffer out = Buffers.newDoubleBuffer(8), in = Buffers.newDoubleBuffer(8);
    for (int i = 0; i < 8; i++) {
      out.put(i, rank * 10 + i);
      in.put(i, -1);
    }
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    try (Datatype strided = Datatype.vector(4, 1, 2, Datatype.DOUBLE)) {
      Request r = world.irecv(Buffers.typed(in, 1, strided), prev, 7);
      Request s = world.isend(Buffers.typed(out, 1, strided), next, 7);
      assertEquals(4 * 8, r.waitFor().getCountBytes());
      s.waitFor();
    }
    for (int i = 0; i < 8; i++) assertEquals(i % 2 == 0 ? prev * 10 + i : -1, in.get(i), 0.0);
  }

  @Test
  void badTypedBuffers() {
    try (Datatype blk = Datatype.vector(3, 3, 5, Datatype.DOUBLE)) {  // spans 13 doubles
      assertThrows(IndexOutOfBoundsException.class, () -> world.bcast(Buffers.typed(new double[12], 1, blk), 0));
      assertThrows(IndexOutOfBoundsException.class,
          () -> world.send(Buffers.typed(new double[25], 2, blk), rank, 0));  // 2 span 26
      DoubleBuffer d = Buffers.newDoubleBuffer(20);
      d.position(10);  // position..limit holds 10 doubles only
      assertThrows(IndexOutOfBoundsException.class, () -> world.bcast(Buffers.typed(d, 1, blk), 0));
      assertThrows(IllegalArgumentException.class, () -> Buffers.typed(new double[25], -1, blk));
      assertThrows(NullPointerException.class, () -> Buffers.typed(null, 1, blk));
      assertThrows(NullPointerException.class, () -> Buffers.typed(new double[25], 1, null));
      assertThrows(IllegalArgumentException.class,
          () -> Buffers.typed(Buffers.typed(new double[25], 1, blk), 1, blk));
      assertThrows(IllegalArgumentException.class,  // arrays move: never persistent
          () -> world.recvInit(Buffers.typed(new double[25], 1, blk), rank, 0));
    }
    Datatype closed = Datatype.vector(2, 1, 2, Datatype.INT);
    closed.close();
    assertThrows(IllegalStateException.class, () -> world.bcast(Buffers.typed(new int[4], 1, closed), 0));
  }
}
