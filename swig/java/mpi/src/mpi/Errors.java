package mpi;

/**
 * Turns what org.oompi throws into this API's checked MPIException (with an MPI error class
 * chosen for oompi's own argument checks), and applies a communicator's error handler.
 */
final class Errors {
  private Errors() {}

  /** Carries a UserFunction's checked MPIException through org.oompi's reduction. */
  static final class Carrier extends RuntimeException {
    private static final long serialVersionUID = 1L;
    Carrier(MPIException e) { super(e); }
  }

  static MPIException of(Throwable e) {
    if (e instanceof MPIException) return (MPIException) e;
    if (e instanceof Carrier) return (MPIException) e.getCause();
    if (e instanceof org.oompi.MPIException) {
      org.oompi.MPIException m = (org.oompi.MPIException) e;
      return new MPIException(m.getMessage(), m.getErrorClass(), m.getErrorCode(), e);
    }
    int cls;
    if (e instanceof IndexOutOfBoundsException) cls = org.oompi.MPI.ERR_COUNT;
    else if (e instanceof IllegalStateException) cls = org.oompi.MPI.ERR_ARG;  // a closed object
    else if (e instanceof IllegalArgumentException) cls = org.oompi.MPI.ERR_ARG;
    else if (e instanceof NullPointerException) cls = org.oompi.MPI.ERR_ARG;
    else cls = org.oompi.MPI.ERR_OTHER;  // a UserFunction's own exception, ...
    String msg = e.getMessage() != null ? e.getMessage() : e.toString();
    return new MPIException(msg, cls, cls, e);
  }

  /** For a communicator's call: ERRORS_ARE_FATAL set explicitly aborts the job. */
  static MPIException of(CommBase comm, Throwable e) {
    MPIException m = of(e);
    if (comm != null && comm.handler.isSetTo(Errhandler.FATAL)) {
      System.err.println("mpi: error on a communicator whose error handler is ERRORS_ARE_FATAL: "
          + m.getMessage());
      m.printStackTrace();
      System.err.flush();
      org.oompi.Environment.abort(m.getErrorClass() == 0 ? 1 : m.getErrorClass());
    }
    return m;
  }

  /**
   * MPI_*_call_errhandler for a communicator, window or file whose handler is h (null: none set,
   * this package's default). ERRORS_RETURN returns (MPI's handler does nothing); an explicit
   * ERRORS_ARE_FATAL aborts the job; the default throws MPIException(errorCode).
   */
  static void call(Object owner, Errhandler h, int errorCode, String what) throws MPIException {
    if (h == Errhandler.RETURN) return;
    MPIException m = new MPIException(errorCode, what + "(" + errorCode + ")");
    if (h == Errhandler.FATAL) {
      System.err.println("mpi: " + what + " with ERRORS_ARE_FATAL: error code " + errorCode);
      System.err.flush();
      org.oompi.Environment.abort(errorCode == 0 ? 1 : errorCode);
    }
    throw m;
  }
}
