package org.oompi;

/** Checks a handle (Comm, Op, Group, Datatype, Request, ...) passed as an argument. */
final class Handles {
  private Handles() {}

  /**
   * The native pointer of a proxy passed as an argument (java.i's javain typemap): a closed one
   * (pointer 0 after close()) throws the IllegalStateException a call on it throws, naming its
   * class, instead of the NullPointerException SWIG's check would make of it.
   */
  static long ptr(long cPtr, Object proxy, String type) {
    if (cPtr == 0) {
      if (proxy == null) throw new NullPointerException("oompi: the " + type + " argument is null");
      throw new IllegalStateException("oompi: the " + type + " passed as an argument has been closed");
    }
    return cPtr;
  }
}
