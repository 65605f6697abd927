package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Comparison;
import org.oompi.Datatype;
import org.oompi.File;
import org.oompi.Group;
import org.oompi.MPI;
import org.oompi.Op;
import org.oompi.Request;
import org.oompi.RequestVector;
import org.oompi.UserFunction;
import org.oompi.Window;

/**
 * A closed handle passed as an argument (not called itself) throws what a call on a closed handle
 * throws, IllegalStateException, naming its class; null stays a NullPointerException. Every kind of
 * handle: Comm, Op, Group, Datatype, Request, RequestVector. Every message names Java's classes
 * and methods (Window.put, File.writeAt), never the C++ facade's (oompi::rt::window, window.put).
 */
@ExtendWith(MpiExtension.class)
class ClosedTest {
  private final Comm world = Comm.world();
  private final int size = world.getSize();

  private static void closedArgument(String type, Executable call) {
    IllegalStateException e = assertThrows(IllegalStateException.class, call);
    assertTrue(e.getMessage().contains(type) && e.getMessage().contains("closed"), e.getMessage());
  }

  private static void nullArgument(String type, Executable call) {
    NullPointerException e = assertThrows(NullPointerException.class, call);
    assertTrue(e.getMessage().contains(type), e.getMessage());
  }

  @Test
  void closedComm() {
    Comm c = world.dup();
    c.close();
    // a call on it and the same handle as an argument: the same exception
    closedArgument("closed", c::getSize);
    closedArgument("Comm", () -> world.compare(c));
    closedArgument("Comm", () -> world.createIntercomm(0, c, 0, 7));
    nullArgument("Comm", () -> world.compare(null));
    try (Comm d = world.dup()) {
      assertEquals(Comparison.CONGRUENT, world.compare(d));  // an open one still works
    }
  }

  @Test
  void closedOp() {
    UserFunction sum = new UserFunction() {
      @Override
      public void call(Object in, Object inOut, int count, Datatype type) {
        double[] a = (double[]) in, b = (double[]) inOut;
        for (int i = 0; i < count; i++) b[i] += a[i];
      }
    };
    Op op = new Op(sum, true);
    double[] out = new double[1];
    world.allreduce(new double[] {1}, out, op);
    assertEquals(size, out[0]);
    op.close();
    closedArgument("Op", () -> world.allreduce(new double[] {1}, out, op));
    closedArgument("Op", () -> world.reduce(new double[] {1}, out, op, 0));
    closedArgument("Op", () -> world.allreduceInPlace(out, op));
    closedArgument("Op", () -> world.iallreduce(Buffers.newDoubleBuffer(1), Buffers.newDoubleBuffer(1), op));
    nullArgument("Op", () -> world.allreduce(new double[] {1}, out, null));
    world.allreduce(new double[] {2}, out, Op.SUM);  // the communicator is still usable
    assertEquals(2 * size, out[0]);
  }

  @Test
  void closedGroup() {
    try (Group g = world.getGroup()) {
      Group h = world.getGroup();
      h.close();
      closedArgument("Group", () -> g.compare(h));
      closedArgument("Group", () -> g.setUnion(h));
      closedArgument("Group", () -> g.translateRanks(new int[] {0}, h));
      closedArgument("Group", () -> world.create(h));
      nullArgument("Group", () -> g.compare(null));
    }
  }

  @Test
  void closedDatatype() {
    Datatype t = Datatype.contiguous(2, Datatype.INT);
    t.close();
    closedArgument("Datatype", () -> Datatype.contiguous(2, t));
    closedArgument("Datatype", () -> Datatype.vector(2, 1, 2, t));
    closedArgument("Datatype", () -> Datatype.resized(t, 0, 8));
    // inside a TypedBuffer (checked by the native buffer code)
    assertThrows(IllegalStateException.class, () -> world.bcast(Buffers.typed(new int[4], 1, t), 0));
    nullArgument("Datatype", () -> Datatype.contiguous(2, null));
  }

  @Test
  void closedRequest() {
    Request r = world.isend(Buffers.newIntBuffer(1), world.getRank(), 61);
    world.recv(new int[1], world.getRank(), 61);
    r.close();
    RequestVector v = new RequestVector();
    closedArgument("Request", () -> v.add(r));
    assertEquals(0, v.size());
    RequestVector w = new RequestVector();
    w.delete();
    closedArgument("RequestVector", () -> Request.waitAll(w));
    closedArgument("RequestVector", () -> Request.testAny(w));
  }

  /** The message starts with Java's Class.method and names no C++ type. */
  private static void javaNames(RuntimeException e, String starts) {
    String m = e.getMessage();
    assertTrue(m.startsWith(starts), m);
    assertTrue(!m.contains("oompi::"), m);
  }

  @Test
  void messagesNameJavaClassesAndMethods() throws Exception {
    Comm d = world.dup();
    d.close();
    javaNames(assertThrows(IllegalStateException.class, d::barrier),
        "Comm.barrier: this Comm has been closed");
    javaNames(assertThrows(IllegalStateException.class, d::getSize),
        "Comm.getSize: this Comm has been closed");

    Window win = Window.create(world, Buffers.newDoubleBuffer(4));
    win.close();
    javaNames(assertThrows(IllegalStateException.class, () -> win.put(new double[1], 0, 0)),
        "Window.put: this Window has been closed");
    javaNames(assertThrows(IllegalStateException.class, () -> win.fence()),
        "Window.fence: this Window has been closed");

    java.nio.file.Path path = java.nio.file.Files.createTempFile("oompi_closed_", ".bin");
    try {
      File f = File.open(Comm.self(), path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
      f.close();
      javaNames(assertThrows(IllegalStateException.class, () -> f.writeAt(0, new int[2])),
          "File.writeAt: this File has been closed");
    } finally {
      java.nio.file.Files.deleteIfExists(path);
    }
    // other facade messages: the leading Class.method in Java's names
    javaNames(assertThrows(IllegalArgumentException.class, () -> Datatype.contiguous(-1, Datatype.INT)),
        "Datatype.contiguous: negative count");
  }
}
