package mpi;

/**
 * The error handler of a communicator, window or file: what getErrhandler
 * reports before one is set (MPI's default for the kind of object), and callErrhandler's rule
 * (Errors.call). The owner checks that it is still alive first.
 */
final class ErrhandlerSlot {
  private final Errhandler reported;  // getErrhandler before setErrhandler
  private final Errhandler unset;     // what callErrhandler applies before setErrhandler (null: throw)
  private final String what;
  private Errhandler set;

  ErrhandlerSlot(Errhandler reported, Errhandler unset, String what) {
    this.reported = reported;
    this.unset = unset;
    this.what = what;
  }

  Errhandler get() { return set == null ? reported : set; }

  /** Whether h was set (not merely reported as the default). */
  boolean isSetTo(Errhandler h) { return set == h; }

  void set(Errhandler h) throws MPIException {
    if (h == null) throw new MPIException(MPI.ERR_ARG, "null error handler");
    set = h;
  }

  void call(Object owner, int errorCode) throws MPIException {
    Errors.call(owner, set == null ? unset : set, errorCode, what + ".callErrhandler");
  }
}
