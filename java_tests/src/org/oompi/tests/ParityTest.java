package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.DistGraphComm;
import org.oompi.Group;
import org.oompi.Op;
import org.oompi.Request;

/**
 * Binding parity with the C++ core (issue 15): group rank ranges, reduceLocal, in-place
 * v-collectives, ireduceScatter, neighbour v-collectives; with their bad inputs.
 */
@ExtendWith(MpiExtension.class)
class ParityTest {
  private final Comm world = Comm.world();
  private final int rank = world.getRank();
  private final int size = world.getSize();

  @Test
  void groupRanges() {
    try (Group g = world.getGroup(); Group evens = g.rangeIncl(new int[] {0, size - 1, 2});
         Group odds = g.rangeExcl(new int[] {0, size - 1, 2});
         Group backwards = g.rangeIncl(new int[] {size - 1, 0, -1})) {
      assertEquals((size + 1) / 2, evens.getSize());
      assertEquals(size / 2, odds.getSize());
      assertArrayEquals(new int[] {size - 1}, backwards.translateRanks(new int[] {0}, g));
      assertThrows(IllegalArgumentException.class, () -> g.rangeIncl(new int[] {0, 1}));
      assertThrows(IndexOutOfBoundsException.class, () -> g.rangeIncl(new int[] {0, size, 1}));
      assertThrows(IllegalArgumentException.class, () -> g.rangeIncl(new int[] {0, 0, 0}));
    }
  }

  @Test
  void reduceLocal() {
    long[] b = {10, 10, 10};
    Op.SUM.reduceLocal(new long[] {0, 1, 2}, b);
    assertArrayEquals(new long[] {10, 11, 12}, b);
    double[] c = {0, 0};
    Op.MAX.reduceLocal(new double[] {20, -1}, c);
    assertArrayEquals(new double[] {20, 0}, c);
    assertThrows(IllegalArgumentException.class,
        () -> Op.SUM.reduceLocal(new double[3], new double[4]));
    assertThrows(IllegalArgumentException.class,
        () -> Op.SUM.reduceLocal(new int[3], new double[3]));
  }

  @Test
  void inPlaceVCollectives() {
    int[] counts = new int[size];
    int[] displs = new int[size];
    int total = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = r + 1;
      displs[r] = total;
      total += r + 1;
    }
    double[] expect = new double[total];
    for (int r = 0; r < size; r++) {
      for (int i = 0; i < counts[r]; i++) expect[displs[r] + i] = r;
    }
    double[] buf = new double[total];
    java.util.Arrays.fill(buf, -1);
    for (int i = 0; i < counts[rank]; i++) buf[displs[rank] + i] = rank;
    world.allgathervInPlace(buf, counts, displs);
    assertArrayEquals(expect, buf);

    double[] mine = new double[counts[rank]];
    java.util.Arrays.fill(mine, rank);
    double[] whole = new double[total];
    java.util.Arrays.fill(whole, -1);
    for (int i = 0; i < counts[0]; i++) whole[displs[0] + i] = 0;
    world.gathervInPlace(rank == 0 ? whole : mine, counts, displs, 0);
    if (rank == 0) assertArrayEquals(expect, whole);

    int[] ones = new int[size];
    int[] steps = new int[size];
    int[] blocks = new int[size];
    for (int r = 0; r < size; r++) {
      ones[r] = 1;
      steps[r] = r;
      blocks[r] = rank * 100 + r;
    }
    world.alltoallvInPlace(blocks, ones, steps);
    for (int r = 0; r < size; r++) assertEquals(r * 100 + rank, blocks[r]);

    int[] bad = counts.clone();
    bad[size - 1] += 5;
    assertThrows(IllegalArgumentException.class,
        () -> world.allgathervInPlace(new double[expect.length], bad, displs));
  }

  @Test
  void ireduceScatterOnDirectBuffers() {
    int[] counts = new int[size];
    int total = 0;
    for (int r = 0; r < size; r++) {
      counts[r] = r + 1;
      total += r + 1;
    }
    DoubleBuffer send = Buffers.newDoubleBuffer(total);
    for (int i = 0; i < total; i++) send.put(i, i + rank);
    DoubleBuffer mine = Buffers.newDoubleBuffer(counts[rank]);
    try (Request req = world.ireduceScatter(send, mine, counts, Op.SUM)) {
      req.waitFor();
    }
    int start = 0;
    for (int r = 0; r < rank; r++) start += counts[r];
    for (int i = 0; i < counts[rank]; i++) {
      double want = 0;
      for (int r = 0; r < size; r++) want += start + i + r;
      assertEquals(want, mine.get(i));
    }
  }

  @Test
  void neighbourVCollectives() {
    int left = (rank - 1 + size) % size;
    int right = (rank + 1) % size;
    try (DistGraphComm g = world.createDistGraph(new int[] {left}, new int[] {right})) {
      long[] got = new long[left + 2];
      java.util.Arrays.fill(got, -1);
      long[] out = new long[rank + 1];
      java.util.Arrays.fill(out, rank);
      g.neighborAllgatherv(out, got, new int[] {left + 1}, new int[] {1});
      assertEquals(-1, got[0]);
      for (int i = 1; i < got.length; i++) assertEquals(left, got[i]);
      int[] send = new int[rank + 1];
      java.util.Arrays.fill(send, rank);
      int[] into = new int[left + 1];
      g.neighborAlltoallv(send, new int[] {rank + 1}, new int[] {0}, into, new int[] {left + 1},
          new int[] {0});
      for (int v : into) assertEquals(left, v);
      assertThrows(IllegalArgumentException.class,
          () -> g.neighborAllgatherv(new double[1], new double[1], new int[] {1, 1}, new int[] {0, 0}));
    }
  }
}
