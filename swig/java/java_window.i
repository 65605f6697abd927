// Java binding: one-sided windows, and MPI-IO files.
// Part of the Java entry file java.i, which includes the parts in this order.

// --- one-sided windows (rt/window.hpp) ------------------------------------------------------
// Origins (MPI reads them until the synchronisation that completes the operation): a direct
// buffer in place, or a primitive array copied into native memory the window holds until then.
// Results (get, get_accumulate, fetch_and_op, compare_and_swap) and window memory: direct
// buffers only (async_buffer's typemap: a Java array is refused with IllegalArgumentException).
%typemap(in) const oompi::rt::async_buffer& origin (oompi::rt::async_buffer tmp),
             const oompi::rt::async_buffer& value (oompi::rt::async_buffer tmp),
             const oompi::rt::async_buffer& compare (oompi::rt::async_buffer tmp) %{
  if (!oompi::java::describe_rma_origin(jenv, $input, tmp)) return $null;
  $1 = &tmp;
%}
%rename(putPart) oompi::rt::window::put_part;
%rename(get) oompi::rt::window::get_part;
%rename(accumulatePart) oompi::rt::window::accumulate_part;
%javamethodmodifiers oompi::rt::window::put_part "private";
%javamethodmodifiers oompi::rt::window::accumulate_part "private";
OOMPI_JAVA_CLEANER(oompi::rt::window)
OOMPI_JAVA_CLEANER(oompi::rt::epoch)
OOMPI_JAVA_CLOSEABLE(oompi::rt::epoch, true, )
// Window: as OOMPI_JAVA_CLOSEABLE, plus put/get of a direct buffer in native order through one
// JNI call with no global reference: the proxy holds the buffer (held, below) until the next
// fence or close(), the synchronisations after which the facade lets its origins go too. A
// window with 64 such buffers waiting (epochs and flushes end them in the facade only) sends
// further ones down the general path (global references) until then. A window collected
// unclosed keeps its buffers forever, as the facade keeps its origins' references.
%typemap(javainterfaces) oompi::rt::window "AutoCloseable"
%rename(closeHandle) oompi::rt::window::close;
%javamethodmodifiers oompi::rt::window::close "private";
%rename(putAny) oompi::rt::window::put;
%rename(getAny) oompi::rt::window::get;
%rename(fenceAny) oompi::rt::window::fence;
%javamethodmodifiers oompi::rt::window::put "private";
%javamethodmodifiers oompi::rt::window::get "private";
%javamethodmodifiers oompi::rt::window::fence "private";
%typemap(javacode) oompi::rt::window %{
  /** Frees the window (collective) and the native object. Idempotent. */
  @Override
  public synchronized void close() {
    if (swigCPtr != 0) {
      closeHandle();
      delete();
      if (held != null) held.release(true);
    }
  }

  /** Direct buffers of put/get not yet completed by a fence (see java.i). */
  private static final class Held implements Runnable {
    static final java.util.List<Object[]> LEAKED = new java.util.ArrayList<>();
    static final int MAX = 64;
    private Object[] bufs = new Object[8];
    private int n;
    private boolean closed;
    java.lang.ref.Cleaner.Cleanable cleanable;

    synchronized boolean add(Object b) {
      if (n == MAX) return false;
      if (n == bufs.length) bufs = java.util.Arrays.copyOf(bufs, 2 * n);
      bufs[n++] = b;
      return true;
    }

    synchronized void release(boolean close) {
      java.util.Arrays.fill(bufs, 0, n, null);
      n = 0;
      if (close && !closed) {
        closed = true;
        cleanable.clean();
      }
    }

    /** The window was collected unclosed: MPI may still read or write these. */
    @Override
    public synchronized void run() {
      if (!closed && n > 0) synchronized (LEAKED) { LEAKED.add(java.util.Arrays.copyOf(bufs, n)); }
      closed = true;
    }
  }
  private transient Held held;

  private boolean hold(java.nio.Buffer b) {
    if (swigCPtr == 0) return false;  // closed: the general path says so
    Held h = held;
    if (h == null) {
      synchronized (this) {
        if ((h = held) == null) {
          h = new Held();
          h.cleanable = NativeCleaner.CLEANER.register(this, h);
          held = h;
        }
      }
    }
    return h.add(b);
  }

  /** Puts origin (a direct buffer, or a primitive array, copied) into rank's window at disp;
   *  complete at the next synchronisation for rank (fence, epoch end, flush). */
  public void put(Object origin, int rank, long disp) {
    if (origin instanceof java.nio.Buffer) {
      java.nio.Buffer b = (java.nio.Buffer) origin;
      int kind = Port.fastKind(b);
      if (kind >= 0 && hold(b)) {
        putDirect(b, b.position(), b.remaining(), kind, rank, disp);
        return;
      }
    }
    putAny(origin, rank, disp);
  }

  /** Puts elements [offset, offset + count) of origin (of an array: a copy of the range only)
   *  into rank's window at disp. */
  public void put(Object origin, long offset, long count, int rank, long disp) {
    int kind = Port.arrayKind(origin);
    if (kind < 0) {
      putPart(origin, offset, count, rank, disp);
      return;
    }
    Port.checkRange(origin, offset, count, "Window.put");
    putArray(origin, (int) offset, (int) count, kind, rank, disp);
  }

  /** Accumulates elements [offset, offset + count) of origin (of an array: a copy of the range
   *  only) into rank's window at disp with operation. */
  public void accumulate(Object origin, long offset, long count, int rank, long disp, Op operation) {
    int kind = Port.arrayKind(origin);
    if (kind < 0) {
      accumulatePart(origin, offset, count, rank, disp, operation);
      return;
    }
    Port.checkRange(origin, offset, count, "Window.accumulate");
    accumulateArray(origin, (int) offset, (int) count, kind, rank, disp, operation);
  }

  /** Gets rank's window at disp into result (a direct buffer), which holds the data after the
   *  next synchronisation for rank. */
  public void get(Object result, int rank, long disp) {
    if (result instanceof java.nio.Buffer) {
      java.nio.Buffer b = (java.nio.Buffer) result;
      int kind = Port.fastKind(b);
      if (kind >= 0 && !b.isReadOnly() && hold(b)) {
        getDirect(b, b.position(), b.remaining(), kind, rank, disp);
        return;
      }
    }
    getAny(result, rank, disp);
  }

  /** MPI_Win_fence (collective): completes every operation of the previous epoch. */
  public void fence(int mode) {
    fenceAny(mode);
    Held h = held;
    if (h != null) h.release(false);
  }

  public void fence() { fence(0); }
  /** The local window memory as a direct ByteBuffer in native byte order (allocate: MPI's
   *  memory; create: the caller's buffer). Do not use it after close(): it would reach freed
   *  memory. */
  public java.nio.ByteBuffer memory() {
    return ((java.nio.ByteBuffer) memoryBytes()).order(java.nio.ByteOrder.nativeOrder());
  }
  /** Shared-memory windows (allocateShared): `rank`'s part as a direct ByteBuffer in native
   *  byte order, read and written by load and store (in a lockAll epoch: sync(), a barrier, sync()
   *  between a store and another process's load). Do not use it after close(). */
  public java.nio.ByteBuffer sharedMemory(int rank) {
    return ((java.nio.ByteBuffer) sharedMemoryBytes(rank)).order(java.nio.ByteOrder.nativeOrder());
  }%}
%typemap(in, numinputs=0) JNIEnv* jni_env %{ $1 = jenv; %}
%javamethodmodifiers oompi::rt::window::memory_bytes "private";
%javamethodmodifiers oompi::rt::window::shared_memory_bytes "private";
// Declared before oompi.i's %exception: its own handler (a bad rank or window kind throws).
%exception oompi::rt::window::shared_memory_bytes {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%extend oompi::rt::window {
  jobject memory_bytes(JNIEnv* jni_env) const {
    return jni_env->NewDirectByteBuffer(reinterpret_cast<void*>(static_cast<std::intptr_t>($self->address())),
                                        $self->size());
  }
  jobject shared_memory_bytes(int rank, JNIEnv* jni_env) const {
    const std::int64_t size = $self->shared_size(rank);  // checks rank and the window's kind
    return jni_env->NewDirectByteBuffer(
        reinterpret_cast<void*>(static_cast<std::intptr_t>($self->shared_address(rank))), size);
  }
}
// --- MPI-IO: File is AutoCloseable (try-with-resources closes it collectively) ------
OOMPI_JAVA_CLOSEABLE(oompi::rt::file, true, )
OOMPI_JAVA_CLEANER(oompi::rt::file_view)
