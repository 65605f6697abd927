package mpi;

/**
 * An intracommunicator: scans, communicator constructors, topologies and dynamic processes
 * (spawn, ports, names) over org.oompi.Comm.
 */
public class Intracomm extends Comm {
  Intracomm(org.oompi.Comm c) { super(c); }

  @Override public Intracomm dup() throws MPIException {
    try { return new Intracomm(c().dup()); } catch (RuntimeException e) { throw err(e); }
  }

  @Override public Intracomm clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  @Override public Intracomm iDup() throws MPIException { return (Intracomm) super.iDup(); }

  @Override public Intracomm dupWithInfo(Info info) throws MPIException {
    try { return new Intracomm(c().dupWithInfo(info.handle())); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Comm_split: color MPI.UNDEFINED gives a null communicator (isNull()). */
  public final Intracomm split(int colour, int key) throws MPIException {
    try { return new Intracomm(c().split(colour, key)); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Comm_split_type: MPI.COMM_TYPE_SHARED only. */
  public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
    if (splitType != MPI.COMM_TYPE_SHARED)
      throw new MPIException(MPI.ERR_ARG, "splitType: only MPI.COMM_TYPE_SHARED is supported");
    try { return new Intracomm(c().splitShared(key)); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Comm_create: a null communicator outside the group. */
  public final Intracomm create(Group group) throws MPIException {
    try { return new Intracomm(c().create(group.live())); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Comm_create_group (collective over the group only). */
  public final Intracomm createGroup(Group group, int tag) throws MPIException {
    try { return new Intracomm(c().createGroup(group.live(), tag)); } catch (RuntimeException e) { throw err(e); }
  }

  // --- scans --------------------------------------------------------------------------------
  // scan and exScan differ only in oompi's method (sendbuf null: in place).
  private interface ScanRun { void call(org.oompi.Comm x, Object in, Object out, org.oompi.Op op); }

  private interface ScanCall<R> { R call(org.oompi.Comm x, Object in, Object out, org.oompi.Op op); }

  private void scanning(Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                        ScanRun call) throws MPIException {
    org.oompi.Comm x = c();
    Object s = sendbuf == null ? null : Bufs.in(sendbuf, count, type), r = Bufs.out(recvbuf, count, type);
    try { call.call(x, s, r, op.on(type)); } catch (RuntimeException e) { throw err(e); }
    Bufs.back(recvbuf, r);
  }

  private Request iScanning(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type,
                            Op op, ScanCall<org.oompi.Request> call) throws MPIException {
    org.oompi.Comm x = c();
    Object s = Bufs.async(sendbuf, count, type), r = Bufs.async(recvbuf, count, type);
    try { return new Request(call.call(x, s, r, op.on(type)), op); } catch (RuntimeException e) { throw err(e); }
  }

  public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
    scanning(sendbuf, recvbuf, count, type, op, org.oompi.Comm::scan);
  }

  public final void scan(Object buf, int count, Datatype type, Op op) throws MPIException {
    scanning(null, buf, count, type, op, (x, in, out, o) -> x.scanInPlace(out, o));
  }

  public final Request iScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op)
      throws MPIException {
    return iScanning(sendbuf, recvbuf, count, type, op, org.oompi.Comm::iscan);
  }

  /** In place: this rank's block goes as a copy (oompi has no in-place nonblocking scan). */
  public final Request iScan(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
    return iScanning((java.nio.Buffer) Bufs.copyBlock(buf, type, 0, count), buf, count, type, op, org.oompi.Comm::iscan);
  }

  public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
    scanning(sendbuf, recvbuf, count, type, op, org.oompi.Comm::exscan);
  }

  public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
    scanning(null, buf, count, type, op, (x, in, out, o) -> x.exscanInPlace(out, o));
  }

  public final Request iExScan(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op)
      throws MPIException {
    return iScanning(sendbuf, recvbuf, count, type, op, org.oompi.Comm::iexscan);
  }

  /** In place: this rank's block goes as a copy (oompi has no in-place nonblocking scan). */
  public final Request iExScan(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
    return iScanning((java.nio.Buffer) Bufs.copyBlock(buf, type, 0, count), buf, count, type, op, org.oompi.Comm::iexscan);
  }

  // --- topologies ---------------------------------------------------------------------------
  public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
    try { return new CartComm(c().createCart(dims, periods, reorder)); } catch (RuntimeException e) { throw err(e); }
  }

  public final GraphComm createGraph(int[] index, int[] edges, boolean reorder) throws MPIException {
    try { return new GraphComm(c().createGraph(index, edges, reorder)); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Dist_graph_create_adjacent with a weight per edge (getDistGraphNeighbors returns them). */
  public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                                 int[] destWeights, Info info, boolean reorder)
      throws MPIException {
    try {
      if (sourceWeights == null && destWeights == null)
        return new GraphComm(c().createDistGraph(sources, destinations, reorder));
      if (sourceWeights == null || destWeights == null)
        throw new MPIException(MPI.ERR_ARG, "weights for one direction only");
      if (sources == null || destinations == null) throw new MPIException(MPI.ERR_ARG, "null sources or destinations");
      return new GraphComm(c().createDistGraphWeighted(sources, Bufs.first(sourceWeights, sources.length,
          "sourceWeights"), destinations, Bufs.first(destWeights, destinations.length, "destWeights"), reorder));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /**
   * MPI_Dist_graph_create: this process gives the edges from sources[i] to the next degrees[i]
   * entries of destinations, with a weight each (weights null: unweighted).
   */
  public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations,
                                         int[] weights, Info info, boolean reorder) throws MPIException {
    if (sources == null || degrees == null || destinations == null)
      throw new MPIException(MPI.ERR_ARG, "null sources, degrees or destinations");
    // As in C, the arrays may be longer than what the edges use (the first entries count).
    degrees = Bufs.first(degrees, sources.length, "degrees");
    int edges = Bufs.sum(degrees);
    destinations = Bufs.first(destinations, edges, "destinations");
    if (weights != null) weights = Bufs.first(weights, edges, "weights");
    try {
      return new GraphComm(c().createDistGraphGeneral(sources, degrees, destinations,
          weights == null ? new int[0] : weights, weights != null, reorder));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations, Info info,
                                         boolean reorder) throws MPIException {
    return createDistGraph(sources, degrees, destinations, null, info, reorder);
  }

  public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info, boolean reorder)
      throws MPIException {
    return createDistGraphAdjacent(sources, null, destinations, null, info, reorder);
  }

  // --- dynamic processes ----------------------------------------------------------------------
  /** MPI_Comm_spawn; errcodes (may be null) are filled with MPI.SUCCESS (oompi throws on error). */
  public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root,
                               int[] errcodes) throws MPIException {
    try {
      org.oompi.StringVector a = new org.oompi.StringVector();
      if (argv != null) for (String s : argv) a.add(s);
      Intercomm ic = new Intercomm(c().spawn(command, a, maxprocs, info.handle(), root));
      if (errcodes != null) java.util.Arrays.fill(errcodes, MPI.SUCCESS);
      return ic;
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs, Info[] info,
                                       int root, int[] errcodes) throws MPIException {
    try {
      org.oompi.StringVector p = new org.oompi.StringVector();
      org.oompi.StringVectorVector a = new org.oompi.StringVectorVector();
      org.oompi.InfoVector h = new org.oompi.InfoVector();
      for (int i = 0; i < commands.length; i++) {
        p.add(commands[i]);
        org.oompi.StringVector v = new org.oompi.StringVector();
        if (argv != null && argv[i] != null) for (String s : argv[i]) v.add(s);
        a.add(v);
        h.add(info == null || info[i] == null ? new org.oompi.Info() : info[i].handle());
      }
      Intercomm ic = new Intercomm(c().spawnMultiple(p, a, maxprocs, h, root));
      if (errcodes != null) java.util.Arrays.fill(errcodes, MPI.SUCCESS);
      return ic;
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** MPI_Comm_accept: port matters at root only (others may pass null, as in C). */
  public final Intercomm accept(String port, int root) throws MPIException {
    try { return new Intercomm(c().accept(port == null ? "" : port, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Intercomm accept(String port, Info info, int root) throws MPIException { return accept(port, root); }

  /** MPI_Comm_connect: port matters at root only (others may pass null, as in C). */
  public final Intercomm connect(String port, int root) throws MPIException {
    try { return new Intercomm(c().connect(port == null ? "" : port, root)); } catch (RuntimeException e) { throw err(e); }
  }

  public final Intercomm connect(String port, Info info, int root) throws MPIException { return connect(port, root); }

  public static String openPort() throws MPIException {
    try { return org.oompi.Environment.openPort(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static String openPort(Info info) throws MPIException { return openPort(); }

  public static void closePort(String name) throws MPIException {
    try { org.oompi.Environment.closePort(name); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static void publishName(String service, String port) throws MPIException {
    try { org.oompi.Environment.publishName(service, port); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static void publishName(String service, Info info, String port) throws MPIException {
    publishName(service, port);
  }

  public static void unpublishName(String service, String port) throws MPIException {
    try { org.oompi.Environment.unpublishName(service, port); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static void unpublishName(String service, Info info, String port) throws MPIException {
    unpublishName(service, port);
  }

  public static String lookupName(String service) throws MPIException {
    try { return org.oompi.Environment.lookupName(service); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static String lookupName(String service, Info info) throws MPIException { return lookupName(service); }
}
