package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.oompi.Buffers;
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
 * corruption; oompi's Environment sets pml_ob1_max_rdma_per_request=0 before MPI_Init so that it
 * does not (Environment.receiveProtection(): "mpi"), or guards blocking receives ("guard").
 * Ring: at 1 rank to itself, sends first.
 */
class TruncationTest extends WorldTest {
  private static final double SENTINEL = -7.0;
  private static final int OFFSET = 4;
  private static final int[] SIZES = {10, 1000, 100000};

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

  /**
   * Sends 2n doubles to next with the tag while receive takes the message from prev into the
   * slice [OFFSET, OFFSET + n) of a fresh direct buffer of sentinels (the slice is its argument):
   * ERR_TRUNCATE, and nothing outside the slice written.
   */
  private void truncatedIntoSlice(int n, int tag, Consumer<DoubleBuffer> receive) {
    DoubleBuffer b = directSentinels(n);
    Request s = world.isend(message(n), next, tag);
    expectTruncate(() -> receive.accept(slice(b, n)));
    s.waitFor();
    checkSlice(b, n);
  }

  /** The same into a fresh array of sentinels (the whole array is the argument). */
  private void truncatedIntoArray(int n, int tag, Consumer<double[]> receive) {
    double[] a = sentinels(n);
    Request s = world.isend(message(n), next, tag);
    expectTruncate(() -> receive.accept(a));
    s.waitFor();
    checkSlice(a, n);
  }

  @Test
  void arraySliceWithStatus() {
    for (int n : SIZES) {
      truncatedIntoArray(n, 1, a -> world.recv(a, OFFSET, n, prev, 1));
    }
  }

  @Test
  void directSliceWithStatus() {
    for (int n : SIZES) {
      truncatedIntoSlice(n, 2, into -> world.recv(into, prev, 2));
    }
  }

  @Test
  void portWithoutStatus() {
    for (int n : SIZES) {
      truncatedIntoSlice(n, 0, into -> world.port(prev).recv(into));
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

  /** What the environment did to the MPI, and why (the registration says what it must be). */
  @Test
  void protectionIsReported() {
    String mode = Environment.receiveProtection();
    String why = Environment.receiveProtectionReason();
    assertTrue(mode.equals("mpi") || mode.equals("guard") || mode.equals("none"), mode);
    assertFalse(why.isEmpty());
    assertEquals(mode.equals("guard"), Environment.receiveGuard(), why);
    String expect = System.getenv("OOMPI_TEST_EXPECT_PROTECTION");
    if (expect != null) assertEquals(expect, mode, why);
  }

  private static final int CANARY = 0x5a;

  /** A direct buffer of 1 + bytes + 64 canary bytes; the receive buffer is its first byte. */
  private static ByteBuffer landing(int bytes) {
    ByteBuffer b = Buffers.newByteBuffer(bytes + 65);
    for (int i = 0; i < b.capacity(); i++) b.put(i, (byte) CANARY);
    return b;
  }

  private static ByteBuffer first(ByteBuffer whole) {
    ByteBuffer one = whole.duplicate();
    one.position(0).limit(1);
    return one;
  }

  private static int writtenAfter(ByteBuffer whole) {
    int n = 0;
    for (int i = 1; i < whole.capacity(); i++) n += whole.get(i) != (byte) CANARY ? 1 : 0;
    return n;
  }

  private static ByteBuffer bytesMessage(int bytes) {
    ByteBuffer m = Buffers.newByteBuffer(bytes);
    for (int i = 0; i < bytes; i++) m.put(i, (byte) 'm');
    return m;
  }

  /**
   * A too-large message (4 KiB, 64 KiB, 4 MiB) into a 1-byte receive: blocking (direct buffer
   * and heap array), nonblocking, persistent, sendrecv; MPI.ERR_TRUNCATE and not one byte after
   * the receive buffer written. Nonblocking and persistent receives are plain MPI: checked
   * where the MPI itself stops at the buffer's end (receiveProtection "mpi").
   */
  @Test
  void tooLargeIntoOneElement() {
    boolean mpiSafe = Environment.receiveProtection().equals("mpi");
    for (int bytes : new int[] {4 << 10, 64 << 10, 4 << 20}) {
      String what = bytes + " B, " + Environment.receiveProtection();
      ByteBuffer msg = bytesMessage(bytes);

      ByteBuffer b = landing(bytes);
      Request s = world.isend(msg, next, 21);
      expectTruncate(() -> world.recv(first(b), prev, 21));
      s.waitFor();
      assertEquals(0, writtenAfter(b), "blocking, " + what);

      byte[] a = new byte[bytes + 65];
      Arrays.fill(a, (byte) CANARY);
      s = world.isend(msg, next, 22);
      expectTruncate(() -> world.recv(a, 0, 1, prev, 22));
      s.waitFor();
      int after = 0;
      for (int i = 1; i < a.length; i++) after += a[i] != (byte) CANARY ? 1 : 0;
      assertEquals(0, after, "blocking into an array, " + what);

      ByteBuffer c = landing(bytes);
      expectTruncate(() -> world.sendrecv(msg, next, 23, first(c), prev, 23));
      assertEquals(0, writtenAfter(c), "sendrecv, " + what);

      if (!mpiSafe) continue;  // irecv and recvInit are not guarded
      ByteBuffer d = landing(bytes);
      s = world.isend(msg, next, 24);  // first: to itself, a receive posted first is silent
      Request r = world.irecv(first(d), prev, 24);
      expectTruncate(r::waitFor);
      s.waitFor();
      assertEquals(0, writtenAfter(d), "irecv, " + what);

      ByteBuffer e = landing(bytes);
      try (Request p = world.recvInit(first(e), prev, 25)) {
        s = world.isend(msg, next, 25);
        p.start();
        expectTruncate(p::waitFor);
        s.waitFor();
      }
      assertEquals(0, writtenAfter(e), "recvInit, " + what);
    }
  }

  /**
   * Environment.setReceiveGuard: off, a message that fits is received as usual (and where the
   * MPI stops at the buffer's end, a larger one writes nothing outside the slice; elsewhere Open
   * MPI writes it past: the plain C control c.truncation_control shows that); on, nothing
   * outside the slice is written.
   */
  @Test
  void receiveGuardSwitch() {
    boolean wasOn = Environment.receiveGuard();
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
      if (Environment.receiveProtection().equals("mpi")) {
        truncatedIntoSlice(n, 7, into -> world.recv(into, prev, 7));
      }
      Environment.setReceiveGuard(true);
      assertTrue(Environment.receiveGuard() || Environment.receiveProtection().equals("mpi"));
      truncatedIntoArray(n, 8, a -> world.recv(a, OFFSET, n, prev, 8));
    } finally {
      Environment.setReceiveGuard(wasOn);
    }
  }
}
