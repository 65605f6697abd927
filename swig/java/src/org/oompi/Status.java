package org.oompi;

/**
 * The status of a completed receive or probe: source, tag, error and size of the message. A
 * plain value (no native memory), made for every receive.
 */
public final class Status {
  private final int source;
  private final int tag;
  private final int error;
  private final boolean cancelled;
  private final long countBytes;

  /** From the native status: {source, tag, error, cancelled, count in bytes}. */
  Status(long[] raw) {
    source = (int) raw[0];
    tag = (int) raw[1];
    error = (int) raw[2];
    cancelled = raw[3] != 0;
    countBytes = raw[4];
  }

  /** A successful receive from a known source and tag of countBytes bytes. */
  Status(int source, int tag, long countBytes) {
    this.source = source;
    this.tag = tag;
    this.error = 0;  // MPI_SUCCESS: a failed receive throws
    this.cancelled = false;  // a completed blocking receive was not cancelled
    this.countBytes = countBytes;
  }

  private Status(int source, int tag, boolean cancelled, long countBytes) {
    this.source = source;
    this.tag = tag;
    this.error = 0;
    this.cancelled = cancelled;
    this.countBytes = countBytes;
  }

  /**
   * From a status packed into a long by a light request's completion (oompi_java.hpp,
   * pack_status: bits 0-30 bytes, 31-46 source + 2, 47-61 tag + 2, 62 cancelled; error 0).
   * A plain allocation the JIT removes when the caller ignores the status.
   */
  static Status unpack(long p) {
    return new Status((int) (p >>> 31 & 0xFFFF) - 2, (int) (p >>> 47 & 0x7FFF) - 2,
        (p >>> 62 & 1) != 0, p & 0x7FFF_FFFFL);
  }

  /** A successful receive of 0 bytes from source 0 with tag 0, packed as unpack reads it. */
  static final long PACKED_ZERO = 2L << 31 | 2L << 47;

  /** From this thread's status slot, as the receive fast paths wrote it. */
  Status(java.nio.ByteBuffer slot) {
    source = (int) slot.getLong(0);
    tag = (int) slot.getLong(8);
    error = (int) slot.getLong(16);
    cancelled = slot.getLong(24) != 0;
    countBytes = slot.getLong(32);
  }

  private static final ThreadLocal<java.nio.ByteBuffer> SLOT =
      ThreadLocal.withInitial(
          () -> java.nio.ByteBuffer.allocateDirect(40).order(java.nio.ByteOrder.nativeOrder()));

  /**
   * This thread's status slot: a direct buffer the native receive writes the status into
   * through its address (no JNI call back into the VM, no array per receive).
   */
  static java.nio.ByteBuffer slot() {
    return SLOT.get();
  }

  public int getSource() {
    return source;
  }

  public int getTag() {
    return tag;
  }

  /** The error code of the operation (MPI.SUCCESS when it succeeded). */
  public int getError() {
    return error;
  }

  public boolean isCancelled() {
    return cancelled;
  }

  /** Bytes of data in the message. */
  public long getCountBytes() {
    return countBytes;
  }

  /**
   * Whole elements of {@code type} in the message.
   *
   * @throws ArithmeticException when the message is not a whole number of them
   */
  public long getCount(Datatype type) {
    long size = type.getSize();
    if (size == 0) return 0;
    if (countBytes % size != 0) {
      throw new ArithmeticException("Status.getCount: the message (" + countBytes
          + " bytes) is not a whole number of elements of " + size + " bytes");
    }
    return countBytes / size;
  }

  @Override
  public String toString() {
    return "Status(source=" + source + ", tag=" + tag + ", error=" + error + ", bytes="
        + countBytes + (cancelled ? ", cancelled" : "") + ")";
  }
}
