package org.oompi;

import static org.oompi.WireArrayCodecs.*;
import static org.oompi.WireClasses.*;
import static org.oompi.WirePlan.*;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedList;
import java.util.List;

/**
 * How one value of a type is written and read in wire format v1 (docs/wire-format.md section 1):
 * a {@link Codec} per type: numbers, strings, enums, arrays of objects, lists, and references to
 * or values of Transportable classes; {@link #codecFor} picks it from a field's declared type.
 * The primitive arrays' codecs are in {@link WireArrayCodecs}.
 */
final class WireCodecs {
  private WireCodecs() {}

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
}
