package org.oompi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads wire format v1 from a byte[] range, checking every length against the bytes left and
 *  every id against section 2's rules; failures are SerializationExceptions. */
final class WireReader {
  final byte[] buf;
  int pos;
  final int end;
  /** Set while a compact chain's nodes are read (section 2.1): sizes are LEB128 varints. */
  boolean varSizes;

  private Object[] objects;
  private WireClasses.ClassPlan[] plans;
  private int count;

  WireReader(byte[] buf, int offset, int length) {
    if (offset < 0 || length < 0 || offset > buf.length - length)
      throw new IndexOutOfBoundsException("oompi: range " + offset + "+" + length + " outside " + buf.length + " bytes");
    this.buf = buf;
    this.pos = offset;
    this.end = offset + length;
  }

  /** A new id counter (the next slice of a split collective). */
  void newGraph() {
    if (objects != null) {
      Arrays.fill(objects, 0, Math.min(objects.length, count + 1), null);
      Arrays.fill(plans, 0, Math.min(plans.length, count + 1), null);
    }
    count = 0;
  }

  int remaining() {
    return end - pos;
  }

  /** Bytes the open arrays and lists claim for their elements still to come (see count). */
  private long claimed;

  /** Bytes left that no open array or list has claimed. */
  int available() {
    long a = (long) (end - pos) - claimed;
    return a > 0 ? (int) a : 0;
  }

  /** The size of an array or list whose elements (read one by one after this) take at least
   *  elementBytes each: checked as size() does, then those bytes are claimed, so that an array
   *  nested in the first element cannot count them too (without this a message nesting arrays
   *  in their first element, each claiming every byte left, allocated with the square of its
   *  size). Call element() before reading each element. */
  int count(int elementBytes) {
    int n = size(elementBytes);
    claimed += (long) n * Math.max(1, elementBytes);
    return n;
  }

  /** Gives back one element's claim, before reading it (see count). */
  void element(int elementBytes) {
    claimed -= Math.max(1, elementBytes);
  }

  SerializationException truncated(int need) {
    return new SerializationException("oompi: truncated message: " + need + " more byte(s) needed at offset "
        + pos + ", " + (end - pos) + " left");
  }

  private void need(int n) {
    if (end - pos < n) throw truncated(n);
  }

  int u8() {
    if (pos >= end) throw truncated(1);
    return buf[pos++] & 0xFF;
  }

  byte i8() {
    if (pos >= end) throw truncated(1);
    return buf[pos++];
  }

  boolean bool() {
    int b = u8();
    if (b > 1) throw new SerializationException("oompi: corrupt message: bool byte " + b + " at offset " + (pos - 1));
    return b == 1;
  }

  short i16() {
    need(2);
    short v = (short) WireWriter.I16.get(buf, pos);
    pos += 2;
    return v;
  }

  int i32() {
    need(4);
    int v = (int) WireWriter.I32.get(buf, pos);
    pos += 4;
    return v;
  }

  long i64() {
    need(8);
    long v = (long) WireWriter.I64.get(buf, pos);
    pos += 8;
    return v;
  }

  float f32() {
    return Float.intBitsToFloat(i32());
  }

  double f64() {
    return Double.longBitsToDouble(i64());
  }

  /** A size whose elements take at least elementBytes each: never more than the bytes left. */
  int size(int elementBytes) {
    if (varSizes) return varSize(elementBytes);
    int at = pos;
    long n = i64();
    if (n < 0 || n > available() / Math.max(1, elementBytes))
      throw new SerializationException("oompi: corrupt message: size " + Long.toUnsignedString(n) + " at offset "
          + at + " (elements of at least " + Math.max(1, elementBytes) + " byte(s)) but only " + available()
          + " byte(s) left for it");
    return (int) n;
  }

  String string() {
    int n = size(1);
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** A compact chain's size (section 2.1: LEB128, shortest form, at most 2^64 - 1). */
  private int varSize(int elementBytes) {
    int at = pos;
    if (pos >= end) throw truncated(1);
    long n = buf[pos++];
    if (n < 0) n = varintTail(at, n & 0x7F);
    if (n < 0 || n > available() / Math.max(1, elementBytes))
      throw new SerializationException("oompi: corrupt message: size " + Long.toUnsignedString(n) + " at offset "
          + at + " but only " + available() + " byte(s) left for it" + (n < 0 || n > Integer.MAX_VALUE
              ? " (and a Java array holds at most 2^31 - 1)" : ""));
    return (int) n;
  }

  private long varintTail(int at, long n) {
    for (int shift = 7;; shift += 7) {
      int b = u8();
      if (shift == 63 && b > 1)
        throw new SerializationException("oompi: corrupt message: varint at offset " + at
            + (b > 0x7F ? " longer than 10 bytes" : " above 2^64 - 1"));
      n |= (long) (b & 0x7F) << shift;
      if (b < 0x80) {
        if (b == 0)
          throw new SerializationException("oompi: corrupt message: varint at offset " + at + " not in its shortest form");
        return n;
      }
    }
  }

  // --- object identity ----------------------------------------------------------------------

  int count() {
    return count;
  }

  void register(Object o, WireClasses.ClassPlan plan) {
    int id = ++count;
    if (objects == null) {  // made on first use: numbers, strings and compact chains need none
      int guess = Math.min(Math.max(16, (end - pos) / 16), 4096);  // a new object takes >= 4 bytes
      objects = new Object[guess];
      plans = new WireClasses.ClassPlan[guess];
    }
    if (id >= objects.length) {
      int n = Math.max(id + 1, objects.length * 2);
      objects = Arrays.copyOf(objects, n);
      plans = Arrays.copyOf(plans, n);
    }
    objects[id] = o;
    plans[id] = plan;
  }

  Object object(int id) {
    return objects[id];
  }

  WireClasses.ClassPlan planOf(int id) {
    return plans[id];
  }
}
