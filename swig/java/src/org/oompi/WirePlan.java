package org.oompi;

import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedList;
import java.util.List;

/**
 * How each Java type is written and read in wire format v1: one {@link ClassPlan} per
 * Transportable class, computed once (ClassValue) with MethodHandles for its constructor and
 * fields, and a {@link Codec} per field type. Nothing is looked up per object.
 */
final class WirePlan {
  private WirePlan() {}

  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) throw (RuntimeException) t;
    if (t instanceof Error) throw (Error) t;
    throw new SerializationException("oompi: " + t, t);
  }

  // =========================================================================================
  // Codecs: how one value of a type is written and read
  // =========================================================================================

  abstract static class Codec {
    /** The fewest bytes one encoded value takes (bounds the sizes a reader accepts). */
    int minBytes() {
      return 1;
    }

    abstract void write(WireWriter w, Object v);

    abstract Object read(WireReader r);

    static void notNull(Object v, String what) {
      if (v == null)
        throw new SerializationException("oompi: " + what + " is null; wire v1 has no null for it "
            + "(only references to Transportable objects may be null)");
    }
  }

  static final Codec BOOL = new Codec() {
    void write(WireWriter w, Object v) { notNull(v, "a Boolean"); w.bool((Boolean) v); }
    Object read(WireReader r) { return r.bool(); }
  };
  static final Codec I8 = new Codec() {
    void write(WireWriter w, Object v) { notNull(v, "a Byte"); w.u8((Byte) v); }
    Object read(WireReader r) { return r.i8(); }
  };
  static final Codec I16 = new Codec() {
    int minBytes() { return 2; }
    void write(WireWriter w, Object v) { notNull(v, "a Short"); w.i16((Short) v); }
    Object read(WireReader r) { return r.i16(); }
  };
  static final Codec U16 = new Codec() {
    int minBytes() { return 2; }
    void write(WireWriter w, Object v) { notNull(v, "a Character"); w.i16((short) (char) (Character) v); }
    Object read(WireReader r) { return (char) r.i16(); }
  };
  static final Codec I32 = new Codec() {
    int minBytes() { return 4; }
    void write(WireWriter w, Object v) { notNull(v, "an Integer"); w.i32((Integer) v); }
    Object read(WireReader r) { return r.i32(); }
  };
  static final Codec I64 = new Codec() {
    int minBytes() { return 8; }
    void write(WireWriter w, Object v) { notNull(v, "a Long"); w.i64((Long) v); }
    Object read(WireReader r) { return r.i64(); }
  };
  static final Codec F32 = new Codec() {
    int minBytes() { return 4; }
    void write(WireWriter w, Object v) { notNull(v, "a Float"); w.f32((Float) v); }
    Object read(WireReader r) { return r.f32(); }
  };
  static final Codec F64 = new Codec() {
    int minBytes() { return 8; }
    void write(WireWriter w, Object v) { notNull(v, "a Double"); w.f64((Double) v); }
    Object read(WireReader r) { return r.f64(); }
  };
  static final Codec STRING = new Codec() {
    int minBytes() { return 8; }
    void write(WireWriter w, Object v) { notNull(v, "a String"); w.string((String) v); }
    Object read(WireReader r) { return r.string(); }
  };

  static final class EnumCodec extends Codec {
    private final Object[] values;
    private final Class<?> type;
    EnumCodec(Class<?> type) { this.type = type; this.values = type.getEnumConstants(); }
    int minBytes() { return 4; }
    void write(WireWriter w, Object v) { notNull(v, "an enum " + type.getName()); w.i32(((Enum<?>) v).ordinal()); }
    Object read(WireReader r) {
      int i = r.i32();
      if (i < 0 || i >= values.length)
        throw new SerializationException("oompi: corrupt message: " + i + " is no constant of " + type.getName());
      return values[i];
    }
  }

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

  /** E[] for any non-primitive E: size, then each element. */
  static final class ObjectArrayCodec extends ArrayCodec {
    private final Class<?> component;
    private final Codec element;
    ObjectArrayCodec(Class<?> component, Codec element) { this.component = component; this.element = element; }
    void write(WireWriter w, Object v) {
      notNull(v, "an array " + component.getName() + "[]");
      Object[] a = (Object[]) v;
      w.size(a.length);
      for (Object x : a) element.write(w, x);
    }
    Object read(WireReader r) {
      int min = element.minBytes();
      Object[] a = (Object[]) java.lang.reflect.Array.newInstance(component, r.count(min));
      for (int i = 0; i < a.length; i++) {
        r.element(min);
        a[i] = element.read(r);
      }
      return a;
    }
  }

  /** List<E>: size, then each element; read as the list class the factory makes. */
  static final class ListCodec extends ArrayCodec {
    private final Codec element;
    private final boolean linked;
    ListCodec(Codec element, boolean linked) { this.element = element; this.linked = linked; }
    void write(WireWriter w, Object v) {
      notNull(v, "a List");
      List<?> list = (List<?>) v;
      w.size(list.size());
      for (Object x : list) element.write(w, x);
    }
    Object read(WireReader r) {
      int min = element.minBytes();
      int n = r.count(min);
      List<Object> list = linked ? new LinkedList<>() : new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        r.element(min);
        list.add(element.read(r));
      }
      return list;
    }
  }

  /** A reference to an object of a Transportable class (section 2). */
  static final class RefCodec extends Codec {
    final ClassPlan plan;
    RefCodec(ClassPlan plan) { this.plan = plan; }
    int minBytes() { return 4; }
    void write(WireWriter w, Object v) { plan.writeRef(w, v); }
    void writeRoot(WireWriter w, Object v) { plan.writeRoot(w, v); }
    Object readRoot(WireReader r) { return plan.readRoot(r); }
    Object read(WireReader r) { return plan.readRef(r); }
  }

  /** A Transportable object written in place (a struct member): never null, no identity. */
  static final class ValueCodec extends Codec {
    final ClassPlan plan;
    ValueCodec(ClassPlan plan) { this.plan = plan; }
    void write(WireWriter w, Object v) {
      if (v == null)
        throw new SerializationException("oompi: a by-value " + plan.type.getName() + " is null (only references may be null)");
      plan.checkClass(v);
      plan.writeFields(w, v);
    }
    Object read(WireReader r) {
      Object o = plan.newInstance();
      plan.readFields(r, o);
      return o;
    }
  }

  // =========================================================================================
  // Codec selection from a Java type
  // =========================================================================================

  /** The codec of a value of type t; byValue for Transportable classes inside it. */
  static Codec codecFor(Type t, boolean byValue, String where) {
    if (t instanceof Class) {
      Class<?> c = (Class<?>) t;
      Codec simple = simpleCodec(c);
      if (simple != null) return simple;
      if (c.isArray()) {
        Class<?> comp = c.getComponentType();
        return new ObjectArrayCodec(comp, codecFor(comp, byValue, where));
      }
      if (Collection.class.isAssignableFrom(c))
        throw new IllegalArgumentException("oompi: " + where + ": a " + c.getName()
            + " needs its element type (declare List<E>)");
      ClassPlan plan = ClassPlan.of(c);
      if (!plan.transportable) throw notTransportable(c, where);
      return byValue ? plan.valueCodec : plan.refCodec;
    }
    if (t instanceof ParameterizedType) {
      ParameterizedType p = (ParameterizedType) t;
      Type raw = p.getRawType();
      if (raw == List.class || raw == ArrayList.class || raw == Collection.class || raw == LinkedList.class) {
        Type e = p.getActualTypeArguments()[0];
        return new ListCodec(codecFor(e, byValue, where), raw == LinkedList.class);
      }
      throw new IllegalArgumentException("oompi: " + where + ": unsupported type " + t.getTypeName()
          + " (supported: List, ArrayList, LinkedList of a supported type)");
    }
    if (t instanceof GenericArrayType) {
      Type comp = ((GenericArrayType) t).getGenericComponentType();
      Class<?> rawComp = comp instanceof ParameterizedType
          ? (Class<?>) ((ParameterizedType) comp).getRawType() : null;
      if (rawComp != null) return new ObjectArrayCodec(rawComp, codecFor(comp, byValue, where));
    }
    throw new IllegalArgumentException("oompi: " + where + ": unsupported type " + t.getTypeName()
        + " (type variables and wildcards cannot be transported)");
  }

  /** Codecs of numbers, strings, enums and primitive arrays; null for anything else. */
  static Codec simpleCodec(Class<?> c) {
    if (c == int.class || c == Integer.class) return I32;
    if (c == long.class || c == Long.class) return I64;
    if (c == double.class || c == Double.class) return F64;
    if (c == float.class || c == Float.class) return F32;
    if (c == boolean.class || c == Boolean.class) return BOOL;
    if (c == byte.class || c == Byte.class) return I8;
    if (c == short.class || c == Short.class) return I16;
    if (c == char.class || c == Character.class) return U16;
    if (c == String.class) return STRING;
    if (c == int[].class) return INT_ARRAY;
    if (c == double[].class) return DOUBLE_ARRAY;
    if (c == long[].class) return LONG_ARRAY;
    if (c == float[].class) return FLOAT_ARRAY;
    if (c == byte[].class) return BYTE_ARRAY;
    if (c == short[].class) return SHORT_ARRAY;
    if (c == char[].class) return CHAR_ARRAY;
    if (c == boolean[].class) return BOOL_ARRAY;
    if (c.isEnum()) return new EnumCodec(c);
    return null;
  }

  static IllegalArgumentException notTransportable(Class<?> c, String where) {
    return new IllegalArgumentException("oompi: " + (where == null ? "" : where + ": ") + "class " + c.getName()
        + " is not transportable: it has no @Transportable fields (and is not a number, String, enum, "
        + "array or List)");
  }

  // =========================================================================================
  // Fields
  // =========================================================================================

  abstract static class FieldPlan {
    final String name;
    FieldPlan(String name) { this.name = name; }
    abstract void write(WireWriter w, Object owner) throws Throwable;
    abstract void read(WireReader r, Object owner) throws Throwable;
  }

  static final class BoolField extends FieldPlan {
    final MethodHandle get, set;
    BoolField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.bool((boolean) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.bool()); }
  }
  static final class ByteField extends FieldPlan {
    final MethodHandle get, set;
    ByteField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.u8((byte) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.i8()); }
  }
  static final class ShortField extends FieldPlan {
    final MethodHandle get, set;
    ShortField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.i16((short) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.i16()); }
  }
  static final class CharField extends FieldPlan {
    final MethodHandle get, set;
    CharField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.i16((short) (char) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, (char) r.i16()); }
  }
  static final class IntField extends FieldPlan {
    final MethodHandle get, set;
    IntField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.i32((int) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.i32()); }
  }
  static final class LongField extends FieldPlan {
    final MethodHandle get, set;
    LongField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.i64((long) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.i64()); }
  }
  static final class FloatField extends FieldPlan {
    final MethodHandle get, set;
    FloatField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.f32((float) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.f32()); }
  }
  static final class DoubleField extends FieldPlan {
    final MethodHandle get, set;
    DoubleField(String n, MethodHandle g, MethodHandle s) { super(n); get = g; set = s; }
    void write(WireWriter w, Object o) throws Throwable { w.f64((double) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, r.f64()); }
  }
  static final class ObjectField extends FieldPlan {
    final MethodHandle get, set;
    final Codec codec;
    ObjectField(String n, MethodHandle g, MethodHandle s, Codec c) { super(n); get = g; set = s; codec = c; }
    void write(WireWriter w, Object o) throws Throwable { codec.write(w, (Object) get.invokeExact(o)); }
    void read(WireReader r, Object o) throws Throwable { set.invokeExact(o, codec.read(r)); }
  }

  // =========================================================================================
  // Classes
  // =========================================================================================

  /** A class's constructor and tail link (WireSlots.SlotClass makes them JIT constants). */
  abstract static class ClassAccess {
    abstract Object newInstance() throws Throwable;

    abstract Object tail(Object o) throws Throwable;

    abstract void setTail(Object o, Object v) throws Throwable;
  }

  /** The fallback: handles in instance fields. */
  static final class PlainAccess extends ClassAccess {
    final MethodHandle ctor, get, set;
    PlainAccess(MethodHandle c, MethodHandle g, MethodHandle s) { ctor = c; get = g; set = s; }
    Object newInstance() throws Throwable { return (Object) ctor.invokeExact(); }
    Object tail(Object o) throws Throwable { return (Object) get.invokeExact(o); }
    void setTail(Object o, Object v) throws Throwable { set.invokeExact(o, v); }
  }

  private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);
  private static final MethodType SETTER = MethodType.methodType(void.class, Object.class, Object.class);

  /** -Doompi.wire.linearChains=false writes every chain through the identity table. */
  static final boolean LINEAR_CHAINS = !"false".equals(System.getProperty("oompi.wire.linearChains"));

  /** -Doompi.wire.compactChains=false writes chain types in the revision 1.0 form (for a 1.0
   *  reader, or to compare); compact chains are read either way. */
  static final boolean COMPACT_CHAINS = !"false".equals(System.getProperty("oompi.wire.compactChains"));

  /** A leaf of a chain type (section 2.1): a number, a string or an array of numbers, not of
   *  bool; no enum. */
  static boolean isLeaf(Class<?> c) {
    return !c.isEnum() && c != boolean[].class && simpleCodec(c) != null;
  }

  private static final ClassValue<ClassPlan> PLANS = new ClassValue<>() {
    @Override
    protected ClassPlan computeValue(Class<?> type) {
      return new ClassPlan(type);
    }
  };
  private static final Object INIT_LOCK = new Object();

  /** The plan of one class. Made cheaply (a shell) by ClassValue; its fields are resolved once,
   *  with those of every class reachable from it, by {@link #ready()}. */
  static final class ClassPlan {
    final Class<?> type;
    final boolean transportable;
    final RefCodec refCodec = new RefCodec(this);
    final ValueCodec valueCodec = new ValueCodec(this);
    private volatile boolean ready;
    private RuntimeException problem;
    // set once by init(), read after ready() (its volatile read orders them)
    private FieldPlan[] fields;   // all transported fields, in order
    private FieldPlan[] head;     // all but the tail link when tailSelf
    private boolean tailSelf;     // the last field is a reference to this very class
    private ClassAccess access;
    /** tailSelf, and no other field can lead to an object of this class: a message whose root
     *  is a reference to this class reaches objects of it only along the tail links. */
    private boolean linear;
    /** A chain type (section 2.1): tailSelf, and every other field (at least one) a leaf. */
    private boolean chain;

    static ClassPlan of(Class<?> c) {
      return PLANS.get(c);
    }

    private ClassPlan(Class<?> type) {
      this.type = type;
      boolean any = false;
      if (!type.isPrimitive() && !type.isArray() && !type.isInterface())
        for (Class<?> c = type; c != null && c != Object.class && !any; c = c.getSuperclass())
          for (Field f : c.getDeclaredFields())
            if (f.isAnnotationPresent(Transportable.class) && !Modifier.isStatic(f.getModifiers())) {
              any = true;
              break;
            }
      this.transportable = any;
    }

    /** Resolves this plan and every plan reachable from it (once); throws if one is unusable. */
    ClassPlan ready() {
      if (!ready) {
        synchronized (INIT_LOCK) {
          if (!ready) {
            List<ClassPlan> reached = new ArrayList<>();
            ArrayDeque<ClassPlan> todo = new ArrayDeque<>();
            todo.add(this);
            while (!todo.isEmpty()) {
              ClassPlan p = todo.poll();
              if (p.ready) {  // readied before: usable, or the closure inherits its problem
                if (p.problem != null && !reached.contains(p)) reached.add(p);
                continue;
              }
              if (reached.contains(p)) continue;
              reached.add(p);
              p.init(todo);
            }
            // a plan is usable only if everything it reaches is: report the first problem
            RuntimeException first = null;
            for (ClassPlan p : reached) if (p.problem != null && first == null) first = p.problem;
            for (ClassPlan p : reached) {
              if (p.ready) continue;
              if (first != null && p.problem == null) p.problem = first;
              p.ready = true;
            }
          }
        }
      }
      if (problem != null) throw problem;
      return this;
    }

    private void init(ArrayDeque<ClassPlan> todo) {
      try {
        if (!transportable) throw notTransportable(type, null);
        if (type.isRecord() || type.isEnum() || Modifier.isAbstract(type.getModifiers()))
          throw new IllegalArgumentException("oompi: class " + type.getName()
              + " cannot be transported: records, enums, interfaces and abstract classes are not "
              + "(a Transportable class needs a no-argument constructor and settable fields)");
        if (type.getEnclosingClass() != null && !Modifier.isStatic(type.getModifiers()) && !type.isLocalClass()
            && !type.isAnonymousClass())
          throw new IllegalArgumentException("oompi: class " + type.getName()
              + " is an inner (non-static) class; declare it static to transport it");
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        Constructor<?> k;
        try {
          k = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
          throw new IllegalArgumentException("oompi: Transportable class " + type.getName()
              + " needs a no-argument constructor (any access)");
        }
        k.setAccessible(true);
        MethodHandle ctor = lookup.unreflectConstructor(k).asType(MethodType.methodType(Object.class));

        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) chain.add(0, c);
        List<FieldPlan> list = new ArrayList<>();
        boolean leaves = true;  // every field so far a leaf
        Field last = null;
        MethodHandle lastGet = null, lastSet = null;
        for (Class<?> c : chain) {
          MethodHandles.Lookup l = MethodHandles.privateLookupIn(c, MethodHandles.lookup());
          for (Field f : c.getDeclaredFields()) {
            Transportable a = f.getAnnotation(Transportable.class);
            if (a == null || Modifier.isStatic(f.getModifiers())) continue;
            f.setAccessible(true);
            MethodHandle g = l.unreflectGetter(f);
            MethodHandle st;
            try {
              st = l.unreflectSetter(f);
            } catch (IllegalAccessException e) {
              throw new IllegalArgumentException("oompi: field " + c.getName() + "." + f.getName()
                  + " cannot be set (" + e.getMessage() + ")");
            }
            list.add(field(f, g, st, a.byValue(), todo));
            if (last != null && !isLeaf(last.getType())) leaves = false;
            last = f;
            lastGet = g;
            lastSet = st;
          }
        }
        fields = list.toArray(new FieldPlan[0]);
        Transportable lastA = last == null ? null : last.getAnnotation(Transportable.class);
        if (last != null && last.getType() == type && !lastA.byValue()) {
          tailSelf = true;
          head = java.util.Arrays.copyOf(fields, fields.length - 1);
        } else {
          head = fields;
        }
        MethodHandle tg = tailSelf ? lastGet.asType(GETTER)
            : MethodHandles.dropArguments(MethodHandles.constant(Object.class, null), 0, Object.class);
        MethodHandle ts = tailSelf ? lastSet.asType(SETTER) : MethodHandles.empty(SETTER);
        Object slot = WireSlots.make("SlotClass", List.of(ctor, tg, ts), WireSlots.CLASS_CTOR);
        access = slot != null ? (ClassAccess) slot : new PlainAccess(ctor, tg, ts);
        // a by-value field of this class inside itself would never end
        checkValueCycle(type, type, new ArrayList<>());
        linear = LINEAR_CHAINS && tailSelf && !reachable(type, chain, last);
        this.chain = tailSelf && leaves && head.length > 0;
      } catch (IllegalArgumentException e) {
        problem = e;
        fields = null;
      } catch (ReflectiveOperationException | RuntimeException e) {
        problem = new IllegalArgumentException("oompi: class " + type.getName() + " cannot be transported: " + e, e);
        fields = null;
      }
    }

    /** Can an object of class target be reached from a transported field of the classes in
     *  chain other than skip (the tail link), through any field types (static: a field holds
     *  exactly its declared class)? */
    private static boolean reachable(Class<?> target, List<Class<?>> chain, Field skip) {
      ArrayDeque<Type> todo = new ArrayDeque<>();
      for (Class<?> c : chain)
        for (Field f : c.getDeclaredFields())
          if (f != null && !f.equals(skip) && f.isAnnotationPresent(Transportable.class)
              && !Modifier.isStatic(f.getModifiers()))
            todo.add(f.getGenericType());
      List<Class<?>> seen = new ArrayList<>();
      while (!todo.isEmpty()) {
        Type t = todo.poll();
        if (t instanceof ParameterizedType) {
          todo.addAll(java.util.Arrays.asList(((ParameterizedType) t).getActualTypeArguments()));
        } else if (t instanceof GenericArrayType) {
          todo.add(((GenericArrayType) t).getGenericComponentType());
        } else if (t instanceof Class) {
          Class<?> c = (Class<?>) t;
          while (c.isArray()) c = c.getComponentType();
          if (c == target) return true;
          if (c.isPrimitive() || simpleCodec(c) != null || seen.contains(c)) continue;
          seen.add(c);
          for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass())
            for (Field f : k.getDeclaredFields())
              if (f.isAnnotationPresent(Transportable.class) && !Modifier.isStatic(f.getModifiers()))
                todo.add(f.getGenericType());
        } else {
          return true;  // a type variable or wildcard: assume the worst (such fields are refused anyway)
        }
      }
      return false;
    }

    private static void checkValueCycle(Class<?> root, Class<?> c, List<Class<?>> path) {
      for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass())
        for (Field f : k.getDeclaredFields()) {
          Transportable a = f.getAnnotation(Transportable.class);
          if (a == null || !a.byValue() || Modifier.isStatic(f.getModifiers())) continue;
          Class<?> t = f.getType();
          if (t.isArray() || Collection.class.isAssignableFrom(t)) continue;  // may be empty
          if (t == root)
            throw new IllegalArgumentException("oompi: class " + root.getName() + " contains itself by value (field "
                + k.getSimpleName() + "." + f.getName() + "); make it a reference");
          if (!path.contains(t)) {
            path.add(t);
            checkValueCycle(root, t, path);
          }
        }
    }

    private FieldPlan field(Field f, MethodHandle g, MethodHandle s, boolean byValue, ArrayDeque<ClassPlan> todo) {
      String where = "field " + f.getDeclaringClass().getName() + "." + f.getName();
      Class<?> t = f.getType();
      if (t.isPrimitive()) {
        MethodHandle gg = g.asType(MethodType.methodType(t, Object.class));
        MethodHandle ss = s.asType(MethodType.methodType(void.class, Object.class, t));
        String kind = Character.toUpperCase(t.getName().charAt(0)) + t.getName().substring(1);
        if (t == boolean.class) kind = "Bool";
        Object slot = WireSlots.make("Slot" + kind, List.of(gg, ss), WireSlots.FIELD_CTOR, where, null);
        if (slot != null) return (FieldPlan) slot;
        if (t == int.class) return new IntField(where, gg, ss);
        if (t == long.class) return new LongField(where, gg, ss);
        if (t == double.class) return new DoubleField(where, gg, ss);
        if (t == float.class) return new FloatField(where, gg, ss);
        if (t == boolean.class) return new BoolField(where, gg, ss);
        if (t == byte.class) return new ByteField(where, gg, ss);
        if (t == short.class) return new ShortField(where, gg, ss);
        return new CharField(where, gg, ss);
      }
      Codec codec = codecFor(f.getGenericType(), byValue, where);
      collectPlans(f.getGenericType(), todo);
      MethodHandle gg = g.asType(GETTER), ss = s.asType(SETTER);
      Object slot = WireSlots.make("SlotObject", List.of(gg, ss), WireSlots.FIELD_CTOR, where, codec);
      if (slot != null) return (FieldPlan) slot;
      return new ObjectField(where, gg, ss, codec);
    }

    private static void collectPlans(Type t, ArrayDeque<ClassPlan> todo) {
      if (t instanceof Class) {
        Class<?> c = (Class<?>) t;
        while (c.isArray()) c = c.getComponentType();
        if (simpleCodec(c) == null) todo.add(of(c));
      } else if (t instanceof ParameterizedType) {
        for (Type a : ((ParameterizedType) t).getActualTypeArguments()) collectPlans(a, todo);
      } else if (t instanceof GenericArrayType) {
        collectPlans(((GenericArrayType) t).getGenericComponentType(), todo);
      }
    }

    // --- the hot path -------------------------------------------------------------------------

    Object newInstance() {
      try {
        return access.newInstance();
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    void checkClass(Object o) {
      if (o.getClass() != type)
        throw new SerializationException("oompi: an object of class " + o.getClass().getName() + " where a "
            + type.getName() + " is declared: wire v1 carries no type, so a field's object must be of "
            + "exactly its declared class");
    }

    void writeFields(WireWriter w, Object o) {
      FieldPlan[] fs = fields;
      try {
        for (FieldPlan f : fs) f.write(w, o);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    void readFields(WireReader r, Object o) {
      FieldPlan[] fs = fields;
      try {
        for (FieldPlan f : fs) f.read(r, o);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    /**
     * Writes the root reference of a message (nothing written before it). For a linear class the
     * objects of this class in the message are exactly the chain root, root.next, ... (nothing
     * else can lead to one), so the chain needs no identity table: a first walk finds where it
     * ends or closes a cycle (Brent's algorithm: mu nodes before the cycle, lambda in it), the
     * second writes each node with the next id, and the link that closes the cycle as a
     * back-reference to node mu. Same bytes as writeRef, without System.identityHashCode on
     * every node. Other objects reached from the nodes' fields use the table as usual. A chain
     * type (fields that cannot hold objects) is written as a compact chain after the same walk.
     */
    void writeRoot(WireWriter w, Object o) {
      boolean compact = chain && COMPACT_CHAINS;
      if (!(linear || compact) || o == null || w.objectCount() != 0) {
        writeRef(w, o);
        return;
      }
      try {
        ClassAccess a = access;
        // Brent: lambda = cycle length (0: the chain ends in null), mu = index of its first node
        long lambda = 0, mu = -1;
        {
          long power = 1, lam = 1;
          Object tortoise = o, hare = a.tail(o);
          while (hare != null && tortoise != hare) {
            if (power == lam) {
              tortoise = hare;
              power <<= 1;
              lam = 0;
            }
            hare = a.tail(hare);
            lam++;
          }
          if (hare != null) {
            lambda = lam;
            Object t = o, h = o;
            for (long i = 0; i < lambda; i++) h = a.tail(h);
            mu = 0;
            while (t != h) {
              t = a.tail(t);
              h = a.tail(h);
              mu++;
            }
          }
        }
        long end = mu < 0 ? Long.MAX_VALUE : mu + lambda;  // index of the first repeated node
        if (compact) {
          writeCompact(w, o, end, mu);
          return;
        }
        int muId = 0;
        FieldPlan[] fs = head;
        long index = 0;
        for (;;) {
          if (o == null) {
            w.i32(0);
            return;
          }
          if (index == end) {
            w.i32(muId);
            return;
          }
          if (o.getClass() != type) checkClass(o);
          int id = w.nextId(this);
          if (index == mu) muId = id;
          w.i32(0x80000000 | id);
          for (FieldPlan f : fs) f.write(w, o);
          o = a.tail(o);
          index++;
        }
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    /** A compact chain (section 2.1) of the nodes before index end from o, the last linking
     *  to node mu (none if mu < 0). n and close are patched in once the nodes are counted. */
    private void writeCompact(WireWriter w, Object o, long end, long mu) throws Throwable {
      w.i32(0x80000000);
      int at = w.pos;
      w.i64(0);
      ClassAccess a = access;
      FieldPlan[] fs = head;
      int n = 0;
      w.varSizes = true;
      for (; o != null && n != end; n++) {
        if (o.getClass() != type) checkClass(o);
        for (FieldPlan f : fs) f.write(w, o);
        o = a.tail(o);
      }
      w.varSizes = false;
      // no overflow: every node takes a byte, and the writer stops at 2 GiB
      WireWriter.I32.set(w.buf, at, n);
      WireWriter.I32.set(w.buf, at + 4, (int) (mu + 1));
    }

    /** Reads the value of a message that is a reference to this class: a compact chain
     *  (section 2.1) or a reference as readRef. */
    Object readRoot(WireReader r) {
      if (r.remaining() < 4 || (int) WireWriter.I32.get(r.buf, r.pos) != 0x80000000) return readRef(r);
      if (!chain)
        throw new SerializationException("oompi: corrupt message: a compact chain (wire v1.1) arrived for class "
            + type.getName() + ", which is not a chain type (the last field a link to the class, every other "
            + "field a number, a string or an array of numbers: docs/wire-format.md 2.1)");
      r.pos += 4;
      int at = r.pos;
      long n = r.i32() & 0xFFFFFFFFL, close = r.i32() & 0xFFFFFFFFL;
      if (n == 0 || n > r.remaining() || close > n)
        throw new SerializationException("oompi: corrupt message: a compact chain of " + n + " node(s) closing on "
            + close + " at offset " + at + ", " + r.remaining() + " byte(s) left");
      try {
        ClassAccess a = access;
        FieldPlan[] fs = head;
        Object first = null, prev = null, target = null;
        r.varSizes = true;
        for (long i = 1; i <= n; i++) {
          Object o = a.newInstance();
          for (FieldPlan f : fs) f.read(r, o);
          if (prev == null) first = o;
          else a.setTail(prev, o);
          if (i == close) target = o;
          prev = o;
        }
        r.varSizes = false;
        a.setTail(prev, target);
        return first;
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    /** Writes a reference; a tail link to this class is followed in a loop, not recursively. */
    void writeRef(WireWriter w, Object o) {
      try {
        for (;;) {
          if (o == null) {
            w.i32(0);
            return;
          }
          if (o.getClass() != type) checkClass(o);
          int id = w.idOrAdd(o, this);
          if (id > 0) {
            if (w.planOf(id) != this)
              throw new SerializationException("oompi: one object is referenced as " + w.planOf(id).type.getName()
                  + " and as " + type.getName());
            w.i32(id);
            return;
          }
          w.i32(0x80000000 | -id);
          FieldPlan[] fs = head;
          for (FieldPlan f : fs) f.write(w, o);
          if (!tailSelf) return;
          o = access.tail(o);
        }
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    /** Reads a reference (section 2's checks); a tail link to this class is read in a loop. */
    Object readRef(WireReader r) {
      try {
        Object first = null, owner = null;
        boolean top = true;
        for (;;) {
          int at = r.pos;
          int raw = r.i32();
          Object o;
          boolean fresh = false;
          if (raw == 0) {
            o = null;
          } else if (raw < 0) {
            int id = raw & 0x7FFFFFFF;
            if (id != r.count() + 1)
              throw new SerializationException("oompi: corrupt message: new object id " + id + " at offset " + at
                  + ", expected " + (r.count() + 1) + (id == 0 ? " (a compact chain may only be a message's value)" : ""));
            o = newInstance();
            r.register(o, this);
            fresh = true;
          } else {
            if (raw > r.count())
              throw new SerializationException("oompi: corrupt message: reference to object " + raw + " at offset "
                  + at + " before it was sent (" + r.count() + " so far)");
            if (r.planOf(raw) != this)
              throw new SerializationException("oompi: corrupt message: object " + raw + " is a "
                  + r.planOf(raw).type.getName() + ", the field expects a " + type.getName());
            o = r.object(raw);
          }
          if (top) {
            first = o;
            top = false;
          } else {
            access.setTail(owner, o);
          }
          if (!fresh) return first;
          FieldPlan[] fs = head;
          for (FieldPlan f : fs) f.read(r, o);
          if (!tailSelf) return first;
          owner = o;
        }
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }
  }

  // =========================================================================================
  // Top level: the codec of a message's value
  // =========================================================================================

  /** The two top-level codecs of a class, published safely (volatile) to other threads. */
  private static final class TopCodecs {
    volatile Codec ref, value;
  }

  private static final ClassValue<TopCodecs> TOP = new ClassValue<>() {
    @Override
    protected TopCodecs computeValue(Class<?> c) {
      return new TopCodecs();
    }
  };

  /** The codec of a whole message of class c: a reference (or, byValue, a struct) for a
   *  Transportable class, the value for anything else. Throws IllegalArgumentException naming c. */
  static Codec top(Class<?> c, boolean byValue) {
    TopCodecs cache = TOP.get(c);
    Codec k = byValue ? cache.value : cache.ref;
    if (k != null) return k;
    Codec simple = simpleCodec(c);
    if (simple != null) {
      k = simple;
    } else if (c.isArray()) {
      Class<?> comp = c.getComponentType();
      k = new ObjectArrayCodec(comp, element(comp, byValue));
    } else {
      k = element(c, byValue);  // readies the plans it needs before it is published below
    }
    if (byValue) cache.value = k;
    else cache.ref = k;  // benign race: equal codecs
    return k;
  }

  /** The codec of one element of a list or array of class c (Transportable: readied). */
  static Codec element(Class<?> c, boolean byValue) {
    Codec simple = simpleCodec(c);
    if (simple != null) return simple;
    if (c.isArray()) return top(c, byValue);
    if (Collection.class.isAssignableFrom(c))
      throw new IllegalArgumentException("oompi: a " + c.getName() + " cannot be sent on its own: its element "
          + "type is unknown (send an array, or use a field List<E>)");
    ClassPlan plan = ClassPlan.of(c);
    if (!plan.transportable) throw notTransportable(c, null);
    plan.ready();
    return byValue ? plan.valueCodec : plan.refCodec;
  }
}
