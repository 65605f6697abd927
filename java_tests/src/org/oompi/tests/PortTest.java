package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.MPIException;
import org.oompi.Port;

/** world.port(r).send/recv: direct buffers and arrays (fast paths), other types, bad inputs. */
class PortTest extends WorldTest {
  private final Port next = world.port((rank + 1) % size);
  private final Port prev = world.port((rank + size - 1) % size);

  /**
   * Small messages around the ring: eager, so sending first cannot deadlock. At 1 rank the
   * message goes to this process itself: one sendrecv there, as a blocking send may wait until
   * its receive is posted (MPICH 4.0's send to oneself does).
   */
  private void ring(Object out, Object in, int tag) {
    if ((rank + 1) % size == rank) {
      world.sendrecv(out, rank, tag, in, rank, tag);
      return;
    }
    next.send(out, tag);
    prev.recv(in, tag);
  }

  private int prevRank() { return (rank + size - 1) % size; }

  /** world.send to the next rank, then world.recv; one sendrecv at 1 rank (see ring()). */
  private org.oompi.Status sendRecv(Object out, int tag, Object in, int source, int recvtag) {
    if ((rank + 1) % size == rank) return world.sendrecv(out, rank, tag, in, source, recvtag);
    world.send(out, (rank + 1) % size, tag);
    return world.recv(in, source, recvtag);
  }

  @Test
  void directBuffersOfEveryFastKind() {
    DoubleBuffer d = Buffers.newDoubleBuffer(3), dIn = Buffers.newDoubleBuffer(3);
    d.put(new double[] {rank, 0.5, -rank}).flip();
    ring(d, dIn, 1);
    assertArrayEquals(new double[] {prevRank(), 0.5, -prevRank()}, new double[] {dIn.get(0), dIn.get(1), dIn.get(2)});

    IntBuffer i = Buffers.newIntBuffer(2), iIn = Buffers.newIntBuffer(2);
    i.put(rank).put(7).flip();
    ring(i, iIn, 2);
    assertEquals(prevRank(), iIn.get(0));
    assertEquals(7, iIn.get(1));

    LongBuffer l = Buffers.newLongBuffer(1), lIn = Buffers.newLongBuffer(1);
    l.put(0, 1L << 40 | rank);
    ring(l, lIn, 3);
    assertEquals(1L << 40 | prevRank(), lIn.get(0));

    FloatBuffer f = Buffers.newFloatBuffer(1), fIn = Buffers.newFloatBuffer(1);
    f.put(0, rank + 0.25f);
    ring(f, fIn, 4);
    assertEquals(prevRank() + 0.25f, fIn.get(0));
  }

  @Test
  void positionAndLimitAreRespected() {
    ByteBuffer out = Buffers.newByteBuffer(8), in = Buffers.newByteBuffer(8);
    for (int k = 0; k < 8; k++) out.put(k, (byte) (10 * rank + k));
    out.position(2).limit(5);  // bytes 2, 3, 4
    in.position(4).limit(7);
    ring(out, in, 5);
    assertEquals(4, in.position(), "recv leaves the position alone");
    in.clear();
    for (int k = 0; k < 3; k++) assertEquals((byte) (10 * prevRank() + 2 + k), in.get(4 + k));
    assertEquals(0, in.get(3));
    assertEquals(0, in.get(7));
  }

  @Test
  void arrays() {
    byte[] b = {(byte) rank, 2}, bIn = new byte[2];
    ring(b, bIn, 6);
    assertArrayEquals(new byte[] {(byte) prevRank(), 2}, bIn);
    double[] d = {rank, 1.5}, dIn = new double[2];
    ring(d, dIn, 7);
    assertArrayEquals(new double[] {prevRank(), 1.5}, dIn);
    int[] i = {rank}, iIn = new int[1];
    ring(i, iIn, 8);
    assertEquals(prevRank(), iIn[0]);
    long[] l = {rank}, lIn = new long[1];  // the general path
    ring(l, lIn, 9);
    assertEquals(prevRank(), lIn[0]);
    short[] s = {(short) rank}, sIn = new short[1];
    ring(s, sIn, 10);
    assertEquals(prevRank(), sIn[0]);
  }

  @Test
  void badInputs() {
    assertThrows(IndexOutOfBoundsException.class, () -> world.port(size));
    assertThrows(IndexOutOfBoundsException.class, () -> world.port(-1));
    Port self = Comm.self().port(0);
    assertThrows(NullPointerException.class, () -> self.send(null));
    assertThrows(IllegalArgumentException.class, () -> self.send(ByteBuffer.allocate(4)));
    assertThrows(IllegalArgumentException.class, () -> self.send("not a buffer"));
    DoubleBuffer bigEndian = ByteBuffer.allocateDirect(16).order(ByteOrder.BIG_ENDIAN).asDoubleBuffer();
    if (ByteOrder.nativeOrder() != ByteOrder.BIG_ENDIAN)
      assertThrows(IllegalArgumentException.class, () -> self.send(bigEndian));
    ByteBuffer readOnly = Buffers.newByteBuffer(4).asReadOnlyBuffer();
    assertThrows(IllegalArgumentException.class, () -> self.recv(readOnly));
  }

  @Test
  void truncationThrowsAndUnpins() {
    // To this process itself, so one sendrecv each: a blocking send may wait until its receive
    // is posted (MPICH 4.0's send to oneself does).
    Comm self = Comm.self();
    for (int round = 0; round < 3; round++) {
      MPIException e = assertThrows(MPIException.class, () -> self.sendrecv(new byte[16], 0, 11, new byte[8], 0, 11));
      assertTrue(e.getMessage().toLowerCase().contains("trunc"), e.getMessage());
      assertThrows(MPIException.class,
          () -> self.sendrecv(Buffers.newByteBuffer(16), 0, 12, Buffers.newByteBuffer(8), 0, 12));
      System.gc();  // would hang if an array were still pinned
    }
    // Still usable afterwards.
    double[] back = new double[1];
    self.sendrecv(new double[] {3.5}, 0, 13, back, 0, 13);
    assertEquals(3.5, back[0]);
  }

  @Test
  void commRecvFastPathsReportTheStatus() {
    int nextRank = (rank + 1) % size;
    ByteBuffer out = Buffers.newByteBuffer(6), in = Buffers.newByteBuffer(10);
    org.oompi.Status s = sendRecv(out, 21, in, org.oompi.MPI.ANY_SOURCE, org.oompi.MPI.ANY_TAG);
    assertEquals(prevRank(), s.getSource());
    assertEquals(21, s.getTag());
    assertEquals(6, s.getCountBytes());
    double[] d = {1, 2, 3}, dIn = new double[5];
    s = sendRecv(d, 22, dIn, prevRank(), 22);
    assertEquals(prevRank(), s.getSource());
    assertEquals(24, s.getCountBytes());
    assertEquals(3, s.getCount(org.oompi.Datatype.DOUBLE));
    assertEquals(3.0, dIn[2]);
    assertEquals(0.0, dIn[3]);
  }

  /**
   * Arrays of up to 512 bytes are copied through a stack buffer, larger ones pinned: both keep
   * what a shorter message does not reach, for each fast kind, with and without a status.
   */
  @Test
  void shorterMessagesLeaveTheRestOfTheArray() {
    int nextRank = (rank + 1) % size;
    // At most 1 KiB per message: at 1 rank these go to self, whose eager limit is small.
    for (int n : new int[] {8, 64, 65, 128}) {  // receive arrays: 64 doubles fit the copy path
      double[] out = new double[n / 2], in = new double[n];
      for (int k = 0; k < out.length; k++) out[k] = rank + k;
      java.util.Arrays.fill(in, -1.0);
      ring(out, in, 30);
      for (int k = 0; k < n; k++)
        assertEquals(k < n / 2 ? prevRank() + k : -1.0, in[k], "double " + k + " of " + n);
      byte[] bout = new byte[n], bin = new byte[2 * n];
      java.util.Arrays.fill(bout, (byte) rank);
      java.util.Arrays.fill(bin, (byte) 99);
      org.oompi.Status st = sendRecv(bout, 31, bin, prevRank(), 31);
      assertEquals(n, st.getCountBytes());
      for (int k = 0; k < 2 * n; k++)
        assertEquals(k < n ? (byte) prevRank() : (byte) 99, bin[k], "byte " + k + " of " + 2 * n);
      int[] iout = {rank, 7}, iin = new int[n];
      java.util.Arrays.fill(iin, 5);
      ring(iout, iin, 32);
      assertEquals(prevRank(), iin[0]);
      assertEquals(7, iin[1]);
      for (int k = 2; k < n; k++) assertEquals(5, iin[k]);
    }
  }

  /** Each thread has its own status slot: concurrent receives report their own statuses. */
  @Test
  void statusesOfConcurrentReceives() throws Exception {
    Comm self = Comm.self();
    int threads = 4, rounds = 2000;
    Thread[] ts = new Thread[threads];
    Throwable[] failure = new Throwable[1];
    for (int t = 0; t < threads; t++) {
      final int tag = 40 + t;
      ts[t] = new Thread(() -> {
        try {
          ByteBuffer out = Buffers.newByteBuffer(tag), in = Buffers.newByteBuffer(64);
          for (int r = 0; r < rounds; r++) {
            // Sent without blocking: a blocking send to oneself may wait until its receive is
            // posted (MPICH 4.0's does).
            org.oompi.Request sent = self.isend(out, 0, tag);
            // any source: the status goes through the thread's slot
            org.oompi.Status st = self.recv(in, org.oompi.MPI.ANY_SOURCE, tag);
            sent.waitFor();
            if (st.getSource() != 0 || st.getTag() != tag || st.getCountBytes() != tag)
              throw new AssertionError("thread of tag " + tag + " got " + st);
          }
        } catch (Throwable e) {
          synchronized (failure) { failure[0] = e; }
        }
      });
      ts[t].start();
    }
    for (Thread t : ts) t.join();
    if (failure[0] != null) throw new AssertionError(failure[0]);
  }
}
