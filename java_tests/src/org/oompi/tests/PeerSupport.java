package org.oompi.tests;

import java.util.function.Consumer;
import org.oompi.Comm;
import org.oompi.Environment;

/**
 * What the Java ranks of the MPMD tests share (GraphPeerJava, CollPeerJava, PythonPeerJava): a
 * run in which any exception aborts the whole job, since the other language's ranks may be
 * waiting in a call this rank will never make (the job's exit code is the verdict), and the
 * checks that throw.
 */
final class PeerSupport {
  private PeerSupport() {}

  /** Runs body on the world communicator under MPI; aborts the job with exit code 1 when it
   *  throws, else the last rank prints "name: ok". */
  static void runPeer(String name, Consumer<Comm> body) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      try {
        body.accept(world);
      } catch (Throwable t) {
        System.err.println(name + " (rank " + world.getRank() + "): FAILED");
        t.printStackTrace();
        System.err.flush();
        Environment.abort(1);
      }
      if (world.getRank() == world.getSize() - 1) System.out.println(name + ": ok");
    }
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  /** Runs f, which must throw a {@code type}; returns what it threw. */
  static Throwable expectThrow(String what, Class<? extends Throwable> type, Runnable f) {
    try {
      f.run();
    } catch (Throwable t) {
      if (type.isInstance(t)) return t;
      throw new AssertionError(what + ": expected " + type.getSimpleName() + ", got " + t, t);
    }
    throw new AssertionError(what + ": did not throw");
  }
}
