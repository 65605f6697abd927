package mpi;

import java.nio.Buffer;

/**
 * The collectives of Open MPI's Comm over org.oompi.Comm's: every blocking one with its in-place
 * form, and the nonblocking i-forms (direct buffers). Counts are elements of the datatype as
 * in C; receive buffers are seen as exactly what the collective delivers (oompi checks them),
 * and root-only buffers are ignored on the other ranks. The in-place forms oompi lacks (most
 * nonblocking ones) pass this rank's block as a separate send buffer, copied at the call.
 */
abstract class CommCollectives extends CommBase {
  CommCollectives(org.oompi.Comm c) { super(c); }

  private static final int[] NONE = new int[0];

  public final void barrier() throws MPIException {
    try { c().barrier(); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iBarrier() throws MPIException {
    try { return new Request(c().ibarrier()); } catch (RuntimeException e) { throw err(e); }
  }

  // --- bcast --------------------------------------------------------------------------------
  public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object b = idle(root) ? Bufs.nothing(type) : Bufs.out(buf, count, type);
    try { x.bcast(b, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object b = idle(root) ? Bufs.nothing(type) : Bufs.async(buf, count, type);
    try { return new Request(x.ibcast(b, root)); } catch (RuntimeException e) { throw err(e); }
  }

  // --- gather -------------------------------------------------------------------------------
  private Object rootRecv(Object buf, int count, Datatype type, int root, boolean async)
      throws MPIException {
    if (!isRoot(root)) return Bufs.nothing(type);
    int n = Math.multiplyExact(count, peers());
    return async ? Bufs.async((Buffer) buf, n, type) : Bufs.out(buf, n, type);
  }

  private Object sendPart(Object buf, int count, Datatype type, int root, boolean async)
      throws MPIException {
    if (inter() && (root == MPI.ROOT || root == MPI.PROC_NULL)) return Bufs.nothing(type);
    return async ? Bufs.async((Buffer) buf, count, type) : Bufs.in(buf, count, type);
  }

  public final void gather(Object sendbuf, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = sendPart(sendbuf, sendcount, sendtype, root, false);
    Object r = rootRecv(recvbuf, recvcount, recvtype, root, false);
    try { x.gather(s, r, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place: at the root buf receives (its own block already there); elsewhere buf is sent. */
  public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object b = isRoot(root) ? Bufs.out(buf, Math.multiplyExact(count, peers()), type) : Bufs.in(buf, count, type);
    try { x.gatherInPlace(b, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                               Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = sendPart(sendbuf, sendcount, sendtype, root, true);
    Object r = rootRecv(recvbuf, recvcount, recvtype, root, true);
    try { return new Request(x.igather(s, r, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s, r;
    if (isRoot(root)) {
      s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, myRank() * count, count), count, type);
      r = Bufs.async(buf, Math.multiplyExact(count, peers()), type);
    } else {
      s = Bufs.async(buf, count, type);
      r = Bufs.nothing(type);
    }
    try { return new Request(x.igather(s, r, root)); } catch (RuntimeException e) { throw err(e); }
  }

  // --- gatherv --------------------------------------------------------------------------------
  private int[] zeros() throws MPIException { return new int[peers()]; }

  public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                            int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object s = sendPart(sendbuf, sendcount, sendtype, root, false);
    boolean me = isRoot(root);
    Object r = me ? Bufs.out(recvbuf, Bufs.span(recvcount, displs), recvtype) : Bufs.nothing(recvtype);
    try { x.gatherv(s, r, me ? recvcount : zeros(), me ? displs : zeros(), root); }
    catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place at the root (its own block already in recvbuf). */
  public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object r = Bufs.out(recvbuf, Bufs.span(recvcount, displs), recvtype);
    try { x.gathervInPlace(r, recvcount, displs, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place: the other ranks' call (they only send). */
  public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.in(sendbuf, sendcount, sendtype);
    try { x.gatherv(s, Bufs.nothing(sendtype), zeros(), zeros(), root); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                int[] recvcount, int[] displs, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object s = sendPart(sendbuf, sendcount, sendtype, root, true);
    boolean me = isRoot(root);
    Object r = me ? Bufs.async(recvbuf, Bufs.span(recvcount, displs), recvtype) : Bufs.nothing(recvtype);
    try { return new Request(x.igatherv(s, r, me ? recvcount : zeros(), me ? displs : zeros(), root)); }
    catch (RuntimeException e) { throw err(e); }
  }

  public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    int me = myRank();
    Object r = Bufs.async(recvbuf, Bufs.span(recvcount, displs), recvtype);
    Object s = Bufs.async((Buffer) Bufs.copyBlock(recvbuf, recvtype, displs[me], recvcount[me]),
        recvcount[me], recvtype);
    try { return new Request(x.igatherv(s, r, recvcount, displs, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async(sendbuf, sendcount, sendtype);
    try { return new Request(x.igatherv(s, Bufs.nothing(sendtype), zeros(), zeros(), root)); }
    catch (RuntimeException e) { throw err(e); }
  }

  // --- scatter ------------------------------------------------------------------------------
  public final void scatter(Object sendbuf, int sendcount, Datatype sendtype,
                            Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = isRoot(root) ? Bufs.in(sendbuf, Math.multiplyExact(sendcount, peers()), sendtype) : Bufs.nothing(sendtype);
    Object r = inter() && (root == MPI.ROOT || root == MPI.PROC_NULL) ? Bufs.nothing(recvtype)
        : Bufs.out(recvbuf, recvcount, recvtype);
    try { x.scatter(s, r, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place: the root keeps its own block in buf; the others receive into buf. */
  public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object b = isRoot(root) ? Bufs.in(buf, Math.multiplyExact(count, peers()), type) : Bufs.out(buf, count, type);
    try { x.scatterInPlace(b, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype,
                                Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s = isRoot(root) ? Bufs.async(sendbuf, Math.multiplyExact(sendcount, peers()), sendtype) : Bufs.nothing(sendtype);
    Object r = inter() && (root == MPI.ROOT || root == MPI.PROC_NULL) ? Bufs.nothing(recvtype)
        : Bufs.async(recvbuf, recvcount, recvtype);
    try { return new Request(x.iscatter(s, r, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s, r;
    if (isRoot(root)) {
      s = Bufs.async(buf, Math.multiplyExact(count, peers()), type);
      r = Bufs.async(Bufs.directScratch(type, count), count, type);  // the root's own block, dropped
    } else {
      s = Bufs.nothing(type);
      r = Bufs.async(buf, count, type);
    }
    try { return new Request(x.iscatter(s, r, root)); } catch (RuntimeException e) { throw err(e); }
  }

  // --- scatterv -------------------------------------------------------------------------------
  public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    displs = Bufs.first(displs, peers(), "displs");
    boolean me = isRoot(root);
    Object s = me ? Bufs.in(sendbuf, Bufs.span(sendcount, displs), sendtype) : Bufs.nothing(sendtype);
    Object r = inter() && (root == MPI.ROOT || root == MPI.PROC_NULL) ? Bufs.nothing(recvtype)
        : Bufs.out(recvbuf, recvcount, recvtype);
    try { x.scatterv(s, me ? sendcount : zeros(), me ? displs : zeros(), r, root); }
    catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place at the root: its own block stays in sendbuf. */
  public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    displs = Bufs.first(displs, peers(), "displs");
    int me = myRank();
    Object s = Bufs.in(sendbuf, Bufs.span(sendcount, displs), sendtype);
    Object r = Bufs.out(Bufs.scratch(sendtype, sendcount[me]), sendcount[me], sendtype);
    try { x.scatterv(s, sendcount, displs, r, root); } catch (RuntimeException e) { throw err(e); }
  }

  /** In place: the other ranks' call (they only receive). */
  public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object r = Bufs.out(recvbuf, recvcount, recvtype);
    try { x.scatterv(Bufs.nothing(recvtype), zeros(), zeros(), r, root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                                 Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    displs = Bufs.first(displs, peers(), "displs");
    boolean me = isRoot(root);
    Object s = me ? Bufs.async(sendbuf, Bufs.span(sendcount, displs), sendtype) : Bufs.nothing(sendtype);
    Object r = inter() && (root == MPI.ROOT || root == MPI.PROC_NULL) ? Bufs.nothing(recvtype)
        : Bufs.async(recvbuf, recvcount, recvtype);
    try { return new Request(x.iscatterv(s, me ? sendcount : zeros(), me ? displs : zeros(), r, root)); }
    catch (RuntimeException e) { throw err(e); }
  }

  public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    displs = Bufs.first(displs, peers(), "displs");
    int me = myRank();
    Object s = Bufs.async(sendbuf, Bufs.span(sendcount, displs), sendtype);
    Object r = Bufs.async(Bufs.directScratch(sendtype, sendcount[me]), sendcount[me], sendtype);
    try { return new Request(x.iscatterv(s, sendcount, displs, r, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object r = Bufs.async(recvbuf, recvcount, recvtype);
    try { return new Request(x.iscatterv(Bufs.nothing(recvtype), zeros(), zeros(), r, root)); }
    catch (RuntimeException e) { throw err(e); }
  }

  // --- allgather(v) ---------------------------------------------------------------------------
  public final void allGather(Object sendbuf, int sendcount, Datatype sendtype,
                              Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.in(sendbuf, sendcount, sendtype);
    Object r = Bufs.out(recvbuf, Math.multiplyExact(recvcount, peers()), recvtype);
    try { x.allgather(s, r); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final void allGather(Object buf, int count, Datatype type) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.out(buf, Math.multiplyExact(count, peers()), type);
    try { x.allgatherInPlace(b); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                  Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async(sendbuf, sendcount, sendtype);
    Object r = Bufs.async(recvbuf, Math.multiplyExact(recvcount, peers()), recvtype);
    try { return new Request(x.iallgather(s, r)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, myRank() * count, count), count, type);
    Object r = Bufs.async(buf, Math.multiplyExact(count, peers()), type);
    try { return new Request(x.iallgather(s, r)); } catch (RuntimeException e) { throw err(e); }
  }

  public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object s = Bufs.in(sendbuf, sendcount, sendtype);
    Object r = Bufs.out(recvbuf, Bufs.span(recvcount, displs), recvtype);
    try { x.allgatherv(s, r, recvcount, displs); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object r = Bufs.out(recvbuf, Bufs.span(recvcount, displs), recvtype);
    try { x.allgathervInPlace(r, recvcount, displs); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                   int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    displs = Bufs.first(displs, peers(), "displs");
    Object s = Bufs.async(sendbuf, sendcount, sendtype);
    Object r = Bufs.async(recvbuf, Bufs.span(recvcount, displs), recvtype);
    try { return new Request(x.iallgatherv(s, r, recvcount, displs)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type) throws MPIException {
    org.oompi.Comm x = c();
    count = Bufs.first(count, peers(), "count");
    displs = Bufs.first(displs, peers(), "displs");
    int me = myRank();
    Object r = Bufs.async(buf, Bufs.span(count, displs), type);
    Object s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, displs[me], count[me]), count[me], type);
    try { return new Request(x.iallgatherv(s, r, count, displs)); } catch (RuntimeException e) { throw err(e); }
  }

  // --- alltoall(v, w) -------------------------------------------------------------------------
  public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype,
                             Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    int n = peers();
    Object s = Bufs.in(sendbuf, Math.multiplyExact(sendcount, n), sendtype);
    Object r = Bufs.out(recvbuf, Math.multiplyExact(recvcount, n), recvtype);
    try { x.alltoall(s, r); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                 Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.Comm x = c();
    int n = peers();
    Object s = Bufs.async(sendbuf, Math.multiplyExact(sendcount, n), sendtype);
    Object r = Bufs.async(recvbuf, Math.multiplyExact(recvcount, n), recvtype);
    try { return new Request(x.ialltoall(s, r)); } catch (RuntimeException e) { throw err(e); }
  }

  public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                              Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    sdispls = Bufs.first(sdispls, peers(), "sdispls");
    rdispls = Bufs.first(rdispls, peers(), "rdispls");
    Object s = Bufs.in(sendbuf, Bufs.span(sendcount, sdispls), sendtype);
    Object r = Bufs.out(recvbuf, Bufs.span(recvcount, rdispls), recvtype);
    try { x.alltoallv(s, sendcount, sdispls, r, recvcount, rdispls); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                  Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcount = Bufs.first(recvcount, peers(), "recvcount");
    sendcount = Bufs.first(sendcount, peers(), "sendcount");
    sdispls = Bufs.first(sdispls, peers(), "sdispls");
    rdispls = Bufs.first(rdispls, peers(), "rdispls");
    Object s = Bufs.async(sendbuf, Bufs.span(sendcount, sdispls), sendtype);
    Object r = Bufs.async(recvbuf, Bufs.span(recvcount, rdispls), recvtype);
    try { return new Request(x.ialltoallv(s, sendcount, sdispls, r, recvcount, rdispls)); }
    catch (RuntimeException e) { throw err(e); }
  }

  private static org.oompi.DatatypeVector types(Datatype[] t) throws MPIException {
    if (t == null) throw new MPIException(MPI.ERR_ARG, "null datatypes");
    org.oompi.DatatypeVector v = new org.oompi.DatatypeVector();
    for (Datatype d : t) v.add(Bufs.type(d));
    return v;
  }

  /** Byte displacements and per-peer datatypes; the buffers are bytes from their start. */
  public final void allToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                              Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
      throws MPIException {
    org.oompi.Comm x = c();
    try {
      x.alltoallw(Bufs.fromStart(sendBuf), sendCount, sDispls, types(sendTypes),
          Bufs.fromStart(recvBuf), recvCount, rDispls, types(recvTypes));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                                  Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
      throws MPIException {
    org.oompi.Comm x = c();
    if (!sendBuf.isDirect() || !recvBuf.isDirect()) throw new IllegalArgumentException("The buffer must be direct.");
    try {
      return new Request(x.ialltoallw(Bufs.fromStart(sendBuf), sendCount, sDispls, types(sendTypes),
          Bufs.fromStart(recvBuf), recvCount, rDispls, types(recvTypes)));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  // --- neighborhood collectives (topology communicators) ----------------------------------------
  private org.oompi.TopoComm topo() throws MPIException {
    org.oompi.Comm x = c();
    if (!(x instanceof org.oompi.TopoComm))
      throw new MPIException(MPI.ERR_TOPOLOGY, "a neighborhood collective needs a Cartesian or graph communicator");
    return (org.oompi.TopoComm) x;
  }

  public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype,
                                      Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.in(sendbuf, sendcount, sendtype);
      Object r = Bufs.out(recvbuf, Math.multiplyExact(recvcount, t.getInDegree()), recvtype);
      t.neighborAllgather(s, r);
      Bufs.back(recvbuf, r);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                          Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.async(sendbuf, sendcount, sendtype);
      Object r = Bufs.async(recvbuf, Math.multiplyExact(recvcount, t.getInDegree()), recvtype);
      return new Request(t.ineighborAllgather(s, r));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                       int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.in(sendbuf, sendcount, sendtype);
      Object r = Bufs.out(recvbuf, Bufs.span(recvcount, displs), recvtype);
      t.neighborAllgatherv(s, r, recvcount, displs);
      Bufs.back(recvbuf, r);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                          int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.async(sendbuf, sendcount, sendtype);
      Object r = Bufs.async(recvbuf, Bufs.span(recvcount, displs), recvtype);
      return new Request(t.ineighborAllgatherv(s, r, recvcount, displs));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype,
                                     Object recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.in(sendbuf, Math.multiplyExact(sendcount, t.getOutDegree()), sendtype);
      Object r = Bufs.out(recvbuf, Math.multiplyExact(recvcount, t.getInDegree()), recvtype);
      t.neighborAlltoall(s, r);
      Bufs.back(recvbuf, r);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                         Buffer recvbuf, int recvcount, Datatype recvtype) throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.async(sendbuf, Math.multiplyExact(sendcount, t.getOutDegree()), sendtype);
      Object r = Bufs.async(recvbuf, Math.multiplyExact(recvcount, t.getInDegree()), recvtype);
      return new Request(t.ineighborAlltoall(s, r));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                         Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
      throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.async(sendbuf, Bufs.span(sendcount, sdispls), sendtype);
      Object r = Bufs.async(recvbuf, Bufs.span(recvcount, rdispls), recvtype);
      return new Request(t.ineighborAlltoallv(s, sendcount, sdispls, r, recvcount, rdispls));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                      Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
      throws MPIException {
    org.oompi.TopoComm t = topo();
    try {
      Object s = Bufs.in(sendbuf, Bufs.span(sendcount, sdispls), sendtype);
      Object r = Bufs.out(recvbuf, Bufs.span(recvcount, rdispls), recvtype);
      t.neighborAlltoallv(s, sendcount, sdispls, r, recvcount, rdispls);
      Bufs.back(recvbuf, r);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  // --- reductions ---------------------------------------------------------------------------
  public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = sendPart(sendbuf, count, type, root, false);
    Object r = isRoot(root) ? Bufs.out(recvbuf, count, type) : Bufs.nothing(type);
    try { x.reduce(s, r, op.on(type), root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place: the root's buf holds its operand and receives the result. */
  public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.out(buf, count, type);
    try { x.reduceInPlace(b, op.on(type), root); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = sendPart(sendbuf, count, type, root, true);
    Object r = isRoot(root) ? Bufs.async(recvbuf, count, type) : Bufs.nothing(type);
    try { return new Request(x.ireduce(s, r, op.on(type), root), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
    org.oompi.Comm x = c();
    Object s, r;
    if (isRoot(root)) {
      s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, 0, count), count, type);
      r = Bufs.async(buf, count, type);
    } else {
      s = Bufs.async(buf, count, type);
      r = Bufs.nothing(type);
    }
    try { return new Request(x.ireduce(s, r, op.on(type), root), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.in(sendbuf, count, type), r = Bufs.out(recvbuf, count, type);
    try { x.allreduce(s, r, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.out(buf, count, type);
    try { x.allreduceInPlace(b, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
  }

  public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async(sendbuf, count, type), r = Bufs.async(recvbuf, count, type);
    try { return new Request(x.iallreduce(s, r, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.async(buf, count, type);
    try { return new Request(x.iallreduceInPlace(b, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcounts = Bufs.first(recvcounts, localSize(), "recvcounts");
    Object s = Bufs.in(sendbuf, Bufs.sum(recvcounts), type);
    Object r = Bufs.out(recvbuf, recvcounts[myRank()], type);
    try { x.reduceScatter(s, r, recvcounts, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  /** In place: buf holds every block; this rank's result lands at its start. */
  public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    counts = Bufs.first(counts, peers(), "counts");
    int total = Bufs.sum(counts);
    Object s = Bufs.in(Bufs.copyBlock(buf, type, 0, total), total, type);
    Object r = Bufs.out(buf, counts[myRank()], type);
    try { x.reduceScatter(s, r, counts, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, r);
  }

  public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    recvcounts = Bufs.first(recvcounts, localSize(), "recvcounts");
    Object s = Bufs.async(sendbuf, Bufs.sum(recvcounts), type);
    Object r = Bufs.async(recvbuf, recvcounts[myRank()], type);
    try { return new Request(x.ireduceScatter(s, r, recvcounts, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    counts = Bufs.first(counts, peers(), "counts");
    int total = Bufs.sum(counts);
    Object s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, 0, total), total, type);
    Object r = Bufs.async(buf, counts[myRank()], type);
    try { return new Request(x.ireduceScatter(s, r, counts, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.in(sendbuf, Math.multiplyExact(recvcount, localSize()), type);
    Object r = Bufs.out(recvbuf, recvcount, type);
    try { x.reduceScatterBlock(s, r, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    int total = Math.multiplyExact(count, peers());
    Object s = Bufs.in(Bufs.copyBlock(buf, type, 0, total), total, type);
    Object r = Bufs.out(buf, count, type);
    try { x.reduceScatterBlock(s, r, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, r);
  }

  public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async(sendbuf, Math.multiplyExact(recvcount, peers()), type);
    Object r = Bufs.async(recvbuf, recvcount, type);
    try { return new Request(x.ireduceScatterBlock(s, r, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
    org.oompi.Comm x = c();
    int total = Math.multiplyExact(count, peers());
    Object s = Bufs.async((Buffer) Bufs.copyBlock(buf, type, 0, total), total, type);
    Object r = Bufs.async(buf, count, type);
    try { return new Request(x.ireduceScatterBlock(s, r, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }
}
