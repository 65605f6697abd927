package mpi;

import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import org.oompi.Buffers;

/**
 * Open MPI's buffer rules turned into org.oompi buffers. A message is {@code count} elements of
 * a datatype from the <em>start</em> of the buffer: element 0 of an array; the address of a
 * direct buffer (its position and limit are ignored, as Open MPI ignored them: MPI.slice() makes
 * an offset); the arrayOffset() of a heap buffer (MPI.slice of an array). An array or direct
 * buffer of the datatype's own element type holding exactly {@code count} elements goes to
 * oompi as-is (its fast paths); anything else as {@code Buffers.typed(buffer, count, type)},
 * which checks that the elements lie inside the memory. A heap buffer with an offset is copied
 * (oompi takes arrays whole): in for sends, in and back out for receives; so is an array of
 * another element type than the datatype's (its bytes, see RawArrays).
 */
final class Bufs {
  private Bufs() {}

  private static final ByteBuffer NOTHING = ByteBuffer.allocateDirect(0);

  /** Memory MPI reads (blocking calls). */
  static Object in(Object buf, int count, Datatype t) throws MPIException {
    return of(buf, count, t);
  }

  /** Memory MPI writes (blocking calls); pass the result to back() after the call. */
  static Object out(Object buf, int count, Datatype t) throws MPIException {
    return of(buf, count, t);
  }

  /** After a receive into out()'s result: a copied heap slice goes back into its array. */
  static void back(Object buf, Object target) {
    if (!(target instanceof org.oompi.TypedBuffer)) return;
    Object copy = ((org.oompi.TypedBuffer) target).buffer();
    if (buf instanceof Buffer) {
      Buffer b = (Buffer) buf;
      if (b.isDirect() || !b.hasArray()) return;
      if (copy instanceof ByteBuffer) RawArrays.copyBack((ByteBuffer) copy, b.array(), b.arrayOffset());
      else if (b.arrayOffset() != 0) System.arraycopy(copy, 0, b.array(), b.arrayOffset(), Array.getLength(copy));
    } else if (buf != null && buf.getClass().isArray() && copy instanceof ByteBuffer) {
      RawArrays.copyBack((ByteBuffer) copy, buf, 0);  // an array of another type than the message's
    }
  }

  /** Nonblocking and persistent calls: direct buffers only (Open MPI's rule). */
  static Object async(Buffer buf, int count, Datatype t) throws MPIException {
    if (buf == null) {
      if (count == 0) return nothing(t);
      throw new MPIException(MPI.ERR_BUFFER, "the buffer is null (count " + count + ")");
    }
    if (!buf.isDirect()) throw new IllegalArgumentException("The buffer must be direct.");
    return of(buf, count, t);
  }

  /** The buffer as count elements of t, nothing copied (windows, files, alltoallw). */
  static Object whole(Buffer buf, long count, Datatype t) throws MPIException {
    if (buf == null) throw new MPIException(MPI.ERR_BUFFER, "the buffer is null");
    if (!buf.isDirect()) throw new IllegalArgumentException("The buffer must be direct.");
    return Buffers.typed(fromStart(buf), count, type(t));
  }

  /** An empty buffer of t: root-only buffers on the other ranks. */
  static Object nothing(Datatype t) throws MPIException {
    return Buffers.typed(NOTHING, 0, type(t));
  }

  static org.oompi.Datatype type(Datatype t) throws MPIException {
    if (t == null) throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
    if (t.type == null) throw new MPIException(MPI.ERR_TYPE, "MPI.DATATYPE_NULL is not a datatype");
    return t.type;
  }

  private static Object of(Object buf, int count, Datatype t) throws MPIException {
    // The common case first, in a method small enough for the JIT to inline at every call:
    // exactly the message, in a direct buffer or an array of t's own type (oompi takes both
    // as they are). Everything else, and every error, is ofAny's.
    if (t != null && t.natural && count >= 0) {
      if (buf instanceof Buffer) {
        Buffer b = (Buffer) buf;
        if (b.isDirect() && b.position() == 0 && b.limit() == count && t.bufferClass.isInstance(b)) return b;
      } else if (buf != null && buf.getClass() == t.arrayClass && Array.getLength(buf) == count) {
        return buf;
      }
    }
    return ofAny(buf, count, t);
  }

  private static Object ofAny(Object buf, int count, Datatype t) throws MPIException {
    if (count < 0) throw new MPIException(MPI.ERR_COUNT, "negative count " + count);
    if (t == null) throw new MPIException(MPI.ERR_TYPE, "the datatype is null");
    if (buf instanceof Buffer) {
      Buffer b = (Buffer) buf;
      if (b.isDirect()) {
        if (t.natural && b.position() == 0 && b.limit() == count && t.bufferClass().isInstance(b))
          return b;  // oompi's fast path: exactly the message
        if (!(b instanceof ByteBuffer) && !t.bufferClass().isInstance(b))
          throw new MPIException(MPI.ERR_TYPE, "a " + b.getClass().getSimpleName()
              + " cannot hold " + t + " (its base type needs a ByteBuffer or a "
              + t.bufferClass().getSimpleName() + ")");
        if (!t.natural && t.lowestByte(count) < 0) {  // rare: reaches before b, maybe in its parent
          Object viaParent = SliceParents.reach(b, count, t);
          if (viaParent != null) return viaParent;
        }
        return Buffers.typed(fromStart(b), count, type(t));
      }
      if (!b.hasArray())
        throw new MPIException(MPI.ERR_BUFFER, "a read-only heap buffer has no array to send from");
      Object a = b.array();
      int off = b.arrayOffset();
      if (!checkArray(a, t)) return Buffers.typed(RawArrays.bytesOf(a, off), count, type(t));
      if (off == 0) return arrayOf(a, count, t);
      int n = Array.getLength(a) - off;
      Object copy = Array.newInstance(a.getClass().getComponentType(), n);
      System.arraycopy(a, off, copy, 0, n);
      return Buffers.typed(copy, count, type(t));
    }
    if (buf == null) {
      if (count == 0) return nothing(t);  // recv(null, 0, MPI.BYTE, ...): an empty message
      throw new MPIException(MPI.ERR_BUFFER, "the buffer is null (count " + count + ")");
    }
    if (!checkArray(buf, t)) return Buffers.typed(RawArrays.bytesOf(buf, 0), count, type(t));
    return arrayOf(buf, count, t);
  }

  private static Object arrayOf(Object a, int count, Datatype t) throws MPIException {
    // byte[] is MPI_INT8_T to oompi, the same size as MPI.BYTE's MPI_BYTE (MPI matches sizes).
    if (t.natural && Array.getLength(a) == count) return a;
    return Buffers.typed(a, count, type(t));
  }

  /**
   * True for an array of t's own element type. False for a primitive array of another (not
   * boolean): a message of t in that array's memory, as C's MPI_Send(int_buf, n, MPI_BYTE, ...)
   * and Open MPI's bindings read it (the blocking calls copy it, in native byte order).
   */
  private static boolean checkArray(Object a, Datatype t) throws MPIException {
    Class<?> c = a.getClass();
    if (c == t.arrayClass()) return true;
    if (!c.isArray() || !c.getComponentType().isPrimitive())
      throw new MPIException(MPI.ERR_BUFFER, "a buffer is a primitive array or a java.nio buffer, not "
          + c.getName());
    if (c == boolean[].class || t.arrayClass() == boolean[].class)
      throw new MPIException(MPI.ERR_TYPE, "a " + c.getComponentType() + "[] cannot hold " + t
          + " (booleans have no memory layout to share: use a " + t.arrayClass().getComponentType() + "[])");
    return false;
  }

  /** A new view of all of b (position 0, limit = capacity), byte order kept. */
  static Buffer view(Buffer b) {
    if (b instanceof ByteBuffer) {
      ByteBuffer bb = (ByteBuffer) b;
      return bb.duplicate().clear().order(bb.order());
    }
    return b.duplicate().clear();
  }

  /** The buffer seen from its start (position 0, limit = capacity), byte order kept. */
  static Buffer fromStart(Buffer b) {
    if (b.position() == 0 && b.limit() == b.capacity()) return b;
    if (b instanceof ByteBuffer) {
      ByteBuffer bb = (ByteBuffer) b;
      return bb.duplicate().clear().order(bb.order());
    }
    return b.duplicate().clear();
  }

  /**
   * A direct copy of elements [from, from + n) of b, of b's own element type (the in-place
   * nonblocking forms oompi lacks: this rank's block goes as a separate send buffer, which the
   * request keeps alive until it completes).
   */
  static Buffer copyElements(Buffer b, int from, int n) throws MPIException {
    if (from < 0 || n < 0 || from + n > b.capacity())
      throw new MPIException(MPI.ERR_COUNT, "elements " + from + ".." + (from + n)
          + " lie outside a buffer of " + b.capacity());
    Buffer src = fromStart(b);
    if (b instanceof ByteBuffer) return MPI.newByteBuffer(n).order(((ByteBuffer) b).order()).put(0, (ByteBuffer) src, from, n);
    if (b instanceof java.nio.IntBuffer) return MPI.newIntBuffer(n).put(0, (java.nio.IntBuffer) src, from, n);
    if (b instanceof java.nio.DoubleBuffer) return MPI.newDoubleBuffer(n).put(0, (java.nio.DoubleBuffer) src, from, n);
    if (b instanceof java.nio.LongBuffer) return MPI.newLongBuffer(n).put(0, (java.nio.LongBuffer) src, from, n);
    if (b instanceof java.nio.FloatBuffer) return MPI.newFloatBuffer(n).put(0, (java.nio.FloatBuffer) src, from, n);
    if (b instanceof java.nio.ShortBuffer) return MPI.newShortBuffer(n).put(0, (java.nio.ShortBuffer) src, from, n);
    if (b instanceof java.nio.CharBuffer) return MPI.newCharBuffer(n).put(0, (java.nio.CharBuffer) src, from, n);
    throw new MPIException(MPI.ERR_BUFFER, "unsupported buffer " + b.getClass().getName());
  }

  /**
   * A fresh buffer (array, or direct buffer of the same kind) holding elements
   * [first, first + count) of type t of buf: this rank's block for the in-place forms that
   * oompi does not have, passed as a separate send buffer.
   */
  static Object copyBlock(Object buf, Datatype t, int first, int count) throws MPIException {
    int ext = t.getExtent();  // in base-type elements
    if (buf instanceof Buffer && ((Buffer) buf).isDirect()) {
      Buffer b = (Buffer) buf;
      int scale = b instanceof ByteBuffer ? t.baseSize : 1;
      return copyElements(b, first * ext * scale, count * ext * scale);
    }
    Object a = buf;
    int off = 0;
    if (buf instanceof Buffer) {
      Buffer b = (Buffer) buf;
      if (!b.hasArray()) throw new MPIException(MPI.ERR_BUFFER, "a read-only heap buffer");
      a = b.array();
      off = b.arrayOffset();
    }
    if (a == null || !a.getClass().isArray())
      throw new MPIException(MPI.ERR_BUFFER, "a buffer is a primitive array or a java.nio buffer");
    int from = off + first * ext, n = count * ext;
    if (from < 0 || n < 0 || from + n > Array.getLength(a))
      throw new MPIException(MPI.ERR_COUNT, "elements " + first + ".." + (first + count) + " of "
          + t + " lie outside the buffer");
    Object copy = Array.newInstance(a.getClass().getComponentType(), n);
    System.arraycopy(a, from, copy, 0, n);
    return copy;
  }

  /** A scratch receive buffer for count elements of t (a block the caller discards). */
  static Object scratch(Datatype t, int count) throws MPIException {
    int n = count * t.getExtent();
    return Array.newInstance(t.arrayClass().getComponentType(), n);
  }

  /** A direct scratch buffer for count elements of t (nonblocking forms). */
  static Buffer directScratch(Datatype t, int count) throws MPIException {
    return MPI.newByteBuffer(count * t.getExtent() * t.baseSize);
  }

  /**
   * The first n entries of a counts or displacements array (Open MPI read only those: longer
   * arrays are common); a shorter one is an error.
   */
  static int[] first(int[] a, int n, String what) throws MPIException {
    if (a == null) return null;  // ignored on the ranks that do not use it; span() refuses it elsewhere
    if (a.length < n)
      throw new MPIException(MPI.ERR_ARG, what + " need one entry per process (" + n + "), got " + a.length);
    return a.length == n ? a : java.util.Arrays.copyOf(a, n);
  }

  /** The elements a v-form buffer spans: max(displs[i] + counts[i]). */
  static int span(int[] counts, int[] displs) throws MPIException {
    if (counts == null || displs == null) throw new MPIException(MPI.ERR_ARG, "null counts or displacements");
    if (counts.length != displs.length)
      throw new MPIException(MPI.ERR_ARG, counts.length + " counts but " + displs.length + " displacements");
    int n = 0;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] < 0) throw new MPIException(MPI.ERR_COUNT, "negative count " + counts[i]);
      if (counts[i] > 0) n = Math.max(n, displs[i] + counts[i]);
    }
    return n;
  }

  static int sum(int[] counts) throws MPIException {
    if (counts == null) throw new MPIException(MPI.ERR_ARG, "null counts");
    int n = 0;
    for (int c : counts) {
      if (c < 0) throw new MPIException(MPI.ERR_COUNT, "negative count " + c);
      n += c;
    }
    return n;
  }
}
