package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.MPI;
import org.oompi.Request;
import org.oompi.Status;

/**
 * Blocking ranges below 64 KiB (and whole arrays of 512 B to 64 KiB), which travel through the
 * thread's direct buffer copied in Java (org.oompi.ArrayRanges), and nonblocking ones below
 * 256 KiB (light requests on pooled blocks), at the sizes where the buffers grow and where the
 * native path takes over, every kind, with the status's
 * source unknown (the slot) or known (the size only), a partly filled last element, and threads
 * each with its own buffer. The kinds, patterns and checks are ArraySlicesTest's.
 */
@ExtendWith(MpiExtension.class)
@TestMethodOrder(MethodOrderer.MethodName.class)
class ArraySlicesSmallTest {
  private final Comm world = Comm.world();
  private final int rank = world.getRank();
  private final int size = world.getSize();
  private final int next = (rank + 1) % size;
  private final int prev = (rank + size - 1) % size;
  static final int LENGTH = 40_000;  // elements: above 64 KiB of every kind but byte and boolean

  /** Byte counts: one element, the buffer's growth steps, just below and at 64 KiB (blocking
   *  calls' bound) and 256 KiB (nonblocking calls'). */
  static final int[] BYTES = {8, 3000, 4096, 4104, 20_000, 65_528, 65_536, 262_136, 262_144};

  @Test
  void blockingRangesAroundTheScratchSizes() {
    for (ArraySlicesTest.Kind k : ArraySlicesTest.KINDS) {
      int per = ArraySlicesTest.bytesPer(k);
      for (int bytes : BYTES) {
        int n = bytes / per;
        int len = Math.max(LENGTH, 2 * n + 100);
        Object out = k.make().apply(len), in = k.make().apply(len);
        k.fill().at(out, 0, len, ArraySlicesTest.sent(rank));
        k.fill().at(in, 0, len, ArraySlicesTest.UNTOUCHED);
        int off = 17 + bytes % 13, recvOff = off + 5;
        for (int way = 0; way < 2; way++) {  // source known (the size only) or not (the slot)
          int tag = 50 + way;
          Request q = world.irecv(in, recvOff, n, way == 0 ? prev : MPI.ANY_SOURCE, MPI.ANY_TAG);
          // the blocking calls: this rank's send of a range, then its receive into another range
          world.send(out, off, n, next, tag);
          Status st = q.waitFor();
          q.close();
          assertEquals((long) n * per, st.getCountBytes(), k.name() + " " + bytes + " B");
          check(k, in, recvOff, n, off, len, k.name() + " " + bytes + " B nonblocking");
          k.fill().at(in, 0, len, ArraySlicesTest.UNTOUCHED);
          int shorter = Math.max(1, n - 3);
          try (Request s = world.isend(out, off, shorter, next, tag)) {
            st = way == 0 ? world.recv(in, recvOff, n, prev, tag)
                          : world.recv(in, recvOff, n, MPI.ANY_SOURCE, MPI.ANY_TAG);
            s.waitFor();
          }
          assertEquals((long) shorter * per, st.getCountBytes(), k.name() + " " + bytes + " B");
          assertEquals(prev, st.getSource());
          assertEquals(tag, st.getTag());
          check(k, in, recvOff, shorter, off, len, k.name() + " " + bytes + " B blocking");
          k.fill().at(in, 0, len, ArraySlicesTest.UNTOUCHED);
        }
        assertEquals(-1, k.check().at(out, 0, len, ArraySlicesTest.sent(rank)), k.name() + ": sent array changed");
      }
    }
  }

  /** `in` holds prev's elements [sendOff, sendOff + got) at [off, off + got), the rest untouched. */
  private void check(ArraySlicesTest.Kind k, Object in, int off, int got, int sendOff, int len, String what) {
    assertEquals(-1, k.check().at(in, 0, off, ArraySlicesTest.UNTOUCHED), what + ": before the range");
    assertEquals(-1, k.check().at(in, off + got, len, ArraySlicesTest.UNTOUCHED), what + ": past the message");
    Object shifted = k.make().apply(sendOff + got);
    System.arraycopy(in, off, shifted, sendOff, got);
    assertEquals(-1, k.check().at(shifted, sendOff, sendOff + got, ArraySlicesTest.sent(prev)), what + ": the message");
  }

  @Test
  void wholeArraysBelow64KiBThroughPorts() {
    for (int n : new int[] {129, 5000, 16_383, 16_384}) {  // int[]: 516 B to 64 KiB
      int[] out = new int[n], in = new int[n];
      for (int i = 0; i < n; i++) out[i] = rank * 1_000_003 + i;
      java.util.Arrays.fill(in, -9);
      try (Request s = world.isend(out, 0, n - 1, next, 60)) {  // one element short
        world.port(prev).recv(in, 60);
        s.waitFor();
      }
      for (int i = 0; i < n - 1; i++) if (in[i] != prev * 1_000_003 + i) assertEquals(prev * 1_000_003 + i, in[i], n + ": element " + i);
      assertEquals(-9, in[n - 1], n + ": past the message");
      double[] d = new double[n], e = new double[n];
      for (int i = 0; i < n; i++) d[i] = rank + i / 8.0;
      try (Request q = world.irecv(e, prev, 61)) {
        world.port(next).send(d, 61);
        q.waitFor();
      }
      for (int i = 0; i < n; i++) if (e[i] != prev + i / 8.0) assertEquals(prev + i / 8.0, e[i], n + ": double " + i);
    }
  }

  @Test
  void blockingReceiveFillsPartOfTheLastElement() {
    // 4 ints and 2 bytes into an int range: element 4 gets the 2 bytes and keeps its other 2
    // (erroneous in MPI; MPICH's send to oneself aborts on it: left out at 1 rank there, as in
    // ArraySlicesTest)
    org.junit.jupiter.api.Assumptions.assumeFalse(
        size == 1 && org.oompi.Environment.libraryVersion().contains("MPICH"),
        "MPICH's send to oneself aborts on a partial element");
    int[] in = new int[64];
    java.util.Arrays.fill(in, 0x7A7A7A7A);
    in[14] = 0x5B5B5B5B;
    ByteBuffer msg = Buffers.newByteBuffer(18);
    for (int i = 0; i < 18; i++) msg.put(i, (byte) (0x10 + i + rank));
    try (Request s = world.isend(msg, next, 62)) {
      assertEquals(18, world.recv(in, 10, 20, prev, 62).getCountBytes());
      s.waitFor();
    }
    ByteBuffer want = Buffers.newByteBuffer(4);
    want.putInt(0, 0x5B5B5B5B);
    want.put(0, (byte) (0x10 + 16 + prev)).put(1, (byte) (0x10 + 17 + prev));
    assertEquals(want.getInt(0), in[14], "the partly filled element");
    ByteBuffer sent = Buffers.newByteBuffer(16);  // what prev sent, in native order
    for (int i = 0; i < 16; i++) sent.put(i, (byte) (0x10 + i + prev));
    for (int i = 0; i < 4; i++) assertEquals(sent.getInt(4 * i), in[10 + i], "element " + (10 + i));
    assertEquals(0x7A7A7A7A, in[15], "past the message");
    assertEquals(0x7A7A7A7A, in[9], "before the range");
  }

  @Test
  void nonblockingRangesManyInFlight() {
    // 20 receives and 20 sends pending at once (more than a thread's 8 free blocks and its ring
    // of 16 light requests), completed by waitFor, test and a request set (which turns them
    // native: the copy-back goes with them), two rounds (the blocks reused, other sizes)
    final int count = 20;
    int[] out = new int[30_000], in = new int[30_000];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < out.length; i++) out[i] = rank * 100_000 + i + round;
      java.util.Arrays.fill(in, -5);
      Request[] q = new Request[count], t = new Request[count];
      int[] off = new int[count], n = new int[count];
      for (int j = 0, at = 3; j < count; j++) {
        n[j] = 50 + 97 * j + round * 13;
        off[j] = at;
        at += n[j] + 2;
        q[j] = world.irecv(in, off[j], n[j], prev, 90 + j);
      }
      System.gc();
      for (int j = 0; j < count; j++) t[j] = world.isend(out, off[j] + 1, n[j] - 1, next, 90 + j);
      org.oompi.RequestVector v = new org.oompi.RequestVector();
      for (int j = 0; j < count; j++) {
        if (j % 3 == 0) assertEquals(4L * (n[j] - 1), q[j].waitFor().getCountBytes());
        else if (j % 3 == 1) while (q[j].test() == null) Thread.onSpinWait();
        else v.add(q[j]);
      }
      Request.waitAll(v);
      for (int j = 0; j < count; j++) {
        t[j].waitFor();
        t[j].close();
        q[j].close();
        for (int i = off[j] - 2; i < off[j] + n[j]; i++) {
          int want = i >= off[j] && i < off[j] + n[j] - 1 ? prev * 100_000 + i + 1 + round : -5;
          if (i >= 0 && in[i] != want) assertEquals(want, in[i], "round " + round + " request " + j + " element " + i);
        }
      }
    }
  }

  @Test
  void threadsEachThroughTheirOwnBuffer() throws Exception {
    ArraySlicesTest.assumeTwoMpiThreads(size);
    final int threads = 3, rounds = 200;
    java.util.concurrent.atomic.AtomicReference<Throwable> failed =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      final int id = t, n = 1000 + 3000 * t;  // bytes: each thread's buffer its own size
      ts[t] = new Thread(() -> {
        byte[] out = new byte[3 * n], in = new byte[3 * n];
        try {
          for (int r = 0; r < rounds; r++) {
            java.util.Arrays.fill(out, n, 2 * n, (byte) (rank * 16 + id + r));
            java.util.Arrays.fill(in, (byte) -1);
            Request q = world.irecv(in, n + 1, n, prev, 70 + id);
            world.send(out, n, n, next, 70 + id);
            q.waitFor();
            q.close();
            for (int i = 0; i < in.length; i++) {
              byte want = i > n && i <= 2 * n ? (byte) (prev * 16 + id + r) : (byte) -1;
              if (in[i] != want) throw new AssertionError("thread " + id + " round " + r + " element " + i);
            }
            try (Request s = world.isend(out, n, n, next, 80 + id)) {
              world.recv(in, 7, n, prev, 80 + id);
              s.waitFor();
            }
            if (in[6] != -1) throw new AssertionError("thread " + id + " round " + r + ": before the range");
            for (int i = 7; i < 7 + n; i++)
              if (in[i] != (byte) (prev * 16 + id + r))
                throw new AssertionError("thread " + id + " round " + r + " blocking element " + i);
          }
        } catch (Throwable e) {
          failed.compareAndSet(null, e);
        }
      });
      ts[t].start();
    }
    for (Thread t : ts) t.join(120_000);
    for (Thread t : ts) assertEquals(false, t.isAlive(), "a thread is stuck");
    assertEquals(null, failed.get());
  }
}
