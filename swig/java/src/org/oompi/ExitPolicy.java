package org.oompi;

/**
 * What Environment's shutdown hook does when the JVM exits with MPI initialized and not
 * finalized. By default it aborts the job (MPI_Finalize there could wait forever for ranks that
 * are not finalizing). A layer above may register one action that runs first and may finalize
 * MPI when it knows the program ended normally: package mpi does, for a program whose main
 * returned without MPI.Finalize(). The hook runs the action on its own thread; if MPI is still
 * not finalized afterwards, the hook aborts as before.
 */
public final class ExitPolicy {
  private ExitPolicy() {}

  private static volatile Runnable beforeAbort;

  /** Sets the action (null: none); the last one set wins. */
  public static void setBeforeAbort(Runnable action) { beforeAbort = action; }

  /** Called by the shutdown hook; an exception of the action is reported, then the hook aborts. */
  static void runBeforeAbort() {
    Runnable action = beforeAbort;
    if (action == null) return;
    try {
      action.run();
    } catch (RuntimeException | Error e) {
      System.err.println("oompi: the exit action failed: " + e);
    }
  }
}
