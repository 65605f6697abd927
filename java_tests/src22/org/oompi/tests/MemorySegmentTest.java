package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Datatype;
import org.oompi.MPI;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.Status;

/**
 * MemorySegment (FFM API, JDK 22+) as a buffer: native segments in place (bytes, or any
 * datatype through Buffers.typed), heap, read-only and closed segments refused. Compiled and
 * run only with a JDK >= 22 (java_tests/CMakeLists.txt); oompi.jar itself stays Java 17.
 */
class MemorySegmentTest extends WorldTest {
  private final int right = next;
  private final int left = prev;

  @Test
  void sendRecvBytesAndTyped() {
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ValueLayout.JAVA_DOUBLE, 5);
      MemorySegment in = arena.allocate(ValueLayout.JAVA_DOUBLE, 5);
      for (int i = 0; i < 5; i++) out.setAtIndex(ValueLayout.JAVA_DOUBLE, i, rank * 10 + i);
      // Untyped: the segment's bytes.
      Status st = world.sendrecv(out, right, 1, in, left, 1);
      assertEquals(40, st.getCountBytes());
      for (int i = 0; i < 5; i++) assertEquals(left * 10 + i, in.getAtIndex(ValueLayout.JAVA_DOUBLE, i), 0.0);
      // Typed: MPI sees doubles (a reduction needs the element type).
      MemorySegment sum = arena.allocate(ValueLayout.JAVA_DOUBLE, 5);
      world.allreduce(Buffers.typed(out, Datatype.DOUBLE), Buffers.typed(sum, Datatype.DOUBLE), Op.SUM);
      for (int i = 0; i < 5; i++)
        assertEquals(10.0 * size * (size - 1) / 2 + size * i, sum.getAtIndex(ValueLayout.JAVA_DOUBLE, i), 0.0);
      // A slice is its own segment: only its bytes move.
      MemorySegment part = arena.allocate(16);
      part.fill((byte) 0);
      world.sendrecv(out.asSlice(8, 8), right, 2, part.asSlice(4, 8), left, 2);
      assertEquals(0, part.get(ValueLayout.JAVA_INT_UNALIGNED, 0));
      assertEquals(left * 10 + 1.0, part.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 4), 0.0);
    }
  }

  @Test
  void nonblocking() {
    try (Arena arena = Arena.ofShared()) {
      MemorySegment out = arena.allocate(ValueLayout.JAVA_INT, 4);
      MemorySegment in = arena.allocate(ValueLayout.JAVA_INT, 4);
      for (int i = 0; i < 4; i++) out.setAtIndex(ValueLayout.JAVA_INT, i, rank + i);
      Request r = world.irecv(Buffers.typed(in, Datatype.INT), left, 3);
      Request s = world.isend(out, right, 3);
      r.waitFor();
      s.waitFor();
      for (int i = 0; i < 4; i++) assertEquals(left + i, in.getAtIndex(ValueLayout.JAVA_INT, i));
    }
    // An automatic arena's segment is kept reachable by the pending request.
    MemorySegment auto = Arena.ofAuto().allocate(8);
    auto.set(ValueLayout.JAVA_LONG, 0, rank);
    MemorySegment got = Arena.ofAuto().allocate(8);
    Request r = world.irecv(got, left, 4);
    Request s = world.isend(auto, right, 4);
    auto = null;
    System.gc();
    r.waitFor();
    s.waitFor();
    assertEquals(left, got.get(ValueLayout.JAVA_LONG, 0));
  }

  @Test
  void refusals() {
    // Heap segments wrap a movable Java array: refused, the array itself is the way.
    MemorySegment heap = MemorySegment.ofArray(new double[4]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> world.send(heap, MPI.PROC_NULL, 5));
    assertTrue(e.getMessage().contains("heap MemorySegment"), e.getMessage());
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment ro = arena.allocate(8).asReadOnly();
      world.send(ro, MPI.PROC_NULL, 5);  // MPI only reads it
      e = assertThrows(IllegalArgumentException.class, () -> world.recv(ro, MPI.PROC_NULL, 5));
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }
    Arena arena = Arena.ofConfined();
    MemorySegment closed = arena.allocate(8);
    arena.close();
    IllegalStateException c =
        assertThrows(IllegalStateException.class, () -> world.send(closed, MPI.PROC_NULL, 5));
    assertTrue(c.getMessage().contains("closed"), c.getMessage());
    // Bounds of a typed view are checked against the segment's size.
    try (Arena a = Arena.ofConfined()) {
      MemorySegment small = a.allocate(12);
      assertThrows(IndexOutOfBoundsException.class,
                   () -> world.send(Buffers.typed(small, 2, Datatype.DOUBLE), MPI.PROC_NULL, 5));
    }
  }
}
