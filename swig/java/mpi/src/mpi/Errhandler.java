package mpi;

/**
 * MPI.ERRORS_RETURN or MPI.ERRORS_ARE_FATAL. With oompi every failure throws MPIException
 * (an uncaught one ends the JVM, and oompi then aborts the whole job, so errors are fatal
 * unless caught); a communicator set explicitly to ERRORS_ARE_FATAL aborts at once instead.
 */
public final class Errhandler implements Freeable {
  static final Errhandler RETURN = new Errhandler("MPI_ERRORS_RETURN");
  static final Errhandler FATAL = new Errhandler("MPI_ERRORS_ARE_FATAL");
  private final String name;

  private Errhandler(String name) { this.name = name; }

  /** Predefined handlers are never freed. */
  @Override public void free() {}

  @Override public String toString() { return name; }
}
