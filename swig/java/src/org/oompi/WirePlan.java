package org.oompi;

import static org.oompi.WireClasses.*;
import static org.oompi.WireCodecs.*;

import java.util.Collection;

/**
 * The entry points of wire format v1's type plans: the codec of a whole message's value
 * ({@link #top}) or of a list element ({@link #element}). The pieces: {@link WireCodecs} (one
 * value of a type), {@link WireArrayCodecs} (primitive arrays), {@link WireFields} (one field of
 * an object), {@link WireClasses} (one Transportable class), {@link WireSlots} (their
 * JIT-constant accessors).
 */
final class WirePlan {
  private WirePlan() {}

  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException) throw (RuntimeException) t;
    if (t instanceof Error) throw (Error) t;
    throw new SerializationException("oompi: " + t, t);
  }

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
