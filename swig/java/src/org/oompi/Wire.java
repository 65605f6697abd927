package org.oompi;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Wire format v1 (docs/wire-format.md) without MPI: the bytes {@code Comm.osend/orecv} and the
 * object collectives put in their messages, the same bytes C++, C# and Python write.
 *
 * <p>A message holds one value. An object of a class with {@link Transportable} fields is
 * written as a reference (an id, then its fields the first time: C++ {@code std::shared_ptr<T>})
 * by {@link #encode}, or as a struct by {@link #encodeValue} (C++ {@code T}). Numbers (boxed),
 * strings, enums and arrays are written as values. A non-null object of a chain type (its last
 * field a link to its class, every other one a number, string or array of numbers) is written as
 * a compact chain (revision 1.1, section 2.1); reading takes both forms. Reading checks
 * everything sections 2 and 2.1 ask: a corrupt or truncated message, or bytes left over, is a
 * {@link SerializationException}.
 */
public final class Wire {
  private Wire() {}

  /** True for a class with at least one non-static {@code @Transportable} field (its own or
   *  inherited). */
  public static boolean isTransportable(Class<?> type) {
    return WireClasses.ClassPlan.of(type).transportable;
  }

  /** The message of obj: a reference if its class is Transportable (null: the null reference),
   *  else its value. Not transportable: IllegalArgumentException naming the class. */
  public static byte[] encode(Object obj) {
    WireWriter w = WireWriter.lease();
    try {
      write(w, obj, false);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  /** The message of a Transportable object written by value (a struct; not null). */
  public static byte[] encodeValue(Object obj) {
    WireWriter w = WireWriter.lease();
    try {
      write(w, obj, true);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  /** Reads a message of {@link #encode} (or C++ {@code osend} of a {@code shared_ptr<T>}, a
   *  {@code std::string}, a {@code std::vector<...>}). */
  public static <T> T decode(byte[] message, Class<T> type) {
    return read(message, 0, message.length, type, false);
  }

  public static <T> T decode(byte[] message, int offset, int length, Class<T> type) {
    return read(message, offset, length, type, false);
  }

  /** Reads a message of {@link #encodeValue} (or C++ {@code osend} of a {@code T}). */
  public static <T> T decodeValue(byte[] message, Class<T> type) {
    return read(message, 0, message.length, type, true);
  }

  /** Reads a message from the buffer's remaining bytes (a heap or direct buffer). */
  public static <T> T decode(ByteBuffer message, Class<T> type) {
    if (message.hasArray())
      return read(message.array(), message.arrayOffset() + message.position(), message.remaining(), type, false);
    byte[] copy = new byte[message.remaining()];
    message.duplicate().get(copy);
    return read(copy, 0, copy.length, type, false);
  }

  /** A list of objects as one slice of the split collectives: size, then each element (a
   *  reference for a Transportable element type), with one id counter for the whole list. */
  public static byte[] encodeList(List<?> items, Class<?> elementType) {
    WireWriter w = WireWriter.lease();
    try {
      writeList(w, items, elementType);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  public static <T> List<T> decodeList(byte[] message, Class<T> elementType) {
    List<T> out = new ArrayList<>();
    WireReader r = new WireReader(message, 0, message.length);
    readList(r, elementType, out);
    finish(r);
    return out;
  }

  // --- package-private pieces for ObjectTransport ---------------------------------------------

  static void write(WireWriter w, Object obj, boolean byValue) {
    if (obj == null) {
      if (byValue) throw new IllegalArgumentException("oompi: cannot send null by value");
      w.i32(0);  // the null reference
      return;
    }
    WireCodecs.Codec codec = WirePlan.top(obj.getClass(), byValue);
    if (codec instanceof WireCodecs.RefCodec)
      guarded(() -> ((WireCodecs.RefCodec) codec).writeRoot(w, obj));
    else
      guarded(() -> codec.write(w, obj));
  }

  static void writeList(WireWriter w, List<?> items, Class<?> elementType) {
    if (items == null) throw new NullPointerException("oompi: the list is null");
    WireCodecs.Codec codec = WirePlan.element(elementType, false);
    guarded(() -> {
      w.size(items.size());
      for (Object x : items) {
        if (x != null && !elementType.isInstance(x))
          throw new IllegalArgumentException("oompi: a " + x.getClass().getName() + " in a list of "
              + elementType.getName());
        codec.write(w, x);
      }
    });
  }

  static <T> T read(byte[] message, int offset, int length, Class<T> type, boolean byValue) {
    WireCodecs.Codec codec = WirePlan.top(type, byValue);
    WireReader r = new WireReader(message, offset, length);
    Object[] out = new Object[1];
    if (codec instanceof WireCodecs.RefCodec)
      guarded(() -> out[0] = ((WireCodecs.RefCodec) codec).readRoot(r));
    else
      guarded(() -> out[0] = codec.read(r));
    finish(r);
    return cast(type, out[0]);
  }

  static <T> void readList(WireReader r, Class<T> elementType, List<T> out) {
    WireCodecs.Codec codec = WirePlan.element(elementType, false);
    guarded(() -> {
      int min = codec.minBytes();
      int n = r.count(min);
      for (int i = 0; i < n; i++) {
        r.element(min);
        out.add(cast(elementType, codec.read(r)));
      }
    });
  }

  static void finish(WireReader r) {
    if (r.remaining() != 0)
      throw new SerializationException("oompi: corrupt message: " + r.remaining() + " byte(s) left over after the object");
  }

  @SuppressWarnings("unchecked")
  private static <T> T cast(Class<T> type, Object o) {
    if (type.isPrimitive()) return (T) o;  // int.class etc.: the box
    return type.cast(o);
  }

  /** Runs a write or read; a graph too deep for this thread's stack becomes a
   *  SerializationException (a tail link to the same class never recurses: lists of any length
   *  are fine). */
  private static void guarded(Runnable body) {
    try {
      body.run();
    } catch (StackOverflowError e) {
      throw new SerializationException("oompi: the object graph nests too deeply for this thread's stack "
          + "(only a last @Transportable field linking to the same class is followed without recursion)");
    }
  }
}
