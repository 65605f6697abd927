package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Blocking sends and receives of a small range of a primitive array (Comm.send/recv with an
 * offset and a count): the range goes through this thread's direct buffer, copied in Java (a
 * bulk put/get, no JNI call), and the call is the direct-buffer fast path's (one JNI call).
 * The native range path (oompi_java_pins.hpp, array_use) costs one more JNI call for the copy,
 * two (GetPrimitiveArrayCritical and its release) from 2 KiB on, a thread-local look-up and the
 * copy slots' bookkeeping: measured with JavaSliceBench --self, 0.16-0.22 us a call at 4 KiB.
 * Nonblocking ones (isend/irecv of a range) are light requests (Request.java: no native
 * request object, no Cleaner, no global reference) on a block taken from the thread's free
 * blocks; the native range path made a native request, a keep-alive with a global reference
 * and a Cleaner registration per call: 1.3 us a call more than a direct buffer at 4 KiB.
 * Larger ranges (from {@link #bound()} bytes, where the native side pins or copies) and
 * boolean[] (no buffer view) take the native path.
 */
final class ArrayRanges {
  private ArrayRanges() {}

  /**
   * Blocking ranges of fewer bytes than bound() go through the thread's direct buffer: below
   * 64 KiB, or where the native side pins sends (a collector that pins regions, a thread level
   * below MULTIPLE, -Doompi.arrays=pin) below its pin_min (4 KiB), from where a pinned range
   * measured cheaper than this copy (oompi_java_pins.hpp). -Doompi.arrays.scratch=N (bytes;
   * 0: none) fixes the bound, for benches (65536: as before pinning from 4 KiB).
   */
  static final int MAX = 64 << 10;
  private static final Integer SCRATCH = Integer.getInteger("oompi.arrays.scratch");

  /** Blocking receives' bound: -Doompi.arrays.scratch.recv=N (bytes), for benches, or bound(). */
  private static final Integer SCRATCH_RECV = Integer.getInteger("oompi.arrays.scratch.recv");

  // Learnt at the first blocking range after MPI_Init (the thread level decides); -1 until then.
  private static int bound = -1, recvBound = -1;

  static int bound() {
    int b = bound;
    return b >= 0 ? b : learn(false);
  }

  static int recvBound() {
    int b = recvBound;
    return b >= 0 ? b : learn(true);
  }

  private static int learn(boolean recv) {
    int pinFrom = Comm.arrayPinFrom();  // -1 before MPI_Init: the call then fails anyway
    int b = SCRATCH != null ? Math.max(0, SCRATCH) : pinFrom < 0 ? MAX : Math.min(MAX, pinFrom);
    int r = SCRATCH_RECV != null ? Math.max(0, SCRATCH_RECV) : b;
    if (pinFrom >= 0) {
      bound = b;
      recvBound = r;
    }
    return recv ? r : b;
  }

  /**
   * Nonblocking ranges of fewer bytes than this are light requests on pooled blocks (no pin to
   * compete with; measured with --self: 64 KiB isend + irecv 2.7 -> 2.0-2.5x a direct buffer,
   * 256 KiB no change, the copies dominate). A thread keeps at most 8 free blocks.
   * -Doompi.arrays.nonblocking=N (bytes; 0: none) for benches.
   */
  static final int NONBLOCKING_MAX =
      Math.max(0, Integer.getInteger("oompi.arrays.nonblocking", 256 << 10));

  /**
   * A direct buffer and its views, grown (powers of two) to what its ranges need: a thread's
   * own for blocking calls, or a pooled one that a nonblocking call's light request holds (with
   * the range it copies back into at completion) until it completes.
   */
  static final class Block {
    ByteBuffer bytes;
    DoubleBuffer doubles;
    IntBuffer ints;
    LongBuffer longs;
    FloatBuffer floats;
    ShortBuffer shorts;
    CharBuffer chars;
    // a nonblocking receive's range: where the block goes back at completion
    Object array;
    int offset, count, kind;

    Block grow(int need) {
      if (bytes != null && bytes.capacity() >= need) return this;
      int size = Math.max(4096, Integer.highestOneBit(Math.max(1, need - 1)) << 1);
      // 16 bytes into a page, as native_pool's blocks and large direct buffers (a malloc'd
      // block's offset varies, and MPI's memcpy between two blocks 1-31 bytes apart modulo 4096
      // runs 25-50x slower on AMD CPUs: oompi_java_pins.hpp, copy_bytes; measured 16 KiB
      // isend/irecv 1.6x slower than at a page offset of 16)
      bytes = ByteBuffer.allocateDirect(size + 8192).alignedSlice(4096)
          .position(PAGE_OFFSET).limit(PAGE_OFFSET + size).slice().order(ByteOrder.nativeOrder());
      doubles = bytes.asDoubleBuffer();
      ints = bytes.asIntBuffer();
      longs = bytes.asLongBuffer();
      floats = bytes.asFloatBuffer();
      shorts = bytes.asShortBuffer();
      chars = bytes.asCharBuffer();
      return this;
    }
  }

  private static final int PAGE_OFFSET = 16;

  /** A thread's own block (blocking calls) and its free blocks for nonblocking ones. */
  private static final class Local {
    final Block own = new Block();
    final Block[] free = new Block[8];
  }

  private static final ThreadLocal<Local> LOCAL = ThreadLocal.withInitial(Local::new);

  /** A block of at least `bytes` from this thread's free ones (a new one if none fits). */
  static Block take(int bytes) {
    Block[] free = LOCAL.get().free;
    int best = -1;
    for (int i = 0; i < free.length; i++) {
      Block b = free[i];
      if (b != null && b.bytes.capacity() >= bytes
          && (best < 0 || b.bytes.capacity() < free[best].bytes.capacity())) best = i;
    }
    if (best < 0) return new Block().grow(bytes);
    Block b = free[best];
    free[best] = null;
    return b;
  }

  /** A nonblocking call's block back to the free ones of the thread that completes it. */
  static void give(Block b) {
    b.array = null;
    Block[] free = LOCAL.get().free;
    int smallest = 0;
    for (int i = 0; i < free.length; i++) {
      if (free[i] == null) {
        free[i] = b;
        return;
      }
      if (free[i].bytes.capacity() < free[smallest].bytes.capacity()) smallest = i;
    }
    if (free[smallest].bytes.capacity() < b.bytes.capacity()) free[smallest] = b;
  }

  /** A nonblocking send of elements [offset, offset + count) of buf (small() true): the range
   *  copied into a block that the light request holds until it completes. */
  static Request isend(Comm comm, Object buf, int offset, int count, int kind, int dest, int tag) {
    Block b = take(count * size(buf));
    return Request.isendRange(comm, b, fill(b, buf, 0, offset, count), count, kind, dest, tag);
  }

  /** A nonblocking receive into elements [offset, offset + count) of buf (small() true): into
   *  a block, copied back (what arrived) when the request completes (received). */
  static Request irecv(Comm comm, Object buf, int offset, int count, int kind, int source, int tag) {
    Block b = take(count * size(buf));
    b.array = buf;
    b.offset = offset;
    b.count = count;
    b.kind = kind;
    return Request.irecvRange(comm, b, view(b, buf), count, kind, source, tag);
  }

  /** A nonblocking call's block at its completion: a receive's `bytes` that arrived copied back
   *  into its range (bytes < 0: a send), then the block to the free ones. */
  static void completed(Block b, long bytes) {
    if (b.array != null && bytes > 0)
      back(b, b.array, b.offset, (int) Math.min(bytes, (long) b.count * size(b.array)), size(b.array));
    give(b);
  }

  /** The element size of a kind these paths take (Port.arrayKind's), 0 for the others. */
  private static int size(Object buf) {
    if (buf instanceof byte[]) return 1;
    if (buf instanceof double[] || buf instanceof long[]) return 8;
    if (buf instanceof int[] || buf instanceof float[]) return 4;
    if (buf instanceof short[] || buf instanceof char[]) return 2;
    return 0;  // boolean[]
  }

  /** Whether elements [offset, offset + count) (checked) of buf take these paths: blocking
   *  calls, or (nonblocking) isend/irecv. */
  static boolean small(Object buf, int count) {
    int size = size(buf);
    return size > 0 && (long) count * size < bound();
  }

  static boolean smallRecv(Object buf, int count) {
    int size = size(buf);
    return size > 0 && (long) count * size < recvBound();
  }

  static boolean smallNonblocking(Object buf, int count) {
    int size = size(buf);
    return size > 0 && (long) count * size < NONBLOCKING_MAX;
  }

  /** Sends elements [offset, offset + count) of buf (small() true) as the direct path does. */
  static void send(Comm comm, Object buf, int offset, int count, int kind, int dest, int tag) {
    Block s = LOCAL.get().own.grow(count * size(buf));
    comm.sendDirect(fill(s, buf, 0, offset, count), 0, count, kind, dest, tag);
  }

  /**
   * Receives into elements [offset, offset + count) of buf (small() true); only the elements
   * the message fills are written (a partly filled last one keeps its other bytes). The status
   * goes into slot, or (slot null: source and tag known) the message's size is returned.
   */
  static long recv(Comm comm, Object buf, int offset, int count, int kind, int source, int tag,
      ByteBuffer slot) {
    int size = size(buf);
    Block s = LOCAL.get().own.grow(count * size);
    java.nio.Buffer view = view(s, buf);
    long n;
    if (slot == null) {
      n = comm.recvDirectCount(view, 0, count, kind, source, tag);
    } else {
      comm.recvDirectStatus(view, 0, count, kind, source, tag, slot);
      n = slot.getLong(32);
    }
    back(s, buf, offset, (int) Math.min(n, (long) count * size), size);
    return n;
  }

  /** Elements [offset, offset + count) of buf copied to element `at` of the scratch's view of
   *  buf's kind (returned). */
  private static java.nio.Buffer fill(Block s, Object buf, int at, int offset, int count) {
    if (buf instanceof byte[]) return s.bytes.put(at, (byte[]) buf, offset, count);
    if (buf instanceof double[]) return s.doubles.put(at, (double[]) buf, offset, count);
    if (buf instanceof int[]) return s.ints.put(at, (int[]) buf, offset, count);
    if (buf instanceof long[]) return s.longs.put(at, (long[]) buf, offset, count);
    if (buf instanceof float[]) return s.floats.put(at, (float[]) buf, offset, count);
    if (buf instanceof short[]) return s.shorts.put(at, (short[]) buf, offset, count);
    return s.chars.put(at, (char[]) buf, offset, count);
  }

  private static java.nio.Buffer view(Block s, Object buf) {
    if (buf instanceof byte[]) return s.bytes;
    if (buf instanceof double[]) return s.doubles;
    if (buf instanceof int[]) return s.ints;
    if (buf instanceof long[]) return s.longs;
    if (buf instanceof float[]) return s.floats;
    if (buf instanceof short[]) return s.shorts;
    return s.chars;
  }

  /** The first `bytes` received bytes back into the range from offset. */
  private static void back(Block s, Object buf, int offset, int bytes, int size) {
    int whole = bytes / size, part = bytes % size;
    if (part != 0) {  // the last element: its first `part` bytes arrived, the rest is the array's
      byte[] got = new byte[part];
      s.bytes.get(whole * size, got);
      fill(s, buf, whole, offset + whole, 1);  // the array's element, then the bytes that arrived
      s.bytes.put(whole * size, got);
      whole++;
    }
    if (buf instanceof byte[]) s.bytes.get(0, (byte[]) buf, offset, whole);
    else if (buf instanceof double[]) s.doubles.get(0, (double[]) buf, offset, whole);
    else if (buf instanceof int[]) s.ints.get(0, (int[]) buf, offset, whole);
    else if (buf instanceof long[]) s.longs.get(0, (long[]) buf, offset, whole);
    else if (buf instanceof float[]) s.floats.get(0, (float[]) buf, offset, whole);
    else if (buf instanceof short[]) s.shorts.get(0, (short[]) buf, offset, whole);
    else s.chars.get(0, (char[]) buf, offset, whole);
  }
}
