package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Epoch;
import org.oompi.Group;
import org.oompi.LockType;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.RmaMode;
import org.oompi.TypeKind;
import org.oompi.UserFunction;
import org.oompi.Window;

/** One-sided communication: every operation under fence, post-start-complete-wait, lock and
 *  lockAll, origins from direct buffers and from arrays (copied, held until the
 *  synchronisation), results in direct buffers, and the bad input. */
class RmaTest extends WorldTest {
  private final int right = next;
  private final int left = prev;

  @Test
  void createPutGetFence() {
    DoubleBuffer local = Buffers.newDoubleBuffer(4);
    for (int i = 0; i < 4; ++i) local.put(i, -1.0);
    try (Window win = Window.create(world, local)) {
      assertEquals(8, win.getDispUnit());
      assertEquals(32, win.getSize());
      assertEquals(size, win.getGroupSize());
      assertEquals(rank, win.getRank());
      win.fence(RmaMode.NOPRECEDE.swigValue());
      double[] origin = {rank + 0.5, rank + 1.5};
      win.put(origin, right, 1);  // an array: copied now, held by the window until the fence
      origin[0] = 99;             // so this does not reach the target
      win.fence();
      assertEquals(-1.0, local.get(0));
      assertEquals(left + 0.5, local.get(1));
      assertEquals(left + 1.5, local.get(2));
      assertEquals(-1.0, local.get(3));
      DoubleBuffer got = Buffers.newDoubleBuffer(2);
      win.get(got, left, 1);
      win.fence();
      int ll = (left + size - 1) % size;
      assertEquals(ll + 0.5, got.get(0));
      assertEquals(ll + 1.5, got.get(1));
      // offset/count: elements [1, 2) of the origin into right's element 3
      win.put(new double[] {7, 8}, 1, 1, right, 3);
      win.fence();
      assertEquals(8.0, local.get(3));
    }
  }

  @Test
  void allocateAccumulate() {
    try (Window win = Window.allocate(world, 3, TypeKind.INT64)) {
      LongBuffer mem = win.memory().asLongBuffer();
      assertEquals(0, mem.get(0));
      win.fence();
      win.accumulate(new long[] {rank, 1, 2}, 0, 0, Op.SUM);
      win.fence();
      if (rank == 0) {
        assertEquals((long) size * (size - 1) / 2, mem.get(0));
        assertEquals(size, mem.get(1));
        assertEquals(2L * size, mem.get(2));
      }
      win.fence();
      win.accumulate(new long[] {rank}, 0, 0, Op.MAX);
      win.fence();
      if (rank == 0) assertEquals(Math.max(size - 1, (long) size * (size - 1) / 2), mem.get(0));
    }
  }

  @Test
  void lockFetchAndOpCompareAndSwap() {
    try (Window win = Window.allocate(world, 2, TypeKind.INT32)) {
      win.fence();
      IntBuffer old = Buffers.newIntBuffer(1);
      try (Epoch e = win.lock(0, LockType.EXCLUSIVE)) {
        win.fetchAndOp(new int[] {1}, old, 0, 0, Op.SUM);
      }
      int[] tickets = new int[size];
      world.allgather(new int[] {old.get(0)}, tickets);
      Arrays.sort(tickets);
      for (int i = 0; i < size; ++i) assertEquals(i, tickets[i]);

      IntBuffer res = Buffers.newIntBuffer(1);
      try (Epoch e = win.lock(0, LockType.SHARED)) {
        win.getAccumulate(new int[] {0}, res, 0, 0, Op.NO_OP);
        e.flush();
        assertEquals(size, res.get(0));  // flushed: valid before the unlock
      }
      world.barrier();
      IntBuffer swapped = Buffers.newIntBuffer(1);
      try (Epoch e = win.lock(0)) {
        win.compareAndSwap(new int[] {100 + rank}, new int[] {0}, swapped, 0, 1);
      }
      int[] seen = new int[size];
      world.allgather(new int[] {swapped.get(0)}, seen);
      int winners = 0, winner = -1;
      for (int i = 0; i < size; ++i)
        if (seen[i] == 0) {
          ++winners;
          winner = i;
        }
      assertEquals(1, winners);
      IntBuffer fin = Buffers.newIntBuffer(1);
      try (Epoch e = win.lock(0, LockType.SHARED)) {
        win.get(fin, 0, 1);
      }
      assertEquals(100 + winner, fin.get(0));
      win.fence();
    }
  }

  private static void collect(java.lang.ref.WeakReference<?> ref) throws InterruptedException {
    for (int i = 0; i < 100 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(5);
    }
  }

  /** Direct-buffer origins and results held by the Window proxy (java.i): reachable only
   *  through the window until the fence, released by it (and by close()); past 64 waiting, the
   *  general path. */
  @Test
  void heldDirectBuffers() throws InterruptedException {
    int n = 70;
    IntBuffer local = Buffers.newIntBuffer(n + 1);
    local.put(n, -7);
    try (Window win = Window.create(world, local)) {
      win.fence();
      IntBuffer first = Buffers.newIntBuffer(1);
      first.put(0, rank * 1000);
      java.lang.ref.WeakReference<IntBuffer> weak = new java.lang.ref.WeakReference<>(first);
      win.put(first, right, 0);
      first = null;
      for (int i = 1; i < n; i++) {  // nothing else references these origins
        IntBuffer b = Buffers.newIntBuffer(1);
        b.put(0, rank * 1000 + i);
        win.put(b, right, i);
      }
      IntBuffer got = Buffers.newIntBuffer(1);
      win.get(got, right, n);  // right's element n: its own rank, written before the first fence
      for (int i = 0; i < 3; i++) {
        System.gc();
        Thread.sleep(5);
      }
      assertTrue(weak.get() != null, "an origin was collected before the fence");
      win.fence();
      for (int i = 0; i < n; i++) assertEquals(left * 1000 + i, local.get(i));
      assertEquals(-7, got.get(0));
      collect(weak);
      assertTrue(weak.get() == null, "the fence did not release the origin");
      // Held across a lock epoch (released by the window's close()).
      IntBuffer o = Buffers.newIntBuffer(1);
      o.put(0, 5);
      weak = new java.lang.ref.WeakReference<>(o);
      world.barrier();
      try (Epoch e = win.lock(right)) {
        win.put(o, right, n);
      }
      o = null;
      world.barrier();
      try (Epoch e = win.lock(rank)) {  // see the public copy
      }
      assertEquals(5, local.get(n));
      win.close();
      collect(weak);
      assertTrue(weak.get() == null, "close() did not release the origin");
      assertThrows(IllegalStateException.class, () -> win.put(Buffers.newIntBuffer(1), right, 0));
    }
  }

  @Test
  void lockAllFlush() {
    try (Window win = Window.allocate(world, size, TypeKind.FLOAT64)) {
      DoubleBuffer mem = win.memory().asDoubleBuffer();
      world.barrier();
      try (Epoch e = win.lockAll()) {
        win.put(new double[] {rank * 2.0}, right, rank);
        win.flush(right);
        DoubleBuffer prev = Buffers.newDoubleBuffer(1);
        win.getAccumulate(new double[] {1.0}, prev, right, rank, Op.SUM);
        win.flushAll();
        assertEquals(rank * 2.0, prev.get(0));
      }
      world.barrier();
      try (Epoch e = win.lock(rank)) {  // see the public copy
      }
      assertEquals(left * 2.0 + 1.0, mem.get(left));
    }
  }

  @Test
  void postStartCompleteWait() {
    ShortBuffer local = Buffers.newShortBuffer(2);
    try (Window win = Window.create(world, local); Group wg = world.getGroup();
         Group to = wg.incl(new int[] {right}); Group from = wg.incl(new int[] {left})) {
      try (Epoch exposure = win.post(from)) {
        try (Epoch access = win.start(to)) {
          win.put(new short[] {(short) rank, 7}, right, 0);
        }
      }
      assertEquals(left, local.get(0));
      assertEquals(7, local.get(1));
      Epoch exposure = win.post(from);
      Epoch access = win.start(to);
      ShortBuffer got = Buffers.newShortBuffer(1);
      win.get(got, right, 0);
      access.close();
      while (!exposure.test()) {
      }
      assertFalse(exposure.isActive());
      exposure.close();
      assertEquals(rank, got.get(0));  // right's element 0 holds its left neighbour: us
    }
  }

  @Test
  void badInput() {
    Window win = Window.allocate(world, 4, TypeKind.FLOAT64);
    win.fence();
    assertThrows(IndexOutOfBoundsException.class, () -> win.put(new double[1], size, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> win.put(new double[2], 0, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> win.put(new double[1], 0, -1));
    assertThrows(IndexOutOfBoundsException.class, () -> win.get(Buffers.newDoubleBuffer(5), 0, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> win.put(new double[2], 1, 2, 0, 0));
    // a get into an array would be written after the call returns: refused
    IllegalArgumentException heap =
        assertThrows(IllegalArgumentException.class, () -> win.get(new double[1], 0, 0));
    assertTrue(heap.getMessage().contains("one-sided"), heap.getMessage());
    assertThrows(IllegalArgumentException.class, () -> win.fence(64));
    UserFunction mine = new UserFunction() {
      @Override
      public void call(Object in, Object inOut, int count, org.oompi.Datatype type) {}
    };
    try (Op user = new Op(mine, true)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> win.accumulate(new double[1], 0, 0, user));
      assertTrue(e.getMessage().contains("predefined"), e.getMessage());
    }
    win.fence();
    win.close();
    assertThrows(IllegalStateException.class, () -> win.put(new double[1], 0, 0));
    assertThrows(IllegalStateException.class, () -> win.fence());
    win.close();  // idempotent
    assertThrows(IllegalArgumentException.class, () -> Window.create(world, new double[4]));
  }

  /** A window closed through another copy (the epoch's): the facade's closed-handle check. */
  @Test
  void epochOfClosedWindow() {
    Window win = Window.allocate(world, 1, TypeKind.INT32);
    Epoch e = win.lockAll();
    e.close();
    win.close();
    assertThrows(IllegalStateException.class, () -> e.flush());
  }

  /** rput, rget, raccumulate, rgetAccumulate in a lockAll epoch: each request completes the
   *  operation locally (an array origin is copied; a direct result is held until then). */
  @Test
  void requestForms() {
    try (Window win = Window.allocate(world, 2 * size, TypeKind.INT64)) {
      LongBuffer mem = win.memory().asLongBuffer();
      world.barrier();
      try (Epoch e = win.lockAll()) {
        long[] origin = {rank + 10};
        Request r = win.rput(origin, right, rank);
        origin[0] = -5;  // copied at the call: does not reach the target
        r.waitFor();
        win.raccumulate(new long[] {1}, right, size + rank, Op.SUM).waitFor();
        win.flush(right);
        LongBuffer got = Buffers.newLongBuffer(1);
        win.rget(got, right, rank).waitFor();
        assertEquals(rank + 10, got.get(0));  // complete locally: the data is here
        LongBuffer old = Buffers.newLongBuffer(1);
        win.rgetAccumulate(new long[] {5}, old, right, size + rank, Op.SUM).waitFor();
        assertEquals(1, old.get(0));
      }
      world.barrier();
      win.lock(rank).close();  // see the public copy
      assertEquals(left + 10, mem.get(left));
      assertEquals(6, mem.get(size + left));
    }
  }

  @Test
  void requestFormsBadInput() {
    Window win = Window.allocate(world, 2, TypeKind.FLOAT64);
    try (Epoch e = win.lockAll()) {
      assertThrows(IndexOutOfBoundsException.class, () -> win.rput(new double[1], size, 0));
      assertThrows(IndexOutOfBoundsException.class,
                   () -> win.rget(Buffers.newDoubleBuffer(3), 0, 0));
      assertThrows(IllegalArgumentException.class, () -> win.rget(new double[1], 0, 0));
      UserFunction mine = new UserFunction() {
        @Override
        public void call(Object in, Object inOut, int count, org.oompi.Datatype type) {}
      };
      try (Op user = new Op(mine, true)) {
        assertThrows(IllegalArgumentException.class, () -> win.raccumulate(new double[1], 0, 0, user));
        assertThrows(IllegalArgumentException.class,
                     () -> win.rgetAccumulate(new double[1], Buffers.newDoubleBuffer(1), 0, 0, user));
      }
    }
    win.close();
    assertThrows(IllegalStateException.class, () -> win.rput(new double[1], 0, 0));
  }

  /** allocateShared: every process reads the others' parts by load through sharedMemory. */
  @Test
  void sharedWindow() {
    try (Comm node = world.splitShared();
         Window win = Window.allocateShared(node, 2, TypeKind.INT32)) {
      IntBuffer mine = win.sharedMemory(node.getRank()).asIntBuffer();
      assertEquals(0, mine.get(0));
      IntBuffer got = Buffers.newIntBuffer(1);
      // Load/store under a lockAll epoch, with sync-barrier-sync (MPI_Win_sync belongs in a
      // passive-target epoch: MPICH refuses it outside one).
      try (Epoch e = win.lockAll(RmaMode.NOCHECK.swigValue())) {
        mine.put(0, node.getRank());
        mine.put(1, 100 + node.getRank());
        win.sync();
        node.barrier();
        win.sync();
        for (int r = 0; r < node.getSize(); ++r) {
          IntBuffer other = win.sharedMemory(r).asIntBuffer();
          assertEquals(2, other.capacity());
          assertEquals(r, other.get(0));
          assertEquals(100 + r, other.get(1));
        }
        win.get(got, node.getSize() - 1, 1);
        win.flush(node.getSize() - 1);
      }
      assertEquals(100 + node.getSize() - 1, got.get(0));
      assertThrows(IndexOutOfBoundsException.class, () -> win.sharedMemory(node.getSize()));
      node.barrier();
    }
    try (Window plain = Window.allocate(world, 1, TypeKind.INT32)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> plain.sharedMemory(0));
      assertTrue(e.getMessage().contains("shared"), e.getMessage());
    }
  }

  /** createDynamic: attach a direct buffer (held until detach), put at the target's address. */
  @Test
  void dynamicWindow() {
    try (Window win = Window.createDynamic(world)) {
      assertEquals(1, win.getDispUnit());
      DoubleBuffer local = Buffers.newDoubleBuffer(3);
      for (int i = 0; i < 3; ++i) local.put(i, -1.0);
      long addr = win.attach(local);
      long[] addrs = new long[size];
      world.allgather(new long[] {addr}, addrs);
      world.barrier();
      try (Epoch e = win.lock(right)) {
        win.put(new double[] {rank + 0.25}, right, addrs[right] + 8);
      }
      world.barrier();
      win.lock(rank).close();
      assertEquals(-1.0, local.get(0));
      assertEquals(left + 0.25, local.get(1));
      assertEquals(-1.0, local.get(2));
      IllegalArgumentException twice =
          assertThrows(IllegalArgumentException.class, () -> win.attach(local));
      assertTrue(twice.getMessage().contains("already attached"), twice.getMessage());
      assertThrows(IllegalArgumentException.class, () -> win.detach(addr + 8));
      assertThrows(IllegalArgumentException.class, () -> win.attach(new double[4]));
      world.barrier();
      win.detach(addr);
      assertThrows(IllegalArgumentException.class, () -> win.detach(addr));
      win.attach(Buffers.newLongBuffer(1));  // still attached at close: detached by close
    }
    try (Window plain = Window.allocate(world, 1, TypeKind.INT32)) {
      assertThrows(IllegalStateException.class, () -> plain.attach(Buffers.newIntBuffer(1)));
    }
  }
}
