package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.MPI;
import org.oompi.MPIException;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.Status;

/** The first slice of the Java binding, end to end, at any number of ranks. */
@TestMethodOrder(MethodOrderer.MethodName.class)
class BasicTest extends WorldTest {
  @Test
  void environment() {
    assertTrue(Environment.initialized());
    assertFalse(Environment.finalized());
    assertTrue(size >= 1);
    assertTrue(rank >= 0 && rank < size);
    assertFalse(Environment.processorName().isEmpty());
    double t0 = Environment.wtime();
    assertTrue(Environment.wtime() >= t0);
    assertTrue(Environment.wtick() > 0);
    assertEquals(Comm.self().getSize(), 1);
    assertEquals(Comm.self().getRank(), 0);
  }

  @Test
  void ringWithArrays() {
    double[] out = {rank, rank + 0.5, -rank};
    double[] in = new double[3];
    Status s = world.sendrecv(out, next, 7, in, prev, 7);
    assertArrayEquals(new double[] {prev, prev + 0.5, -prev}, in);
    assertEquals(prev, s.getSource());
    assertEquals(7, s.getTag());
    assertEquals(3, s.getCount(Datatype.DOUBLE));

    // Every primitive array type travels.
    long[] lo = {Long.MAX_VALUE - rank};
    long[] li = new long[1];
    world.sendrecv(lo, next, 1, li, prev, 1);
    assertEquals(Long.MAX_VALUE - prev, li[0]);
    char[] co = {'a', (char) ('a' + rank)};
    char[] ci = new char[2];
    world.sendrecv(co, next, 2, ci, prev, 2);
    assertEquals((char) ('a' + prev), ci[1]);
    boolean[] bo = {rank % 2 == 0};
    boolean[] bi = new boolean[1];
    world.sendrecv(bo, next, 3, bi, prev, 3);
    assertEquals(prev % 2 == 0, bi[0]);
  }

  @Test
  void ringWithOffsetAndCount() {
    int[] data = {-1, -1, 10 * rank, 10 * rank + 1, -1};
    int[] into = {5, 5, 5, 5, 5, 5};
    // Send elements [2, 4) to next, receive into [3, 5) from prev; the rest stays untouched.
    Request req = world.isend(intBuffer(10 * rank, 10 * rank + 1), next, 4);
    Status s = world.recv(into, 3, 2, prev, 4);
    req.waitFor();
    assertArrayEquals(new int[] {5, 5, 5, 10 * prev, 10 * prev + 1, 5}, into);
    assertEquals(2, s.getCount(Datatype.INT));
    // And the blocking offset/count send.
    Request r2 = world.irecv(Buffers.newIntBuffer(2), prev, 5);
    world.send(data, 2, 2, next, 5);
    r2.waitFor();
  }

  private static IntBuffer intBuffer(int... values) {
    IntBuffer b = Buffers.newIntBuffer(values.length);
    b.put(values).flip();
    return b;
  }

  @Test
  void ringWithDirectBuffers() {
    DoubleBuffer out = Buffers.newDoubleBuffer(4);
    DoubleBuffer in = Buffers.newDoubleBuffer(4);
    for (int i = 0; i < 4; i++) out.put(i, rank * 100 + i);
    world.sendrecv(out, next, 11, in, prev, 11);
    for (int i = 0; i < 4; i++) assertEquals(prev * 100 + i, in.get(i));

    // position..limit is what travels.
    ByteBuffer bytes = Buffers.newByteBuffer(8);
    bytes.put(0, (byte) rank).put(5, (byte) (rank + 1));
    bytes.position(5).limit(6);
    ByteBuffer got = Buffers.newByteBuffer(1);
    Status s = world.sendrecv(bytes, next, 12, got, prev, 12);
    assertEquals(1, s.getCount(Datatype.BYTE));
    assertEquals((byte) (prev + 1), got.get(0));
  }

  @Test
  void nonblocking() {
    DoubleBuffer out = Buffers.newDoubleBuffer(2);
    DoubleBuffer in = Buffers.newDoubleBuffer(2);
    out.put(0, rank).put(1, rank * 2.0);
    Request r = world.irecv(in, prev, 21);
    Request s = world.isend(out, next, 21);
    assertTrue(s.isPending() || !s.isPending()); // callable while pending
    Status st = r.waitFor();
    s.waitFor();
    assertEquals(prev, st.getSource());
    assertEquals(prev, in.get(0));
    assertEquals(prev * 2.0, in.get(1));
    assertFalse(r.isPending());
    // test() polls: after completion it returns a status at once.
    Status again = r.test();
    assertNotNull(again);
    r.close();
    s.close();
  }

  @Test
  void nonblockingTestLoop() {
    IntBuffer in = Buffers.newIntBuffer(1);
    Request r = world.irecv(in, prev, 22);
    world.send(new int[] {rank + 1000}, next, 22);
    Status st;
    while ((st = r.test()) == null) {
      Thread.onSpinWait();
    }
    assertEquals(22, st.getTag());
    assertEquals(prev + 1000, in.get(0));
  }

  @Test
  void allreduceSum() {
    int[] in = {rank, 1};
    int[] out = new int[2];
    world.allreduce(in, out, Op.SUM);
    assertArrayEquals(new int[] {size * (size - 1) / 2, size}, out);

    DoubleBuffer d = Buffers.newDoubleBuffer(1);
    d.put(0, rank + 1.0);
    world.allreduceInPlace(d, Op.MAX);
    assertEquals(size, d.get(0));
  }

  @Test
  void bcastAndBarrier() {
    long[] v = rank == 0 ? new long[] {42, 43} : new long[2];
    world.bcast(v, 0);
    assertArrayEquals(new long[] {42, 43}, v);
    world.barrier();
  }

  @Test
  void probe() {
    // Sent without blocking: a blocking send to oneself may wait until its receive is posted
    // (MPICH 4.0's does).
    java.nio.ShortBuffer out = Buffers.newShortBuffer(3);
    out.put(new short[] {1, 2, 3}).flip();
    Request sent = world.isend(out, rank, 31);
    Status p = world.probe(rank, 31);
    assertEquals(3, p.getCount(Datatype.SHORT));
    short[] got = new short[(int) p.getCount(Datatype.SHORT)];
    world.recv(got, rank, 31);
    sent.waitFor();
    assertArrayEquals(new short[] {1, 2, 3}, got);
    assertNull(world.iprobe(rank, 32));
  }

  @Test
  void badOffsetAndCount() {
    int[] a = new int[4];
    assertThrows(IndexOutOfBoundsException.class, () -> world.send(a, 3, 2, next, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> world.send(a, -1, 1, next, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> world.recv(a, 0, 5, prev, 0));
  }

  @Test
  void badBuffers() {
    assertThrows(IllegalArgumentException.class, () -> world.send("not a buffer", next, 0));
    assertThrows(NullPointerException.class, () -> world.send(null, next, 0));
    // A heap buffer has no address; a big-endian view is not in native order.
    assertThrows(IllegalArgumentException.class,
        () -> world.send(DoubleBuffer.allocate(2), next, 0));
    assertThrows(IllegalArgumentException.class,
        () -> world.send(ByteBuffer.allocateDirect(16).asDoubleBuffer(), next, 0));
    // Arrays can move: nonblocking operations copy them (ParityTest), persistent requests,
    // which a copy could not follow from one start() to the next, refuse them.
    assertThrows(IllegalArgumentException.class, () -> world.sendInit(new int[1], next, 0));
    assertThrows(IllegalArgumentException.class, () -> world.recvInit(new int[1], prev, 0));
    // A read-only buffer cannot receive.
    assertThrows(IllegalArgumentException.class,
        () -> world.recv(Buffers.newIntBuffer(1).asReadOnlyBuffer(), prev, 0));
  }

  @Test
  void mpiErrors() {
    // Receiving 4 ints into room for 2: MPI_ERR_TRUNCATE.
    Request r = world.isend(intBuffer(1, 2, 3, 4), rank, 41);
    int[] small = new int[2];
    MPIException e = assertThrows(MPIException.class, () -> world.recv(small, rank, 41));
    assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
    assertEquals("MPI_Recv", e.getRoutine());
    r.waitFor();
    // A rank that does not exist.
    MPIException e2 = assertThrows(MPIException.class, () -> world.send(new int[1], size, 0));
    assertEquals(MPI.ERR_RANK, e2.getErrorClass());
    // A nonblocking call that fails at once drops its global reference again.
    MPIException e3 =
        assertThrows(MPIException.class, () -> world.isend(Buffers.newIntBuffer(1), size, 0));
    assertEquals(MPI.ERR_RANK, e3.getErrorClass());
  }

  @Test
  void closedHandles() {
    Comm c = world.dup();
    assertEquals(size, c.getSize());
    c.barrier();
    c.close();
    c.close(); // idempotent
    assertThrows(IllegalStateException.class, c::barrier);
    assertThrows(IllegalStateException.class, c::getRank);

    try (Comm d = world.dup()) {
      int[] x = {rank};
      int[] y = new int[1];
      d.allreduce(x, y, Op.SUM);
      assertEquals(size * (size - 1) / 2, y[0]);
    }

    Datatype t = Datatype.contiguous(3, Datatype.INT);
    assertEquals(12, t.getSize());
    t.close();
    assertThrows(IllegalStateException.class, t::getSize);
    Datatype.INT.close(); // builtins are shared constants: closing one does nothing
    assertEquals(4, Datatype.INT.getSize());

    Request r = world.isend(intBuffer(7), rank, 51);
    world.recv(new int[1], rank, 51);
    r.close();
    assertThrows(IllegalStateException.class, r::waitFor);
  }

  @Test
  void arraysStayCorrectWhileTheGcRuns() throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    Thread garbage = new Thread(() -> {
      long sink = 0;
      while (!stop.get()) {
        byte[] b = new byte[1 << 16];
        sink += b.length;
        if ((sink & ((1 << 22) - 1)) == 0) System.gc();
        Thread.yield();
      }
    });
    garbage.setDaemon(true);
    garbage.start();
    try {
      for (int i = 0; i < 60; i++) {
        double[] out = new double[64];
        double[] in = new double[64];
        for (int k = 0; k < 64; k++) out[k] = rank * 1000 + i + k;
        world.sendrecv(out, next, 61, in, prev, 61);
        for (int k = 0; k < 64; k++) assertEquals(prev * 1000 + i + k, in[k]);
      }
    } finally {
      stop.set(true);
      garbage.join();
    }
  }
}
