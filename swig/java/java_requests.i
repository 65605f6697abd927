// Java binding: requests (light mode).
// Part of the Java entry file java.i, which includes the parts in this order.

// --- requests: light mode -----------------------------------------------------------------
// comm.isend/irecv of a direct buffer (in native order, the Port fast paths' kinds) make a "light"
// request: the bare MPI_Request as a long and the buffer in a field, no native object, no global
// reference, no Cleaner, no other object, no lock or fence; waitFor/test get the status packed in
// the long they return (no slot, no Status kept). The buffer's memory stays valid while MPI may
// use it because the request keeps the buffer reachable and the request itself is held (strongly)
// by its thread's ring of the 16 youngest light requests; one still pending when 16 younger ones
// have been made on that thread gets a Cleaner then (promote, on that thread; a completion on
// another thread locks against it), whose action (Light) holds the buffer and, if the request is
// collected pending, hands handle and buffer to a native request that is dropped at once: the
// facade's reclaim list completes it on the MPI thread (as for any request dropped pending). Rings
// are never freed (a thread's end must not drop its pending requests): 16 slots per thread that
// ever made a light request. Anything only native requests do (cancel, start, a RequestVector,
// delete) first turns it native (makeNative).
%rename(waitNative) oompi::rt::request::wait;
%rename(testNative) oompi::rt::request::test;
%rename(cancelNative) oompi::rt::request::cancel;
%rename(isPendingNative) oompi::rt::request::is_pending;
%rename(isPersistentNative) oompi::rt::request::is_persistent;
%rename(lastStatusNative) oompi::rt::request::last_status;
%rename(startNative) oompi::rt::request::start;
%rename(closeHandle) oompi::rt::request::close;
%javamethodmodifiers oompi::rt::request::wait "private";
%javamethodmodifiers oompi::rt::request::test "private";
%javamethodmodifiers oompi::rt::request::cancel "private";
%javamethodmodifiers oompi::rt::request::is_pending "private";
%javamethodmodifiers oompi::rt::request::is_persistent "private";
%javamethodmodifiers oompi::rt::request::last_status "private";
%javamethodmodifiers oompi::rt::request::start "private";
%javamethodmodifiers oompi::rt::request::close "private";
%typemap(javafinalize) oompi::rt::request ""
%typemap(javainterfaces) oompi::rt::request "AutoCloseable"
%typemap(javabody) oompi::rt::request %{
  private transient long swigCPtr;
  protected transient boolean swigCMemOwn;
  private transient java.lang.ref.Cleaner.Cleanable swigCleanable;

  protected $javaclassname(long cPtr, boolean cMemoryOwn) {
    swigCMemOwn = cMemoryOwn;
    swigCPtr = cPtr;
    if (cMemoryOwn && cPtr != 0)
      swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(cPtr));
  }

  private static final class SwigFree implements Runnable {
    private final long ptr;
    SwigFree(long ptr) { this.ptr = ptr; }
    @Override
    public void run() { $imclassname.delete_$javaclassname(ptr); }
  }

  /** The native object (a light request becomes native first). */
  protected static long getCPtr($javaclassname obj) {
    if (obj == null) return 0;
    obj.makeNative();
    return obj.swigCPtr;
  }
%}
%typemap(javadestruct, methodname="delete", methodmodifiers="public synchronized") oompi::rt::request {
    makeNative();  // a pending light request: to the reclaim list through a native one
    if (swigCPtr != 0) {
      if (swigCMemOwn) {
        swigCMemOwn = false;
        if (swigCleanable != null) swigCleanable.clean();
        else $jnicall;
      }
      swigCPtr = 0;
    }
  }
%typemap(javacode) oompi::rt::request %{
  // Light mode (comm.isend/irecv of a direct buffer): see java.i.
  private transient boolean light;
  private transient boolean lightPending;
  private transient boolean lightReceive;  // close() of a pending receive cancels it
  private transient long lightHandle;  // the MPI_Request
  private transient java.nio.Buffer lightBuffer;  // MPI's memory: reachable while pending
  private transient long lightOwner;  // the id of the thread whose ring holds it
  private transient Light lightState;  // once evicted pending: its Cleaner's action
  private transient long lightPacked = -1;  // the last completion's status, packed (-1: none)
  private transient Status lightLast;  // one that did not fit the packing
  // comm.isend/irecv of a small array range (ArrayRanges): the block holding the range's copy,
  // back to its pool (a receive's arrived bytes copied into the range first) at completion
  private transient ArrayRanges.Block lightRange;

  /**
   * The operation of a light request evicted pending from its thread's ring: its Cleaner's
   * action, which runs after the request was collected and reads the fields then (the
   * collection orders the completing thread's plain writes before it).
   */
  private static final class Light implements Runnable {
    final long handle;
    final boolean receive;
    boolean pending = true;
    java.nio.Buffer buffer;
    java.lang.ref.Cleaner.Cleanable cleanable;
    Light(long handle, java.nio.Buffer buffer, boolean receive) {
      this.handle = handle;
      this.buffer = buffer;
      this.receive = receive;
    }
    /** The request was collected: if still pending, to the facade's reclaim list. */
    @Override
    public void run() {
      if (pending) lightDrop(handle, buffer, receive);
    }
  }

  /** This thread's 16 youngest light requests (held strongly: see java.i). Every ring stays
   *  reachable (RINGS), so a thread's end does not drop its pending requests' buffers. */
  private static final class Young {
    static final java.util.List<Young> RINGS = new java.util.ArrayList<>();
    final $javaclassname[] ring = new $javaclassname[16];
    final long owner = Thread.currentThread().getId();  // ids are never reused
    int next;
    Young() { synchronized (RINGS) { RINGS.add(this); } }
  }
  private static final ThreadLocal<Young> YOUNG = ThreadLocal.withInitial(Young::new);
  /** The ring of the thread that made the last light request: a plain field read racily, safe
   *  because a Young's owner is final and only its owner touches the rest (saves the
   *  ThreadLocal look-up while one thread makes the requests). */
  private static Young lastRing;
  private static final long NULL_HANDLE = lightNull();

  private static $javaclassname light(long handle, java.nio.Buffer buf, boolean receive) {
    $javaclassname r = new $javaclassname(0, false);
    r.light = true;
    r.lightPending = true;
    r.lightReceive = receive;
    r.lightHandle = handle;
    r.lightBuffer = buf;
    long me = Thread.currentThread().getId();
    Young y = lastRing;
    if (y == null || y.owner != me) lastRing = y = YOUNG.get();
    r.lightOwner = me;
    $javaclassname old = y.ring[y.next];
    y.ring[y.next] = r;
    y.next = (y.next + 1) & 15;
    if (old != null && old.lightPending) old.promote();  // a completed one: no lock
    return r;
  }

  /**
   * Evicted from its thread's ring (on that thread) while pending: now it gets a Cleaner
   * (Light.run). Locked against a completion on another thread (finish).
   */
  private synchronized void promote() {
    if (!light || !lightPending || lightState != null) return;
    Light l = new Light(lightHandle, lightBuffer, lightReceive);
    lightState = l;
    l.cleanable = NativeCleaner.CLEANER.register(this, l);
  }

  /**
   * The operation is complete (or failed, which completes it too): MPI has let go of the
   * buffer. On the owner thread no lock (promote runs there too); elsewhere locked against it.
   */
  private void completed() {
    if (Thread.currentThread().getId() == lightOwner) {
      finish();
    } else {
      synchronized (this) { finish(); }
    }
  }

  private void finish() {
    lightPending = false;
    lightBuffer = null;
    Light l = lightState;
    if (l != null) {  // promoted: unregistered (run() does nothing)
      l.pending = false;
      l.buffer = null;
      l.cleanable.clean();
    }
  }

  /** comm.isend of a direct buffer in native order as a light request; null for other buffers. */
  static $javaclassname isendLight(Comm comm, Object buf, int dest, int tag) {
    if (!(buf instanceof java.nio.Buffer)) return null;
    java.nio.Buffer b = (java.nio.Buffer) buf;
    int kind = Port.fastKind(b);
    if (kind < 0) return null;
    return light(comm.isendLight(b, b.position(), b.remaining(), kind, dest, tag), b, false);
  }

  /** comm.irecv into a writable direct buffer in native order; null for other buffers. */
  static $javaclassname irecvLight(Comm comm, Object buf, int source, int tag) {
    if (!(buf instanceof java.nio.Buffer)) return null;
    java.nio.Buffer b = (java.nio.Buffer) buf;
    int kind = Port.fastKind(b);
    if (kind < 0 || b.isReadOnly()) return null;
    return light(comm.irecvLight(b, b.position(), b.remaining(), kind, source, tag), b, true);
  }

  /** comm.isend of a small array range copied into block b (view: its view of the kind). */
  static $javaclassname isendRange(Comm comm, ArrayRanges.Block b, java.nio.Buffer view, int count,
      int kind, int dest, int tag) {
    $javaclassname r = light(comm.isendLight(view, 0, count, kind, dest, tag), view, false);
    r.lightRange = b;
    return r;
  }

  /** comm.irecv into a small array range through block b (which names the range). */
  static $javaclassname irecvRange(Comm comm, ArrayRanges.Block b, java.nio.Buffer view, int count,
      int kind, int source, int tag) {
    $javaclassname r = light(comm.irecvLight(view, 0, count, kind, source, tag), view, true);
    r.lightRange = b;
    return r;
  }

  /** A completed range's block: the arrived bytes into the range, the block to its pool. */
  private Status ranged(Status st) {
    ArrayRanges.Block b = lightRange;
    if (b != null) {
      lightRange = null;
      ArrayRanges.completed(b, lightReceive ? st.getCountBytes() : -1);
    }
    return st;
  }

  /**
   * Turns a light request into a native one, which takes over the handle and (by a global
   * reference) the buffer, for what only native requests do. A completed one becomes a
   * completed native request.
   */
  synchronized void makeNative() {
    if (!light) return;
    boolean pending = lightPending;
    ArrayRanges.Block b = lightRange;
    lightRange = null;  // the block stays with the native request (not pooled again)
    long p = pending && b != null && b.array != null
        // a range's receive: the native request copies what arrived back into the range
        ? lightAdoptRange(lightHandle, lightBuffer, b.array, b.offset, b.count, b.kind)
        : lightAdopt(pending ? lightHandle : NULL_HANDLE, pending ? lightBuffer : null,
            lightReceive);
    finish();
    swigCPtr = p;
    swigCMemOwn = true;
    swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(p));
    light = false;
  }

  /** A completion's status: packed (no object kept), or one that did not fit, kept whole. */
  private Status completion(long packed) {
    if (packed != -1) {
      lightPacked = packed;
      return Status.unpack(packed);
    }
    java.nio.ByteBuffer slot = Status.slot();
    lightSpilled(slot);
    lightPacked = -1;
    return lightLast = new Status(slot);
  }

  /** Blocks until the operation completes; returns its status. */
  public Status waitFor() {
    if (!light) return waitNative();
    if (!lightPending) return completion(Status.PACKED_ZERO);  // as a native one: a null request
    long packed;
    try {
      packed = lightWait(lightHandle);
    } finally {
      completed();
    }
    return ranged(completion(packed));
  }

  /** The status if the operation has completed (completing it); null while pending. */
  public Status test() {
    if (!light) return testNative();
    if (!lightPending) return completion(Status.PACKED_ZERO);
    long packed;
    try {
      packed = lightTest(lightHandle);
    } catch (RuntimeException | Error e) {
      completed();  // a failed operation is complete
      throw e;
    }
    if (packed == Long.MIN_VALUE) return null;  // status_not_done
    completed();
    return ranged(completion(packed));
  }

  /** True until the operation has been completed by waitFor(), test() or a request set. */
  public boolean isPending() {
    return light ? lightPending : isPendingNative();
  }

  /** False for the requests of isend/irecv; the *Init calls make persistent requests. */
  public boolean isPersistent() {
    return light ? false : isPersistentNative();
  }

  /** The status of the last completion (waitFor, test, a set function); null before. */
  public Status lastStatus() {
    if (!light) return lastStatusNative();
    return lightPacked != -1 ? Status.unpack(lightPacked) : lightLast;
  }

  /** Asks MPI to cancel the operation (waitFor() still has to complete it). */
  public void cancel() {
    makeNative();
    cancelNative();
  }

  /** Starts a persistent request (a request of isend/irecv is not one: it throws). */
  public void start() {
    makeNative();
    startNative();
  }

  /**
   * Completes the operation if it is still pending (cancelling a receive first) and frees the
   * request; later calls throw IllegalStateException. Idempotent.
   */
  @Override
  public void close() {
    if (light && !lightPending) {  // completed: nothing native to free, no lock
      light = false;  // swigCPtr stays 0: a later call says "closed"
      return;
    }
    synchronized (this) {
      makeNative();  // pending: the native request cancels a receive or waits, as before
      if (swigCPtr != 0) {
        closeHandle();
        delete();
      }
    }
  }
%}
