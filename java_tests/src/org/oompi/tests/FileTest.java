package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.IntBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.oompi.Buffers;
import org.oompi.Datatype;
import org.oompi.File;
import org.oompi.MPI;
import org.oompi.MPIException;
import org.oompi.Request;
import org.oompi.SeekFrom;
import org.oompi.FileView;
import org.oompi.Info;
import org.oompi.InfoVector;

/**
 * MPI-IO from Java (org.oompi.File over the C++ core's oompi::file): each access mode with the
 * contents checked, a subarray view, a short read at the end of the file, nonblocking calls on
 * direct buffers and arrays, errors, try-with-resources. Files are closed at the end of each test, not by
 * try-with-resources around assertions: closing is collective, and a rank leaving early by a
 * failed assertion would wait there for the others.
 */
class FileTest extends WorldTest {
  private String path;

  @BeforeEach
  void name(TestInfo info) {
    long[] pid = {ProcessHandle.current().pid()};  // rank 0's: one name for all ranks
    world.bcast(pid, 0);
    path = System.getProperty("java.io.tmpdir") + "/oompi_jio_" + pid[0] + "_"
        + info.getTestMethod().get().getName() + ".bin";
  }

  @AfterEach
  void remove() {
    world.barrier();
    if (rank == 0 && new java.io.File(path).exists()) File.remove(path);
    world.barrier();
  }

  private void sync(File f) {  // sync-barrier-sync: other ranks' writes become visible
    f.sync();
    world.barrier();
    f.sync();
  }

  private static int[] range(int n, int base) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = base + i;
    return a;
  }

  @Test
  void explicitOffsetsAndPointers() {
    int n = 4;
    File f = File.open(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
    assertEquals(n * 4, f.writeAt(rank * n * 4L, range(n, 100 * rank)).getCountBytes());
    sync(f);
    assertEquals(size * n * 4L, f.getSize());
    int left = (rank + size - 1) % size;
    int[] got = new int[n];
    assertEquals(n, f.readAtAll(left * n * 4L, got).getCount(Datatype.INT));
    assertArrayEquals(range(n, 100 * left), got);
    sync(f);
    // individual pointer through a per-rank view in ints
    f.setView(rank * n * 4L, Datatype.INT, Datatype.INT);
    f.writeAll(range(n, 7 * rank));
    assertEquals(n, f.getPosition());
    sync(f);  // OMPIO's collective write may still be writing this block on an aggregator
    f.seek(-1, SeekFrom.CURRENT);
    int[] last = new int[1];
    f.read(last);
    assertEquals(7 * rank + n - 1, last[0]);
    sync(f);
    // shared pointer, in rank order
    f.setView(0, Datatype.BYTE, Datatype.BYTE);
    f.setSize(0);
    world.barrier();
    f.writeOrdered(new int[] {rank, rank});
    sync(f);
    int[] all = new int[2 * size];
    f.readAt(0, all);
    for (int r = 0; r < size; r++) assertArrayEquals(new int[] {r, r}, Arrays.copyOfRange(all, 2 * r, 2 * r + 2));
    f.close();
    f.close();  // idempotent
  }

  @Test
  void subarrayViewAndShortRead() {
    // 2 x (2 * size) ints; rank r owns columns [2r, 2r + 2)
    int cols = 2 * size;
    Datatype block = Datatype.subarray(new int[] {2, cols}, new int[] {2, 2}, new int[] {0, 2 * rank},
                                       Datatype.INT);
    File f = File.open(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
    f.setView(0, Datatype.INT, block);
    f.writeAll(new int[] {2 * rank, 2 * rank + 1, cols + 2 * rank, cols + 2 * rank + 1});
    sync(f);
    f.setView(0, Datatype.INT, Datatype.INT);
    int[] whole = new int[2 * cols];
    f.readAtAll(0, whole);
    assertArrayEquals(range(2 * cols, 0), whole);
    // a read of 4 ints from the last 2: the status says 2
    int[] tail = new int[4];
    assertEquals(2, f.readAtAll(2L * cols - 2, tail).getCount(Datatype.INT));
    assertEquals(2, f.readAt(2L * cols - 2, tail).getCount(Datatype.INT));
    assertArrayEquals(new int[] {2 * cols - 2, 2 * cols - 1}, Arrays.copyOf(tail, 2));
    f.close();
    block.close();
  }

  @Test
  void nonblockingOnDirectBuffers() {
    int n = 5;
    File f = File.open(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
    IntBuffer out = Buffers.newIntBuffer(n);
    out.put(range(n, 10 * rank)).flip();
    assertEquals(n, f.iwriteAt(rank * n * 4L, out).waitFor().getCount(Datatype.INT));
    sync(f);
    IntBuffer in = Buffers.newIntBuffer(n);
    int right = (rank + 1) % size;
    Request r = f.ireadAt(right * n * 4L, in);
    assertEquals(n, r.waitFor().getCount(Datatype.INT));
    int[] got = new int[n];
    in.get(got);
    assertArrayEquals(range(n, 10 * right), got);
    // an array works too: MPI reads into a native copy, copied into the array on completion
    int[] arr = new int[n];
    f.ireadAt(right * n * 4L, arr).waitFor();
    assertArrayEquals(range(n, 10 * right), arr);
    f.close();
  }

  @Test
  void errors() {
    String missing = path + ".missing";
    MPIException e = assertThrows(MPIException.class, () -> File.open(world, missing, MPI.MODE_RDONLY));
    assertEquals(MPI.ERR_NO_SUCH_FILE, e.getErrorClass());
    e = assertThrows(MPIException.class, () -> File.remove(missing));
    assertEquals(MPI.ERR_NO_SUCH_FILE, e.getErrorClass());
    File f = File.open(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
    assertThrows(IllegalArgumentException.class, () -> f.writeAt(-4, new int[1]));
    assertThrows(IllegalArgumentException.class, () -> f.setSize(-1));
    f.close();
    assertThrows(IllegalStateException.class, () -> f.readAt(0, new int[1]));
    assertThrows(IllegalStateException.class, f::getSize);
    // try-with-resources closes it (collectively); the file exists now: exclusive create fails
    try (File g = File.open(world, path, MPI.MODE_RDONLY)) {
      world.barrier();
    }
    e = assertThrows(MPIException.class,
        () -> File.open(world, path, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_WRONLY));
    assertEquals(MPI.ERR_FILE_EXISTS, e.getErrorClass());
  }

  /** Hints at open, getInfo, getView, and the split collectives (the file holds the direct
   *  buffer, or an array's native copy, from begin to end). */
  @Test
  void hintsViewAndSplitCollectives() {
    int n = 4;
    Info hints = Info.create();
    hints.set("cb_buffer_size", "1048576");
    File f = File.open(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR, hints);
    hints.close();
    try (Info used = f.getInfo()) {
      for (String k : used.keys()) assertFalse(used.get(k).isEmpty());
    }
    FileView v = f.getView();
    assertEquals(0, v.getDisplacement());
    assertEquals("native", v.getDatarep());
    assertEquals(1, v.getFiletype().getSize());
    f.setView(rank * n * 4L, Datatype.INT, Datatype.INT);
    v = f.getView();
    assertEquals(rank * n * 4L, v.getDisplacement());
    assertEquals(4, v.getEtype().getSize());
    IntBuffer out = Buffers.newIntBuffer(n);
    out.put(range(n, 10 * rank)).flip();
    f.writeAllBegin(out);
    assertThrows(IllegalStateException.class, () -> f.writeAllBegin(out));
    assertThrows(IllegalStateException.class, () -> f.readAllEnd());
    assertThrows(IllegalStateException.class, () -> f.close());
    assertEquals(n, f.writeAllEnd().getCount(Datatype.INT));
    assertThrows(IllegalStateException.class, () -> f.writeAllEnd());
    sync(f);
    f.seek(0, SeekFrom.SET);
    IntBuffer in = Buffers.newIntBuffer(n);
    f.readAllBegin(in);
    assertEquals(n, f.readAllEnd().getCount(Datatype.INT));
    int[] got = new int[n];
    in.get(got);
    assertArrayEquals(range(n, 10 * rank), got);
    // an array goes through a native copy, copied back into the array by the end
    sync(f);
    f.seek(0, SeekFrom.SET);
    int[] arr = new int[n];
    f.readAllBegin(arr);
    System.gc();  // the array may move meanwhile: MPI writes the copy
    assertEquals(n, f.readAllEnd().getCount(Datatype.INT));
    assertArrayEquals(range(n, 10 * rank), arr);
    f.close();
    assertThrows(IllegalStateException.class, () -> f.getView());
    // hints closed on one process only: every process throws the same
    // (closed through a second reference: `one` itself stays open, so the call reaches MPI)
    Info one = Info.create();
    InfoVector refs = new InfoVector();
    refs.add(one);
    if (rank == 0) refs.get(0).close();
    assertThrows(IllegalStateException.class, () -> File.open(world, path, MPI.MODE_RDONLY, one));
    one.close();
  }
}
