package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.oompi.CartComm;
import org.oompi.CartShift;
import org.oompi.Comm;
import org.oompi.Comparison;
import org.oompi.DistGraphComm;
import org.oompi.Group;
import org.oompi.Intercomm;
import org.oompi.MPI;
import org.oompi.Op;
import org.oompi.TopologyKind;

/** Communicators, groups, topologies and intercommunicators, with the bad inputs. */
class CommTest extends WorldTest {
  @Test
  void splitOrdersByKey() {
    try (Comm half = world.split(rank % 2, -rank)) {
      assertEquals((size + 1 - rank % 2) / 2, half.getSize());
      assertEquals((size - 1 - rank) / 2, half.getRank());
      int[] total = new int[1];
      half.allreduce(new int[] {1}, total, Op.SUM);
      assertEquals(half.getSize(), total[0]);
      assertEquals(size == 1 ? Comparison.CONGRUENT : Comparison.UNEQUAL, world.compare(half));
    }
    Comm none = world.split(rank == 0 ? MPI.UNDEFINED : 1);
    assertEquals(rank == 0, none.isNull());
    none.close();
    assertThrows(IllegalArgumentException.class, () -> world.split(-2));
  }

  @Test
  void groupsAndCreate() {
    try (Group g = world.getGroup(); Group first = g.incl(new int[] {0});
         Group rest = g.setDifference(first)) {
      assertEquals(size, g.getSize());
      assertEquals(rank, g.getRank());
      assertEquals(rank == 0 ? 0 : MPI.UNDEFINED, first.getRank());
      assertEquals(size - 1, rest.getSize());
      assertEquals(Comparison.IDENT, g.compare(first.setUnion(rest)));
      assertArrayEquals(new int[] {MPI.UNDEFINED}, g.translateRanks(new int[] {0}, rest));
      assertThrows(IndexOutOfBoundsException.class, () -> g.incl(new int[] {size}));
      assertThrows(NullPointerException.class, () -> g.incl(null));
      try (Comm only0 = world.create(first)) {
        assertEquals(rank != 0, only0.isNull());
      }
    }
    try (Comm dup = world.dup()) {
      dup.setName("java-dup");
      assertEquals("java-dup", dup.getName());
      assertEquals(Comparison.CONGRUENT, world.compare(dup));
    }
  }

  @Test
  void cartesianRingShiftsAndGathersNeighbours() {
    int[] dims = CartComm.dimsCreate(size, new int[] {0});
    assertArrayEquals(new int[] {size}, dims);
    try (CartComm ring = world.createCart(dims, new int[] {1})) {
      assertEquals(TopologyKind.CARTESIAN, ring.topology());
      assertEquals(1, ring.getNdims());
      int me = ring.getRank();
      assertArrayEquals(new int[] {me}, ring.coords());
      CartShift s = ring.shift(0, 1);
      assertEquals((me + 1) % size, s.getDest());
      assertEquals((me + size - 1) % size, s.getSource());
      int[] got = {-1, -1};
      ring.neighborAllgather(new int[] {me}, got);
      assertArrayEquals(new int[] {(me + size - 1) % size, (me + 1) % size}, got);
      assertThrows(IndexOutOfBoundsException.class, () -> ring.shift(2, 1));
      assertThrows(IllegalArgumentException.class, () -> ring.neighborAllgather(new int[1], new int[7]));
    }
    assertThrows(IllegalArgumentException.class, () -> world.createCart(new int[] {size}, new int[] {0, 0}));
  }

  @Test
  void distributedGraphRing() {
    try (DistGraphComm g = world.createDistGraph(new int[] {(rank + size - 1) % size},
                                                 new int[] {(rank + 1) % size})) {
      assertArrayEquals(new int[] {(rank + 1) % size}, g.destinations());
      assertEquals(1, g.getInDegree());
      long[] got = {-1};
      g.neighborAlltoall(new long[] {rank}, got);
      assertEquals((rank + size - 1) % size, got[0]);
    }
  }

  @Test
  void intercommunicatorBetweenHalves() {
    if (size < 2) {
      assertThrows(IndexOutOfBoundsException.class, () -> Comm.self().createIntercomm(1, world, 0, 0));
      return;
    }
    int color = rank < size / 2 ? 0 : 1;
    try (Comm half = world.split(color, rank);
         Intercomm x = half.createIntercomm(0, world, color == 0 ? size / 2 : 0, 3)) {
      assertTrue(x.isInter());
      assertEquals(color == 0 ? size - size / 2 : size / 2, x.getRemoteSize());
      if (half.getRank() == 0) {
        int[] in = {-1};
        x.sendrecv(new int[] {color}, 0, 0, in, 0, 0);
        assertEquals(1 - color, in[0]);
      }
      // bcast from rank 0 of the low group: MPI's intercommunicator roots.
      int[] v = {color == 0 && half.getRank() == 0 ? 77 : -1};
      x.bcast(v, color == 1 ? 0 : (half.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL));
      if (color == 1) assertEquals(77, v[0]);
      assertThrows(IllegalStateException.class, () -> x.allreduceInPlace(new int[1], Op.SUM));
      try (Comm merged = x.merge(color == 1)) {
        assertEquals(rank, merged.getRank());
        assertEquals(size, merged.getSize());
      }
    }
  }
}
