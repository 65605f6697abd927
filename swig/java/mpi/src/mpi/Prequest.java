package mpi;

import org.oompi.RequestVector;

/** A persistent request (sendInit, recvInit, ...): start() it, wait for it, start it again. */
public final class Prequest extends Request {
  Prequest(org.oompi.Request r) { super(r); }

  /** MPI_Start. */
  public void start() throws MPIException {
    if (r == null) throw new MPIException(MPI.ERR_REQUEST, "the request was freed");
    try { r.start(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Startall. */
  public static void startAll(Prequest[] requests) throws MPIException {
    try {
      RequestVector v = new RequestVector();
      for (Prequest p : requests) {
        if (p.r == null) throw new MPIException(MPI.ERR_REQUEST, "a request was freed");
        v.add(p.r);
      }
      org.oompi.Request.startAll(v);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }
}
