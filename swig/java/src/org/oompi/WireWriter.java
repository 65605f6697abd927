package org.oompi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Writes wire format v1 into a growable byte[] (little-endian), with the per-message object
 *  ids of section 2 (an identity map of the objects written so far). Not thread-safe. */
final class WireWriter {
  static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final int MAX_ID = 0x7FFFFFFF;

  byte[] buf;
  int pos;
  /** Set while a compact chain's nodes are written (section 2.1): sizes are LEB128 varints.
   *  Its nodes hold only numbers, strings and arrays of numbers, so nothing else sees it. */
  boolean varSizes;

  // Identity table (section 2's ids). One long per slot, open addressing on the object's
  // identity hash: the hash in the high half, the id in the low half (0: empty slot). A lookup
  // that misses (every object met once: a tree, an array of records) touches one cache line of
  // one array; the object is compared (objects[id]) only when the hashes agree. The objects and
  // their plans are kept by id, in the order they were met: sequential stores.
  private long[] table = new long[64];
  private Object[] objects = new Object[32];
  private WireClasses.ClassPlan[] plans = new WireClasses.ClassPlan[32];
  private int count;

  // --- this thread's writer, lent to one message at a time ---------------------------------
  private static final int KEEP_BYTES = 64 << 20;  // larger buffers are dropped after use
  private static final ThreadLocal<WireWriter> SCRATCH = ThreadLocal.withInitial(() -> new WireWriter(4096));
  private boolean busy;

  /** This thread's writer, reset (a fresh one if it is lent already: re-entrant use). */
  static WireWriter lease() {
    WireWriter w = SCRATCH.get();
    if (w.busy) return new WireWriter(256);
    w.busy = true;
    w.reset();
    return w;
  }

  /** Gives a leased writer back (forgets its objects, keeps its memory unless huge). */
  void release() {
    reset();
    releaseIfLarger(KEEP_BYTES);
    busy = false;
  }

  WireWriter(int capacity) {
    buf = new byte[Math.max(capacity, 64)];
  }

  /** Forgets the bytes and the ids (a new message); keeps the memory unless it is huge. */
  void reset() {
    pos = 0;
    varSizes = false;
    if (count > 0) {
      // a table much larger than this message needed is dropped, not cleared: a small message
      // after a big one must not pay for clearing the big table
      if (table.length > 1024 && table.length > 8 * count || table.length > (1 << 20)) {
        table = new long[64];
        objects = new Object[32];
        plans = new WireClasses.ClassPlan[32];
      } else {
        Arrays.fill(table, 0L);
        int n = Math.min(objects.length, count + 1);
        Arrays.fill(objects, 0, n, null);
        Arrays.fill(plans, 0, n, null);
      }
      count = 0;
    }
  }

  /** Starts a new id counter (a new slice of a split collective), keeping the bytes. */
  void newGraph() {
    int p = pos;
    reset();
    pos = p;
  }

  void releaseIfLarger(int limit) {
    if (buf.length > limit) buf = new byte[64];
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }

  private void grow(int n) {
    long need = (long) pos + n;
    if (need > Integer.MAX_VALUE - 16)
      throw new SerializationException("oompi: the serialized object graph exceeds 2 GiB (a Java array's limit)");
    long cap = Math.max(need, Math.min((long) buf.length * 2, Integer.MAX_VALUE - 16));
    buf = Arrays.copyOf(buf, (int) cap);
  }

  void ensure(int n) {
    if (buf.length - pos < n) grow(n);
  }

  void u8(int v) {
    if (pos == buf.length) grow(1);
    buf[pos++] = (byte) v;
  }

  void bool(boolean v) {
    u8(v ? 1 : 0);
  }

  void i16(short v) {
    ensure(2);
    I16.set(buf, pos, v);
    pos += 2;
  }

  void i32(int v) {
    ensure(4);
    I32.set(buf, pos, v);
    pos += 4;
  }

  void i64(long v) {
    ensure(8);
    I64.set(buf, pos, v);
    pos += 8;
  }

  void f32(float v) {
    i32(Float.floatToRawIntBits(v));
  }

  void f64(double v) {
    i64(Double.doubleToRawLongBits(v));
  }

  void size(int n) {
    if (varSizes) varint(n);
    else i64(n);
  }

  /** A size as a compact chain writes it (section 2.1): unsigned LEB128, shortest form. */
  void varint(int n) {
    ensure(5);
    byte[] b = buf;
    int p = pos;
    while ((n & ~0x7F) != 0) {
      b[p++] = (byte) (n | 0x80);
      n >>>= 7;
    }
    b[p++] = (byte) n;
    pos = p;
  }

  static int varintLength(int n) {
    return n < (1 << 7) ? 1 : n < (1 << 14) ? 2 : n < (1 << 21) ? 3 : n < (1 << 28) ? 4 : 5;
  }

  void string(String s) {
    // ASCII fast path: one pass, no intermediate array (then the size is the char count)
    boolean varint = varSizes;
    int n = s.length();
    int head = varint ? varintLength(n) : 8;
    ensure(head + n);
    int start = pos + head;
    int i = 0;
    byte[] b = buf;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) break;
      b[start + i] = (byte) c;
    }
    if (i == n) {
      if (varint) varint(n);
      else I64.set(b, pos, (long) n);
      pos = start + n;
      return;
    }
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    size(utf8.length);
    bytes(utf8, 0, utf8.length);
  }

  void bytes(byte[] a, int off, int len) {
    ensure(len);
    System.arraycopy(a, off, buf, pos, len);
    pos += len;
  }

  // --- object identity ----------------------------------------------------------------------

  /** The identity hash of o, mixed (HotSpot's hashes are 31 random bits; the mix spreads
   *  those of other JVMs too). */
  private static int hash(Object o) {
    int h = System.identityHashCode(o) * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** One probe: the id of o if it was written already (returned as is), else registers it
   *  with plan and returns its new id negated. */
  int idOrAdd(Object o, WireClasses.ClassPlan plan) {
    int h = hash(o);
    long[] t = table;
    int mask = t.length - 1;
    int i = h & mask;
    for (;; i = (i + 1) & mask) {
      long e = t[i];
      if (e == 0) break;
      if ((int) (e >>> 32) == h) {
        int id = (int) e;
        if (objects[id] == o) return id;
      }
    }
    if (count == MAX_ID)
      throw new SerializationException("oompi: more than 2^31-1 objects in one message");
    int id = ++count;
    if (id >= objects.length) growById(id);
    objects[id] = o;
    plans[id] = plan;
    if (count * 2 > t.length) {
      rehash();
      t = table;
      mask = t.length - 1;
      i = h & mask;
      while (t[i] != 0) i = (i + 1) & mask;
    }
    t[i] = ((long) h << 32) | id;
    return -id;
  }

  private void growById(int id) {
    int n = Math.max(id + 1, objects.length * 2);
    objects = Arrays.copyOf(objects, n);
    plans = Arrays.copyOf(plans, n);
  }

  int objectCount() {
    return count;
  }

  /** A new id for an object that is not entered in the table (WirePlan's linear chains). */
  int nextId(WireClasses.ClassPlan plan) {
    if (count == MAX_ID)
      throw new SerializationException("oompi: more than 2^31-1 objects in one message");
    int id = ++count;
    if (id >= plans.length) growById(id);
    plans[id] = plan;
    return id;
  }

  WireClasses.ClassPlan planOf(int id) {
    return plans[id];
  }

  /** Doubles the table; the hashes are in it, so no object is hashed again. */
  private void rehash() {
    long[] old = table;
    long[] t = new long[old.length * 2];
    int mask = t.length - 1;
    for (long e : old) {
      if (e == 0) continue;
      int i = (int) (e >>> 32) & mask;
      while (t[i] != 0) i = (i + 1) & mask;
      t[i] = e;
    }
    table = t;
  }
}
