package mpi;

/**
 * An MPI call failed (Open MPI's Java API: a checked exception). Carries the MPI error class
 * and code; the message is MPI's own text or oompi's description of the bad argument. Every
 * failure of this package's methods arrives as one: MPI errors, bad counts and buffers, closed
 * objects, a {@link UserFunction} that threw (its exception is the cause).
 */
public class MPIException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int errorCode;
  private final int errorClass;

  public MPIException(int code, String message) {
    super(message);
    errorCode = code;
    errorClass = code;
  }

  public MPIException(String message) {
    this(MPI.ERR_UNKNOWN_CLASS, message);
  }

  public MPIException(Throwable cause) {
    super(cause == null ? null : cause.getMessage(), cause);
    errorCode = MPI.ERR_UNKNOWN_CLASS;
    errorClass = MPI.ERR_UNKNOWN_CLASS;
  }

  MPIException(String message, int errorClass, int errorCode, Throwable cause) {
    super(message, cause);
    this.errorClass = errorClass;
    this.errorCode = errorCode;
  }

  /** The MPI error code (MPI's own code for MPI errors; the class for oompi's checks). */
  public final int getErrorCode() { return errorCode; }

  /** The MPI error class: MPI.ERR_TRUNCATE, MPI.ERR_COUNT, ... */
  public final int getErrorClass() { return errorClass; }
}
