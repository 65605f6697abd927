package mpi;

import java.nio.Buffer;
import java.util.HashMap;
import java.util.Map;

/**
 * One-sided communication (org.oompi.Window) over a direct buffer (Open MPI's rule: windows
 * never over arrays). Target displacements are in this window's displacement unit. An
 * operation's target datatype must describe the same data as its origin's (oompi puts the
 * origin's type at the target).
 */
public final class Win implements Freeable {
  private org.oompi.Window w;
  private final int dispUnit;
  private boolean freed;
  private org.oompi.Epoch access, exposure, all;
  private final Map<Integer, org.oompi.Epoch> locks = new HashMap<>();

  /** MPI_Win_create over base: size and dispUnit in base's elements (Open MPI's units). */
  public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
    if (base == null || !base.isDirect()) throw new IllegalArgumentException("The buffer must be direct.");
    int elem = base instanceof java.nio.ByteBuffer ? 1
        : base instanceof java.nio.CharBuffer || base instanceof java.nio.ShortBuffer ? 2
        : base instanceof java.nio.IntBuffer || base instanceof java.nio.FloatBuffer ? 4 : 8;
    if (size < 0 || size > base.capacity())
      throw new MPIException(MPI.ERR_SIZE_CLASS, "size " + size + " exceeds the buffer's " + base.capacity());
    this.dispUnit = dispUnit * elem;
    try { w = org.oompi.Window.create(comm.c(), Bufs.view(base).limit(size)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private org.oompi.Window live() throws MPIException {
    if (w == null || freed) throw new MPIException(MPI.ERR_ARG, "the window was freed");
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

  public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank,
                         int targetDisp, Op op) throws MPIException {
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
    try { access = live().start(group.g, assertion); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Win_complete. */
  public void complete() throws MPIException {
    if (access == null) throw new MPIException(MPI.ERR_ARG, "no access epoch (start) is open");
    try { access.close(); } catch (RuntimeException e) { throw Errors.of(e); } finally { access = null; }
  }

  /** MPI_Win_post: an exposure epoch to group. */
  public void post(Group group, int assertion) throws MPIException {
    try { exposure = live().post(group.g, assertion); } catch (RuntimeException e) { throw Errors.of(e); }
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
  }

  public boolean isNull() { return w == null || freed; }
}
