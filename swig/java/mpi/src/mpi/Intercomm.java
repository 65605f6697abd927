package mpi;

/** An intercommunicator (org.oompi.Intercomm): remote group, merge. */
public final class Intercomm extends Comm {
  Intercomm(org.oompi.Comm c) { super(c); }

  private org.oompi.Intercomm ic() throws MPIException {
    org.oompi.Comm x = c();
    if (!(x instanceof org.oompi.Intercomm))
      throw new MPIException(MPI.ERR_COMM, "not an intercommunicator");
    return (org.oompi.Intercomm) x;
  }

  @Override public Intercomm dup() throws MPIException {
    try { return new Intercomm(ic().dup()); } catch (RuntimeException e) { throw err(e); }
  }

  @Override public Intercomm clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  public int getRemoteSize() throws MPIException {
    try { return ic().getRemoteSize(); } catch (RuntimeException e) { throw err(e); }
  }

  public Group getRemoteGroup() throws MPIException {
    try { return new Group(ic().remoteGroup()); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Intercomm_merge: high orders this group after the other. */
  public Intracomm merge(boolean high) throws MPIException {
    try { return new Intracomm(ic().merge(high)); } catch (RuntimeException e) { throw err(e); }
  }
}
