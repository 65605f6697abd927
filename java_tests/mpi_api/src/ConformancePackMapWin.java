// Part of the Conformance program (its main calls these): what package mpi gained after its
// first version -- pack/unpack and MPI.PACKED, CartComm/GraphComm.map, general and weighted
// distributed graphs, allocated/shared/dynamic windows, error handlers and callErrhandler,
// darray in Fortran order, datatypes reaching before an MPI.slice -- each with its bad inputs
// (MPIException of the documented class).
import java.nio.*;
import mpi.*;

final class ConformancePackMapWin {
  private ConformancePackMapWin() {}

  static void check(boolean ok, String what) { Conformance.check(ok, what); }

  static void packing(Intracomm world, int me, int n) throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int[] ints = {me, me + 1, me + 2};
    double[] dbl = {me + 0.5};
    int room = world.packSize(3, MPI.INT) + world.packSize(1, MPI.DOUBLE);
    check(room >= 3 * 4 + 8, "packSize covers the data");
    byte[] packed = new byte[room];
    int pos = world.pack(ints, 3, MPI.INT, packed, 0);
    check(pos == 12, "pack advances by the ints' bytes: " + pos);
    pos = world.pack(dbl, 1, MPI.DOUBLE, packed, pos);
    check(pos == 20, "pack advances by the double's bytes: " + pos);
    // the packed bytes travel as MPI.PACKED and are unpacked on the other side
    byte[] got = new byte[room];
    Status s = world.sendRecv(packed, pos, MPI.PACKED, right, 40, got, room, MPI.PACKED, left, 40);
    check(s.getCount(MPI.PACKED) == pos, "a PACKED message's count is its bytes");
    int[] ib = new int[3];
    DoubleBuffer db = MPI.newDoubleBuffer(1);
    int at = world.unpack(got, 0, ib, 3, MPI.INT);
    at = world.unpack(got, at, db, 1, MPI.DOUBLE);
    check(at == 20 && ib[0] == left && ib[2] == left + 2 && db.get(0) == left + 0.5, "unpack what the left neighbour packed");
    // a strided type packs its elements without the gaps; unpack into a heap slice
    Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
    every2.commit();
    int[] wide = {10, -1, 11, -1, 12, -1};
    byte[] three = new byte[12];
    check(world.pack(wide, 1, every2, three, 0) == 12, "pack of a vector type");
    int[] into = new int[5];
    world.unpack(three, 0, MPI.slice(into, 2), 3, MPI.INT);
    check(into[1] == 0 && into[2] == 10 && into[4] == 12, "unpack into MPI.slice(array, 2)");
    // MPI_Get_elements counts the basic elements of the type map (a double and an int per pair)
    Datatype di = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.DOUBLE, MPI.INT});
    di.commit();
    ByteBuffer pair = MPI.newByteBuffer(16), raw = MPI.newByteBuffer(12);
    Status st = world.sendRecv(raw, 12, MPI.BYTE, me, 41, pair, 1, di, me, 41);
    check(st.getElements(di) == 2 && st.getCount(di) == 1,
        "getElements of a struct: " + st.getElements(di) + ", count " + st.getCount(di));
    // 9 bytes into {double, int}: the signatures do not match, which MPI leaves erroneous; Open
    // MPI delivers them (a count ending inside an element), MPICH refuses with MPI_ERR_TRUNCATE.
    if (!MPI.getLibVersion().contains("MPICH")) {
      st = world.sendRecv(raw, 9, MPI.BYTE, me, 42, pair, 1, di, me, 42);
      check(st.getElements(di) == MPI.UNDEFINED && st.getCount(di) == MPI.UNDEFINED,
          "getElements of data ending inside an element: " + st.getElements(di));
      check(st.getElements(MPI.BYTE) == 9, "getElements in bytes");
    }
    di.free();
    // bad input: the buffer is left as it was
    byte[] small = new byte[8];
    Conformance.fails(MPI.ERR_TRUNCATE, "pack into too few bytes", () -> world.pack(ints, 3, MPI.INT, small, 0));
    check(small[0] == 0, "a refused pack wrote nothing");
    Conformance.fails(MPI.ERR_TRUNCATE, "pack past the end", () -> world.pack(ints, 1, MPI.INT, small, 6));
    Conformance.fails(MPI.ERR_ARG, "negative position", () -> world.pack(ints, 1, MPI.INT, small, -1));
    Conformance.fails(MPI.ERR_ARG, "position after the end", () -> world.unpack(small, 9, ib, 0, MPI.INT));
    Conformance.fails(MPI.ERR_TRUNCATE, "unpack more than is packed", () -> world.unpack(small, 0, ib, 3, MPI.INT));
    Conformance.fails(MPI.ERR_BUFFER, "null packed buffer", () -> world.pack(ints, 1, MPI.INT, null, 0));
    Conformance.fails(MPI.ERR_TYPE, "boolean[] packed as MPI.INT", () -> world.pack(new boolean[4], 1, MPI.INT, packed, 0));
    Conformance.fails(MPI.ERR_COUNT, "negative count", () -> world.pack(ints, -1, MPI.INT, packed, 0));
    Conformance.fails(MPI.ERR_COUNT, "packSize of a negative count", () -> world.packSize(-2, MPI.INT));
    Conformance.fails(MPI.ERR_BUFFER, "pack from a String", () -> world.pack("text", 1, MPI.INT, packed, 0));
    every2.free();
    Conformance.fails(-1, "pack with a freed datatype", () -> world.pack(wide, 1, every2, three, 0));
    Intracomm dup = (Intracomm) world.dup();
    dup.free();
    Conformance.fails(MPI.ERR_COMM, "pack on a freed communicator", () -> dup.pack(ints, 1, MPI.INT, packed, 0));
  }

  static void topologyMaps(Intracomm world, int me, int n) throws Exception {
    Conformance.fails(MPI.ERR_DIMS, "createDims with dimensions that do not divide", () -> CartComm.createDims(6, new int[] {0, 5}));
    Conformance.fails(MPI.ERR_DIMS, "createDims with a negative dimension", () -> CartComm.createDims(6, new int[] {-1, 0}));
    CartComm ring = world.createCart(new int[] {n}, new boolean[] {true}, false);
    check(ring.map(new int[] {n}, new boolean[] {true}) == me, "Cart map of the whole ring");
    int one = ring.map(new int[] {1}, new boolean[] {false});
    check(one == (me == 0 ? 0 : MPI.UNDEFINED), "Cart map of a 1-process grid: " + one);
    CartComm copy = ring.clone();  // a dup keeps its class and its topology queries
    check(copy.getTopo().getDim(0) == n && copy.getRank(new int[] {me}) == me, "a Cartesian dup's topology");
    copy.free();
    Conformance.fails(-1, "Cart map of more processes than there are", () -> ring.map(new int[] {n + 1}, new boolean[] {false}));
    Conformance.fails(-1, "Cart map with periods of another length", () -> ring.map(new int[] {n}, new boolean[] {false, true}));
    Conformance.fails(-1, "Cart map of a negative dimension", () -> ring.map(new int[] {-1}, new boolean[] {false}));
    Conformance.fails(MPI.ERR_ARG, "Cart map of null dims", () -> ring.map(null, new boolean[] {false}));
    int[] index = new int[n], edges = new int[n];
    for (int i = 0; i < n; i++) { index[i] = i + 1; edges[i] = (i + 1) % n; }
    GraphComm g = world.createGraph(index, edges, false);
    check(g.map(index, edges) == me, "Graph map of the whole ring");
    GraphComm gdup = g.dup();
    check(gdup.getNeighbors(me)[0] == (me + 1) % n, "a graph's dup keeps its edges");
    gdup.free();
    check(g.map(new int[] {0}, new int[0]) == (me == 0 ? 0 : MPI.UNDEFINED), "Graph map of one node");
    Conformance.fails(-1, "Graph map with an edge outside", () -> g.map(new int[] {1}, new int[] {5}));
    Conformance.fails(-1, "Graph map with a decreasing index", () -> g.map(new int[] {1, 0}, new int[] {0}));
    g.free();
    ring.free();
    Conformance.fails(MPI.ERR_COMM, "map on a freed communicator", () -> ring.map(new int[] {1}, new boolean[] {false}));
  }

  static void distGraphs(Intracomm world, int me, int n) throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    // each process gives one edge, its own to the right, weighted me + 1
    GraphComm g = world.createDistGraph(new int[] {me}, new int[] {1}, new int[] {right},
        new int[] {me + 1}, MPI.INFO_NULL, false);
    DistGraphNeighbors nb = g.getDistGraphNeighbors();
    check(nb.isWeighted() && nb.getInDegree() == 1 && nb.getOutDegree() == 1, "general graph degrees");
    check(nb.getSource(0) == left && nb.getSourceWeight(0) == left + 1, "general graph in-edge and weight");
    check(nb.getDestination(0) == right && nb.getDestinationWeight(0) == me + 1, "general graph out-edge and weight");
    GraphComm gcopy = g.clone();
    check(gcopy.getTopology() == MPI.DIST_GRAPH && gcopy.getDistGraphNeighbors().getSourceWeight(0) == left + 1,
        "a distributed graph's dup keeps its edges and weights");
    gcopy.free();
    int[] from = new int[1];
    g.neighborAllGather(new int[] {me * 7}, 1, MPI.INT, from, 1, MPI.INT);
    check(from[0] == left * 7, "neighborAllGather on a general graph");
    g.free();
    // rank 0 gives every edge (the ring), the others none, unweighted
    int[] src = new int[me == 0 ? n : 0], deg = new int[src.length], dst = new int[src.length];
    for (int i = 0; i < src.length; i++) { src[i] = i; deg[i] = 1; dst[i] = (i + 1) % n; }
    GraphComm h = world.createDistGraph(src, deg, dst, MPI.INFO_NULL, false);
    nb = h.getDistGraphNeighbors();
    check(!nb.isWeighted() && nb.getSource(0) == left && nb.getDestination(0) == right
        && nb.getSourceWeight(0) == 1, "edges given by one process");
    h.free();
    // the same, weighted: the processes giving no edges pass no weights (MPI_WEIGHTS_EMPTY)
    int[] w = new int[src.length];
    for (int i = 0; i < w.length; i++) w[i] = 50 + i;
    GraphComm hw = world.createDistGraph(src, deg, dst, w, MPI.INFO_NULL, false);
    nb = hw.getDistGraphNeighbors();
    check(nb.isWeighted() && nb.getSourceWeight(0) == 50 + left && nb.getDestinationWeight(0) == 50 + me,
        "weighted edges given by one process");
    hw.free();
    GraphComm a = world.createDistGraphAdjacent(new int[] {left}, new int[] {3}, new int[] {right},
        new int[] {4}, MPI.INFO_NULL, false);
    nb = a.getDistGraphNeighbors();
    check(nb.isWeighted() && nb.getSourceWeight(0) == 3 && nb.getDestinationWeight(0) == 4, "adjacent weights kept");
    a.free();
    // the same bad input on every rank: refused before MPI sees it, on all of them
    // (longer arrays are fine, as in C: their first entries count)
    Conformance.fails(MPI.ERR_ARG, "fewer degrees than sources", () -> world.createDistGraph(new int[] {me, me},
        new int[] {1}, new int[] {right, left}, MPI.INFO_NULL, false));
    Conformance.fails(MPI.ERR_ARG, "fewer weights than edges", () -> world.createDistGraph(new int[] {me},
        new int[] {1}, new int[] {right}, new int[0], MPI.INFO_NULL, false));
    Conformance.fails(MPI.ERR_ARG, "fewer destinations than the degrees add up to", () -> world.createDistGraph(
        new int[] {me}, new int[] {2}, new int[] {right}, MPI.INFO_NULL, false));
    Conformance.fails(MPI.ERR_COUNT, "a negative degree", () -> world.createDistGraph(new int[] {me},
        new int[] {-1}, new int[] {right}, MPI.INFO_NULL, false));
    Conformance.fails(-1, "an edge to a rank outside", () -> world.createDistGraph(new int[] {me},
        new int[] {1}, new int[] {n}, MPI.INFO_NULL, false));
    GraphComm longer = world.createDistGraphAdjacent(new int[] {left}, new int[] {3, 9}, new int[] {right},
        new int[] {4, 9}, MPI.INFO_NULL, false);
    check(longer.getDistGraphNeighbors().getSourceWeight(0) == 3, "longer weight arrays: the first entries");
    longer.free();
    Conformance.fails(MPI.ERR_ARG, "weights for one direction", () -> world.createDistGraphAdjacent(
        new int[] {left}, new int[] {3}, new int[] {right}, null, MPI.INFO_NULL, false));
    Conformance.fails(MPI.ERR_ARG, "null degrees", () -> world.createDistGraph(new int[] {me}, null,
        new int[] {right}, MPI.INFO_NULL, false));
  }

  static void windows(Intracomm world, int me, int n) throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int flavor : new int[] {Win.FLAVOR_PRIVATE, Win.FLAVOR_SHARED}) {
      Intracomm node = flavor == Win.FLAVOR_SHARED ? world.splitType(MPI.COMM_TYPE_SHARED, 0, MPI.INFO_NULL) : world;
      int nr = node.getRank(), nn = node.getSize(), nright = (nr + 1) % nn, nleft = (nr + nn - 1) % nn;
      IntBuffer kind = MPI.newIntBuffer(1);
      kind.put(0, 77);
      Win w = new Win(4, 1, MPI.INFO_NULL, node, kind, flavor);
      IntBuffer mem = ((ByteBuffer) w.getAttr(MPI.WIN_BASE)).asIntBuffer();
      check(mem.capacity() == 4 && mem.get(3) == 0, "allocated window memory, zero-filled (flavor " + flavor + ")");
      check(((Integer) w.getAttr(MPI.WIN_SIZE)) == 16 && ((Integer) w.getAttr(MPI.WIN_DISP_UNIT)) == 4, "WIN_SIZE and WIN_DISP_UNIT");
      IntBuffer val = MPI.newIntBuffer(1);
      val.put(0, 100 + nr);
      w.fence(0);
      w.put(val, 1, MPI.INT, nright, 2, 1, MPI.INT);
      w.fence(0);
      check(mem.get(2) == 100 + nleft && kind.get(0) == 77, "put into an allocated window; base untouched");
      w.free();
      Conformance.fails(MPI.ERR_WIN, "put on a freed window", () -> w.put(val, 1, MPI.INT, nright, 0, 1, MPI.INT));
      if (node != world) node.free();
    }
    Conformance.fails(MPI.ERR_SIZE, "negative size", () -> new Win(-1, 1, MPI.INFO_NULL, world, MPI.newIntBuffer(1), Win.FLAVOR_PRIVATE));
    Conformance.fails(MPI.ERR_DISP, "displacement unit 0", () -> new Win(1, 0, MPI.INFO_NULL, world, MPI.newIntBuffer(1), Win.FLAVOR_PRIVATE));
    Conformance.fails(MPI.ERR_ARG, "no such flavor", () -> new Win(1, 1, MPI.INFO_NULL, world, MPI.newIntBuffer(1), 7));
    try {
      new Win(1, 1, MPI.INFO_NULL, world, IntBuffer.allocate(1), Win.FLAVOR_PRIVATE);
      check(false, "a heap buffer for a window");
    } catch (IllegalArgumentException expected) {
      check(true, "a heap buffer for a window");
    }
    // dynamic windows: memory comes and goes with attach / detach
    Win d = new Win(MPI.INFO_NULL, world);
    DoubleBuffer part = MPI.newDoubleBuffer(8);
    d.attach(part, 8);
    Conformance.fails(MPI.ERR_ARG, "attach twice", () -> d.attach(part, 8));
    Conformance.fails(MPI.ERR_SIZE, "attach beyond the buffer", () -> d.attach(MPI.newDoubleBuffer(2), 3));
    d.detach(part);
    Conformance.fails(MPI.ERR_ARG, "detach twice", () -> d.detach(part));
    check(d.getAttr(MPI.WIN_BASE) == null, "a dynamic window has no base");
    d.free();
    Win plain = new Win(MPI.newIntBuffer(2), 2, 1, MPI.INFO_NULL, world);
    Conformance.fails(MPI.ERR_WIN, "attach to a window that is not dynamic", () -> plain.attach(MPI.newIntBuffer(1), 1));
    // error handlers: MPI's defaults, ERRORS_RETURN does nothing, none set throws
    check(plain.getAttr(MPI.WIN_BASE) != null && ((Integer) plain.getAttr(MPI.WIN_SIZE)) == 8, "a created window's attributes");
    plain.setName("plain");
    check(plain.getName().equals("plain"), "Win setName/getName");
    check(plain.getErrhandler() == MPI.ERRORS_ARE_FATAL, "a window's default handler");
    Conformance.fails(MPI.ERR_WIN, "callErrhandler with no handler set", () -> plain.callErrhandler(MPI.ERR_WIN));
    plain.setErrhandler(MPI.ERRORS_RETURN);
    plain.callErrhandler(MPI.ERR_WIN);
    check(plain.getErrhandler() == MPI.ERRORS_RETURN, "setErrhandler on a window");
    Conformance.fails(MPI.ERR_ARG, "a null handler", () -> plain.setErrhandler(null));
    plain.free();
    Conformance.fails(MPI.ERR_WIN, "callErrhandler on a freed window", () -> plain.callErrhandler(MPI.ERR_WIN));
    Intracomm c = (Intracomm) world.dup();
    // a communicator's: ERRORS_ARE_FATAL reported (MPI's default, environment/CommErrhandler
    // restores it to abort), an error with none set throws
    check(c.getErrhandler() == MPI.ERRORS_ARE_FATAL, "a communicator's default handler");
    Conformance.fails(MPI.ERR_OTHER, "Comm.callErrhandler with no handler set", () -> c.callErrhandler(MPI.ERR_OTHER));
    Conformance.fails(MPI.ERR_ARG, "a null communicator handler", () -> c.setErrhandler(null));
    c.setErrhandler(MPI.ERRORS_RETURN);
    check(c.getErrhandler() == MPI.ERRORS_RETURN, "setErrhandler on a communicator");
    c.callErrhandler(MPI.ERR_OTHER);
    c.free();
    Conformance.fails(MPI.ERR_COMM, "callErrhandler on a freed communicator", () -> c.callErrhandler(MPI.ERR_OTHER));
    check(right >= 0 && left >= 0, "ranks");
  }

  /**
   * A datatype whose lower bound reaches before an MPI.slice of a direct buffer uses the
   * parent's memory (ompi-java-test's datatype/Bakstr); before the parent's start it is refused.
   */
  static void sliceParents(Intracomm world, int me, int n) throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    ByteBuffer parent = MPI.newByteBuffer(16);
    for (int i = 0; i < 16; i++) parent.put(i, (byte) (i + 10 * me));
    Datatype back = Datatype.createVector(3, 1, -2, MPI.SHORT);  // shorts 0, -2, -4: bytes [-8, 2)
    back.commit();
    byte[] packed = new byte[6];
    check(world.pack(MPI.slice(parent, 8), 1, back, packed, 0) == 6, "pack before a slice");
    byte[] want = {8, 9, 4, 5, 0, 1};
    for (int i = 0; i < 6; i++) check(packed[i] == want[i] + 10 * me, "packed byte " + i + ": " + packed[i]);
    ByteBuffer parent2 = MPI.newByteBuffer(16);
    world.unpack(packed, 0, MPI.slice(MPI.slice(parent2, 4), 4), 1, back);  // a slice of a slice
    for (int i = 0; i < 16; i++)
      check(parent2.get(i) == (i < 10 && i % 4 < 2 ? i + 10 * me : 0), "unpack before a slice of a slice, byte " + i);
    // through MPI: ints 4 and 1 of a slice at 4 (stride -3) to the right neighbour's slice
    IntBuffer ints = MPI.newIntBuffer(8), got = MPI.newIntBuffer(8);
    for (int i = 0; i < 8; i++) ints.put(i, 100 * me + i);
    Datatype back3 = Datatype.createVector(2, 1, -3, MPI.INT);
    back3.commit();
    world.sendRecv(MPI.slice(ints, 4), 1, back3, right, 41, MPI.slice(got, 4), 1, back3, left, 41);
    check(got.get(4) == 100 * left + 4 && got.get(1) == 100 * left + 1 && got.get(0) == 0 && got.get(3) == 0,
          "sendRecv before IntBuffer slices: " + got.get(4) + " " + got.get(1));
    IntBuffer got2 = MPI.newIntBuffer(8);  // the nonblocking path (direct buffers only)
    Request sent = world.iSend(MPI.slice(ints, 4), 1, back3, right, 42);
    world.recv(MPI.slice(got2, 4), 1, back3, left, 42);
    sent.waitFor();
    check(got2.get(4) == 100 * left + 4 && got2.get(1) == 100 * left + 1, "iSend before a slice");
    // past the parent's start: refused, nothing written
    Conformance.fails(MPI.ERR_COUNT, "pack reaching before the parent", () -> world.pack(MPI.slice(parent, 6), 1, back, packed, 0));
    Conformance.fails(MPI.ERR_COUNT, "unpack reaching before the parent",
        () -> world.unpack(packed, 0, MPI.slice(MPI.slice(parent2, 2), 4), 1, back));
    Conformance.fails(MPI.ERR_COUNT, "a buffer that is no slice", () -> world.pack(parent, 1, back, packed, 0));
    Conformance.fails(MPI.ERR_COUNT, "a heap slice (copied, no parent)",
        () -> world.pack(MPI.slice(new byte[16], 8), 1, back, packed, 0));
    back.free();
    back3.free();
  }

  /** A Fortran-order darray picks the elements MPI's definition says (read back through pack). */
  static void fortranDarray(int me, int n) throws Exception {
    int[] g = {4, 6}, p = {0, 0};
    CartComm.createDims(n, p);
    int[] distribs = {MPI.DISTRIBUTE_BLOCK, MPI.DISTRIBUTE_BLOCK};
    int[] dargs = {MPI.DISTRIBUTE_DFLT_DARG, MPI.DISTRIBUTE_DFLT_DARG};
    Datatype t = Datatype.createDarray(n, me, g, distribs, dargs, p, MPI.ORDER_FORTRAN, MPI.INT);
    t.commit();
    int c0 = me / p[1], c1 = me % p[1];  // the process grid is row-major in both orders
    int b0 = (g[0] + p[0] - 1) / p[0], b1 = (g[1] + p[1] - 1) / p[1];
    int lo0 = Math.min(g[0], c0 * b0), hi0 = Math.min(g[0], lo0 + b0);
    int lo1 = Math.min(g[1], c1 * b1), hi1 = Math.min(g[1], lo1 + b1);
    int count = (hi0 - lo0) * (hi1 - lo1);
    check(t.getSize() == count && t.getExtent() == 24, "Fortran darray size " + t.getSize() + " and extent " + t.getExtent());
    int[] a = new int[24];
    for (int i = 0; i < 24; i++) a[i] = i;  // a(i0, i1) at i0 + 4 * i1, column-major
    byte[] bytes = new byte[Math.max(1, count * 4)];
    MPI.COMM_SELF.pack(a, 1, t, bytes, 0);
    int[] mine = new int[count];
    MPI.COMM_SELF.unpack(bytes, 0, mine, count, MPI.INT);
    int k = 0;
    for (int i1 = lo1; i1 < hi1; i1++)
      for (int i0 = lo0; i0 < hi0; i0++)
        check(mine[k++] == i0 + 4 * i1, "Fortran darray element (" + i0 + "," + i1 + ")");
    t.free();
    Conformance.fails(MPI.ERR_ARG, "darray of no such order", () -> Datatype.createDarray(n, me, g,
        distribs, dargs, p, 7, MPI.INT));
  }
}
