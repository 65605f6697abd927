package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Info;
import org.oompi.InfoVector;
import org.oompi.Intercomm;
import org.oompi.MPIException;
import org.oompi.Op;
import org.oompi.StringVector;
import org.oompi.StringVectorVector;

/** Dynamic processes from Java: a Java parent spawns Java children (DynamicChildJava). */
class DynamicTest extends WorldTest {
  // Open MPI 4.1 with Debian's external PMIx 4 sometimes never finishes starting a spawned
  // process (openpmix/openpmix#2735; raw C too): a spawn that has not returned after 40 s aborts
  // the job with exit code 75, on which CTest runs it again (RETRY_EXIT_CODE).
  private static final AtomicLong spawnSince = new AtomicLong();

  @BeforeAll
  static void watchdog() {
    Thread t = new Thread(() -> {
      while (true) {
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        }
        long since = spawnSince.get();
        if (since != 0 && System.nanoTime() - since > 40_000_000_000L) {
          System.err.println("MPI_Comm_spawn has not returned after 40 s: the MPI library's "
              + "launcher hung (openpmix/openpmix#2735); aborting so that the job is run again");
          Environment.abort(75);
        }
      }
    });
    t.setDaemon(true);
    t.start();
  }

  private Intercomm spawnChildren(int n, String... extra) {
    String java = System.getProperty("java.home") + "/bin/java";
    String[] args = new String[3 + extra.length];
    args[0] = "-cp";
    args[1] = System.getenv("OOMPI_JAVA_CLASSPATH");
    args[2] = "org.oompi.tests.DynamicChildJava";
    System.arraycopy(extra, 0, args, 3, extra.length);
    spawnSince.set(System.nanoTime());
    try {
      return world.spawn(java, new StringVector(args), n, 0);
    } finally {
      spawnSince.set(0);
    }
  }

  private static void assumeCanSpawn() {
    assumeFalse(Environment.libraryVersion().contains("MPICH"),
        "Debian's MPICH 4.0 (ch4:ucx, hydra) cannot spawn: see docs/dynamic.md");
  }

  @Test
  void javaParentSpawnsJavaChildren() {
    assumeCanSpawn();
    assertTrue(Intercomm.parent().isNull());
    Intercomm children = spawnChildren(2, "a b", "x=1");
    assertEquals(2, children.getRemoteSize());
    int inTmp = new java.io.File("").getAbsolutePath().equals("/tmp") ? 1 : 0;
    if (rank == 0) {
      for (int c = 0; c < 2; c++) {
        int[] got = new int[4];
        children.recv(got, c, 0);
        assertArrayEquals(new int[] {c, 2, 2, inTmp}, got);
      }
    }
    finishChildren(children);
  }

  /** The parents' side of the children's ending: merged allreduce, then disconnect. */
  private void finishChildren(Intercomm children) {
    int kids = children.getRemoteSize();
    Comm merged = children.merge(false);
    assertEquals(size + kids, merged.getSize());
    assertEquals(rank, merged.getRank());
    long n = merged.getSize();
    long[] total = new long[1];
    merged.allreduce(new long[] {merged.getRank()}, total, Op.SUM);
    assertEquals(n * (n - 1) / 2, total[0]);
    if (rank == 0) {
      for (int c = 0; c < kids; c++) {
        long[] got = new long[1];
        children.recv(got, c, 1);
        assertEquals(n * (n - 1) / 2, got[0]);
      }
    }
    merged.disconnect();
    children.disconnect();
    assertTrue(children.isNull());
    assertThrows(IllegalStateException.class, () -> children.send(new int[1], 0, 0));
  }

  /** spawnMultiple: two commands in one new world, their own arguments, counts and hints. */
  @Test
  void spawnMultiple() {
    assumeCanSpawn();
    String java = System.getProperty("java.home") + "/bin/java";
    String cp = System.getenv("OOMPI_JAVA_CLASSPATH");
    StringVectorVector args = new StringVectorVector();
    args.add(new StringVector(new String[] {"-cp", cp, "org.oompi.tests.DynamicChildJava", "first"}));
    args.add(new StringVector(new String[] {"-cp", cp, "org.oompi.tests.DynamicChildJava", "second", "x"}));
    Info tmpDir = Info.create();
    tmpDir.set("wdir", "/tmp");
    InfoVector hints = new InfoVector();
    hints.add(tmpDir);
    hints.add(new Info());
    spawnSince.set(System.nanoTime());
    Intercomm children;
    try {
      children = world.spawnMultiple(new StringVector(new String[] {java, java}), args,
                                     new int[] {1, 2}, hints, 0);
    } finally {
      spawnSince.set(0);
      tmpDir.close();
    }
    assertEquals(3, children.getRemoteSize());
    int inTmp = new java.io.File("").getAbsolutePath().equals("/tmp") ? 1 : 0;
    if (rank == 0) {
      int[] got = new int[4];
      children.recv(got, 0, 0);
      assertArrayEquals(new int[] {0, 3, 1, 1}, got);  // wdir = /tmp
      for (int c = 1; c < 3; c++) {
        children.recv(got, c, 0);
        assertArrayEquals(new int[] {c, 3, 2, inTmp}, got);
      }
    }
    finishChildren(children);
  }

  @Test
  void badSpawnMultipleInput() {
    assumeCanSpawn();
    StringVector two = new StringVector(new String[] {"java", "java"});
    StringVectorVector none = new StringVectorVector();
    InfoVector noHints = new InfoVector();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> world.spawnMultiple(two, none, new int[] {1}, noHints, 0));
    assertTrue(e.getMessage().contains(rank == 0 ? "maxprocs" : "at the root"), e.getMessage());
    Info closed = Info.create();
    InfoVector closedHints = new InfoVector();
    closedHints.add(closed);  // the vector's copy shares the handle, closed below
    closedHints.add(new Info());
    closed.close();
    assertThrows(IllegalArgumentException.class,
        () -> world.spawnMultiple(two, none, new int[] {1, 1}, closedHints, 0));
    assertThrows(IllegalArgumentException.class,
        () -> world.spawnMultiple(new StringVector(), none, new int[0], noHints, 0));
    assertThrows(IllegalArgumentException.class,
        () -> world.spawnMultiple(two, none, new int[] {1, 0}, noHints, 0));
    assertThrows(IllegalArgumentException.class, () -> world.spawnMultiple(
        new StringVector(new String[] {"/nonexistent/oompi-no-program"}), none, new int[] {1}, noHints, 0));
    assertThrows(IndexOutOfBoundsException.class,
        () -> world.spawnMultiple(two, none, new int[] {1, 1}, noHints, size));
    int[] total = new int[1];
    world.allreduce(new int[] {1}, total, Op.SUM);
    assertEquals(size, total[0]);
  }

  @Test
  void badInputAndMisuse() {
    assumeCanSpawn();
    assertThrows(IllegalArgumentException.class,
        () -> world.spawn("/nonexistent/oompi-no-program", new StringVector(new String[0]), 1, 0));
    assertThrows(IllegalArgumentException.class,
        () -> world.spawn("java", new StringVector(new String[0]), rank == 0 ? 0 : 1, 0));
    assertThrows(IndexOutOfBoundsException.class,
        () -> world.spawn("java", new StringVector(new String[0]), 1, size));
    MPIException e = assertThrows(MPIException.class,
        () -> Environment.lookupName("oompi-never-published"));
    assertEquals(org.oompi.MPI.ERR_NAME, e.getErrorClass());
    assertThrows(IllegalArgumentException.class, () -> world.accept("", 0));
    Comm copy = world.dup();
    copy.disconnect();
    assertTrue(copy.isNull());
    int[] total = new int[1];
    world.allreduce(new int[] {1}, total, Op.SUM);
    assertEquals(size, total[0]);
  }
}
