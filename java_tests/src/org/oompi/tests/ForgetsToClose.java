package org.oompi.tests;

import org.oompi.Comm;
import org.oompi.Environment;

/**
 * Run by java.shutdown (expected to fail): rank 0 throws out of main without closing the
 * Environment while the other ranks wait in a bcast from it. The shutdown hook must abort the
 * job (exit code non-zero) instead of leaving the others waiting (which the timeout would catch).
 */
public final class ForgetsToClose {
  public static void main(String[] args) {
    new Environment();
    Comm world = Comm.world();
    world.barrier();
    if (world.getRank() == 0) throw new IllegalStateException("rank 0 leaves without closing");
    int[] v = {0};
    world.bcast(v, 0);  // never completes: rank 0 is gone
    System.exit(0);
  }
}
