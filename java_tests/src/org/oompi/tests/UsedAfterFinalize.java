package org.oompi.tests;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;
import org.oompi.Port;
import org.oompi.ThreadLevel;

/**
 * Run by java.after_finalize (args: the thread level): a program that keeps using its
 * communicator after closing the Environment. Every call, on arrays of every size the binding
 * treats differently (Port's scratch, Java copies, ranges that are pinned where sends may pin,
 * the native copies), direct buffers and objects, must throw IllegalStateException: none may
 * reach MPI (which aborts the job after MPI_Finalize) or pin an array first. Exit code 0 when
 * all threw it; 1 with the list otherwise.
 */
public final class UsedAfterFinalize {
  interface Call {
    void run();
  }

  public static void main(String[] args) {
    Environment env = new Environment(ThreadLevel.valueOf(args.length > 0 ? args[0] : "MULTIPLE"));
    Comm world = Comm.world();
    int rank = world.getRank(), peer = (rank + 1) % world.getSize();
    Port port = world.port(peer);
    world.barrier();
    env.close();

    List<String> wrong = new ArrayList<>();
    int[] bytes = {8, 2048, 4096, 65536, 1 << 20};
    for (int n : bytes) {
      byte[] b = new byte[n + 64];
      double[] d = new double[n / 8 + 8];
      check(wrong, "send(byte[" + n + "] range)", () -> world.send(b, 3, n, peer, 1));
      check(wrong, "recv(byte[" + n + "] range)", () -> world.recv(b, 3, n, peer, 1));
      check(wrong, "send(double[] whole, " + n + " B)", () -> world.send(d, peer, 1));
      check(wrong, "recv(double[] whole, " + n + " B)", () -> world.recv(d, peer, 1));
      check(wrong, "isend(byte[" + n + "] range)", () -> world.isend(b, 5, n, peer, 1));
      check(wrong, "irecv(byte[" + n + "] range)", () -> world.irecv(b, 5, n, peer, 1));
      check(wrong, "port.send(byte[" + n + "])", () -> port.send(b, 1));
      check(wrong, "port.recv(byte[" + n + "])", () -> port.recv(b, 1));
      check(wrong, "bcast(double[], " + n + " B)", () -> world.bcast(d, 0));
      check(wrong, "allreduce(double[], " + n + " B)", () -> world.allreduce(d, d.clone(), Op.SUM));
      check(wrong, "sendrecv(byte[" + n + "])", () -> world.sendrecv(b, peer, 1, b.clone(), peer, 1));
    }
    ByteBuffer direct = ByteBuffer.allocateDirect(4096);
    check(wrong, "send(direct buffer)", () -> world.send(direct, peer, 1));
    check(wrong, "recv(direct buffer)", () -> world.recv(direct, peer, 1));
    check(wrong, "osend(String)", () -> world.osend("after", peer, 1));
    check(wrong, "orecv(String)", () -> world.orecv(String.class, peer, 1));
    check(wrong, "iosend(String)", () -> world.iosend("after", peer, 1));
    check(wrong, "iorecv(String)", () -> world.iorecv(String.class, peer, 1));
    check(wrong, "mprobe", () -> world.mprobe(peer, 1));
    check(wrong, "iprobe", () -> world.iprobe(peer, 1));
    check(wrong, "barrier()", world::barrier);
    if (!wrong.isEmpty()) {
      System.err.println("rank " + rank + ": " + wrong.size() + " calls after MPI_Finalize did not "
          + "throw IllegalStateException:\n  " + String.join("\n  ", wrong));
      System.exit(1);
    }
    System.out.println("rank " + rank + ": every call after MPI_Finalize threw IllegalStateException");
  }

  // -Doompi.tests.trace=true: each call named before it runs (which one took the job down)
  static final boolean TRACE = Boolean.getBoolean("oompi.tests.trace");

  static void check(List<String> wrong, String what, Call c) {
    if (TRACE) System.err.println("calling " + what);
    try {
      c.run();
      wrong.add(what + ": returned");
    } catch (IllegalStateException e) {
      if (!e.getMessage().contains("finalized")) wrong.add(what + ": " + e.getMessage());
    } catch (Throwable t) {
      wrong.add(what + ": " + t);
    }
  }
}
