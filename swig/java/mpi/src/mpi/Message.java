package mpi;

import java.nio.Buffer;

/** A matched message (MPI_Mprobe / MPI_Improbe) and its receive (org.oompi.Message). */
public final class Message {
  private org.oompi.Message m;
  private boolean noProc;

  public Message() {}

  /** True if the probe matched a message from MPI.PROC_NULL. */
  public boolean isNoProc() { return noProc; }

  /** True before a probe matched, and once the message was received. */
  public boolean isNull() { return m == null || m.isReceived(); }

  /** MPI_Mprobe: waits for a matching message and keeps it for mRecv. */
  public Status mProbe(int source, int tag, Comm comm) throws MPIException {
    if (source == MPI.PROC_NULL) {
      noProc = true;
      return Status.procNull();
    }
    try {
      m = comm.c().mprobe(source, tag);
      return new Status(m.getStatus());
    } catch (RuntimeException e) {
      throw comm.err(e);
    }
  }

  /** MPI_Improbe: the status of a matched message, or null if none has arrived. */
  public Status imProbe(int source, int tag, Comm comm) throws MPIException {
    if (source == MPI.PROC_NULL) {
      noProc = true;
      return Status.procNull();
    }
    try {
      org.oompi.Message got = comm.c().improbe(source, tag);
      if (got == null) return null;
      m = got;
      return new Status(m.getStatus());
    } catch (RuntimeException e) {
      throw comm.err(e);
    }
  }

  private org.oompi.Message matched() throws MPIException {
    if (m == null) throw new MPIException(MPI.ERR_REQUEST, "no message was matched (mProbe first)");
    return m;
  }

  /** MPI_Mrecv of the matched message into count elements of type. */
  public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
    if (noProc) return Status.procNull();
    org.oompi.Message x = matched();
    Object b = Bufs.out(buf, count, type);
    org.oompi.Status s;
    try { s = x.recv(b); } catch (RuntimeException e) { throw Errors.of(e); }
    Bufs.back(buf, b);
    return new Status(s);
  }

  /** MPI_Imrecv (a direct buffer). */
  public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
    // MPI_MESSAGE_NO_PROC: a request already complete with the PROC_NULL status (source
    // PROC_NULL, tag ANY_TAG, count 0), as MPI_Imrecv gives it.
    if (noProc) return Request.completed(Status.procNull());
    org.oompi.Message x = matched();
    Object b = Bufs.async(buf, count, type);
    try { return new Request(x.irecv(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }
}
