package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.oompi.MPI;
import org.oompi.ObjectRequest;
import org.oompi.Request;
import org.oompi.SerializationException;
import org.oompi.Transportable;
import org.oompi.Wire;

/**
 * Issue 25: object receives match in posting order (two or more iorecv for the same source and
 * tag take their messages in the order posted, whatever order they are waited on; wildcards, a
 * blocking orecv after pending ones, a closed earlier one, two threads), and the wire decoder
 * allocates by what a message can hold (a crafted nest of arrays, each level claiming every byte
 * left, allocated with the square of its size: measured with the thread's allocated bytes).
 * Each rank receives from its left neighbour and sends to its right one.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
class ObjectOrderTest extends WorldTest {
  private final int to = next, from = prev;
  private final List<Request> sends = new ArrayList<>();

  public static final class Nest {
    @Transportable Nest[] inner = new Nest[0];
    @Transportable String name = "";
  }

  private void send(String text, int tag) {
    sends.add(world.iosend(tag + ":" + text + "@" + rank, to, tag));
  }

  private String expected(String text, int tag) {
    return tag + ":" + text + "@" + from;
  }

  @AfterEach
  void drain() {
    for (Request r : sends) r.waitFor();
    sends.clear();
    world.barrier();
  }

  @Test
  void a_sameTagWaitedInReverse() {
    List<ObjectRequest<String>> reqs = new ArrayList<>();
    for (int i = 0; i < 4; i++) reqs.add(world.iorecv(String.class, from, 5));
    for (int i = 0; i < 4; i++) send(Integer.toString(i), 5);
    String[] got = new String[4];
    for (int i = 3; i >= 0; i--) got[i] = reqs.get(i).waitFor();
    for (int i = 0; i < 4; i++) assertEquals(expected(Integer.toString(i), 5), got[i]);
  }

  @Test
  void b_pollsOfTheNewestFirst() {
    ObjectRequest<String> a = world.iorecv(String.class, from, 6);
    ObjectRequest<String> b = world.iorecv(String.class, from, 6);
    ObjectRequest<String> c = world.iorecv(String.class, from, 6);
    world.barrier();
    assertFalse(c.test());
    world.barrier();
    send("a", 6);
    send("b", 6);
    send("c", 6);
    while (!c.test()) Thread.onSpinWait();
    while (!b.test()) Thread.onSpinWait();
    assertEquals(expected("a", 6), a.waitFor());
    assertEquals(expected("b", 6), b.waitFor());
    assertEquals(expected("c", 6), c.waitFor());
  }

  @Test
  void c_wildcardsGoToTheOldestMatching() {
    ObjectRequest<String> a = world.iorecv(String.class, MPI.ANY_SOURCE, 7);
    ObjectRequest<String> b = world.iorecv(String.class, from, MPI.ANY_TAG);
    ObjectRequest<String> c = world.iorecv(String.class, from, 7);
    ObjectRequest<String> d = world.iorecv(String.class, MPI.ANY_SOURCE, MPI.ANY_TAG);
    send("m1", 7);
    send("m2", 8);
    send("m3", 7);
    send("m4", 9);
    assertEquals(expected("m4", 9), d.waitFor());
    assertEquals(9, d.getStatus().getTag());
    assertEquals(expected("m3", 7), c.waitFor());
    assertEquals(expected("m2", 8), b.waitFor());
    assertEquals(expected("m1", 7), a.waitFor());
  }

  @Test
  void d_blockingOrecvAndClose() {
    ObjectRequest<String> a = world.iorecv(String.class, from, 10);
    send("first", 10);
    send("second", 10);
    assertEquals(expected("second", 10), world.orecv(String.class, from, 10));
    assertEquals(expected("first", 10), a.waitFor());

    ObjectRequest<String> dropped = world.iorecv(String.class, from, 11);
    ObjectRequest<String> b = world.iorecv(String.class, from, 11);
    dropped.close();  // before any message came: withdrawn
    send("x", 11);
    send("y", 11);
    assertEquals(expected("x", 11), b.waitFor());
    assertEquals(expected("y", 11), world.orecv(String.class, from, 11));
  }

  @Test
  void e_twoThreads() throws Exception {
    for (int round = 0; round < 10; round++) {
      ObjectRequest<String> a = world.iorecv(String.class, from, 14);
      ObjectRequest<String> b = world.iorecv(String.class, from, 14);
      AtomicReference<String> ga = new AtomicReference<>(), gb = new AtomicReference<>();
      Thread tb = new Thread(() -> gb.set(b.waitFor()));
      Thread ta = new Thread(() -> ga.set(a.waitFor()));
      tb.start();
      ta.start();
      send("a" + round, 14);
      send("b" + round, 14);
      ta.join();
      tb.join();
      assertEquals(expected("a" + round, 14), ga.get());
      assertEquals(expected("b" + round, 14), gb.get());
    }
  }

  // --- bounded decoding -------------------------------------------------------------------------

  /** Every level claims as many elements as bytes are left. */
  static byte[] claimingAll(int length) {
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    for (int at = 0; at + 8 <= length; at += 8) b.putLong(length - at - 8);
    return b.array();
  }

  static long allocatedBy(Runnable r) {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = mx.getThreadAllocatedBytes(id);
    r.run();
    return mx.getThreadAllocatedBytes(id) - before;
  }

  @Test
  void f_crafted_nesting_allocates_linearly() {
    for (int length : new int[] {16384, 65536}) {
      byte[] m = claimingAll(length);
      long bytes = allocatedBy(() -> assertThrows(SerializationException.class, () -> Wire.decodeValue(m, Nest.class)));
      assertTrue(bytes <= 16L * length + (4 << 20), "allocated " + bytes + " bytes for a message of " + length);
    }
    // 1 MiB of int32 read as an array of arrays: refused before allocating for the claim
    int[] ints = new int[262144];
    byte[] m = Wire.encode(ints);
    long bytes = allocatedBy(() -> assertThrows(SerializationException.class, () -> Wire.decode(m, long[][].class)));
    assertTrue(bytes <= (4 << 20), "allocated " + bytes);
    // valid nesting still reads
    Nest n = new Nest();
    n.inner = new Nest[] {new Nest(), new Nest()};
    n.inner[1].inner = new Nest[] {new Nest()};
    n.inner[1].inner[0].name = "deep";
    Nest back = Wire.decodeValue(Wire.encodeValue(n), Nest.class);
    assertEquals("deep", back.inner[1].inner[0].name);
    assertEquals(0, back.inner[0].inner.length);
  }

  @Test
  void g_crafted_message_over_mpi() {
    byte[] m = claimingAll(65536);
    Request r = world.isend(org.oompi.Buffers.newByteBuffer(m.length).put(m).flip(), to, 41);
    long bytes = allocatedBy(() -> assertThrows(SerializationException.class, () -> world.orecvValue(Nest.class, from, 41)));
    r.waitFor();
    assertTrue(bytes <= 16L * 65536 + (4 << 20), "allocated " + bytes);
  }
}
