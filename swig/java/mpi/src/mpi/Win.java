package mpi;

import java.nio.Buffer;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One-sided communication (org.oompi.Window) over a direct buffer (Open MPI's rule: windows
 * never over arrays). Target displacements are in this window's displacement unit. An
 * operation's target datatype must describe the same data as its origin's (oompi puts the
 * origin's type at the target).
 */
public final class Win implements Freeable {
  public static final int WIN_NULL = 0;
  /** Flavors of the allocating constructor: MPI_Win_allocate, MPI_Win_allocate_shared. */
  public static final int FLAVOR_PRIVATE = 0, FLAVOR_SHARED = 1;

  private org.oompi.Window w;
  private final int dispUnit;
  private final boolean dynamic;
  private boolean freed;
  private final ErrhandlerSlot handler = new ErrhandlerSlot(Errhandler.FATAL, null, "Win");
  private org.oompi.Epoch access, exposure, all;
  private final Map<Integer, org.oompi.Epoch> locks = new HashMap<>();
  private final Map<Buffer, Long> attached = new IdentityHashMap<>();

  /** MPI_Win_create over base: size and dispUnit in base's elements (Open MPI's units). */
  public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
    int elem = elementSize(base);
    if (size < 0 || size > base.capacity())
      throw new MPIException(MPI.ERR_SIZE, "size " + size + " exceeds the buffer's " + base.capacity());
    this.dispUnit = unit(dispUnit, elem);
    this.dynamic = false;
    try { w = org.oompi.Window.create(comm.c(), Bufs.view(base).limit(size), hints(info)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /**
   * MPI_Win_allocate (FLAVOR_PRIVATE) or MPI_Win_allocate_shared (FLAVOR_SHARED; every process
   * of comm on one node): size elements of base's kind that MPI allocates, zero-filled. base
   * only gives the element kind: Open MPI wrote the new memory's address into base's first
   * bytes (past the end of a smaller buffer); oompi writes nothing there. The memory is
   * getAttr(MPI.WIN_BASE), a direct ByteBuffer in native order.
   */
  public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
    int elem = elementSize(base);
    if (size < 0) throw new MPIException(MPI.ERR_SIZE, "negative window size " + size);
    if (flavor != FLAVOR_PRIVATE && flavor != FLAVOR_SHARED)
      throw new MPIException(MPI.ERR_ARG, "flavor must be Win.FLAVOR_PRIVATE or Win.FLAVOR_SHARED");
    this.dispUnit = unit(dispUnit, elem);
    this.dynamic = false;
    long bytes = (long) size * elem;
    try {
      w = flavor == FLAVOR_PRIVATE ? org.oompi.Window.allocate(comm.c(), bytes, org.oompi.TypeKind.BYTE, hints(info))
          : org.oompi.Window.allocateShared(comm.c(), bytes, org.oompi.TypeKind.BYTE, hints(info));
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /**
   * MPI_Win_create_dynamic: memory comes with attach(). A target displacement is then the
   * target's address of the data (displacement unit 1 byte).
   */
  public Win(Info info, Comm comm) throws MPIException {
    this.dispUnit = 1;
    this.dynamic = true;
    try { w = org.oompi.Window.createDynamic(comm.c(), hints(info)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The hints MPI gets (null: none, as MPI.INFO_NULL). no_locks=true makes lock refused. */
  private static org.oompi.Info hints(Info info) { return info == null ? new org.oompi.Info() : info.handle(); }

  /** MPI_Win_set_info: new hints for this window (no_locks=true from now on refuses lock). */
  public void setInfo(Info info) throws MPIException {
    if (info == null) throw new MPIException(MPI.ERR_INFO, "null info");
    try { live().setInfo(info.handle()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_get_info: the hints in use, a new Info the caller frees. */
  public Info getInfo() throws MPIException {
    try { return new Info(live().getInfo()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private static int elementSize(Buffer base) {
    if (base == null || !base.isDirect()) throw new IllegalArgumentException("The buffer must be direct.");
    return base instanceof java.nio.ByteBuffer ? 1
        : base instanceof java.nio.CharBuffer || base instanceof java.nio.ShortBuffer ? 2
        : base instanceof java.nio.IntBuffer || base instanceof java.nio.FloatBuffer ? 4 : 8;
  }

  private static int unit(int dispUnit, int elem) throws MPIException {
    if (dispUnit <= 0) throw new MPIException(MPI.ERR_DISP, "displacement unit " + dispUnit + " is not positive");
    return dispUnit * elem;
  }

  /** MPI_Win_attach (dynamic windows): size of base's elements from its start, kept until detach. */
  public void attach(Buffer base, int size) throws MPIException {
    int elem = elementSize(base);
    if (!dynamic) throw new MPIException(MPI.ERR_WIN, "attach: not a dynamic window (new Win(info, comm))");
    if (size < 0 || size > base.capacity())
      throw new MPIException(MPI.ERR_SIZE, "size " + size + " outside the buffer's " + base.capacity() + " elements");
    synchronized (attached) {
      if (attached.containsKey(base)) throw new MPIException(MPI.ERR_ARG, "attach: this buffer is already attached");
      try { attached.put(base, live().attach(Bufs.whole(base, (long) size * elem, MPI.BYTE))); }
      catch (RuntimeException e) { throw Errors.of(e); }
    }
  }

  /** MPI_Win_detach of a buffer given to attach. */
  public void detach(Buffer base) throws MPIException {
    elementSize(base);
    Long address;
    synchronized (attached) { address = attached.remove(base); }
    if (address == null) throw new MPIException(MPI.ERR_ARG, "detach: the buffer is not attached to this window");
    try { live().detach(address); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private String name = "";

  /** MPI_Win_set_name (kept by this object: oompi's windows have no MPI name). */
  public void setName(String name) throws MPIException {
    live();
    if (name == null) throw new MPIException(MPI.ERR_ARG, "null name");
    this.name = name;
  }

  public String getName() throws MPIException { live(); return name; }

  /** MPI_Win_get_errhandler: ERRORS_ARE_FATAL until one is set (MPI's default for windows). */
  public Errhandler getErrhandler() throws MPIException { live(); return handler.get(); }

  public void setErrhandler(Errhandler errhandler) throws MPIException { live(); handler.set(errhandler); }

  /** MPI_Win_call_errhandler: as Comm.callErrhandler (none set: throws MPIException). */
  public void callErrhandler(int errorCode) throws MPIException { live(); handler.call(this, errorCode); }

  /**
   * The predefined attributes: MPI.WIN_BASE (the local memory as a direct ByteBuffer in native
   * order; null for a dynamic window), MPI.WIN_SIZE (bytes, an Integer), MPI.WIN_DISP_UNIT (bytes,
   * an Integer). Other keys: the user attribute (see setAttr), null when none is set.
   */
  public Object getAttr(int keyval) throws MPIException {
    org.oompi.Window x = live();
    try {
      if (keyval == MPI.WIN_BASE) return dynamic ? null : x.memory().order(java.nio.ByteOrder.nativeOrder());
      if (keyval == MPI.WIN_SIZE) return dynamic ? 0 : (int) x.getSize();
      if (keyval == MPI.WIN_DISP_UNIT) return dispUnit;
      return attrs.get(keyval);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  private org.oompi.Window live() throws MPIException {
    if (w == null || freed) throw new MPIException(MPI.ERR_WIN, "the window was freed");
    return w;
  }

  /** Our displacement (dispUnit) as oompi's (the window's own unit). */
  private long disp(int targetDisp) throws MPIException {
    long bytes = (long) targetDisp * dispUnit;
    int unit = live().getDispUnit();
    if (bytes % unit != 0)
      throw new MPIException(MPI.ERR_ARG, "displacement " + targetDisp + " is not a whole number of "
          + unit + "-byte elements");
    return bytes / unit;
  }

  private static void same(int orgCount, Datatype orgType, int targetCount, Datatype targetType)
      throws MPIException {
    if ((long) orgCount * orgType.bytes() != (long) targetCount * targetType.bytes())
      throw new MPIException(MPI.ERR_TYPE, "the target's count and datatype describe "
          + targetCount * targetType.bytes() + " bytes, the origin's " + orgCount * orgType.bytes());
  }

  public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                  int targetCount, Datatype targetType) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { live().put(b, targetRank, disp(targetDisp)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                  int targetCount, Datatype targetType) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { live().get(b, targetRank, disp(targetDisp)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                         int targetCount, Datatype targetType, Op op) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { live().accumulate(b, targetRank, disp(targetDisp), op.on(orgType)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                      int targetCount, Datatype targetType) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { return new Request(live().rput(b, targetRank, disp(targetDisp))); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                      int targetCount, Datatype targetType) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { return new Request(live().rget(b, targetRank, disp(targetDisp))); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                             int targetCount, Datatype targetType, Op op) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object b = Bufs.async(origin, orgCount, orgType);
    try { return new Request(live().raccumulate(b, targetRank, disp(targetDisp), op.on(orgType)), op); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                            int resultCount, Datatype resultType, int targetRank, int targetDisp,
                            int targetCount, Datatype targetType, Op op) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object o = Bufs.async(origin, orgCount, orgType), r = Bufs.async(resultAddr, resultCount, resultType);
    try { live().getAccumulate(o, r, targetRank, disp(targetDisp), op.on(orgType)); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Rget_accumulate: getAccumulate as a request (ompi-java-test onesided/CReqops). */
  public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                                int resultCount, Datatype resultType, int targetRank, int targetDisp,
                                int targetCount, Datatype targetType, Op op) throws MPIException {
    same(orgCount, orgType, targetCount, targetType);
    Object o = Bufs.async(origin, orgCount, orgType), r = Bufs.async(resultAddr, resultCount, resultType);
    try { return new Request(live().rgetAccumulate(o, r, targetRank, disp(targetDisp), op.on(orgType)), op); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank,
                         int targetDisp, Op op) throws MPIException {
    // MPI.NO_OP ignores the origin (MPI-3 11.3.4): an empty buffer, as the suite's
    // onesided/CFetchAndOp passes, stands for none.
    if (op == MPI.NO_OP && origin != null && origin.capacity() == 0) origin = Bufs.directScratch(dataType, 1);
    Object o = Bufs.async(origin, 1, dataType), r = Bufs.async(resultAddr, 1, dataType);
    try { live().fetchAndOp(o, r, targetRank, disp(targetDisp), op.on(dataType)); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype dataType,
                             int targetRank, int targetDisp) throws MPIException {
    Object o = Bufs.async(origin, 1, dataType), c = Bufs.async(compareAddr, 1, dataType),
        r = Bufs.async(resultAddr, 1, dataType);
    try { live().compareAndSwap(o, c, r, targetRank, disp(targetDisp)); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- synchronisation ------------------------------------------------------------------------
  public void fence(int assertion) throws MPIException {
    try { live().fence(assertion); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_start: an access epoch to group. */
  public void start(Group group, int assertion) throws MPIException {
    try { access = live().start(group.live(), assertion); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_complete. */
  public void complete() throws MPIException {
    if (access == null) throw new MPIException(MPI.ERR_ARG, "no access epoch (start) is open");
    try { access.close(); } catch (RuntimeException e) { throw Errors.of(e); } finally { access = null; }
  }

  /** MPI_Win_post: an exposure epoch to group. */
  public void post(Group group, int assertion) throws MPIException {
    try { exposure = live().post(group.live(), assertion); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_wait. */
  public void waitFor() throws MPIException {
    if (exposure == null) throw new MPIException(MPI.ERR_ARG, "no exposure epoch (post) is open");
    try { exposure.close(); } catch (RuntimeException e) { throw Errors.of(e); } finally { exposure = null; }
  }

  /** MPI_Win_test: true (and the exposure epoch ended) once the origins completed. */
  public boolean test() throws MPIException {
    if (exposure == null) throw new MPIException(MPI.ERR_ARG, "no exposure epoch (post) is open");
    try {
      if (!exposure.test()) return false;
      exposure.close();
      exposure = null;
      return true;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public void lock(int lockType, int rank, int assertion) throws MPIException {
    org.oompi.LockType t;
    if (lockType == MPI.LOCK_EXCLUSIVE) t = org.oompi.LockType.EXCLUSIVE;
    else if (lockType == MPI.LOCK_SHARED) t = org.oompi.LockType.SHARED;
    else throw new MPIException(MPI.ERR_ARG, "lockType must be MPI.LOCK_EXCLUSIVE or MPI.LOCK_SHARED");
    try { locks.put(rank, live().lock(rank, t, assertion)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void unlock(int rank) throws MPIException {
    org.oompi.Epoch e = locks.remove(rank);
    if (e == null) throw new MPIException(MPI.ERR_ARG, "rank " + rank + " is not locked");
    try { e.close(); } catch (RuntimeException x) { throw Errors.of(x); }
  }

  public void lockAll(int assertion) throws MPIException {
    try { all = live().lockAll(assertion); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void unlockAll() throws MPIException {
    if (all == null) throw new MPIException(MPI.ERR_ARG, "lockAll was not called");
    try { all.close(); } catch (RuntimeException e) { throw Errors.of(e); } finally { all = null; }
  }

  public void flush(int targetRank) throws MPIException {
    try { live().flush(targetRank); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void flushAll() throws MPIException {
    try { live().flushAll(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void flushLocal(int targetRank) throws MPIException {
    try { live().flushLocal(targetRank); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void flushLocalAll() throws MPIException {
    try { live().flushLocalAll(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void sync() throws MPIException {
    try { live().sync(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Group getGroup() throws MPIException {
    try { return new Group(live().getGroup()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_free (collective). */
  @Override public void free() throws MPIException {
    try { live().close(); } catch (RuntimeException e) { throw Errors.of(e); }
    freed = true;
    synchronized (attached) { attached.clear(); }
  }

  public boolean isNull() { return w == null || freed; }

  // --- user attributes (MPI_Win_create_keyval ...): the values live on this object -------------
  private static final Attributes.Keys KEYS = new Attributes.Keys();
  private final Attributes attrs = new Attributes(KEYS);

  public static int createKeyval() throws MPIException { return KEYS.create(); }

  public static void freeKeyval(int keyval) throws MPIException { KEYS.free(keyval); }

  public void setAttr(int keyval, Object value) throws MPIException { live(); attrs.set(keyval, value); }

  public void deleteAttr(int keyval) throws MPIException { live(); attrs.delete(keyval); }
}
