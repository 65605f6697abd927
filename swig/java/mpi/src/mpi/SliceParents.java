package mpi;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.ShortBuffer;
import java.util.HashMap;

/**
 * Each direct buffer MPI.slice made, with the buffer it was cut from and where (weakly, by
 * identity: an entry goes when its slice does). A datatype whose lower bound reaches before a
 * slice's start (ompi-java-test's datatype/Bakstr: a vector of negative stride packed from
 * {@code slice(buf, 48)}) reaches into the parent's memory, as C's {@code &buf[48]} does and as
 * Open MPI's bindings allowed; oompi's buffer check sees only the slice, so on that rare path
 * (Bufs) the call gets the parent and the type displaced by the slice's offset. Memory before the
 * parent's own start is still refused.
 */
final class SliceParents {
  private SliceParents() {}

  /** A slice, weakly, by identity; a stored key also holds its parent and byte offset. */
  private static final class Key extends WeakReference<Buffer> {
    final int hash;
    final Buffer parent;
    final long offset;  // bytes from the parent's start to the slice's

    Key(Buffer slice, Buffer parent, long offset, ReferenceQueue<Buffer> queue) {
      super(slice, queue);
      this.hash = System.identityHashCode(slice);
      this.parent = parent;
      this.offset = offset;
    }

    @Override public int hashCode() { return hash; }

    @Override public boolean equals(Object o) {
      if (o == this) return true;
      if (!(o instanceof Key)) return false;
      Buffer mine = get();
      return mine != null && mine == ((Key) o).get();
    }
  }

  private static final HashMap<Key, Key> slices = new HashMap<>();
  private static final ReferenceQueue<Buffer> gone = new ReferenceQueue<>();

  /** Records that slice starts offset elements into parent (a direct buffer of its kind). */
  static <B extends Buffer> B record(B slice, Buffer parent, int offset) {
    if (!slice.isDirect()) return slice;
    long bytes = (long) offset * elementSize(parent);
    synchronized (slices) {
      purge();
      Key k = new Key(slice, parent, bytes, gone);
      slices.put(k, k);
    }
    return slice;
  }

  /**
   * count elements of t from the start of slice b, seen from the first buffer of b's chain of
   * parents (a slice of a slice counts both offsets) with t displaced by b's offset in it; null
   * when b is no slice of this package.
   */
  static Object reach(Buffer b, int count, Datatype t) throws MPIException {
    Buffer root = b;
    long offset = 0;
    synchronized (slices) {
      purge();
      for (Key k; (k = slices.get(new Key(root, null, 0, null))) != null; ) {
        offset += k.offset;
        root = k.parent;
      }
    }
    if (root == b) return null;
    try {
      org.oompi.Datatype displaced =
          org.oompi.Datatype.hindexed(new int[] {1}, new long[] {offset}, Bufs.type(t));
      return org.oompi.Buffers.typed(Bufs.fromStart(root), count, displaced);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  private static void purge() {
    for (Object k; (k = gone.poll()) != null; ) slices.remove(k);
  }

  private static int elementSize(Buffer b) {
    if (b instanceof ByteBuffer) return 1;
    if (b instanceof ShortBuffer || b instanceof CharBuffer) return 2;
    if (b instanceof java.nio.IntBuffer || b instanceof java.nio.FloatBuffer) return 4;
    return 8;  // LongBuffer, DoubleBuffer
  }
}
