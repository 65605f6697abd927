package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.MPI;
import org.oompi.Request;
import org.oompi.RequestVector;
import org.oompi.Status;

/**
 * Light requests (comm.isend/irecv of a direct buffer: the bare MPI_Request held in Java, see
 * java.i): a pending one dropped and collected, a buffer reachable only through its request,
 * cancel, test loops, request sets mixing them with native ones, closed ones. Messages go to
 * this rank itself (any rank count).
 */
class LightRequestTest extends WorldTest {
  private static IntBuffer ints(int... values) {
    IntBuffer b = Buffers.newIntBuffer(values.length);
    b.put(values).flip();
    return b;
  }

  /** Completed self-messages: light requests that push older ones out of the young ring. */
  private void churn(int n) {
    IntBuffer one = Buffers.newIntBuffer(1);
    for (int i = 0; i < n; i++) {
      try (Request r = world.irecv(one, rank, 90); Request s = world.isend(ints(i), rank, 90)) {
        s.waitFor();
        r.waitFor();
      }
    }
  }

  private static void collect(WeakReference<?> ref) throws InterruptedException {
    for (int i = 0; i < 200 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(5);
    }
  }

  /** Posts a receive into a buffer only the request reaches, and drops the request. */
  private WeakReference<?>[] dropPendingReceive(int tag) {
    IntBuffer in = Buffers.newIntBuffer(2);
    Request r = world.irecv(in, rank, tag);
    assertTrue(r.isPending());
    return new WeakReference<?>[] {new WeakReference<>(r), new WeakReference<>(in)};
  }

  @Test
  void droppedPendingReceiveKeepsItsBufferUntilReclaimed() throws InterruptedException {
    WeakReference<?>[] refs = dropPendingReceive(71);
    churn(40);  // the dropped request leaves the young ring: it gets a Cleaner
    collect(refs[0]);
    assertNull(refs[0].get(), "the dropped request was not collected");
    // Collected while pending: its buffer must stay (MPI still owns it), held by the reclaim list.
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(5);
    }
    assertNotNull(refs[1].get(), "the buffer of a pending receive was collected");
    // The message arrives into the orphaned receive; the reclaim list completes it at the next
    // call that makes a request, then lets the buffer go.
    try (Request s = world.isend(ints(5, 6), rank, 71)) {
      s.waitFor();
    }
    for (int i = 0; i < 200 && refs[1].get() != null; i++) {
      churn(1);
      System.gc();
      Thread.sleep(5);
    }
    assertNull(refs[1].get(), "the reclaimed receive's buffer was never released");
    assertNull(world.iprobe(rank, 71), "the message did not go to the dropped receive");
  }

  @Test
  void pendingRequestKeepsItsBufferReachable() throws InterruptedException {
    Request r = world.irecv(Buffers.newIntBuffer(2), rank, 72);  // no other reference
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(5);
    }
    churn(20);
    world.send(ints(7, 8), rank, 72);  // eager: buffered
    Status st = r.waitFor();
    assertEquals(8, st.getCountBytes());
    assertEquals(rank, st.getSource());
    assertEquals(72, st.getTag());
    assertFalse(r.isPending());
    assertEquals(st.getCountBytes(), r.lastStatus().getCountBytes());
    r.close();
  }

  @Test
  void promotedRequestsCompleteNormally() throws InterruptedException {
    // Pending through 40 younger requests (each gets a Cleaner), then completed as usual and
    // dropped: their Cleaners must reclaim nothing (a completed handle is MPI's no more).
    IntBuffer[] in = new IntBuffer[3];
    Request[] rs = new Request[3];
    for (int i = 0; i < 3; i++) rs[i] = world.irecv(in[i] = Buffers.newIntBuffer(1), rank, 82 + i);
    churn(40);
    for (int i = 0; i < 3; i++) world.send(ints(10 + i), rank, 82 + i);
    assertEquals(4, rs[0].waitFor().getCountBytes());
    Status st = null;
    while (st == null) st = rs[1].test();
    assertEquals(83, st.getTag());
    rs[2].close();  // a pending receive: cancelled, or completed if the message matched it
    WeakReference<Request> weak = new WeakReference<>(rs[0]);
    rs = null;
    collect(weak);
    churn(2);  // the reclaim list has nothing of theirs to complete
    assertEquals(10, in[0].get(0));
    assertEquals(11, in[1].get(0));
    java.util.Arrays.fill(in, null);
    // the message of the closed receive: received by it, or still there if it was cancelled
    Status left = world.iprobe(rank, 84);
    if (left != null) world.recv(Buffers.newIntBuffer(1), rank, 84);
  }

  @Test
  void testLoopAndStatus() {
    ByteBuffer in = Buffers.newByteBuffer(16);
    try (Request r = world.irecv(in, rank, 73)) {
      assertNull(r.test());
      assertNull(r.test());
      assertTrue(r.isPending());
      assertFalse(r.isPersistent());
      assertNull(r.lastStatus());
      try (Request s = world.isend(ints(1, 2, 3), rank, 73)) {
        Status st = null;
        for (int i = 0; i < 1_000_000 && st == null; i++) st = r.test();
        assertNotNull(st);
        assertEquals(12, st.getCountBytes());
        assertEquals(73, st.getTag());
        assertEquals(3, in.getInt(8));
        s.waitFor();
      }
      assertFalse(r.isPending());
      // Completed: waitFor/test return at once, as for a native request.
      assertNotNull(r.waitFor());
      assertNotNull(r.test());
    }
  }

  @Test
  void cancelTurnsNativeAndCancels() {
    Request r = world.irecv(Buffers.newIntBuffer(1), rank, 74);
    r.cancel();
    Status st = r.waitFor();
    assertTrue(st.isCancelled());
    assertFalse(r.isPending());
    r.close();
    assertThrows(IllegalStateException.class, r::waitFor);
    assertNull(world.iprobe(rank, 74));
  }

  @Test
  void closeOfPendingReceiveCancelsIt() {
    Request r = world.irecv(Buffers.newIntBuffer(1), rank, 75);
    r.close();  // a receive nobody sends to: cancelled, not waited for forever
    r.close();
    assertThrows(IllegalStateException.class, r::test);
    assertThrows(IllegalStateException.class, r::isPending);
  }

  @Test
  void closedRequestsThrow() {
    IntBuffer in = Buffers.newIntBuffer(1);
    Request r = world.irecv(in, rank, 76);
    world.send(ints(9), rank, 76);
    r.waitFor();
    r.close();
    r.close();
    assertThrows(IllegalStateException.class, r::waitFor);
    assertThrows(IllegalStateException.class, r::test);
    assertThrows(IllegalStateException.class, r::cancel);
    assertThrows(IllegalStateException.class, r::lastStatus);
    RequestVector v = new RequestVector();
    assertThrows(IllegalStateException.class, () -> v.add(r));
    assertEquals(9, in.get(0));
  }

  @Test
  void setsMixLightAndNativeRequests() {
    IntBuffer a = Buffers.newIntBuffer(1);
    int[] b = new int[1];  // an array: a native request
    Request light = world.irecv(a, rank, 77);
    Request arrayRecv = world.irecv(b, rank, 78);
    Request done = world.irecv(Buffers.newIntBuffer(1), rank, 79);
    world.send(ints(3), rank, 79);
    done.waitFor();  // completed before it joins the set
    RequestVector v = new RequestVector(new Request[] {light, arrayRecv, done});
    assertFalse(Request.testAll(v));
    world.send(ints(1), rank, 77);
    world.send(new int[] {2}, rank, 78);
    Request.waitAll(v);
    assertEquals(1, a.get(0));
    assertEquals(2, b[0]);
    assertFalse(light.isPending());  // the set completed the request itself, not a copy
    assertEquals(77, light.lastStatus().getTag());
    light.close();
    arrayRecv.close();
    done.close();
    v.delete();
  }

  @Test
  void persistentStartRefused() {
    Request r = world.isend(ints(4), rank, 80);
    assertThrows(RuntimeException.class, r::start);
    try (Request q = world.irecv(Buffers.newIntBuffer(1), rank, 80)) {
      q.waitFor();
    }
    r.waitFor();
    r.close();
  }

  @Test
  void readOnlyAndForeignOrderBuffersTakeTheGeneralPath() {
    ByteBuffer ro = Buffers.newByteBuffer(4).asReadOnlyBuffer();
    assertThrows(RuntimeException.class, () -> world.irecv(ro, rank, 81));
    assertThrows(RuntimeException.class, () -> world.isend(Buffers.newIntBuffer(1), world.getSize(), 0));
    assertThrows(IllegalStateException.class, () -> {
      Comm c = world.dup();
      c.close();
      c.isend(Buffers.newIntBuffer(1), rank, 0);
    });
  }

  /**
   * A light completion's status comes back packed in a long (java.i: source and tag to 16 and
   * 15 bits, the size to 31); a tag beyond that takes the thread's status slot instead. Both,
   * with ANY_SOURCE/ANY_TAG receives, in a loop long enough for the JIT to compile it (whose
   * Status of an ignored result is dropped).
   */
  @Test
  void packedAndSpilledStatuses() {
    int bigTag = Math.min(Comm.tagUb(), 1 << 20);  // >= 32767: past 15 bits when MPI allows
    int[] tags = {0, 5, 32765, bigTag};
    ByteBuffer in = Buffers.newByteBuffer(24);
    for (int i = 0; i < 20_000; i++) {
      int tag = tags[i & 3];
      int n = 1 + i % 6;
      boolean any = (i & 4) != 0;
      try (Request r = any ? world.irecv(in) : world.irecv(in, rank, tag);
           Request s = world.isend(ints(new int[n]).put(0, i), rank, tag)) {
        if ((i & 8) != 0) {
          s.waitFor();  // result ignored
          r.waitFor();
          continue;
        }
        Status sent = s.waitFor();
        assertNotNull(sent);
        assertEquals(0, sent.getError());
        Status got = r.waitFor();
        assertEquals(rank, got.getSource(), "source");
        assertEquals(tag, got.getTag(), "tag");
        assertEquals(4L * n, got.getCountBytes(), "size");
        assertEquals(0, got.getError());
        assertFalse(got.isCancelled());
        assertEquals(i, in.getInt(0));
        Status last = r.lastStatus();
        assertEquals(tag, last.getTag());
        assertEquals(4L * n, last.getCountBytes());
        // Completed: a second waitFor gives the zero status, as for a native request.
        Status again = r.waitFor();
        assertEquals(0, again.getTag());
        assertEquals(0, again.getCountBytes());
        assertEquals(0, r.lastStatus().getTag());
      }
    }
  }

  /** More pending requests than the young ring holds (16 per thread), completed out of order. */
  @Test
  void manyOutstandingBeyondTheRing() {
    int n = 100;
    IntBuffer[] in = new IntBuffer[n];
    Request[] rs = new Request[n];
    for (int i = 0; i < n; i++) rs[i] = world.irecv(in[i] = Buffers.newIntBuffer(1), rank, 200 + i);
    for (int i = 0; i < n; i++) assertTrue(rs[i].isPending());
    Request[] ss = new Request[n];
    for (int i = n - 1; i >= 0; i--) ss[i] = world.isend(ints(1000 + i), rank, 200 + i);
    for (int i = 0; i < n; i += 2) assertEquals(200 + i, rs[i].waitFor().getTag());
    for (int i = 1; i < n; i += 2) {
      Status st = null;
      while (st == null) st = rs[i].test();
      assertEquals(200 + i, st.getTag());
    }
    for (int i = 0; i < n; i++) {
      ss[i].waitFor();
      ss[i].close();
      assertFalse(rs[i].isPending());
      assertEquals(1000 + i, in[i].get(0));
      rs[i].close();
      rs[i].close();  // twice: nothing more
      assertThrows(IllegalStateException.class, rs[i]::waitFor);
    }
  }

  /**
   * Completed on another thread than the one whose ring holds them: pending ones still in the
   * ring, and ones pushed out of it (promoted, with a Cleaner) first; then dropped and
   * collected, which must reclaim nothing.
   */
  @Test
  void completedOnAnotherThread() throws Exception {
    int n = 24;
    IntBuffer[] in = new IntBuffer[n];
    Request[] rs = new Request[n];
    for (int i = 0; i < n; i++) rs[i] = world.irecv(in[i] = Buffers.newIntBuffer(1), rank, 300 + i);
    // rs[0..7] leave this thread's ring now (16 younger ones), the rest stay in it
    for (int i = 0; i < n; i++) world.send(ints(50 + i), rank, 300 + i);
    Throwable[] failure = new Throwable[1];
    Thread t = new Thread(() -> {
      try {
        for (int i = 0; i < n; i++) {
          Status st = rs[i].waitFor();
          assertEquals(300 + i, st.getTag());
          assertEquals(4, st.getCountBytes());
        }
      } catch (Throwable e) {
        failure[0] = e;
      }
    });
    t.start();
    t.join();
    if (failure[0] != null) throw new AssertionError("on the other thread", failure[0]);
    for (int i = 0; i < n; i++) {
      assertFalse(rs[i].isPending());
      assertEquals(50 + i, in[i].get(0));
    }
    WeakReference<Request> weak = new WeakReference<>(rs[0]);
    java.util.Arrays.fill(rs, null);
    churn(40);
    collect(weak);
    assertNull(weak.get(), "a completed request was not collected");
    churn(2);  // nothing of theirs on the reclaim list
    assertNull(world.iprobe(rank, MPI.ANY_TAG), "a message was left over");
  }
}
