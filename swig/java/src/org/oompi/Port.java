package org.oompi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;

/**
 * A communicator's port to one rank, as in OOMPI and seed 003: {@code world.port(r).send(buf)}.
 * A port is a plain value (communicator + rank); it owns nothing and needs no closing.
 * {@link #recv(Object)} does not make a {@link Status} (the fast path for callers that do not
 * need one); use {@link Comm#recv(Object, int, int)} for the status.
 */
public final class Port {
  private final Comm comm;
  private final int rank;

  Port(Comm comm, int rank) {
    if (rank < 0 || rank >= comm.getSize())
      throw new IndexOutOfBoundsException(
          "oompi: no rank " + rank + " in a communicator of size " + comm.getSize());
    this.comm = comm;
    this.rank = rank;
  }

  public Comm comm() { return comm; }

  public int rank() { return rank; }

  /** Sends buf (an array or a direct buffer) to this port's rank with tag. */
  public void send(Object buf, int tag) {
    if (!trySend(comm, buf, rank, tag)) comm.sendAny(buf, rank, tag);
  }

  public void send(Object buf) { send(buf, 0); }

  /** Receives into buf from this port's rank with tag; the status is not made. */
  public void recv(Object buf, int tag) {
    if (!tryRecv(comm, buf, rank, tag, null)) comm.recvIgnoreStatus(buf, rank, tag);
  }

  public void recv(Object buf) { recv(buf, 0); }

  /**
   * The fast paths shared with Comm.send: a direct buffer in native order, or a byte[], int[]
   * or double[]. False for anything else, which then takes the general path (and its errors).
   */
  static boolean trySend(Comm comm, Object buf, int dest, int tag) {
    if (buf instanceof Buffer) {
      Buffer b = (Buffer) buf;
      int kind = fastKind(b);
      if (kind < 0) return false;
      comm.sendDirect(b, b.position(), b.remaining(), kind, dest, tag);
    } else if (buf instanceof byte[]) {
      byte[] a = (byte[]) buf;
      if (a.length <= Scratch.BYTES) {
        Scratch s = Scratch.get();
        s.bytes.put(0, a);
        comm.sendDirect(s.bytes, 0, a.length, INT8, dest, tag);
      } else {
        sendArray(comm, buf, a.length, INT8, dest, tag);
      }
    } else if (buf instanceof double[]) {
      double[] a = (double[]) buf;
      if (a.length <= Scratch.BYTES / 8) {
        Scratch s = Scratch.get();
        s.doubles.put(0, a);
        comm.sendDirect(s.doubles, 0, a.length, FLOAT64, dest, tag);
      } else {
        sendArray(comm, buf, a.length, FLOAT64, dest, tag);
      }
    } else if (buf instanceof int[]) {
      int[] a = (int[]) buf;
      if (a.length <= Scratch.BYTES / 4) {
        Scratch s = Scratch.get();
        s.ints.put(0, a);
        comm.sendDirect(s.ints, 0, a.length, INT32, dest, tag);
      } else {
        sendArray(comm, buf, a.length, INT32, dest, tag);
      }
    } else {
      int kind = arrayKind(buf);  // the other primitive arrays: no scratch copy
      if (kind < 0) return false;
      sendArray(comm, buf, java.lang.reflect.Array.getLength(buf), kind, dest, tag);
    }
    return true;
  }

  /** A whole array beyond the scratch: a small one through ArrayRanges, a larger one native. */
  private static void sendArray(Comm comm, Object buf, int length, int kind, int dest, int tag) {
    if (ArrayRanges.small(buf, length)) ArrayRanges.send(comm, buf, 0, length, kind, dest, tag);
    else comm.sendArray(buf, 0, length, kind, dest, tag);
  }

  /** As trySend; the status goes into status (a Status.slot()) when it is not null. */
  static boolean tryRecv(Comm comm, Object buf, int source, int tag, ByteBuffer status) {
    return recvFast(comm, buf, source, tag, status == null ? IGNORE : SLOT, status) != NOT_FAST;
  }

  /** What recvFast reports of the status: nothing, all of it into a slot, or the size only. */
  static final int IGNORE = 0, SLOT = 1, COUNT = 2;
  static final long NOT_FAST = -1;

  /**
   * The receive fast paths: NOT_FAST for a buffer they do not take (the caller then takes the
   * general path); otherwise the message's size in bytes with COUNT, 0 with the other modes.
   */
  static long recvFast(Comm comm, Object buf, int source, int tag, int mode, ByteBuffer slot) {
    if (buf instanceof Buffer) {
      Buffer b = (Buffer) buf;
      int kind = fastKind(b);
      if (kind < 0 || b.isReadOnly()) return NOT_FAST;
      return recvDirect(comm, b, b.position(), b.remaining(), kind, source, tag, mode, slot);
    }
    int kind, length;
    long n;
    if (buf instanceof byte[]) {
      byte[] a = (byte[]) buf;
      if (a.length <= Scratch.BYTES) {
        // The array is copied in first: a shorter message leaves the rest of it as it was.
        Scratch s = Scratch.get();
        s.bytes.put(0, a);
        n = recvDirect(comm, s.bytes, 0, a.length, INT8, source, tag, mode, slot);
        s.bytes.get(0, a);
        return n;
      }
      kind = INT8;
      length = a.length;
    } else if (buf instanceof double[]) {
      double[] a = (double[]) buf;
      if (a.length <= Scratch.BYTES / 8) {
        Scratch s = Scratch.get();
        s.doubles.put(0, a);
        n = recvDirect(comm, s.doubles, 0, a.length, FLOAT64, source, tag, mode, slot);
        s.doubles.get(0, a);
        return n;
      }
      kind = FLOAT64;
      length = a.length;
    } else if (buf instanceof int[]) {
      int[] a = (int[]) buf;
      if (a.length <= Scratch.BYTES / 4) {
        Scratch s = Scratch.get();
        s.ints.put(0, a);
        n = recvDirect(comm, s.ints, 0, a.length, INT32, source, tag, mode, slot);
        s.ints.get(0, a);
        return n;
      }
      kind = INT32;
      length = a.length;
    } else {
      kind = arrayKind(buf);  // the other primitive arrays: no scratch copy
      if (kind < 0) return NOT_FAST;
      length = java.lang.reflect.Array.getLength(buf);
    }
    if (ArrayRanges.smallRecv(buf, length)) {
      n = ArrayRanges.recv(comm, buf, 0, length, kind, source, tag, mode == SLOT ? slot : null);
      return mode == COUNT ? n : 0;
    }
    switch (mode) {
      case IGNORE: comm.recvArray(buf, 0, length, kind, source, tag); return 0;
      case SLOT: comm.recvArrayStatus(buf, 0, length, kind, source, tag, slot); return 0;
      default: return comm.recvArrayCount(buf, 0, length, kind, source, tag);
    }
  }

  // --- ranges of arrays (issue 29): Comm, Message and Window's offset/count calls ------------

  /** The element kind (TypeKind value) of a primitive array; -1 for anything else. */
  static int arrayKind(Object buf) {
    if (buf instanceof byte[]) return INT8;
    if (buf instanceof double[]) return FLOAT64;
    if (buf instanceof int[]) return INT32;
    if (buf instanceof long[]) return INT64;
    if (buf instanceof float[]) return FLOAT32;
    if (buf instanceof short[]) return INT16;
    if (buf instanceof char[]) return UINT16;
    if (buf instanceof boolean[]) return BOOLEAN;
    return -1;
  }

  /** Throws IndexOutOfBoundsException (as the general path does) unless elements
   *  [offset, offset + count) lie inside the array buf. */
  static void checkRange(Object buf, long offset, long count, String what) {
    int length = java.lang.reflect.Array.getLength(buf);
    if (offset < 0 || count < 0 || offset > length || count > length - offset)
      throw new IndexOutOfBoundsException(what + ": offset " + offset + " and count " + count
          + " do not fit in a buffer of " + length + " elements");
  }

  /**
   * Elements [offset, offset + count) from the position of a java.nio buffer, as a buffer of its
   * own (sharing the memory; a ByteBuffer keeps its byte order) for the calls without a range
   * (isend, irecv, Message.recv). null stays null (the call says so); other buffer objects
   * (TypedBuffer, MemorySegment) take no range there: IllegalArgumentException.
   */
  static Object slice(Object buf, long offset, long count, String what) {
    if (buf == null) return null;
    if (!(buf instanceof Buffer)) {
      throw new IllegalArgumentException(what + " with an offset and a count takes a primitive "
          + "array or a java.nio buffer, not " + buf.getClass().getName());
    }
    Buffer b = (Buffer) buf;
    int length = b.remaining();
    if (offset < 0 || count < 0 || offset > length || count > length - offset)
      throw new IndexOutOfBoundsException(what + ": offset " + offset + " and count " + count
          + " do not fit in a buffer of " + length + " elements");
    int from = b.position() + (int) offset;
    Buffer d = b.duplicate();
    if (d instanceof ByteBuffer) ((ByteBuffer) d).order(((ByteBuffer) b).order());
    return d.limit(from + (int) count).position(from);
  }

  /**
   * How native code treats a large range of an array in a blocking call (oompi_java.hpp,
   * array_pinning): 0 copy it (-Doompi.arrays=copy), 1 pin it (the collector pins regions:
   * NativeLoader.arraysCanPin), 2 pin it for a matched receive's transfer, and for sends (and
   * receives, waiting pinned) while MPI's thread level is below MPI_THREAD_MULTIPLE (a pin locks the GC, which only another
   * thread's MPI call could turn into a deadlock); copy it otherwise. Called once, from native
   * code. -Doompi.arrays=pin gives 1 whatever the collector: the program's own promise that no
   * MPI call of it waits on another thread of its JVM (docs/bindings.md, "Java arrays": with
   * JDK 17's G1 or Serial a pinned send locks the GC until its receiver posts the receive).
   */
  static int arrayPinning() {
    String mode = System.getProperty("oompi.arrays");
    if ("copy".equals(mode)) return 0;
    if ("pin".equals(mode)) return 1;
    return NativeLoader.arraysCanPin() ? 1 : 2;
  }

  private static long recvDirect(Comm comm, Buffer b, int position, int count, int kind,
                                 int source, int tag, int mode, ByteBuffer slot) {
    switch (mode) {
      case IGNORE: comm.recvDirect(b, position, count, kind, source, tag); return 0;
      case SLOT: comm.recvDirectStatus(b, position, count, kind, source, tag, slot); return 0;
      default: return comm.recvDirectCount(b, position, count, kind, source, tag);
    }
  }

  /**
   * Small arrays (up to 512 bytes) travel through this thread's direct buffer: a bulk copy in
   * Java and the direct-buffer call, cheaper than pinning the array (GetPrimitiveArrayCritical
   * and its release are two VM transitions) or copying it in native code (one transition).
   */
  static final class Scratch {
    static final int BYTES = 512;
    final ByteBuffer bytes = ByteBuffer.allocateDirect(BYTES).order(NATIVE);
    final DoubleBuffer doubles = bytes.asDoubleBuffer();
    final IntBuffer ints = bytes.asIntBuffer();

    private static final ThreadLocal<Scratch> LOCAL = ThreadLocal.withInitial(Scratch::new);

    static Scratch get() { return LOCAL.get(); }
  }

  /**
   * The element kind (TypeKind ordinal) of a direct buffer in native order that the fast path
   * takes; -1 sends it down the general path (which also makes the error messages).
   */
  static int fastKind(Buffer b) {
    if (!b.isDirect()) return -1;
    if (b instanceof ByteBuffer) return BYTE;
    if (b instanceof DoubleBuffer) return ((DoubleBuffer) b).order() == NATIVE ? FLOAT64 : -1;
    if (b instanceof IntBuffer) return ((IntBuffer) b).order() == NATIVE ? INT32 : -1;
    if (b instanceof LongBuffer) return ((LongBuffer) b).order() == NATIVE ? INT64 : -1;
    if (b instanceof FloatBuffer) return ((FloatBuffer) b).order() == NATIVE ? FLOAT32 : -1;
    return -1;
  }

  private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
  private static final int BYTE = TypeKind.BYTE.swigValue();
  private static final int INT8 = TypeKind.INT8.swigValue();
  private static final int INT32 = TypeKind.INT32.swigValue();
  private static final int INT16 = TypeKind.INT16.swigValue();
  private static final int UINT16 = TypeKind.UINT16.swigValue();
  private static final int BOOLEAN = TypeKind.BOOLEAN.swigValue();
  private static final int INT64 = TypeKind.INT64.swigValue();
  private static final int FLOAT32 = TypeKind.FLOAT32.swigValue();
  private static final int FLOAT64 = TypeKind.FLOAT64.swigValue();
}
