package org.oompi;

import static org.oompi.WireCodecs.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The codecs of the eight primitive array types (wire v1: the size, then the elements packed).
 *
 * <p>Why eight near-identical classes, kept as written rather than generated: Java has no
 * generics over primitive types, so one shared codec would box every element or go through
 * java.lang.reflect.Array (both several times slower on the hot path), and each type has its own
 * NIO view for the bulk copy. The family is small, fixed by the wire format (one member per
 * primitive, none will be added), and each member is checked by the golden-file and
 * every-kind tests (java.objects); a build-time generator would add a build step to save about
 * 150 lines.
 */
final class WireArrayCodecs {
  private WireArrayCodecs() {}

  // --- primitive arrays: size, then the elements packed ----------------------------------------
  abstract static class ArrayCodec extends Codec {
    int minBytes() { return 8; }
  }

  /** From this many elements on, primitive arrays are copied in bulk through a ByteBuffer view. */
  static final int BULK = 24;

  static final Codec BOOL_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a boolean[]");
      boolean[] a = (boolean[]) v;
      w.size(a.length);
      w.ensure(a.length);
      for (boolean b : a) w.buf[w.pos++] = (byte) (b ? 1 : 0);
    }
    Object read(WireReader r) {
      boolean[] a = new boolean[r.size(1)];
      for (int i = 0; i < a.length; i++) a[i] = r.bool();
      return a;
    }
  };
  static final Codec BYTE_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a byte[]");
      byte[] a = (byte[]) v;
      w.size(a.length);
      w.bytes(a, 0, a.length);
    }
    Object read(WireReader r) {
      byte[] a = new byte[r.size(1)];
      System.arraycopy(r.buf, r.pos, a, 0, a.length);
      r.pos += a.length;
      return a;
    }
  };
  static final Codec SHORT_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a short[]");
      short[] a = (short[]) v;
      w.size(a.length);
      w.ensure(2 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 2 * a.length).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().put(a);
        w.pos += 2 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (short x : a) { WireWriter.I16.set(b, p, x); p += 2; }
      w.pos = p;
    }
    Object read(WireReader r) {
      short[] a = new short[r.size(2)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 2 * a.length).order(ByteOrder.LITTLE_ENDIAN).asShortBuffer().get(a);
        r.pos += 2 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 2) a[i] = (short) WireWriter.I16.get(b, p);
      r.pos = p;
      return a;
    }
  };
  static final Codec CHAR_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a char[]");
      char[] a = (char[]) v;
      w.size(a.length);
      w.ensure(2 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 2 * a.length).order(ByteOrder.LITTLE_ENDIAN).asCharBuffer().put(a);
        w.pos += 2 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (char x : a) { WireWriter.I16.set(b, p, (short) x); p += 2; }
      w.pos = p;
    }
    Object read(WireReader r) {
      char[] a = new char[r.size(2)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 2 * a.length).order(ByteOrder.LITTLE_ENDIAN).asCharBuffer().get(a);
        r.pos += 2 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 2) a[i] = (char) (short) WireWriter.I16.get(b, p);
      r.pos = p;
      return a;
    }
  };
  static final Codec INT_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "an int[]");
      int[] a = (int[]) v;
      w.size(a.length);
      w.ensure(4 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 4 * a.length).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(a);
        w.pos += 4 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (int x : a) { WireWriter.I32.set(b, p, x); p += 4; }
      w.pos = p;
    }
    Object read(WireReader r) {
      int[] a = new int[r.size(4)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 4 * a.length).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(a);
        r.pos += 4 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 4) a[i] = (int) WireWriter.I32.get(b, p);
      r.pos = p;
      return a;
    }
  };
  static final Codec LONG_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a long[]");
      long[] a = (long[]) v;
      w.size(a.length);
      w.ensure(8 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 8 * a.length).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(a);
        w.pos += 8 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (long x : a) { WireWriter.I64.set(b, p, x); p += 8; }
      w.pos = p;
    }
    Object read(WireReader r) {
      long[] a = new long[r.size(8)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 8 * a.length).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(a);
        r.pos += 8 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 8) a[i] = (long) WireWriter.I64.get(b, p);
      r.pos = p;
      return a;
    }
  };
  static final Codec FLOAT_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a float[]");
      float[] a = (float[]) v;
      w.size(a.length);
      w.ensure(4 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 4 * a.length).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(a);
        w.pos += 4 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (float x : a) { WireWriter.I32.set(b, p, Float.floatToRawIntBits(x)); p += 4; }
      w.pos = p;
    }
    Object read(WireReader r) {
      float[] a = new float[r.size(4)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 4 * a.length).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(a);
        r.pos += 4 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 4) a[i] = Float.intBitsToFloat((int) WireWriter.I32.get(b, p));
      r.pos = p;
      return a;
    }
  };
  static final Codec DOUBLE_ARRAY = new ArrayCodec() {
    void write(WireWriter w, Object v) {
      notNull(v, "a double[]");
      double[] a = (double[]) v;
      w.size(a.length);
      w.ensure(8 * a.length);
      if (a.length >= BULK) {
        ByteBuffer.wrap(w.buf, w.pos, 8 * a.length).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(a);
        w.pos += 8 * a.length;
        return;
      }
      byte[] b = w.buf;
      int p = w.pos;
      for (double x : a) { WireWriter.I64.set(b, p, Double.doubleToRawLongBits(x)); p += 8; }
      w.pos = p;
    }
    Object read(WireReader r) {
      double[] a = new double[r.size(8)];
      if (a.length >= BULK) {
        ByteBuffer.wrap(r.buf, r.pos, 8 * a.length).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(a);
        r.pos += 8 * a.length;
        return a;
      }
      byte[] b = r.buf;
      int p = r.pos;
      for (int i = 0; i < a.length; i++, p += 8) a[i] = Double.longBitsToDouble((long) WireWriter.I64.get(b, p));
      r.pos = p;
      return a;
    }
  };
}
