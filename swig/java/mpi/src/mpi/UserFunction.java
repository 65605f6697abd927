package mpi;

import java.nio.ByteBuffer;

/**
 * A user reduction (Open MPI's Java API, seed 000 Figs. 12-13): {@code inOut[i] = in[i] op
 * inOut[i]}. Override either call: over arrays of the datatype's base type (copies), or over
 * ByteBuffers that view MPI's memory (native byte order, valid during the call only). Either
 * works whatever buffers the reduction was given. An exception thrown by call (an MPIException
 * or any RuntimeException) makes the reduction throw MPIException on that rank.
 */
public abstract class UserFunction {
  /** Over arrays of the base type: {@code count} elements of {@code type}. */
  public void call(Object inVec, Object inoutVec, int count, Datatype datatype) throws MPIException {
    throw new UnsupportedOperationException("Not supported yet.");
  }

  /** Over ByteBuffers viewing MPI's memory. */
  public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
    throw new UnsupportedOperationException("Not supported yet.");
  }
}
