package org.oompi;

/**
 * An MPI call failed. Carries the MPI error class (compare with {@code MPI.ERR_TRUNCATE} and the
 * other {@code MPI.ERR_*} constants), the error code and the MPI routine; the message is MPI's
 * own text. Unchecked, like every oompi exception.
 */
public class MPIException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int errorClass;
  private final int errorCode;
  private final String routine;

  public MPIException(String message, int errorClass, int errorCode, String routine) {
    super(message);
    this.errorClass = errorClass;
    this.errorCode = errorCode;
    this.routine = routine;
  }

  /** The MPI error class (MPI.ERR_TRUNCATE, MPI.ERR_RANK, ...). */
  public int getErrorClass() {
    return errorClass;
  }

  /** The MPI error code as returned by the failing call. */
  public int getErrorCode() {
    return errorCode;
  }

  /** The MPI routine that failed, e.g. "MPI_Recv". */
  public String getRoutine() {
    return routine;
  }
}
