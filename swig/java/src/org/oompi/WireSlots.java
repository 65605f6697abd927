package org.oompi;

import java.io.IOException;
import java.io.InputStream;
import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-field and per-class accessors whose MethodHandles are JIT constants. Each Slot* class
 * below is a template that is never loaded as such: its bytes are defined again as a hidden
 * class (Lookup.defineHiddenClassWithClassData) for every field or class, with the field's
 * getter and setter (or the class's constructor and tail link) as class data, read into static
 * final fields, so the JIT inlines them like a direct field access. Made once per field, when
 * the class plan is built; if hidden classes cannot be made (or -Doompi.wire.hiddenClasses=false)
 * the plans use MethodHandles held in instance fields instead (WireFields.*Field).
 *
 * <p>Why one template per primitive type, kept as written rather than generated at build time:
 * the templates must be real classes compiled into oompi.jar (their class files are the bytes
 * each hidden class is defined from), and each must call invokeExact with its field's exact
 * primitive type, which Java cannot abstract over (no generics over primitives; an Object-typed
 * template would box every value). The family is fixed (one per primitive, plus Object and the
 * class accessor) and every member runs in java.objects (and its fallback in java.objects_plain);
 * a generator would add a build step to save about 200 lines.
 */
final class WireSlots {
  private WireSlots() {}

  static final boolean ENABLED = !"false".equals(System.getProperty("oompi.wire.hiddenClasses"));
  private static final Map<String, byte[]> BYTES = new ConcurrentHashMap<>();

  /** Handle i of the class data of the hidden class whose full-power lookup is l. */
  static MethodHandle at(MethodHandles.Lookup l, int i) {
    try {
      return MethodHandles.classDataAt(l, ConstantDescs.DEFAULT_NAME, MethodHandle.class, i);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(String template) {
    return BYTES.computeIfAbsent(template, t -> {
      try (InputStream in = WireSlots.class.getResourceAsStream(t + ".class")) {
        if (in == null) throw new IllegalStateException("oompi: no class file for " + t);
        return in.readAllBytes();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  /** Element i of the class data of the hidden class whose full-power lookup is l. */
  static <T> T at(MethodHandles.Lookup l, int i, Class<T> type) {
    try {
      return MethodHandles.classDataAt(l, ConstantDescs.DEFAULT_NAME, type, i);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new hidden copy of template with data (handles, or SlotFields' fields) as class data,
   *  constructed with args; null if hidden classes are unavailable. */
  static Object make(String template, List<?> data, MethodType ctor, Object... args) {
    if (!ENABLED) return null;
    try {
      MethodHandles.Lookup h = MethodHandles.lookup().defineHiddenClassWithClassData(bytes(template), data, true);
      return h.findConstructor(h.lookupClass(), ctor).invokeWithArguments(args);
    } catch (Throwable t) {
      return null;
    }
  }

  static final MethodType FIELD_CTOR = MethodType.methodType(void.class, String.class, WireCodecs.Codec.class);
  static final MethodType CLASS_CTOR = MethodType.methodType(void.class);
}

/**
 * Template: the transported fields of one class (class data: 8 FieldPlans, WireFields.NONE
 * where the class has fewer, then their count). Each field is a static final constant called at
 * its own call site, so the JIT calls (and inlines) each field's own code, where a loop over
 * the fields makes one call site that every field type goes through (a virtual call per field).
 */
final class SlotFields extends WireFields.FieldSequence {
  private static final WireFields.FieldPlan F0, F1, F2, F3, F4, F5, F6, F7;
  private static final int N;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    F0 = WireSlots.at(l, 0, WireFields.FieldPlan.class);
    F1 = WireSlots.at(l, 1, WireFields.FieldPlan.class);
    F2 = WireSlots.at(l, 2, WireFields.FieldPlan.class);
    F3 = WireSlots.at(l, 3, WireFields.FieldPlan.class);
    F4 = WireSlots.at(l, 4, WireFields.FieldPlan.class);
    F5 = WireSlots.at(l, 5, WireFields.FieldPlan.class);
    F6 = WireSlots.at(l, 6, WireFields.FieldPlan.class);
    F7 = WireSlots.at(l, 7, WireFields.FieldPlan.class);
    N = WireSlots.at(l, 8, Integer.class);
  }

  SlotFields() {}

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    if (N == 0) return;
    F0.write(w, o);
    if (N == 1) return;
    F1.write(w, o);
    if (N == 2) return;
    F2.write(w, o);
    if (N == 3) return;
    F3.write(w, o);
    if (N == 4) return;
    F4.write(w, o);
    if (N == 5) return;
    F5.write(w, o);
    if (N == 6) return;
    F6.write(w, o);
    if (N == 7) return;
    F7.write(w, o);
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    if (N == 0) return;
    F0.read(r, o);
    if (N == 1) return;
    F1.read(r, o);
    if (N == 2) return;
    F2.read(r, o);
    if (N == 3) return;
    F3.read(r, o);
    if (N == 4) return;
    F4.read(r, o);
    if (N == 5) return;
    F5.read(r, o);
    if (N == 6) return;
    F6.read(r, o);
    if (N == 7) return;
    F7.read(r, o);
  }
}

/** Template: the constructor and the tail link of one class (class data: new, tail get, tail set). */
final class SlotClass extends WireClasses.ClassAccess {
  private static final MethodHandle NEW, TAIL_GET, TAIL_SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    NEW = WireSlots.at(l, 0);
    TAIL_GET = WireSlots.at(l, 1);
    TAIL_SET = WireSlots.at(l, 2);
  }

  SlotClass() {}

  @Override
  Object newInstance() throws Throwable {
    return (Object) NEW.invokeExact();
  }

  @Override
  Object tail(Object o) throws Throwable {
    return (Object) TAIL_GET.invokeExact(o);
  }

  @Override
  void setTail(Object o, Object v) throws Throwable {
    TAIL_SET.invokeExact(o, v);
  }
}

/** Template: one boolean field (class data: getter, setter). */
final class SlotBool extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotBool(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.bool((boolean) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.bool());
  }
}

/** Template: one byte field (class data: getter, setter). */
final class SlotByte extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotByte(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.u8((byte) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.i8());
  }
}

/** Template: one short field (class data: getter, setter). */
final class SlotShort extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotShort(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.i16((short) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.i16());
  }
}

/** Template: one char field (class data: getter, setter). */
final class SlotChar extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotChar(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.i16((short) (char) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, (char) r.i16());
  }
}

/** Template: one int field (class data: getter, setter). */
final class SlotInt extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotInt(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.i32((int) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.i32());
  }
}

/** Template: one long field (class data: getter, setter). */
final class SlotLong extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotLong(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.i64((long) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.i64());
  }
}

/** Template: one float field (class data: getter, setter). */
final class SlotFloat extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotFloat(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.f32((float) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.f32());
  }
}

/** Template: one double field (class data: getter, setter). */
final class SlotDouble extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotDouble(String name, WireCodecs.Codec codec) {
    super(name);
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    w.f64((double) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, r.f64());
  }
}

/** Template: one Object field (class data: getter, setter). */
final class SlotObject extends WireFields.FieldPlan {
  private static final MethodHandle GET, SET;
  private final WireCodecs.Codec codec;

  static {
    MethodHandles.Lookup l = MethodHandles.lookup();
    GET = WireSlots.at(l, 0);
    SET = WireSlots.at(l, 1);
  }

  SlotObject(String name, WireCodecs.Codec codec) {
    super(name);
    this.codec = codec;
  }

  @Override
  void write(WireWriter w, Object o) throws Throwable {
    codec.write(w, (Object) GET.invokeExact(o));
  }

  @Override
  void read(WireReader r, Object o) throws Throwable {
    SET.invokeExact(o, codec.read(r));
  }
}
