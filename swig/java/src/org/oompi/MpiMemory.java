package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Memory from MPI_Alloc_mem (registered/pinned memory on some networks, needed for some
 * one-sided uses), seen as a direct ByteBuffer in native order:
 * {@code try (MpiMemory m = MpiMemory.allocate(n)) { comm.send(m.buffer(), 1, 0); }}.
 * close() gives the memory back with MPI_Free_mem (before MPI_Finalize; after it, nothing is
 * freed). Like any native memory, the buffer and its views must not be used after close():
 * buffer() then throws, but a view taken earlier cannot be invalidated.
 */
public final class MpiMemory implements AutoCloseable {
  static {
    NativeLoader.load();
  }

  private ByteBuffer buffer;

  private MpiMemory(ByteBuffer buffer) {
    this.buffer = buffer;
  }

  /** bytes of memory from MPI_Alloc_mem; MPI must be initialized. */
  public static MpiMemory allocate(int bytes) {
    if (bytes < 0) throw new IllegalArgumentException("oompi: negative size " + bytes);
    if (!Environment.initialized() || Environment.finalized())
      throw new IllegalStateException("oompi: MpiMemory.allocate needs MPI initialized and not finalized");
    return new MpiMemory(allocate0(bytes).order(ByteOrder.nativeOrder()));
  }

  /** The memory, position 0, limit = capacity = the size asked for. */
  public synchronized ByteBuffer buffer() {
    if (buffer == null) throw new IllegalStateException("oompi: this MpiMemory has been closed");
    return buffer;
  }

  @Override
  public synchronized void close() {
    if (buffer == null) return;
    if (!Environment.finalized()) free0(buffer);
    buffer = null;
  }

  private static native ByteBuffer allocate0(int bytes);

  private static native void free0(ByteBuffer buffer);
}
