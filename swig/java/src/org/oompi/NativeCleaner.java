package org.oompi;

import java.lang.ref.Cleaner;

/**
 * The one Cleaner of the handle proxies (Comm, Request, Datatype, Op, Environment): a proxy
 * that is collected without close() has its native object freed on this cleaner's thread.
 * That frees C++ memory only: the facade's destructors make no MPI call (BINDINGS trap 7), so
 * an unclosed communicator or datatype stays allocated in MPI until MPI_Finalize.
 */
final class NativeCleaner {
  static final Cleaner CLEANER = Cleaner.create();

  private NativeCleaner() {}
}
