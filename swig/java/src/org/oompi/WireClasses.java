package org.oompi;

import static org.oompi.WireCodecs.*;
import static org.oompi.WireFields.*;
import static org.oompi.WirePlan.*;

import java.lang.invoke.MethodHandle;
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
import java.util.List;

/**
 * The plan of each Transportable class: {@link ClassPlan}, computed once (ClassValue) with
 * MethodHandles for its constructor and fields, and how its objects are written and read as
 * references (section 2: ids, the identity table, linear and compact chains, section 2.1) or as
 * values. Nothing is looked up per object.
 */
final class WireClasses {
  private WireClasses() {}

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
    private FieldSequence allSeq, headSeq;  // the same, as one call each
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
        allSeq = FieldSequence.of(fields);
        headSeq = head == fields ? allSeq : FieldSequence.of(head);
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
      try {
        allSeq.write(w, o);
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }

    void readFields(WireReader r, Object o) {
      try {
        allSeq.read(r, o);
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
        FieldSequence fs = headSeq;
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
          fs.write(w, o);
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
      FieldSequence fs = headSeq;
      int n = 0;
      w.varSizes = true;
      for (; o != null && n != end; n++) {
        if (o.getClass() != type) checkClass(o);
        fs.write(w, o);
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
        FieldSequence fs = headSeq;
        Object first = null, prev = null, target = null;
        r.varSizes = true;
        for (long i = 1; i <= n; i++) {
          Object o = a.newInstance();
          fs.read(r, o);
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
          FieldSequence fs = headSeq;
          fs.write(w, o);
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
          FieldSequence fs = headSeq;
          fs.read(r, o);
          if (!tailSelf) return first;
          owner = o;
        }
      } catch (Throwable t) {
        throw rethrow(t);
      }
    }
  }
}
