package mpi;

import java.nio.Buffer;
import java.util.HashMap;
import java.util.Map;

/**
 * A communicator (Open MPI's Java API) over org.oompi.Comm: point-to-point in every mode,
 * probes, management, attributes and error handlers. The collectives are in
 * {@link CommCollectives}, which this class extends. Buffers follow {@link Bufs}' rules:
 * arrays and direct buffers for blocking calls, direct buffers for nonblocking ones.
 */
public class Comm extends CommCollectives implements Freeable, Cloneable {
  /** splitType's kind: processes that share memory (MPI_COMM_TYPE_SHARED). */
  public static final int TYPE_SHARED = MPI.COMM_TYPE_SHARED;

  Comm(org.oompi.Comm c) { super(c); }

  /** The right class for an oompi communicator. */
  static Comm wrap(org.oompi.Comm c) {
    if (c instanceof org.oompi.Intercomm) return new Intercomm(c);
    if (c instanceof org.oompi.CartComm) return new CartComm(c);
    if (c instanceof org.oompi.GraphComm || c instanceof org.oompi.DistGraphComm) return new GraphComm(c);
    return new Intracomm(c);
  }

  public final int getSize() throws MPIException {
    try { return c().getSize(); } catch (RuntimeException e) { throw err(e); }
  }

  public final int getRank() throws MPIException { return myRank(); }

  /** MPI_Comm_dup. */
  public Comm dup() throws MPIException {
    try { return new Comm(c().dup()); } catch (RuntimeException e) { throw err(e); }
  }

  @Override public Comm clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  /** MPI_Comm_idup: the new communicator is usable once getRequest() completes. */
  public Comm iDup() throws MPIException {
    try {
      Comm n = (Comm) Comm.wrap(c());  // same kind; its handle arrives with the request
      n.attach(null);
      n.pending(c().idup());
      return n;
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** The request of an iDup (a completed request for other communicators). */
  public final Request getRequest() throws MPIException {
    org.oompi.CommFuture f = pendingFuture();
    if (f == null) return new Request(null);
    try { return new Request(f.getRequest()); } catch (RuntimeException e) { throw err(e); }
  }

  public Comm dupWithInfo(Info info) throws MPIException {
    try { return new Comm(c().dupWithInfo(info.handle())); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI.IDENT, MPI.CONGRUENT, MPI.SIMILAR or MPI.UNEQUAL. */
  public static int compare(Comm comm1, Comm comm2) throws MPIException {
    try { return comm1.c().compare(comm2.c()).swigValue(); } catch (RuntimeException e) { throw comm1.err(e); }
  }

  /** MPI_Comm_free (collective). The predefined communicators are not freed. */
  @Override public void free() throws MPIException {
    if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF)
      throw new MPIException(MPI.ERR_COMM, "MPI.COMM_WORLD and MPI.COMM_SELF cannot be freed");
    org.oompi.Comm x = c();
    try { x.close(); } catch (RuntimeException e) { throw err(e); }
    attach(null);
  }

  /** MPI_Comm_disconnect. */
  public final void disconnect() throws MPIException {
    org.oompi.Comm x = c();
    try { x.disconnect(); } catch (RuntimeException e) { throw err(e); }
    attach(null);
  }

  /** True for MPI.COMM_NULL (split with MPI.UNDEFINED, create outside the group) or freed. */
  public final boolean isNull() {
    org.oompi.Comm x = c;  // freed: null (this object); a split's null communicator: isNull()
    return x == null ? pendingFuture() == null : x.isNull();
  }

  public final Group getGroup() throws MPIException {
    try { return new Group(c().getGroup()); } catch (RuntimeException e) { throw err(e); }
  }

  public final boolean isInter() throws MPIException { return inter(); }

  /** MPI_Intercomm_create, called on the peer communicator. */
  public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
      throws MPIException {
    try { return new Intercomm(localComm.c().createIntercomm(localLeader, c(), remoteLeader, tag)); }
    catch (RuntimeException e) { throw err(e); }
  }

  /** The parent intercommunicator of a spawned process (isNull() if not spawned). */
  public static Intercomm getParent() throws MPIException {
    try {
      org.oompi.Intercomm p = org.oompi.Intercomm.parent();
      return new Intercomm(p == null || p.isNull() ? null : p);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  // --- blocking point-to-point --------------------------------------------------------------
  public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.in(buf, count, type);
    try { x.send(b, dest, tag); } catch (RuntimeException e) { throw err(e); }
  }

  public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.out(buf, count, type);
    org.oompi.Status s;
    try { s = x.recv(b, source, tag); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
    return new Status(s);
  }

  public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                               Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
      throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.in(sendbuf, sendcount, sendtype), r = Bufs.out(recvbuf, recvcount, recvtype);
    org.oompi.Status st;
    try { st = x.sendrecv(s, dest, sendtag, r, source, recvtag); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
    return new Status(st);
  }

  public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag,
                                      int source, int recvtag) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.out(buf, count, type);
    org.oompi.Status st;
    try { st = x.sendrecvReplace(b, dest, sendtag, source, recvtag); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(buf, b);
    return new Status(st);
  }

  // The send modes and the nonblocking/persistent calls differ only in oompi's method: one
  // helper each, given that method (a method reference: no allocation per call). send() keeps
  // its own body, the path the benchmarks measure.
  private interface SendCall { void call(org.oompi.Comm c, Object b, int peer, int tag); }

  private interface StartCall<R> { R call(org.oompi.Comm c, Object b, int peer, int tag); }

  private void sendIn(Object buf, int count, Datatype type, int dest, int tag, SendCall op) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.in(buf, count, type);
    try { op.call(x, b, dest, tag); } catch (RuntimeException e) { throw err(e); }
  }

  private <R> R start(Buffer buf, int count, Datatype type, int peer, int tag, StartCall<R> op) throws MPIException {
    org.oompi.Comm x = c();
    Object b = Bufs.async(buf, count, type);
    try { return op.call(x, b, peer, tag); } catch (RuntimeException e) { throw err(e); }
  }

  /** Buffered mode: needs MPI.attachBuffer. */
  public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
    sendIn(buf, count, type, dest, tag, org.oompi.Comm::bsend);
  }

  public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
    sendIn(buf, count, type, dest, tag, org.oompi.Comm::ssend);
  }

  public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
    sendIn(buf, count, type, dest, tag, org.oompi.Comm::rsend);
  }

  // --- nonblocking: direct buffers ------------------------------------------------------------
  public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Request(start(buf, count, type, dest, tag, org.oompi.Comm::isend));
  }

  public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Request(start(buf, count, type, dest, tag, org.oompi.Comm::ibsend));
  }

  public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Request(start(buf, count, type, dest, tag, org.oompi.Comm::issend));
  }

  public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Request(start(buf, count, type, dest, tag, org.oompi.Comm::irsend));
  }

  public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
    return new Request(start(buf, count, type, source, tag, org.oompi.Comm::irecv));
  }

  // --- persistent: direct buffers -------------------------------------------------------------
  public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Prequest(start(buf, count, type, dest, tag, org.oompi.Comm::sendInit));
  }

  public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Prequest(start(buf, count, type, dest, tag, org.oompi.Comm::bsendInit));
  }

  public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Prequest(start(buf, count, type, dest, tag, org.oompi.Comm::ssendInit));
  }

  public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
    return new Prequest(start(buf, count, type, dest, tag, org.oompi.Comm::rsendInit));
  }

  public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
    return new Prequest(start(buf, count, type, source, tag, org.oompi.Comm::recvInit));
  }

  // --- probes -------------------------------------------------------------------------------
  public final Status probe(int source, int tag) throws MPIException {
    try { return new Status(c().probe(source, tag)); } catch (RuntimeException e) { throw err(e); }
  }

  /** The status of a matching message if one has arrived, else null. */
  public final Status iProbe(int source, int tag) throws MPIException {
    try {
      org.oompi.Status s = c().iprobe(source, tag);
      return s == null ? null : new Status(s);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  // --- attributes -----------------------------------------------------------------------------
  // A keyval is an int to this API; its values are Java objects, kept here by a 64-bit id that
  // oompi's keyval stores on the communicator (and copies on dup: the copy shares the object).
  private static final Map<Integer, org.oompi.Keyval> KEYVALS = new HashMap<>();
  private static final Map<Long, Object> VALUES = new HashMap<>();
  private static int nextKeyval = 1;
  private static long nextValue = 1;

  public static int createKeyval() throws MPIException {
    try {
      synchronized (KEYVALS) {
        KEYVALS.put(nextKeyval, org.oompi.Keyval.create(true));
        return nextKeyval++;
      }
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /**
   * MPI_Comm_free_keyval. MPI defers the free while attributes still use the key, so the
   * number keeps reaching the values already set (getAttr, deleteAttr, as on Open MPI;
   * communicator/Attr reads one back after the free); setAttr with it is MPI_ERR_KEYVAL.
   * The key itself is kept until MPI is finalized: which objects still carry it is not known here.
   */
  public static void freeKeyval(int keyval) throws MPIException {
    synchronized (KEYVALS) {
      org.oompi.Keyval k = KEYVALS.remove(keyval);
      if (k == null) throw Attributes.invalid(keyval);
      FREED_KEYVALS.put(keyval, k);
    }
  }

  private static final Map<Integer, org.oompi.Keyval> FREED_KEYVALS = new HashMap<>();

  /** A keyval to set values with: one created and not yet freed. */
  private static org.oompi.Keyval keyval(int keyval) throws MPIException {
    synchronized (KEYVALS) {
      org.oompi.Keyval k = KEYVALS.get(keyval);
      if (k == null) throw Attributes.invalid(keyval);
      return k;
    }
  }

  /** A keyval to read or delete values with: also one freed (its values set before remain). */
  private static org.oompi.Keyval keyvalInUse(int keyval) throws MPIException {
    synchronized (KEYVALS) {
      org.oompi.Keyval k = KEYVALS.get(keyval);
      if (k == null) k = FREED_KEYVALS.get(keyval);
      if (k == null) throw Attributes.invalid(keyval);
      return k;
    }
  }

  public final void setAttr(int keyval, Object value) throws MPIException {
    org.oompi.Keyval k = keyval(keyval);
    try {
      long id;
      synchronized (KEYVALS) {
        id = nextValue++;
        VALUES.put(id, value);
      }
      k.set(c(), id);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** The attribute's value, or null; the predefined keys (MPI.TAG_UB, ...) as Integers. */
  public final Object getAttr(int keyval) throws MPIException {
    try {
      if (keyval == MPI.TAG_UB) return org.oompi.Comm.tagUb();
      if (keyval == MPI.UNIVERSE_SIZE) {
        int u = org.oompi.Comm.universeSize();
        return u < 0 ? null : u;
      }
      if (keyval == MPI.APPNUM) {
        int a = org.oompi.Comm.appnum();
        return a < 0 ? null : a;
      }
      if (keyval == MPI.WTIME_IS_GLOBAL) return org.oompi.Comm.wtimeIsGlobal();
      if (keyval == MPI.HOST) return MPI.PROC_NULL;
      if (keyval == MPI.IO) return MPI.ANY_SOURCE;
      if (keyval == MPI.LASTUSEDCODE) return MPI.ERR_UNSUPPORTED_DATAREP;
      org.oompi.Keyval k = keyvalInUse(keyval);
      org.oompi.Comm x = c();
      if (!k.has(x)) return null;
      synchronized (KEYVALS) { return VALUES.get(k.get(x)); }
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final void deleteAttr(int keyval) throws MPIException {
    try {
      if (!keyvalInUse(keyval).remove(c())) throw new MPIException(MPI.ERR_ARG, "no attribute " + keyval);
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  // --- topology, errors, names, info ----------------------------------------------------------
  /** MPI.CART, MPI.GRAPH, MPI.DIST_GRAPH or MPI.UNDEFINED. */
  public final int getTopology() throws MPIException {
    try {
      switch (c().topology()) {
        case CARTESIAN: return MPI.CART;
        case GRAPH: return MPI.GRAPH;
        case DIST_GRAPH: return MPI.DIST_GRAPH;
        default: return MPI.UNDEFINED;
      }
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** MPI_Abort (the whole job: oompi aborts MPI_COMM_WORLD). */
  public final void abort(int errorcode) throws MPIException {
    org.oompi.Environment.abort(errorcode);
  }

  public final void setErrhandler(Errhandler errhandler) throws MPIException {
    c();
    handler.set(errhandler);
  }

  /** MPI_Comm_get_errhandler: ERRORS_ARE_FATAL until one is set (see CommBase.handler). */
  public final Errhandler getErrhandler() throws MPIException {
    c();
    return handler.get();
  }

  /**
   * MPI_Comm_call_errhandler: ERRORS_RETURN does nothing (MPI's rule), ERRORS_ARE_FATAL set
   * explicitly aborts the job; with neither set this package's handler throws
   * MPIException(errorCode), fatal unless caught.
   */
  public final void callErrhandler(int errorCode) throws MPIException {
    c();
    handler.call(this, errorCode);
  }

  public final void setName(String name) throws MPIException {
    try { c().setName(name); } catch (RuntimeException e) { throw err(e); }
  }

  public final String getName() throws MPIException {
    try { return c().getName(); } catch (RuntimeException e) { throw err(e); }
  }

  public final void setInfo(Info info) throws MPIException {
    try { c().setInfo(info.handle()); } catch (RuntimeException e) { throw err(e); }
  }

  public final Info getInfo() throws MPIException {
    try { return new Info(c().getInfo()); } catch (RuntimeException e) { throw err(e); }
  }

  // --- packing --------------------------------------------------------------------------------
  /**
   * MPI_Pack: incount elements of type from inbuf into outbuf from byte position; returns the
   * position after them. A position outside outbuf is ERR_ARG, data that does not fit
   * ERR_TRUNCATE (checked before a byte is written).
   */
  public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position)
      throws MPIException {
    org.oompi.Comm x = c();
    Object in = Bufs.in(inbuf, incount, type);
    packedRoom(outbuf, position, (long) incount * type.bytes(), "pack");
    try { return (int) x.pack(in, outbuf, position); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Unpack: outcount elements of type into outbuf from inbuf at byte position. */
  public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type)
      throws MPIException {
    org.oompi.Comm x = c();
    Object out = Bufs.out(outbuf, outcount, type);
    packedRoom(inbuf, position, (long) outcount * type.bytes(), "unpack");
    int end;
    try { end = (int) x.unpack(inbuf, position, out); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(outbuf, out);
    return end;
  }

  /** MPI_Pack_size: the bytes pack may take for incount elements of type. */
  public final int packSize(int incount, Datatype type) throws MPIException {
    if (incount < 0) throw new MPIException(MPI.ERR_COUNT, "negative count " + incount);
    try { return (int) c().packSize(incount, Bufs.type(type)); } catch (RuntimeException e) { throw err(e); }
  }

  private static void packedRoom(byte[] packed, int position, long bytes, String what)
      throws MPIException {
    if (packed == null) throw new MPIException(MPI.ERR_BUFFER, what + ": the packed buffer is null");
    if (position < 0 || position > packed.length)
      throw new MPIException(MPI.ERR_ARG, what + ": position " + position + " is outside the "
          + packed.length + "-byte buffer");
    if (bytes > packed.length - position)
      throw new MPIException(MPI.ERR_TRUNCATE, what + ": " + bytes + " bytes, " + (packed.length - position)
          + " left after position " + position);
  }

  /** MPI_Reduce_local: inOutBuf = inBuf op inOutBuf. */
  public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
      throws MPIException {
    Object a = Bufs.in(inBuf, count, type), b = Bufs.out(inOutBuf, count, type);
    try { op.on(type).reduceLocal(a, b); } catch (RuntimeException e) { throw Errors.of(e); }
    Bufs.back(inOutBuf, b);
  }
}
