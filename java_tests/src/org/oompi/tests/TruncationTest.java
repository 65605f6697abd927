package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.MPI;
import org.oompi.MPIException;
import org.oompi.Message;
import org.oompi.Request;

/**
 * A truncated receive into a slice of a larger array or direct buffer (issue 14): MPIException
 * with MPI.ERR_TRUNCATE, nothing outside the slice written, the slice holding the message's first
 * elements (or unchanged: MPI specifies neither). Open MPI 4.1 alone writes a message above its
 * eager limit (1000 and 100000 doubles here) past the slice: in a Java array that is heap
 * corruption. Ring: at 1 rank to itself.
 */
@ExtendWith(MpiExtension.class)
class TruncationTest {
  private static final double SENTINEL = -7.0;
  private static final int OFFSET = 4;
  private static final int[] SIZES = {10, 1000, 100000};
  private final Comm world = Comm.world();
  private final int rank = world.getRank();
  private final int size = world.getSize();
  private final int next = (rank + 1) % size;
  private final int prev = (rank + size - 1) % size;

  /** The message: 2n doubles, i + 0.5 at i (a direct buffer: isend needs one). */
  private static DoubleBuffer message(int n) {
    DoubleBuffer b = Buffers.newDoubleBuffer(2 * n);
    for (int i = 0; i < 2 * n; i++) b.put(i, i + 0.5);
    return b;
  }

  private static double[] sentinels(int n) {
    double[] a = new double[3 * n + 8];
    Arrays.fill(a, SENTINEL);
    return a;
  }

  /** A direct buffer of 3n + 8 sentinels. */
  private static DoubleBuffer directSentinels(int n) {
    DoubleBuffer b = Buffers.newDoubleBuffer(3 * n + 8);
    for (int i = 0; i < b.capacity(); i++) b.put(i, SENTINEL);
    return b;
  }

  /** Its slice [OFFSET, OFFSET + n) as position and limit. */
  private static DoubleBuffer slice(DoubleBuffer whole, int n) {
    DoubleBuffer s = whole.duplicate();
    s.limit(OFFSET + n).position(OFFSET);
    return s;
  }

  private static void checkSlice(double[] a, int n) {
    int outside = 0;
    int first = 0;
    int kept = 0;
    for (int i = 0; i < a.length; i++) {
      boolean in = i >= OFFSET && i < OFFSET + n;
      if (!in && a[i] != SENTINEL) outside++;
      if (in && a[i] == i - OFFSET + 0.5) first++;
      if (in && a[i] == SENTINEL) kept++;
    }
    assertEquals(0, outside, "elements written outside the slice (n = " + n + ")");
    // The message's first n elements (the guard, Open MPI) or unchanged (MPICH writes nothing).
    assertTrue(first == n || kept == n, "the slice is neither the message's start nor unchanged");
  }

  private static void checkSlice(DoubleBuffer whole, int n) {
    double[] a = new double[whole.capacity()];
    whole.duplicate().clear().get(a);
    checkSlice(a, n);
  }

  private static void expectTruncate(Executable e) {
    MPIException x = assertThrows(MPIException.class, e);
    assertEquals(MPI.ERR_TRUNCATE, x.getErrorClass(), x.getMessage());
  }

  @Test
  void arraySliceWithStatus() {
    for (int n : SIZES) {
      double[] a = sentinels(n);
      Request s = world.isend(message(n), next, 1);
      expectTruncate(() -> world.recv(a, OFFSET, n, prev, 1));
      s.waitFor();
      checkSlice(a, n);
    }
  }

  @Test
  void directSliceWithStatus() {
    for (int n : SIZES) {
      DoubleBuffer b = directSentinels(n);
      Request s = world.isend(message(n), next, 2);
      expectTruncate(() -> world.recv(slice(b, n), prev, 2));
      s.waitFor();
      checkSlice(b, n);
    }
  }

  @Test
  void portWithoutStatus() {
    for (int n : SIZES) {
      DoubleBuffer b = directSentinels(n);
      Request s = world.isend(message(n), next, 0);
      expectTruncate(() -> world.port(prev).recv(slice(b, n)));
      s.waitFor();
      checkSlice(b, n);
    }
  }

  @Test
  void matchedProbeBlockingAndNonblocking() {
    for (int n : SIZES) {
      DoubleBuffer b = directSentinels(n);
      Request s = world.isend(message(n), next, 3);
      Message m = world.mprobe(prev, 3);
      assertEquals(16L * n, m.getCountBytes());
      expectTruncate(() -> m.recv(slice(b, n)));
      s.waitFor();
      checkSlice(b, n);

      DoubleBuffer c = directSentinels(n);
      s = world.isend(message(n), next, 4);
      Message m2 = world.mprobe(prev, 4);
      expectTruncate(() -> m2.irecv(slice(c, n)).waitFor());
      s.waitFor();
      checkSlice(c, n);
    }
  }

  @Test
  void sendrecvIntoASlice() {
    for (int n : SIZES) {
      DoubleBuffer b = directSentinels(n);
      expectTruncate(() -> world.sendrecv(message(n), next, 5, slice(b, n), prev, 5));
      checkSlice(b, n);
    }
  }

  /**
   * Environment.setReceiveGuard: off, a message that fits is received as usual (and on Open MPI 4
   * a larger one is written past the slice: into the rest of the direct buffer here, which shows
   * the guard was off); back on, nothing outside the slice is written.
   */
  @Test
  void receiveGuardSwitch() {
    boolean openMpi4 = Environment.libraryVersion().startsWith("Open MPI v4.");
    assertEquals(Environment.libraryVersion().startsWith("Open MPI"), Environment.receiveGuard(),
        "on by default with Open MPI, off with MPICH");
    int n = 100000;
    try {
      Environment.setReceiveGuard(false);
      assertFalse(Environment.receiveGuard());
      DoubleBuffer b = directSentinels(n);
      DoubleBuffer part = message(n);
      part.limit(n);
      Request s = world.isend(part, next, 6);
      assertEquals(8L * n, world.recv(slice(b, n), prev, 6).getCountBytes());
      s.waitFor();
      checkSlice(b, n);
      if (openMpi4) {
        DoubleBuffer c = directSentinels(n);
        Request s2 = world.isend(message(n), next, 7);
        expectTruncate(() -> world.recv(slice(c, n), prev, 7));
        s2.waitFor();
        assertEquals(n + 0.5, c.get(OFFSET + n), "the guard was off: written past the slice");
      }
    } finally {
      Environment.setReceiveGuard(true);
    }
    double[] a = sentinels(n);
    Request s = world.isend(message(n), next, 8);
    expectTruncate(() -> world.recv(a, OFFSET, n, prev, 8));
    s.waitFor();
    checkSlice(a, n);
  }
}
