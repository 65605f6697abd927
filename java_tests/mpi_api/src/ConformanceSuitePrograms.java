// Regressions from running Open MPI's own Java test programs (open-mpi/ompi-java-test) on
// package mpi: each case is what one of those programs needed, written from the API's
// documentation, with its bad inputs. Called from Conformance.main (any rank count).
import java.nio.*;
import mpi.*;

final class ConformanceSuitePrograms {
  private ConformanceSuitePrograms() {}

  private static void check(boolean ok, String what) { Conformance.check(ok, what); }

  static void run(Intracomm world, int me, int n, String dir) throws Exception {
    arraysOfAnotherType(world, me, n);
    statusSetters(world, me, n);
    environment();
    attributes(world, me, dir);
    freedGroup(world);
    noProcMessage(world);
    testAllStatuses(world, me, n);
    windowHints(world, me);
    portAtRootOnly(world, me, n);
    intercommRooted(world, me, n);
    keyvalFreedInUse(world);
    neighborVNonblocking(world, me, n);
  }

  /** pt2pt/Testall: Request.testAllStatus gives each request's status (source, tag), not empty ones. */
  static void testAllStatuses(Intracomm world, int me, int n) throws Exception {
    int left = (me + n - 1) % n, right = (me + 1) % n;
    IntBuffer in = MPI.newIntBuffer(1), out = MPI.newIntBuffer(1);
    out.put(0, me);
    Request[] reqs = {world.iRecv(in, 1, MPI.INT, left, 45), MPI.REQUEST_NULL, world.iSend(out, 1, MPI.INT, right, 45)};
    Status[] st = null;
    boolean active = true;
    while (st == null) {
      st = Request.testAllStatus(reqs);
      if (st == null) active &= !reqs[0].isNull() || !reqs[2].isNull();
    }
    check(active, "incomplete requests stay active");
    check(st.length == 3 && st[0].getSource() == left && st[0].getTag() == 45 && in.get(0) == left
        && st[0].getCount(MPI.INT) == 1, "testAllStatus: the receive's status");
    check(reqs[0].isNull() && reqs[2].isNull(), "testAllStatus frees the completed requests");
    check(Request.testAllStatus(new Request[0]) != null, "testAllStatus of no requests");
  }

  /** pt2pt/Improbe, MprobeMpich: MPI_Imrecv of MPI_MESSAGE_NO_PROC completes at once, PROC_NULL status. */
  static void noProcMessage(Intracomm world) throws Exception {
    Message msg = new Message();
    Status s = msg.imProbe(MPI.PROC_NULL, 3, world);
    check(s != null && msg.isNoProc() && s.getSource() == MPI.PROC_NULL, "imProbe of PROC_NULL");
    IntBuffer b = MPI.newIntBuffer(1);
    b.put(0, 5);
    Request r = msg.imRecv(b, 1, MPI.INT);
    check(!r.isNull(), "the NO_PROC receive is a request");
    Status t = r.testStatus();
    check(t != null && t.getSource() == MPI.PROC_NULL && t.getTag() == MPI.ANY_TAG
        && t.getCount(MPI.INT) == 0 && b.get(0) == 5, "it completes at once with the PROC_NULL status");
    check(r.isNull(), "and is then null");
  }

  /**
   * pt2pt/Getcount, Rsend, status/*: an int[] sent and received as MPI.BYTE, MPI.CHAR or
   * MPI.DOUBLE carries the message in its memory (native byte order), as C's buffers do.
   */
  static void arraysOfAnotherType(Intracomm world, int me, int n) throws Exception {
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int[] out = {0x01020304 * (me + 1), -me, 7, 8}, in = new int[4];
    Status s = world.sendRecv(out, 16, MPI.BYTE, right, 40, in, 16, MPI.BYTE, left, 40);
    check(s.getCount(MPI.BYTE) == 16 && in[0] == 0x01020304 * (left + 1) && in[1] == -left && in[3] == 8,
        "an int[] as 16 MPI.BYTE");
    java.util.Arrays.fill(in, 0);
    s = world.sendRecv(out, 2, MPI.DOUBLE, right, 41, in, 2, MPI.DOUBLE, left, 41);
    check(s.getCount(MPI.DOUBLE) == 2 && in[1] == -left && in[3] == 8, "an int[] as 2 MPI.DOUBLE");
    byte[] bytes = new byte[16];
    world.sendRecv(out, 8, MPI.CHAR, right, 42, bytes, 16, MPI.BYTE, left, 42);
    ByteBuffer got = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    check(got.getInt(0) == 0x01020304 * (left + 1) && got.getInt(12) == 8, "an int[] as MPI.CHAR, received as bytes");
    IntBuffer heap = IntBuffer.wrap(new int[6], 2, 4).slice();  // a heap slice at offset 2
    world.sendRecv(out, 16, MPI.BYTE, right, 43, heap, 16, MPI.BYTE, left, 43);
    check(heap.array()[3] == -left && heap.array()[0] == 0, "a heap slice of int as MPI.BYTE");
    // bad inputs: still refused before MPI sees them
    Conformance.fails(MPI.ERR_TYPE, "boolean[] as MPI.INT", () -> world.send(new boolean[8], 2, MPI.INT, right, 0));
    Conformance.fails(MPI.ERR_TYPE, "int[] as MPI.BOOLEAN", () -> world.send(new int[2], 2, MPI.BOOLEAN, right, 0));
    MPIException e = Conformance.fails(-1, "3 MPI.INT from a double[1]", () -> world.send(new double[1], 3, MPI.INT, right, 0));
    check(e.getErrorClass() == MPI.ERR_COUNT || e.getErrorClass() == MPI.ERR_BUFFER, "beyond an array of another type: " + e.getMessage());
  }

  /** status/SetElements, SetElementsX, SetCancelled. */
  static void statusSetters(Intracomm world, int me, int n) throws Exception {
    Status s = world.sendRecv(new int[3], 3, MPI.INT, me, 44, new int[3], 3, MPI.INT, me, 44);
    check(!s.isCancelled() && s.getElements(MPI.INT) == 3, "a received status");
    s.setElements(MPI.INT, 10);
    check(s.getElements(MPI.INT) == 10 && s.getCount(MPI.INT) == 10 && s.getCount(MPI.BYTE) == 40, "setElements");
    s.setElementsX(MPI.SHORT, new Count(5));
    check(s.getElementsX(MPI.SHORT).equals(new Count(5)) && s.getCount(MPI.INT) == MPI.UNDEFINED, "setElementsX");
    Datatype pair = Datatype.createContiguous(2, MPI.INT);
    pair.commit();
    s.setElements(pair, 6);
    check(s.getElements(pair) == 6 && s.getCount(pair) == 3, "setElements of a derived type");
    pair.free();
    s.setCancelled(true);
    check(s.isCancelled() && s.getSource() == me, "setCancelled changes only the flag");
    Conformance.fails(MPI.ERR_COUNT, "setElements of a negative count", () -> s.setElements(MPI.INT, -1));
    check(new Count(3).compareTo(new Count(4)) < 0 && new Count(3).hashCode() == new Count(3).hashCode(), "Count");
  }

  /** environment/GetVersion, GetLibVersion (no checked exception), Pcontrol; info/InfoEnv60. */
  static void environment() throws Exception {
    Version v = MPI.getVersion();
    String lib = MPI.getLibVersion();
    check(v.getVersion() >= 3 && lib != null && !lib.isEmpty(), "getVersion/getLibVersion");
    MPI.pControl(1, null);
    MPI.pControl(0, new int[] {1});
    check(MPI.INFO_ENV != null && MPI.INFO_ENV == MPI.getInfoEnv(), "MPI.INFO_ENV is getInfoEnv()");
  }

  /**
   * random/AttrErrorCode and the user attributes of datatypes, windows and files: an invalid or
   * freed keyval is MPI.ERR_KEYVAL on every kind of object.
   */
  static void attributes(Intracomm world, int me, String dir) throws Exception {
    Conformance.fails(MPI.ERR_KEYVAL, "Comm.getAttr(KEYVAL_INVALID)", () -> world.getAttr(MPI.KEYVAL_INVALID));
    Conformance.fails(MPI.ERR_KEYVAL, "Datatype.getAttr(KEYVAL_INVALID)", () -> MPI.INT.getAttr(MPI.KEYVAL_INVALID));
    int tk = Datatype.createKeyval();
    check(MPI.INT.getAttr(tk) == null, "no attribute yet");
    MPI.INT.setAttr(tk, "on INT");
    Datatype vec = Datatype.createVector(2, 1, 2, MPI.INT);
    vec.setAttr(tk, 42);
    check("on INT".equals(MPI.INT.getAttr(tk)) && Integer.valueOf(42).equals(vec.getAttr(tk))
        && MPI.DOUBLE.getAttr(tk) == null, "Datatype attributes per type");
    MPI.INT.deleteAttr(tk);
    check(MPI.INT.getAttr(tk) == null, "Datatype.deleteAttr");
    Conformance.fails(MPI.ERR_ARG, "delete an attribute not set", () -> MPI.INT.deleteAttr(tk));
    Datatype.freeKeyval(tk);
    Conformance.fails(MPI.ERR_KEYVAL, "a freed type keyval", () -> vec.getAttr(tk));
    Conformance.fails(MPI.ERR_KEYVAL, "free a keyval twice", () -> Datatype.freeKeyval(tk));
    vec.free();

    IntBuffer mem = MPI.newIntBuffer(2);
    Win w = new Win(mem, 2, 1, MPI.INFO_NULL, world);
    w.setErrhandler(MPI.ERRORS_RETURN);
    Conformance.fails(MPI.ERR_KEYVAL, "Win.getAttr(KEYVAL_INVALID)", () -> w.getAttr(MPI.KEYVAL_INVALID));
    int wk = Win.createKeyval();
    w.setAttr(wk, me);
    check(Integer.valueOf(me).equals(w.getAttr(wk)) && ((Integer) w.getAttr(MPI.WIN_SIZE)) == 8, "Win attributes beside WIN_SIZE");
    w.deleteAttr(wk);
    check(w.getAttr(wk) == null, "Win.deleteAttr");
    // onesided/CFetchAndOp: MPI.NO_OP ignores the origin, an empty buffer stands for none
    IntBuffer res = MPI.newIntBuffer(1);
    w.lock(MPI.LOCK_EXCLUSIVE, me, 0);
    mem.put(0, 70 + me);
    w.fetchAndOp(MPI.newIntBuffer(0), res, MPI.INT, me, 0, MPI.NO_OP);
    w.unlock(me);
    check(res.get(0) == 70 + me && mem.get(0) == 70 + me, "fetchAndOp with NO_OP and an empty origin");
    w.lock(MPI.LOCK_EXCLUSIVE, me, 0);
    Conformance.fails(-1, "fetchAndOp SUM with an empty origin", () -> w.fetchAndOp(MPI.newIntBuffer(0), res, MPI.INT, me, 0, MPI.SUM));
    w.unlock(me);
    Win.freeKeyval(wk);
    w.free();
    Conformance.fails(MPI.ERR_WIN, "setAttr on a freed window", () -> w.setAttr(wk, 1));

    String name = dir + "/mpi_api_attrs." + me;
    File f = new File(MPI.COMM_SELF, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
    int fk = File.createKeyval();
    f.setAttr(fk, "file attr");
    check("file attr".equals(f.getAttr(fk)), "File attributes");
    File.freeKeyval(fk);
    Conformance.fails(MPI.ERR_KEYVAL, "File.getAttr of a freed keyval", () -> f.getAttr(fk));
    f.close();
    File.delete(name);
  }

  /** group/GroupTest: a freed group given to create is MPI.ERR_GROUP on every rank. */
  static void freedGroup(Intracomm world) throws Exception {
    Group g = world.getGroup();
    Group half = g.incl(new int[] {0});
    half.free();
    check(half.isNull(), "a freed group is null");
    Conformance.fails(MPI.ERR_GROUP, "create from a freed group", () -> world.create(half));
    Conformance.fails(MPI.ERR_GROUP, "createGroup from a freed group", () -> world.createGroup(half, 5));
    g.free();
  }
  /**
   * onesided/CLockIllegal: a window made with the no_locks=true hint refuses lock and lockAll
   * (MPI_ERR_RMA_SYNC), whatever the osc component; Win.getInfo/setInfo reach MPI's hints.
   */
  static void windowHints(Intracomm world, int me) throws Exception {
    Info info = new Info();
    info.set("no_locks", "true");
    IntBuffer mem = MPI.newIntBuffer(1);
    Win win = new Win(mem, 1, 1, info, world);
    info.free();
    win.setErrhandler(MPI.ERRORS_RETURN);
    Conformance.fails(MPI.ERR_RMA_SYNC, "lock with no_locks", () -> win.lock(MPI.LOCK_SHARED, me, 0));
    Conformance.fails(MPI.ERR_RMA_SYNC, "lockAll with no_locks", () -> win.lockAll(0));
    Info got = win.getInfo();
    check(got != null, "Win.getInfo gives an Info");
    String v = got.get("no_locks");
    check(v == null || v.equals("true"), "getInfo's no_locks is the hint given: " + v);
    got.free();
    Conformance.fails(-1, "setInfo(null)", () -> win.setInfo(null));
    win.fence(0);  // active target still works
    IntBuffer origin = MPI.newIntBuffer(1);  // not the window's own memory (MPICH asserts on overlap)
    origin.put(0, 7);
    win.put(origin, 1, MPI.INT, me, 0, 1, MPI.INT);
    win.fence(0);
    check(mem.get(0) == 7, "put in a fence epoch on a no_locks window");
    win.free();
    Conformance.fails(MPI.ERR_WIN, "getInfo of a freed window", () -> win.getInfo());
    Win plain = new Win(MPI.newIntBuffer(1), 1, 1, MPI.INFO_NULL, world);
    plain.lock(MPI.LOCK_SHARED, me, 0);  // no hint: locks as before
    plain.unlock(me);
    plain.free();
  }
  /**
   * collective_intercomm/*: the port of accept/connect matters at the root only; the other
   * ranks pass null, as in C. Skipped where the MPI library has no ports (MPICH's ucx netmod).
   */
  static void portAtRootOnly(Intracomm world, int me, int n) throws Exception {
    if (n < 2) return;
    int color = me % 2;  // even ranks accept, odd ranks connect; world ranks 0 and 1 are the roots
    Intracomm side = world.split(color, me);
    String port = null;
    int[] len = {0};
    if (me == 0) {
      try { port = Intracomm.openPort(); } catch (MPIException e) { port = ""; }
      len[0] = port.length();
    }
    world.bcast(len, 1, MPI.INT, 0);
    if (len[0] > 0) {
      char[] name = me == 0 ? port.toCharArray() : new char[len[0]];
      if (me == 0) world.send(name, len[0], MPI.CHAR, 1, 78);
      if (me == 1) { world.recv(name, len[0], MPI.CHAR, 0, 78); port = new String(name); }
      Intercomm inter = color == 0 ? side.accept(me == 0 ? port : null, 0)
                                   : side.connect(me == 1 ? port : null, 0);
      check(inter.getRemoteSize() == (color == 0 ? n / 2 : (n + 1) / 2), "accept/connect: the remote group");
      int[] sum = {0}, one = {1};
      inter.allReduce(one, sum, 1, MPI.INT, MPI.SUM);
      check(sum[0] == (color == 0 ? n / 2 : (n + 1) / 2), "allReduce over the new intercommunicator");
      inter.disconnect();
      if (me == 0) Intracomm.closePort(port);
    }
    side.free();
  }
  /**
   * collective_intercomm/GatherInter, ScatterInter, ReduceInter, ReduceScatterInter(2): rooted
   * collectives on an intercommunicator. At MPI.ROOT only the root's own buffer is significant
   * (its other one may be anything); reduceScatter's counts are per local process.
   */
  static void intercommRooted(Intracomm world, int me, int n) throws Exception {
    if (n < 2) return;
    int color = me % 2;  // group A: even world ranks, group B: odd ones
    Intracomm side = world.split(color, me);
    Intercomm inter = world.createIntercomm(side, 0, color == 0 ? 1 : 0, 91);
    int lrank = inter.getRank(), lsize = inter.getSize(), rsize = inter.getRemoteSize();
    int[] none = new int[0], one = {me + 1}, all = new int[rsize];
    // group A's local rank 0 is the root; group B sends.
    int root = color == 0 ? (lrank == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
    inter.gather(one, 1, MPI.INT, color == 0 ? all : none, 1, MPI.INT, root);
    if (root == MPI.ROOT)
      for (int i = 0; i < rsize; i++) check(all[i] == 2 * i + 2, "intercomm gather at MPI.ROOT: block " + i);
    int[] sum = {-1};
    inter.reduce(color == 0 ? none : one, color == 0 ? sum : none, 1, MPI.INT, MPI.SUM, root);
    if (root == MPI.ROOT) check(sum[0] == rsize * (rsize + 1), "intercomm reduce at MPI.ROOT: " + sum[0]);
    int[] got = {-1};
    for (int i = 0; i < rsize; i++) all[i] = 100 + i;
    inter.scatter(color == 0 ? all : none, 1, MPI.INT, got, 1, MPI.INT, root);
    if (color == 1) check(got[0] == 100 + lrank, "intercomm scatter to the other group");
    // reduceScatter: group A's vectors reduced and scattered over B, and vice versa
    int[] counts = new int[lsize], vec = new int[lsize * rsize], res = new int[rsize];
    java.util.Arrays.fill(counts, rsize);
    java.util.Arrays.fill(vec, 1);
    inter.reduceScatter(vec, res, counts, MPI.INT, MPI.SUM);
    for (int i = 0; i < rsize; i++) check(res[i] == rsize, "intercomm reduceScatter: " + res[i]);
    Conformance.fails(-1, "reduceScatter with too few counts",
        () -> inter.reduceScatter(vec, res, new int[0], MPI.INT, MPI.SUM));
    inter.free();
    side.free();
  }
  /**
   * communicator/Attr: MPI defers freeing a keyval still in use, so its number keeps reaching
   * the values set before (getAttr, deleteAttr); setting a new value or freeing it again is
   * MPI_ERR_KEYVAL, and a number never created stays invalid.
   */
  static void keyvalFreedInUse(Intracomm world) throws Exception {
    Intracomm dup = world.dup();
    int key = Comm.createKeyval();
    dup.setAttr(key, 12345);
    Comm.freeKeyval(key);
    Object v = dup.getAttr(key);
    check(v != null && (int) v == 12345, "getAttr after freeKeyval: the value set before: " + v);
    check(world.getAttr(key) == null, "an object without the attribute: null");
    Conformance.fails(MPI.ERR_KEYVAL, "setAttr with a freed keyval", () -> dup.setAttr(key, 1));
    Conformance.fails(MPI.ERR_KEYVAL, "freeKeyval twice", () -> Comm.freeKeyval(key));
    dup.deleteAttr(key);
    check(dup.getAttr(key) == null, "deleteAttr after freeKeyval");
    Conformance.fails(MPI.ERR_KEYVAL, "a keyval never created", () -> dup.getAttr(987654));
    dup.free();
  }
  /** Comm.iNeighborAllGatherv / iNeighborAllToAllv (Open MPI's API has both) on a periodic ring. */
  static void neighborVNonblocking(Intracomm world, int me, int n) throws Exception {
    CartComm ring = world.createCart(new int[] {n}, new boolean[] {true}, false);
    int r = ring.getRank(), left = (r + n - 1) % n, right = (r + 1) % n;
    IntBuffer one = MPI.newIntBuffer(1), got = MPI.newIntBuffer(2);
    one.put(0, r);
    int[] counts = {1, 1}, displs = {0, 1};
    ring.iNeighborAllGatherv(one, 1, MPI.INT, got, counts, displs, MPI.INT).waitFor();
    check(got.get(0) == left && got.get(1) == right, "iNeighborAllGatherv: " + got.get(0) + "," + got.get(1));
    IntBuffer out = MPI.newIntBuffer(2), in = MPI.newIntBuffer(2);
    out.put(0, 10 * r).put(1, 10 * r + 1);
    ring.iNeighborAllToAllv(out, counts, displs, MPI.INT, in, counts, displs, MPI.INT).waitFor();
    check(in.get(0) == 10 * left + 1 && in.get(1) == 10 * right, "iNeighborAllToAllv: " + in.get(0) + "," + in.get(1));
    Conformance.fails(-1, "iNeighborAllGatherv past the buffer",
        () -> ring.iNeighborAllGatherv(one, 1, MPI.INT, got, counts, new int[] {0, 2}, MPI.INT));
    Conformance.fails(-1, "iNeighborAllGatherv on a communicator without topology",
        () -> world.iNeighborAllGatherv(one, 1, MPI.INT, got, counts, displs, MPI.INT));
    ring.free();
  }
}
