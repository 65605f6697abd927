// Package mpi against Open MPI's Java API documentation, class by class, with the bad inputs:
// wrong counts, wrong buffer kinds, freed objects, truncation, a UserFunction that throws. Every
// failure must arrive as the documented exception (MPIException, or IllegalArgumentException
// for a non-direct buffer in a nonblocking call), never as a crash or a hang. Runs at any rank
// count; the verdicts of all ranks are combined at the end.
import java.nio.*;
import mpi.*;
import static mpi.MPI.slice;

public class Conformance {
  static int checks;
  static Intracomm world;
  static int me, n;

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError("check failed on rank " + me + ": " + what);
    checks++;
  }

  interface Body { void run() throws Exception; }

  /** body must throw MPIException of errorClass (any class if < 0). */
  static MPIException fails(int errorClass, String what, Body body) throws Exception {
    try {
      body.run();
    } catch (MPIException e) {
      check(errorClass < 0 || e.getErrorClass() == errorClass,
          what + ": error class " + e.getErrorClass() + " (" + e.getMessage() + "), expected " + errorClass);
      return e;
    }
    throw new AssertionError(what + ": no MPIException");
  }

  static void mpiClass() throws Exception {
    check(MPI.isInitialized() && !MPI.isFinalized(), "initialized");
    fails(-1, "Init twice", () -> MPI.Init(new String[0]));
    double t = MPI.wtime();
    check(MPI.wtime() >= t && MPI.wtick() > 0, "wtime/wtick");
    check(!MPI.getProcessorName().isEmpty(), "processor name");
    IntBuffer b = MPI.newIntBuffer(8);
    check(b.isDirect() && b.order() == ByteOrder.nativeOrder() && b.capacity() == 8, "newIntBuffer");
    b.put(3, 42);
    check(slice(b, 3).get(0) == 42 && b.position() == 0, "slice of a direct buffer");
    int[] a = {1, 2, 3, 4};
    check(slice(a, 2).get(0) == 3, "slice of an array");
    check(MPI.queryThread() >= MPI.THREAD_SINGLE, "queryThread");
  }

  static void pointToPoint() throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    // every blocking mode, arrays and direct buffers, around the ring
    int[] out = {me, me * 10, me * 100}, in = new int[3];
    Status s = world.sendRecv(out, 3, MPI.INT, right, 1, in, 3, MPI.INT, left, 1);
    check(in[0] == left && in[2] == left * 100 && s.getSource() == left && s.getTag() == 1
        && s.getCount(MPI.INT) == 3 && s.getElements(MPI.INT) == 3, "sendRecv of arrays");
    DoubleBuffer d = MPI.newDoubleBuffer(4);
    for (int i = 0; i < 4; i++) d.put(i, me + i / 10.0);
    world.sendRecvReplace(d, 4, MPI.DOUBLE, right, 2, left, 2);
    check(d.get(3) == left + 0.3, "sendRecvReplace of a direct buffer");
    if (n >= 2) {
      if (me == 0) {
        world.send(new long[] {7, 8}, 2, MPI.LONG, 1, 3);
        world.sSend(new short[] {9}, 1, MPI.SHORT, 1, 4);
        world.send(new boolean[] {true, false, true}, 3, MPI.BOOLEAN, 1, 5);
        world.send(new char[] {'o', 'k'}, 2, MPI.CHAR, 1, 6);
        world.send(new byte[] {1, 2, 3}, 3, MPI.BYTE, 1, 7);
        world.send(new int[10], 10, MPI.INT, 1, 8);  // truncated at the receiver
        world.send(null, 0, MPI.BYTE, 1, 9);
        world.barrier();
        world.rSend(new float[] {1.5f}, 1, MPI.FLOAT, 1, 10);
      } else if (me == 1) {
        long[] l = new long[2];
        world.recv(l, 2, MPI.LONG, 0, 3);
        short[] sh = new short[1];
        world.recv(sh, 1, MPI.SHORT, MPI.ANY_SOURCE, 4);
        boolean[] bo = new boolean[3];
        world.recv(bo, 3, MPI.BOOLEAN, 0, 5);
        char[] ch = new char[2];
        world.recv(ch, 2, MPI.CHAR, 0, 6);
        ByteBuffer by = MPI.newByteBuffer(3);
        world.recv(by, 3, MPI.BYTE, 0, 7);
        check(l[1] == 8 && sh[0] == 9 && bo[0] && !bo[1] && ch[1] == 'k' && by.get(2) == 3,
            "recv of every element type");
        fails(MPI.ERR_TRUNCATE, "truncation", () -> world.recv(new int[5], 5, MPI.INT, 0, 8));
        Status z = world.recv(null, 0, MPI.BYTE, 0, 9);
        check(z.getCount(MPI.BYTE) == 0, "an empty message into null");
        float[] f = new float[1];
        Request r = world.iRecv(MPI.newFloatBuffer(1), 1, MPI.FLOAT, 0, 10);
        world.barrier();
        Status rs = r.waitStatus();
        check(rs.getSource() == 0 && r.isNull(), "rSend after the receive was posted");
      } else {
        world.barrier();
      }
    }
    // bad inputs: nothing reaches MPI
    fails(MPI.ERR_COUNT, "count beyond the array", () -> world.send(new int[2], 3, MPI.INT, right, 0));
    fails(MPI.ERR_COUNT, "negative count", () -> world.send(new int[2], -1, MPI.INT, right, 0));
    fails(MPI.ERR_TYPE, "boolean[] as MPI.INT", () -> world.send(new boolean[2], 2, MPI.INT, right, 0));
    fails(MPI.ERR_BUFFER, "null buffer", () -> world.send(null, 2, MPI.INT, right, 0));
    fails(MPI.ERR_BUFFER, "not a buffer", () -> world.send("text", 2, MPI.INT, right, 0));
    fails(MPI.ERR_RANK, "no such rank", () -> world.send(new int[1], 1, MPI.INT, n + 5, 0));
    try {
      world.iSend(IntBuffer.wrap(new int[2]), 2, MPI.INT, right, 0);
      throw new AssertionError("a non-direct buffer in iSend");
    } catch (IllegalArgumentException e) {
      check(true, "nonblocking needs a direct buffer");
    }
    // nonblocking and request sets
    IntBuffer sb = MPI.newIntBuffer(2), rb = MPI.newIntBuffer(2);
    sb.put(0, me).put(1, -me);
    Request[] rq = {world.iRecv(rb, 2, MPI.INT, left, 20), world.isSend(sb, 2, MPI.INT, right, 20)};
    Status[] st = Request.waitAllStatus(rq);
    check(rb.get(0) == left && rb.get(1) == -left && st[0].getSource() == left && rq[0].isNull(),
        "iRecv/isSend + waitAllStatus");
    MPI.REQUEST_NULL.waitFor();
    check(MPI.REQUEST_NULL.test(), "waiting on REQUEST_NULL");
    Request[] two = {world.iRecv(rb, 2, MPI.INT, left, 21), world.iSend(sb, 2, MPI.INT, right, 21)};
    int done = 0;
    while (done < 2) {
      int i = Request.waitAny(two);
      check(i >= 0 && two[i].isNull(), "waitAny index");
      done++;
    }
    check(Request.waitAny(two) == MPI.UNDEFINED, "waitAny of null requests");
    Request[] three = {world.iRecv(rb, 2, MPI.INT, left, 22), world.iSend(sb, 2, MPI.INT, right, 22)};
    while (!Request.testAll(three)) Thread.onSpinWait();
    // persistent requests
    Prequest ps = world.sendInit(sb, 2, MPI.INT, right, 23), pr = world.recvInit(rb, 2, MPI.INT, left, 23);
    for (int k = 0; k < 3; k++) {
      sb.put(0, me + k);
      Prequest.startAll(new Prequest[] {pr, ps});
      Request.waitAll(new Request[] {pr, ps});
      check(rb.get(0) == left + k && !pr.isNull(), "persistent round " + k);
    }
    ps.free();
    pr.free();
    fails(MPI.ERR_REQUEST, "start a freed request", () -> ps.start());
    // probes and matched probes (the sends nonblocking: at 1 rank they go to this rank itself)
    IntBuffer pair = MPI.newIntBuffer(2);
    pair.put(0, me).put(1, me);
    Request ps24 = world.iSend(pair, 2, MPI.INT, right, 24);
    Status p = world.probe(left, 24);
    check(p.getCount(MPI.INT) == 2 && p.getSource() == left, "probe");
    world.recv(new int[2], 2, MPI.INT, left, 24);
    ps24.waitFor();
    Request ps25 = world.iSend(slice(pair, 1), 1, MPI.INT, right, 25);
    Message m = new Message();
    Status ms = m.mProbe(left, 25, world);
    int[] got = new int[1];
    m.mRecv(got, 1, MPI.INT);
    ps25.waitFor();
    check(ms.getSource() == left && got[0] == left && m.isNull(), "mProbe/mRecv");
    fails(-1, "mRecv twice", () -> m.mRecv(new int[1], 1, MPI.INT));
    world.barrier();
    check(world.iProbe(MPI.ANY_SOURCE, 26) == null, "iProbe with nothing pending");
    check(new Message().imProbe(MPI.ANY_SOURCE, 26, world) == null, "imProbe with nothing pending");
  }

  static void buffered() throws Exception {
    MPI.attachBuffer(MPI.newByteBuffer(1 << 16));
    int right = (me + 1) % n, left = (me + n - 1) % n;
    world.bSend(new int[] {me}, 1, MPI.INT, right, 30);
    int[] r = new int[1];
    world.recv(r, 1, MPI.INT, left, 30);
    check(r[0] == left, "bSend");
    MPI.detachBuffer();
    fails(MPI.ERR_BUFFER, "detach twice", () -> MPI.detachBuffer());
  }

  static void collectives() throws Exception {
    int[] one = {me + 1};
    int[] all = new int[n];
    world.allGather(one, 1, MPI.INT, all, 1, MPI.INT);
    for (int i = 0; i < n; i++) check(all[i] == i + 1, "allGather " + i);
    int[] inPlace = new int[n];
    inPlace[me] = me * 2;
    world.allGather(inPlace, 1, MPI.INT);
    for (int i = 0; i < n; i++) check(inPlace[i] == i * 2, "allGather in place " + i);
    int[] b = {me == 0 ? 99 : 0};
    world.bcast(b, 1, MPI.INT, 0);
    check(b[0] == 99, "bcast");
    int[] g = new int[n];
    world.gather(one, 1, MPI.INT, g, 1, MPI.INT, n - 1);
    if (me == n - 1) for (int i = 0; i < n; i++) check(g[i] == i + 1, "gather " + i);
    int[] sc = new int[n], mine = new int[1];
    for (int i = 0; i < n; i++) sc[i] = 5 * i;
    world.scatter(sc, 1, MPI.INT, mine, 1, MPI.INT, 0);
    check(mine[0] == 5 * me, "scatter");
    int[] counts = new int[n], displs = new int[n];
    int total = 0;
    for (int i = 0; i < n; i++) { counts[i] = i + 1; displs[i] = total; total += i + 1; }
    int[] part = new int[me + 1];
    java.util.Arrays.fill(part, me);
    int[] v = new int[total];
    world.allGatherv(part, me + 1, MPI.INT, v, counts, displs, MPI.INT);
    for (int i = 0; i < n; i++) for (int k = 0; k < counts[i]; k++) check(v[displs[i] + k] == i, "allGatherv");
    int[] gv = new int[total];
    world.gatherv(part, me + 1, MPI.INT, gv, counts, displs, MPI.INT, 0);
    if (me == 0) check(java.util.Arrays.equals(gv, v), "gatherv");
    if (me == 0) {
      int[] gi = new int[total];
      gi[0] = 0;
      world.gatherv(gi, counts, displs, MPI.INT, 0);
      check(java.util.Arrays.equals(gi, v), "gatherv in place (root)");
    } else {
      world.gatherv(part, me + 1, MPI.INT, 0);
    }
    int[] back = new int[me + 1];
    world.scatterv(v, counts, displs, MPI.INT, back, me + 1, MPI.INT, 0);
    for (int k = 0; k <= me; k++) check(back[k] == me, "scatterv");
    int[] a2a = new int[n], r2a = new int[n];
    for (int i = 0; i < n; i++) a2a[i] = me * 100 + i;
    world.allToAll(a2a, 1, MPI.INT, r2a, 1, MPI.INT);
    for (int i = 0; i < n; i++) check(r2a[i] == i * 100 + me, "allToAll");
    int[] ones = new int[n];
    java.util.Arrays.fill(ones, 1);
    int[] seq = new int[n];
    for (int i = 0; i < n; i++) seq[i] = i;
    world.allToAllv(a2a, ones, seq, MPI.INT, r2a, ones, seq, MPI.INT);
    for (int i = 0; i < n; i++) check(r2a[i] == i * 100 + me, "allToAllv");
    // reductions
    double[] x = {me, 1}, y = new double[2];
    world.allReduce(x, y, 2, MPI.DOUBLE, MPI.SUM);
    check(y[0] == n * (n - 1) / 2.0 && y[1] == n, "allReduce");
    long[] mx = {me};
    world.allReduce(mx, 1, MPI.LONG, MPI.MAX);
    check(mx[0] == n - 1, "allReduce in place");
    int[] red = new int[1];
    world.reduce(one, red, 1, MPI.INT, MPI.PROD, 0);
    if (me == 0) { int f = 1; for (int i = 1; i <= n; i++) f *= i; check(red[0] == f, "reduce PROD"); }
    int[] rin = {me + 1};
    world.reduce(rin, 1, MPI.INT, MPI.SUM, 0);
    if (me == 0) check(rin[0] == n * (n + 1) / 2, "reduce in place");
    int[] sc1 = new int[1];
    world.scan(one, sc1, 1, MPI.INT, MPI.SUM);
    check(sc1[0] == (me + 1) * (me + 2) / 2, "scan");
    int[] ex = {me + 1};
    world.exScan(ex, 1, MPI.INT, MPI.SUM);
    if (me > 0) check(ex[0] == me * (me + 1) / 2, "exScan in place");
    int[] rsIn = new int[n], rsOut = new int[1];
    java.util.Arrays.fill(rsIn, me);
    world.reduceScatterBlock(rsIn, rsOut, 1, MPI.INT, MPI.SUM);
    check(rsOut[0] == n * (n - 1) / 2, "reduceScatterBlock");
    world.reduceScatter(rsIn, rsOut, ones, MPI.INT, MPI.SUM);
    check(rsOut[0] == n * (n - 1) / 2, "reduceScatter");
    // MINLOC over INT2 pairs
    ByteBuffer pin = MPI.newByteBuffer(MPI.INT2.getExtent()), pout = MPI.newByteBuffer(MPI.INT2.getExtent());
    Int2.Data pd = MPI.int2.getData(pin, 0);
    pd.putValue(100 - me);
    pd.putIndex(me);
    world.allReduce(pin, pout, 1, MPI.INT2, MPI.MINLOC);
    Int2.Data po = MPI.int2.getData(pout, 0);
    check(po.getValue() == 100 - (n - 1) && po.getIndex() == n - 1, "MINLOC on INT2");
    // complex numbers
    double[] zc = {me, 1}, zs = new double[2];
    world.allReduce(zc, zs, 1, MPI.DOUBLE_COMPLEX, MPI.SUM);
    DoubleComplex z = DoubleComplex.get(zs);
    check(z.getReal() == n * (n - 1) / 2.0 && z.getImag() == n && MPI.DOUBLE_COMPLEX.getExtent() == 2,
        "DOUBLE_COMPLEX sum");
    // nonblocking collectives over direct buffers, in-place forms included
    IntBuffer nb = MPI.newIntBuffer(n);
    nb.put(me, me + 7);
    world.iAllGather(nb, 1, MPI.INT).waitFor();
    for (int i = 0; i < n; i++) check(nb.get(i) == i + 7, "iAllGather in place " + i);
    IntBuffer s1 = MPI.newIntBuffer(1), r1 = MPI.newIntBuffer(1);
    s1.put(0, me);
    world.iAllReduce(s1, r1, 1, MPI.INT, MPI.SUM).waitFor();
    check(r1.get(0) == n * (n - 1) / 2, "iAllReduce");
    world.iReduce(s1, 1, MPI.INT, MPI.MAX, 0).waitFor();
    if (me == 0) check(s1.get(0) == n - 1, "iReduce in place");
    IntBuffer bc = MPI.newIntBuffer(1);
    if (me == 0) bc.put(0, 4242);
    Request br = world.iBcast(bc, 1, MPI.INT, 0);
    world.iBarrier().waitFor();
    br.waitFor();
    check(bc.get(0) == 4242, "iBcast");
    IntBuffer scn = MPI.newIntBuffer(1);
    scn.put(0, 1);
    world.iScan(scn, 1, MPI.INT, MPI.SUM).waitFor();
    check(scn.get(0) == me + 1, "iScan in place");
    fails(MPI.ERR_COUNT, "allGather into too small an array",
        () -> world.allGather(one, 1, MPI.INT, new int[n - 1 + (n == 1 ? 0 : 0)], n == 1 ? 2 : 1, MPI.INT));
  }

  static void userOps() throws Exception {
    UserFunction max = new UserFunction() {
      @Override public void call(Object in, Object inOut, int count, Datatype type) {
        int[] a = (int[]) in, b = (int[]) inOut;
        for (int i = 0; i < count; i++) b[i] = Math.max(a[i], b[i]);
      }
    };
    Op op = new Op(max, true);
    check(op.isCommutative(), "commutative");
    int[] v = {me * 3};
    world.allReduce(v, 1, MPI.INT, op);
    check(v[0] == (n - 1) * 3, "user op over arrays");
    int[] lin = {5, 1}, lout = {2, 9};
    Comm.reduceLocal(lin, lout, 2, MPI.INT, op);
    check(lout[0] == 5 && lout[1] == 9, "reduceLocal");
    op.free();
    Op bad = new Op(new UserFunction() {
      @Override public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) throws MPIException {
        throw new MPIException(MPI.ERR_OP, "refused by the user function");
      }
    }, true);
    MPIException e = fails(MPI.ERR_OP, "a UserFunction that throws (reduceLocal)",
        () -> Comm.reduceLocal(new int[1], new int[1], 1, MPI.INT, bad));
    check(e.getMessage().contains("refused"), "the user's own exception arrives");
    Op boom = new Op(new UserFunction() {
      @Override public void call(Object in, Object inOut, int count, Datatype type) {
        throw new IllegalStateException("boom");
      }
    }, true);
    try {
      world.allReduce(new int[1], new int[1], 1, MPI.INT, boom);  // on the ranks that combine: throws
    } catch (MPIException x) {
      check(x.getCause() instanceof IllegalStateException, "a RuntimeException of a UserFunction is the cause");
    }
    world.barrier();  // every rank got here: no hang
    bad.free();
    boom.free();
  }

  static void datatypes() throws Exception {
    Datatype vec = Datatype.createVector(2, 2, 4, MPI.INT);
    vec.commit();
    check(vec.getSize() == 4 && vec.getExtent() == 6, "vector size/extent in ints");
    Datatype hv = Datatype.createHVector(2, 1, 16, MPI.DOUBLE);
    check(hv.getSize() == 2 && hv.getExtent() == 3, "hvector (bytes stride) extent in doubles");
    Datatype idx = Datatype.createIndexed(new int[] {1, 2}, new int[] {0, 3}, MPI.INT);
    check(idx.getSize() == 3 && idx.getExtent() == 5, "indexed");
    Datatype st = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
    check(st.getSize() == 12 && st.getExtent() == 16, "struct in bytes");
    Datatype rs = Datatype.createResized(MPI.INT, 0, 3);
    check(rs.getExtent() == 3 && rs.getSize() == 1, "resized");
    Datatype sub = Datatype.createSubarray(new int[] {4, 4}, new int[] {2, 2}, new int[] {1, 1}, MPI.ORDER_C, MPI.INT);
    check(sub.getSize() == 4, "subarray");
    Datatype ct = Datatype.createContiguous(3, MPI.SHORT);
    check(ct.getSize() == 3 && ct.dup().getSize() == 3, "contiguous, dup");
    // a vector through a ring
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int[] src = new int[8], dst = new int[8];
    for (int i = 0; i < 8; i++) src[i] = me * 10 + i;
    world.sendRecv(src, 1, vec, right, 40, dst, 1, vec, left, 40);
    check(dst[0] == left * 10 && dst[1] == left * 10 + 1 && dst[2] == 0 && dst[4] == left * 10 + 4,
        "vector sendRecv");
    fails(MPI.ERR_COUNT, "a vector beyond the array", () -> world.send(new int[5], 1, vec, right, 41));
    vec.free();
    fails(-1, "a freed datatype", () -> world.send(src, 1, vec, right, 42));
    fails(-1, "a freed datatype's size", () -> vec.getSize());
    for (Datatype t : new Datatype[] {hv, idx, st, rs, sub, ct}) t.free();
    fails(MPI.ERR_TYPE, "free a predefined datatype", () -> MPI.INT.free());
    fails(MPI.ERR_OP, "free a predefined op", () -> MPI.SUM.free());
    check(MPI.INT.getSize() == 1 && MPI.DOUBLE.getExtent() == 1, "predefined sizes in elements");
  }

  static void groupsAndComms() throws Exception {
    Group wg = world.getGroup();
    check(wg.getSize() == n && wg.getRank() == me, "group size/rank");
    Group first = wg.incl(new int[] {0});
    check(first.getSize() == 1 && (me == 0 ? first.getRank() == 0 : first.getRank() == MPI.UNDEFINED), "incl");
    Group rest = wg.excl(new int[] {0});
    check(Group.union(first, rest).getSize() == n && Group.intersection(first, rest).getSize() == 0, "union/intersection");
    check(Group.compare(wg, Group.union(first, rest)) == MPI.IDENT, "compare");
    int[] tr = Group.translateRanks(wg, new int[] {0}, first);
    check(tr[0] == 0, "translateRanks");
    check(wg.rangeIncl(new int[][] {{0, n - 1, 1}}).getSize() == n, "rangeIncl");
    first.free(); rest.free(); wg.free();
    Intracomm dup = world.dup();
    check(Comm.compare(dup, world) == MPI.CONGRUENT && Comm.compare(world, world) == MPI.IDENT, "dup/compare");
    Intracomm half = world.split(me % 2, me);
    check(half.getSize() == (n + 1 - me % 2) / 2, "split");
    Intracomm none = world.split(me == 0 ? MPI.UNDEFINED : 1, 0);
    check(me == 0 ? none.isNull() : !none.isNull(), "split with UNDEFINED");
    if (!none.isNull()) none.free();
    int key = Comm.createKeyval();
    dup.setAttr(key, "value");
    check("value".equals(dup.getAttr(key)), "setAttr/getAttr");
    dup.deleteAttr(key);
    check(dup.getAttr(key) == null, "deleteAttr");
    Comm.freeKeyval(key);
    check(((Integer) world.getAttr(MPI.TAG_UB)) >= 32767, "TAG_UB");
    dup.setName("dup of world");
    check("dup of world".equals(dup.getName()), "names");
    dup.free();
    half.free();
    fails(MPI.ERR_COMM, "a freed communicator", () -> dup.barrier());
    fails(MPI.ERR_COMM, "COMM_WORLD cannot be freed", () -> MPI.COMM_WORLD.free());
    // Cartesian and graph topologies
    int[] dims = {0};
    CartComm.createDims(n, dims);
    CartComm ring = world.createCart(dims, new boolean[] {true}, false);
    ShiftParms sp = ring.shift(0, 1);
    check(sp.getRankDest() == (ring.getRank() + 1) % n && ring.getTopo().getPeriod(0), "cart shift");
    check(ring.getTopology() == MPI.CART && world.getTopology() == MPI.UNDEFINED, "getTopology");
    int[] nb = new int[2];
    ring.neighborAllGather(new int[] {me}, 1, MPI.INT, nb, 1, MPI.INT);
    check(nb[0] == sp.getRankSource() && nb[1] == sp.getRankDest(), "neighborAllGather");
    ring.free();
    int[] index = new int[n], edges = new int[n];
    for (int i = 0; i < n; i++) { index[i] = i + 1; edges[i] = (i + 1) % n; }
    GraphComm gc = world.createGraph(index, edges, false);
    check(gc.getDims().getEdgeCount() == n && gc.getNeighbors(me)[0] == (me + 1) % n, "graph");
    gc.free();
    if (n >= 2) {  // an intercommunicator between the even and the odd ranks
      Intracomm local = world.split(me % 2, me);
      Intercomm ic = world.createIntercomm(local, 0, me % 2 == 0 ? 1 : 0, 50);
      check(ic.isInter() && ic.getRemoteSize() == (me % 2 == 0 ? n / 2 : (n + 1) / 2), "intercomm");
      int[] root = {me};
      if (me % 2 == 0) ic.bcast(root, 1, MPI.INT, local.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL);
      else ic.bcast(root, 1, MPI.INT, 0);
      if (me % 2 == 1) check(root[0] == 0, "intercomm bcast");
      Intracomm merged = ic.merge(me % 2 == 1);
      check(merged.getSize() == n, "merge");
      merged.free();
      ic.free();
      local.free();
    }
  }

  static void info() throws Exception {
    Info i = new Info();
    i.set("key", "v1");
    check("v1".equals(i.get("key")) && i.get("missing") == null && i.size() == 1 && "key".equals(i.getKey(0)), "info");
    Info d = i.dup();
    i.delete("key");
    check(i.size() == 0 && "v1".equals(d.get("key")), "info delete/dup");
    fails(MPI.ERR_ARG, "delete a missing key", () -> i.delete("key"));
    i.free();
    d.free();
    fails(-1, "a freed info", () -> i.set("a", "b"));
  }

  static void file(String dir) throws Exception {
    String name = dir + "/mpi_api_conformance.dat";
    File f = new File(world, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
    f.setView(0, MPI.INT, MPI.INT, "native");
    f.writeAt(me * 2, new int[] {me, me + 1}, 2, MPI.INT);
    f.sync();
    world.barrier();
    f.sync();
    int[] back = new int[2 * n];
    f.readAtAll(0, back, 2 * n, MPI.INT);
    for (int i = 0; i < n; i++) check(back[2 * i] == i && back[2 * i + 1] == i + 1, "file readAtAll " + i);
    check(f.getSize() == 8L * n, "file size");
    f.close();
    world.barrier();
    if (me == 0) File.delete(name);
    fails(-1, "open a missing file", () -> new File(MPI.COMM_SELF, dir + "/no/such/file", MPI.MODE_RDONLY));
  }

  public static void main(String[] args) throws Exception {
    MPI.Init(args);
    world = MPI.COMM_WORLD;
    me = world.getRank();
    n = world.getSize();
    String dir = args.length > 0 ? args[0] : ".";
    mpiClass();
    pointToPoint();
    buffered();
    collectives();
    userOps();
    datatypes();
    groupsAndComms();
    info();
    file(dir);
    ConformancePackMapWin.packing(world, me, n);
    ConformancePackMapWin.sliceParents(world, me, n);
    ConformancePackMapWin.topologyMaps(world, me, n);
    ConformancePackMapWin.distGraphs(world, me, n);
    ConformancePackMapWin.windows(world, me, n);
    ConformancePackMapWin.fortranDarray(me, n);
    ConformanceSuitePrograms.run(world, me, n, dir);
    int[] sum = {checks};
    world.allReduce(sum, 1, MPI.INT, MPI.SUM);
    if (me == 0) System.out.println("conformance: " + sum[0] + " checks passed on " + n + " ranks");
    MPI.Finalize();
  }
}
