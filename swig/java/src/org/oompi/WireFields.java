package org.oompi;

import static org.oompi.WireCodecs.*;

import java.lang.invoke.MethodHandle;

/**
 * How one transported field is read from and written to its object: {@link FieldPlan}. The
 * classes here are the fallback accessors, MethodHandles held in instance fields, used when
 * hidden classes cannot be made (or -Doompi.wire.hiddenClasses=false); the fast ones are
 * WireSlots' templates.
 *
 * <p>Why one class per primitive type, kept as written: a field's getter and setter are invoked
 * with invokeExact, whose call site must name the exact primitive type (an Object-typed handle
 * would box every value), so each primitive needs its own class; the family is fixed (one member
 * per primitive) and small, and java.objects_plain runs every test through it.
 */
final class WireFields {
  private WireFields() {}

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

  /** All the fields of a class (or all but its tail link), written or read in order. */
  abstract static class FieldSequence {
    abstract void write(WireWriter w, Object owner) throws Throwable;

    abstract void read(WireReader r, Object owner) throws Throwable;

    /** The fastest sequence of fields: WireSlots' SlotFields (one hidden class per class, each
     *  field a JIT constant called directly), else a loop over them. */
    static FieldSequence of(FieldPlan[] fields) {
      if (fields.length <= SLOT_FIELDS) {
        java.util.List<Object> data = new java.util.ArrayList<>();
        for (int i = 0; i < SLOT_FIELDS; i++) data.add(i < fields.length ? fields[i] : NONE);
        data.add(fields.length);
        Object slot = WireSlots.make("SlotFields", data, WireSlots.CLASS_CTOR);
        if (slot != null) return (FieldSequence) slot;
      }
      return new PlainSequence(fields);
    }
  }

  /** Fields SlotFields holds as constants (a class with more uses the loop). */
  static final int SLOT_FIELDS = 8;

  /** A field that is never called (SlotFields' unused constants). */
  static final FieldPlan NONE = new FieldPlan("none") {
    void write(WireWriter w, Object o) { throw new IllegalStateException(); }
    void read(WireReader r, Object o) { throw new IllegalStateException(); }
  };

  /** The fallback: a loop over the fields (one virtual call per field). */
  static final class PlainSequence extends FieldSequence {
    final FieldPlan[] fields;
    PlainSequence(FieldPlan[] f) { fields = f; }
    void write(WireWriter w, Object o) throws Throwable { for (FieldPlan f : fields) f.write(w, o); }
    void read(WireReader r, Object o) throws Throwable { for (FieldPlan f : fields) f.read(r, o); }
  }
}
