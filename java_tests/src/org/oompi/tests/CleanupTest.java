package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Comm;
import org.oompi.Datatype;

/** Proxies freed by close() (try-with-resources) or, when dropped, by the Cleaner. */
@ExtendWith(MpiExtension.class)
class CleanupTest {
  private final Comm world = Comm.world();

  @Test
  void closeIsIdempotentAndLaterUseThrows() {
    Comm c = world.dup();
    assertEquals(world.getSize(), c.getSize());
    c.close();
    c.close();
    assertThrows(IllegalStateException.class, c::getSize);
    c.delete();  // after close: nothing left to free
  }

  @Test
  void tryWithResources() {
    for (int i = 0; i < 50; i++) {
      try (Comm c = world.dup(); Datatype t = Datatype.contiguous(3, Datatype.DOUBLE)) {
        assertEquals(24, t.getSize());
        assertEquals(world.getRank(), c.getRank());
      }
    }
  }

  @Test
  void droppedProxiesAreCleanedWithoutMpiCalls() throws InterruptedException {
    for (int i = 0; i < 20000; i++) {
      Datatype t = Datatype.of(org.oompi.TypeKind.INT32);  // dropped: the Cleaner frees it
      if (t.getSize() != 4) throw new AssertionError();
      Comm self = Comm.self();
      if (self.getSize() != 1) throw new AssertionError();
    }
    System.gc();
    Thread.sleep(50);
    System.gc();
    // MPI still works after the cleaner thread freed proxies.
    int[] v = {world.getRank()};
    world.bcast(v, 0);
    assertEquals(0, v[0]);
  }

  @Test
  void mpiMemory() {
    int size = world.getSize(), rank = world.getRank();
    try (org.oompi.MpiMemory m = org.oompi.MpiMemory.allocate(64)) {
      java.nio.ByteBuffer b = m.buffer();
      assertEquals(64, b.capacity());
      assertEquals(java.nio.ByteOrder.nativeOrder(), b.order());
      b.putInt(0, rank);
      b.limit(4);
      java.nio.ByteBuffer in = org.oompi.Buffers.newByteBuffer(4);
      world.sendrecv(b, (rank + 1) % size, 3, in, (rank + size - 1) % size, 3);
      assertEquals((rank + size - 1) % size, in.getInt(0));
      m.close();
      assertThrows(IllegalStateException.class, m::buffer);
    }
    assertThrows(IllegalArgumentException.class, () -> org.oompi.MpiMemory.allocate(-1));
    try (org.oompi.MpiMemory empty = org.oompi.MpiMemory.allocate(0)) {
      assertEquals(0, empty.buffer().capacity());
    }
  }

  static final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();

  @Test
  void opKeepsItsFunctionAlive() throws InterruptedException {
    org.oompi.Op op = org.oompi.Op.create(new org.oompi.NativeUserFunction() {
      @Override
      public void call(long in, long inout, int count, long extent, Datatype type) {
        calls.incrementAndGet();
      }
    }, true);
    for (int i = 0; i < 5; i++) {  // the anonymous function is reachable only through op
      System.gc();
      Thread.sleep(20);
    }
    int before = calls.get();
    java.nio.ByteBuffer a = org.oompi.Buffers.newByteBuffer(4), b = org.oompi.Buffers.newByteBuffer(4);
    org.oompi.BenchSupport.reduceLocalLoop(op, a, b, 1, Datatype.INT, 10);
    assertEquals(before + 10, calls.get());
    op.close();
    assertThrows(NullPointerException.class, () -> org.oompi.Op.create(null, true));
  }
}
