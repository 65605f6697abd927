package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.MPIException;
import org.oompi.Op;
import org.oompi.Request;

/** Buffer collectives from Java: rooted, v forms, in place, nonblocking; the bad inputs. */
class CollectivesTest extends WorldTest {
  @Test
  void bcastReduceScan() {
    long[] a = rank == size - 1 ? new long[] {5, 6, 7} : new long[3];
    world.bcast(a, size - 1);
    assertArrayEquals(new long[] {5, 6, 7}, a);
    int[] out = rank == 0 ? new int[2] : new int[0];  // root-only receive buffer
    world.reduce(new int[] {rank, 1}, out, Op.SUM, 0);
    if (rank == 0) assertArrayEquals(new int[] {size * (size - 1) / 2, size}, out);
    double[] in = {rank + 1.0};
    world.allreduceInPlace(in, Op.PROD);
    double fact = 1;
    for (int i = 2; i <= size; i++) fact *= i;
    assertEquals(fact, in[0], 0.0);
    int[] pre = new int[1];
    world.scan(new int[] {rank + 1}, pre, Op.SUM);
    assertEquals((rank + 1) * (rank + 2) / 2, pre[0]);
  }

  @Test
  void gatherScatterAndTheirVForms() {
    int[] all = new int[size];
    world.allgather(new int[] {rank * 3}, all);
    for (int r = 0; r < size; r++) assertEquals(r * 3, all[r]);
    int[] counts = new int[size], displs = new int[size];
    int total = 0;
    for (int r = 0; r < size; r++) { counts[r] = r + 1; displs[r] = total; total += r + 1; }
    double[] mine = new double[rank + 1];
    java.util.Arrays.fill(mine, rank);
    double[] gathered = rank == 0 ? new double[total] : new double[0];
    world.gatherv(mine, gathered, counts, displs, 0);
    if (rank == 0)
      for (int r = 0, k = 0; r < size; r++)
        for (int j = 0; j <= r; j++, k++) assertEquals(r, gathered[k], 0.0);
    double[] back = new double[rank + 1];
    world.scatterv(gathered, counts, displs, back, 0);
    for (double v : back) assertEquals(rank, v, 0.0);
    int[] send = new int[size], recv = new int[size];
    for (int r = 0; r < size; r++) send[r] = rank * 100 + r;
    world.alltoall(send, recv);
    for (int r = 0; r < size; r++) assertEquals(r * 100 + rank, recv[r]);
  }

  @Test
  void nonblockingOnDirectBuffers() {
    IntBuffer in = Buffers.newIntBuffer(4), out = Buffers.newIntBuffer(4);
    for (int i = 0; i < 4; i++) in.put(i, rank + i);
    try (Request r = world.iallreduce(in, out, Op.MAX)) {
      r.waitFor();
    }
    for (int i = 0; i < 4; i++) assertEquals(size - 1 + i, out.get(i));
    DoubleBuffer all = Buffers.newDoubleBuffer(size);
    DoubleBuffer me = Buffers.newDoubleBuffer(1).put(0, rank * 0.5);
    try (Request r = world.iallgather(me, all)) {
      r.waitFor();
    }
    for (int i = 0; i < size; i++) assertEquals(i * 0.5, all.get(i), 0.0);
    try (Request r = world.ibarrier()) {
      r.waitFor();
    }
  }

  @Test
  void badInputs() {
    // Arrays in a nonblocking collective (used through native copies): sizes checked first.
    assertThrows(IllegalArgumentException.class, () -> world.iallreduce(new int[1], new int[2], Op.SUM));
    // A receive buffer must hold exactly what the collective delivers.
    assertThrows(IllegalArgumentException.class, () -> world.allgather(new int[1], new int[size + 1]));
    assertThrows(IllegalArgumentException.class, () -> world.allreduce(new int[2], new int[3], Op.SUM));
    // Roots outside the communicator.
    assertThrows(IndexOutOfBoundsException.class, () -> world.bcast(new int[1], size));
    // Counts that do not match the communicator's size.
    assertThrows(IllegalArgumentException.class,
        () -> world.allgatherv(new int[1], new int[size], new int[size + 1], new int[size + 1]));
    assertThrows(NullPointerException.class, () -> world.gatherv(new int[1], new int[size], null, null, 0));
  }
}
