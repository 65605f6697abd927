package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * The object operations of {@link Comm} (osend, orecv, iosend, iorecv, obcast, oscatter(v),
 * ogather, oallgather, oalltoall, oreduce, oallreduce) over the byte-array calls of the facade,
 * in wire format v1 and with the message framing of C++'s include/oompi/object_ops.hpp, so a Java
 * rank and a C++ rank exchange them:
 *
 * <ul>
 *   <li>osend: one MPI_BYTE message; orecv matches it with MPI_Mprobe, sizes the buffer from the
 *       message, takes it with MPI_Mrecv (no size message, no guessed buffer).
 *   <li>collectives run on the communicator's private duplicate (the one C++ uses); failures
 *       (bad arguments at the root, an object that cannot be written) travel with the sizes
 *       ({size, code} pairs of uint64), so every rank throws and none is left waiting.
 *   <li>oscatter/ogather: split representation, one slice per rank, each an independent graph
 *       (size, then the elements, its own id counter), all slices in one buffer moved by one
 *       Scatterv/Gatherv/Allgatherv after the sizes (above {@link #objectIntLimit} bytes: C++'s
 *       large path, one message per rank with tag 14, or one Bcast per rank).
 *   <li>oalltoall: each element its own graph (as an osend message), {size, code} pairs by
 *       Alltoall, then one Alltoallv (or, above {@link #objectIntLimit} bytes on any rank, one
 *       message per pair with tag 14, as C++'s large path).
 *   <li>oreduce/oallreduce: C++'s binomial tree towards rank 0 that keeps rank order (tags 11
 *       and 12 for a value or a failure, 13 from rank 0 to another root), then for oallreduce a
 *       Bcast of {size, code} and of the bytes from rank 0.
 * </ul>
 */
final class ObjectTransport {
  private ObjectTransport() {}

  static final long FAILURE_ARGUMENT = 1, FAILURE_SERIALIZE = 2;
  private static final int BYTE = TypeKind.BYTE.swigValue();
  static final long LARGE_PATH = 4;  // not a failure: the root's bytes exceed an int (C++'s failure_large_path)
  // Python's pickled collectives (no type= there): code PICKLED | FAILURE_ARGUMENT, and
  // PICKLED_ARGUMENT for the pickling rank's own argument failure (docs/wire-format.md section 3)
  static final long PICKLED = 8, PICKLED_ARGUMENT = 16;
  // C++'s tags on the private communicator (include/oompi/object_ops.hpp)
  static final int TAG_REDUCE = 11, TAG_REDUCE_FAILED = 12, TAG_FORWARD = 13, TAG_LARGE = 14;
  private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;
  private static final byte[] NOTHING = new byte[0];

  /** Above this many bytes the split collectives and oalltoall move their slices point to point
   *  (C++'s detail::object_int_limit); every rank of a job must use the same value. Lowered by
   *  the tests (through reflection) to exercise that path. */
  static long objectIntLimit = Integer.MAX_VALUE;
  private static final int KEEP_BYTES = 64 << 20;  // larger thread buffers are dropped after use

  /** This thread's receive buffer, lent to one orecv at a time. */
  private static final class Scratch {
    byte[] recv = new byte[4096];
    boolean busy;
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private static Scratch lease() {
    Scratch s = SCRATCH.get();
    if (s.busy) return new Scratch();  // re-entered: a fresh one
    s.busy = true;
    return s;
  }

  private static void release(Scratch s) {
    if (s.recv.length > KEEP_BYTES) s.recv = new byte[4096];
    s.busy = false;
  }

  // --- point to point -----------------------------------------------------------------------

  static void osend(Comm comm, Object obj, boolean byValue, int dest, int tag) {
    WireWriter w = WireWriter.lease();
    try {
      Wire.write(w, obj, byValue);
      comm.sendArray(w.buf, 0, w.pos, BYTE, dest, tag);  // the ports' fast path, MPI_BYTE
    } finally {
      w.release();
    }
  }

  static <T> T orecv(Comm comm, Class<T> type, boolean byValue, int source, int tag) {
    if (type == null) throw new NullPointerException("oompi: orecv needs the class to receive");
    WirePlan.top(type, byValue);  // not transportable: fail before receiving anything
    // One native call: the matched probe, and the receive when the message fits the thread's
    // scratch array (no Message object, no Cleaner, no further calls).
    Scratch s = lease();
    try {
      long r = comm.mprobeRecvBytes(source, tag, s.recv, s.recv.length);
      if (r == Long.MIN_VALUE) return null;  // MPI.PROC_NULL
      if (r >= 0) return Wire.read(s.recv, 0, (int) r, type, byValue);
      long n = -(r + 1);
      if (n > Integer.MAX_VALUE - 16) {
        try {
          comm.recvMatchedBytes(new byte[0], 0);  // truncated on purpose: off the queue
        } catch (MPIException ignored) {
          // expected (MPI_ERR_TRUNCATE)
        }
        throw new SerializationException("oompi: an object message of " + n + " bytes exceeds a Java array");
      }
      // The scratch grows to SCRATCH_MAX; larger messages get an array of their own.
      byte[] buf;
      try {
        buf = new byte[(int) Math.max(n, n <= SCRATCH_MAX ? Math.min(2L * s.recv.length, SCRATCH_MAX) : n)];
      } catch (OutOfMemoryError e) {
        // the matched message must not stay this thread's: take it off the queue, then fail
        try {
          comm.recvMatchedBytes(new byte[0], 0);
        } catch (MPIException ignored) {
          // expected (MPI_ERR_TRUNCATE)
        }
        throw e;
      }
      if (n <= SCRATCH_MAX) s.recv = buf;
      comm.recvMatchedBytes(buf, (int) n);
      return Wire.read(buf, 0, (int) n, type, byValue);
    } finally {
      release(s);
    }
  }

  private static final int SCRATCH_MAX = 1 << 20;

  /** Receives the matched message and reads it as type (with type null: receives it, reads
   *  nothing and returns null). */
  private static <T> T receive(Message m, Class<T> type, boolean byValue) {
    if (m.getSource() == MPI.PROC_NULL) return null;
    long n = m.getCountBytes();
    if (n > Integer.MAX_VALUE - 16) {
      // cannot land in a Java array: take the message off the queue anyway, then fail
      try {
        // truncated on purpose: takes the message off the queue
        m.recv(java.nio.ByteBuffer.allocateDirect(0).order(java.nio.ByteOrder.nativeOrder()));
      } catch (MPIException ignored) {
        // expected (MPI_ERR_TRUNCATE)
      }
      throw new SerializationException("oompi: an object message of " + n + " bytes exceeds a Java array");
    }
    Scratch s = lease();
    try {
      if (s.recv.length < n) s.recv = new byte[(int) Math.max(n, Math.min(2L * s.recv.length, Integer.MAX_VALUE - 16))];
      // the range of the message's size only: the rest of the scratch array is not touched
      m.recv(s.recv, 0, n);
      return type == null ? null : Wire.read(s.recv, 0, (int) n, type, byValue);
    } finally {
      release(s);
    }
  }

  /** Nonblocking send: serializes now into a direct buffer that the request keeps until the
   *  send completes (a Java array could move during the send). */
  static Request iosend(Comm comm, Object obj, boolean byValue, int dest, int tag) {
    WireWriter w = WireWriter.lease();
    try {
      Wire.write(w, obj, byValue);
      ByteBuffer b = ByteBuffer.allocateDirect(w.pos).order(ByteOrder.nativeOrder());
      b.put(w.buf, 0, w.pos).flip();
      return comm.isend(b, dest, tag);
    } finally {
      w.release();
    }
  }

  static <T> ObjectRequest<T> iorecv(Comm comm, Class<T> type, boolean byValue, int source, int tag) {
    if (type == null) throw new NullPointerException("oompi: iorecv needs the class to receive");
    WirePlan.top(type, byValue);  // not transportable: fail before matching anything
    return new ObjectRequest<>(comm, type, byValue, source, tag);
  }

  // --- collectives --------------------------------------------------------------------------

  private static RuntimeException remote(String op, long code) {
    if ((code & PICKLED) != 0)
      return new IllegalArgumentException("oompi: " + op + ": a Python rank pickles its objects (no type= there), "
          + "which this rank cannot read: pass type= on every Python rank");
    if ((code & FAILURE_ARGUMENT) != 0)
      return new IllegalArgumentException("oompi: " + op + ": invalid arguments on another rank");
    return new SerializationException("oompi: " + op + ": another rank could not serialize its objects (it threw there)");
  }

  /** A pickling Python root's bytes follow its code although this rank refuses them: the rank
   *  takes them (or the root, on a large message, would wait for it and the next collective
   *  would match them), then throws. */
  private static boolean pickledBytesFollow(long code) {
    return (code & PICKLED) != 0 && (code & (FAILURE_SERIALIZE | PICKLED_ARGUMENT)) == 0;
  }

  /** After the first frame of a pickling Python root's obcast: its out-of-band buffers, one
   *  Bcast each, announced by a header "OOB1", u32 n, n u64 sizes (little-endian). */
  private static void drainPickledBuffers(Comm oc, byte[] first, int root) {
    if (first.length < 8 || first[0] != 'O' || first[1] != 'O' || first[2] != 'B' || first[3] != '1') return;
    ByteBuffer h = ByteBuffer.wrap(first).order(ByteOrder.LITTLE_ENDIAN);
    long n = Integer.toUnsignedLong(h.getInt(4));
    if (first.length < 8 + 8 * n) return;
    for (int i = 0; i < n; i++) oc.bcast(new byte[(int) Math.min(h.getLong(8 + 8 * i), MAX_ARRAY)], root);
  }

  private static void raise(String op, long code, RuntimeException local) {
    if (local != null) throw local;
    if ((code & (FAILURE_ARGUMENT | FAILURE_SERIALIZE)) != 0) throw remote(op, code);
  }

  static <T> T obcast(Comm comm, T obj, Class<T> type, int root) {
    Comm oc = comm.objectComm();
    try {
      boolean atRoot = comm.getRank() == root;
      long[] meta = {0, 0};
      byte[] bytes = null;
      RuntimeException local = null;
      if (atRoot) {
        try {
          bytes = Wire.encode(obj);
          meta[0] = bytes.length;
        } catch (RuntimeException e) {
          local = e;
          meta[1] = FAILURE_SERIALIZE;
        }
      }
      oc.bcast(meta, root);
      boolean refused = !atRoot && pickledBytesFollow(meta[1]);
      if (!refused) raise("obcast", meta[1], local);
      if (!atRoot) bytes = new byte[(int) meta[0]];
      oc.bcast(bytes, root);
      if (refused) {
        drainPickledBuffers(oc, bytes, root);
        throw remote("obcast", meta[1]);
      }
      if (atRoot) return obj;
      if (type == null) {
        if (bytes.length == 4 && bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0) return null;
        throw new IllegalArgumentException("oompi: obcast(obj, root): obj is null on rank " + comm.getRank()
            + ", so its class is unknown; use obcast(obj, type, root)");
      }
      return Wire.read(bytes, 0, bytes.length, type, false);
    } finally {
      oc.delete();
    }
  }

  static <T> List<T> oscatterv(Comm comm, List<? extends T> all, int[] counts, Class<T> type, int root) {
    if (type == null) throw new NullPointerException("oompi: oscatter needs the element class");
    String op = counts == null ? "oscatter" : "oscatterv";
    Comm oc = comm.objectComm();
    try {
      int p = comm.getSize();
      boolean atRoot = comm.getRank() == root;
      long[] meta = new long[atRoot ? 2 * p : 0];
      int[] offsets = new int[p + 1];
      byte[] bytes = null;
      RuntimeException local = null;
      if (atRoot) {
        long code = 0;
        try {
          if (all == null) throw new IllegalArgumentException("oompi: " + op + ": the list is null at the root");
          int[] c = counts;
          if (c == null) {
            c = new int[p];
            for (int i = 0; i < p; i++) c[i] = all.size() / p + (i < all.size() % p ? 1 : 0);
          }
          long total = 0;
          for (int x : c) {
            if (x < 0) total = -1L << 40;
            total += x;
          }
          if (c.length != p || total != all.size())
            throw new IllegalArgumentException("oompi: " + op + ": counts must have one entry per rank (" + p
                + ") and add up to the list size (" + all.size() + ")");
          try {
            WireWriter w = new WireWriter(256);
            int first = 0;
            for (int i = 0; i < p; i++) {
              w.newGraph();
              Wire.writeList(w, all.subList(first, first + c[i]), type);
              first += c[i];
              offsets[i + 1] = w.pos;
              meta[2 * i] = offsets[i + 1] - offsets[i];
            }
            bytes = w.toByteArray();
            if (bytes.length > objectIntLimit) code = LARGE_PATH;
          } catch (RuntimeException e) {
            local = e;
            code = FAILURE_SERIALIZE;
          }
        } catch (IllegalArgumentException e) {
          local = e;
          code = FAILURE_ARGUMENT;
        }
        for (int i = 0; i < p; i++) meta[2 * i + 1] = code;
      }
      long[] mine = new long[2];
      oc.scatter(meta, mine, root);
      boolean refused = !atRoot && pickledBytesFollow(mine[1]);  // take the bytes, then throw
      if (!refused) raise(op, mine[1], local);
      boolean large = (mine[1] & LARGE_PATH) != 0;
      if (large && mine[0] > MAX_ARRAY) {  // only a C++ root can send that much: take it, then refuse it
        drain(oc, root, TAG_LARGE);
        if (refused) throw remote(op, mine[1]);
        throw new SerializationException("oompi: " + op + ": a slice of " + mine[0] + " bytes exceeds a Java array");
      }
      byte[] slice = new byte[(int) mine[0]];
      if (atRoot) {
        int[] sizes = new int[p], displs = new int[p];
        for (int i = 0; i < p; i++) {
          sizes[i] = offsets[i + 1] - offsets[i];
          displs[i] = offsets[i];
        }
        if (!large) {
          oc.scatterv(bytes, sizes, displs, slice, root);
        } else {  // C++'s large path: one message per rank, tag 14
          for (int i = 0; i < p; i++)
            if (i != root) oc.send(bytes, displs[i], sizes[i], i, TAG_LARGE);
          System.arraycopy(bytes, displs[root], slice, 0, slice.length);
        }
      } else if (!large) {
        oc.scatterv(NOTHING, new int[0], new int[0], slice, root);
      } else {
        oc.recv(slice, root, TAG_LARGE);
      }
      if (refused) throw remote(op, mine[1]);
      List<T> out = new ArrayList<>();
      WireReader r = new WireReader(slice, 0, slice.length);
      Wire.readList(r, type, out);
      Wire.finish(r);
      return out;
    } finally {
      oc.delete();
    }
  }

  static <T> List<T> ogather(Comm comm, List<? extends T> mine, Class<T> type, int root, boolean all) {
    if (type == null) throw new NullPointerException("oompi: ogather needs the element class");
    String op = all ? "oallgather" : "ogather";
    Comm oc = comm.objectComm();
    try {
      int p = comm.getSize(), me = comm.getRank();
      long[] myMeta = {0, 0};
      byte[] bytes = new byte[0];
      RuntimeException local = null;
      try {
        WireWriter w = new WireWriter(256);
        Wire.writeList(w, mine, type);
        bytes = w.toByteArray();
        myMeta[0] = bytes.length;
      } catch (RuntimeException e) {
        local = e;
        myMeta[1] = FAILURE_SERIALIZE;
      }
      long[] meta = new long[2 * p];
      oc.allgather(myMeta, meta);
      long codes = 0;
      for (int i = 0; i < p; i++) codes |= meta[2 * i + 1];
      raise(op, codes, local);
      long[] off = new long[p + 1];
      for (int i = 0; i < p; i++) off[i + 1] = off[i] + meta[2 * i];
      boolean receives = all || me == root;
      List<T> out = new ArrayList<>();
      if (off[p] <= objectIntLimit) {
        byte[] rbuf = new byte[receives ? (int) off[p] : 0];
        int[] counts = new int[p], displs = new int[p];
        for (int i = 0; i < p; i++) {
          counts[i] = (int) meta[2 * i];
          displs[i] = (int) off[i];
        }
        if (all) oc.allgatherv(bytes, rbuf, counts, displs);
        else oc.gatherv(bytes, rbuf, counts, displs, root);
        if (!receives) return Collections.emptyList();
        for (int i = 0; i < p; i++) {
          WireReader r = new WireReader(rbuf, (int) off[i], (int) (off[i + 1] - off[i]));
          Wire.readList(r, type, out);
          Wire.finish(r);
        }
        return out;
      }
      // C++'s large path (more than INT_MAX bytes in all): one Bcast per rank (oallgather) or one
      // message per rank to the root with tag 14 (ogather); each slice in its own array here
      byte[][] slices = new byte[p][];
      slices[me] = bytes;
      long tooLarge = -1;
      if (all) {
        for (int i = 0; i < p; i++) {
          if (i != me) {
            if (meta[2 * i] > MAX_ARRAY)  // only a C++ rank sends that much; a Bcast cannot be drained
              throw new SerializationException("oompi: " + op + ": rank " + i + "'s " + meta[2 * i]
                  + " bytes exceed a Java array");
            slices[i] = new byte[(int) meta[2 * i]];
          }
          oc.bcast(slices[i], i);
        }
      } else if (me == root) {
        for (int i = 0; i < p; i++) {
          if (i == me) continue;
          if (meta[2 * i] > MAX_ARRAY) {
            tooLarge = meta[2 * i];
            drain(oc, i, TAG_LARGE);
          } else {
            slices[i] = new byte[(int) meta[2 * i]];
            oc.recv(slices[i], i, TAG_LARGE);
          }
        }
      } else {
        oc.send(bytes, 0, bytes.length, root, TAG_LARGE);
      }
      if (!receives) return Collections.emptyList();
      if (tooLarge >= 0)
        throw new SerializationException("oompi: " + op + ": a slice of " + tooLarge + " bytes exceeds a Java array");
      for (int i = 0; i < p; i++) {
        WireReader r = new WireReader(slices[i], 0, slices[i].length);
        Wire.readList(r, type, out);
        Wire.finish(r);
      }
      return out;
    } finally {
      oc.delete();
    }
  }
  // --- oalltoall ------------------------------------------------------------------------------

  /** out.get(i) goes to rank i; returns what each rank sent to this one, in rank order (as C++'s
   *  oalltoall: every element is written on its own, an independent graph). */
  static <T> List<T> oalltoall(Comm comm, List<? extends T> out, Class<T> type) {
    Comm oc = comm.objectComm();
    try {
      int p = comm.getSize();
      long code = 0;
      RuntimeException local = null;
      int[] soff = new int[p + 1];
      WireWriter w = WireWriter.lease();
      try {
        if (type == null) {
          local = new NullPointerException("oompi: oalltoall needs the element class");
          code = FAILURE_ARGUMENT;
        } else if (out == null || out.size() != p) {
          local = new IllegalArgumentException("oompi: oalltoall: the list needs one object per rank (" + p
              + "), not " + (out == null ? "null" : out.size() + ""));
          code = FAILURE_ARGUMENT;
        } else {
          try {
            for (int i = 0; i < p; i++) {
              w.newGraph();
              writeAs(w, out.get(i), type, "oalltoall");
              soff[i + 1] = w.pos;
            }
          } catch (RuntimeException e) {
            local = e;
            code = FAILURE_SERIALIZE;
          }
        }
        long[] smeta = new long[2 * p], rmeta = new long[2 * p];
        for (int i = 0; i < p; i++) {
          smeta[2 * i] = code == 0 ? soff[i + 1] - soff[i] : 0;
          smeta[2 * i + 1] = code;
        }
        oc.alltoall(smeta, rmeta);
        long codes = code;
        for (int i = 0; i < p; i++) codes |= rmeta[2 * i + 1];
        raise("oalltoall", codes, local);

        long[] roff = new long[p + 1];
        for (int i = 0; i < p; i++) roff[i + 1] = roff[i] + rmeta[2 * i];
        // C++ takes the large path when any rank's bytes exceed an int; a Java rank also asks for
        // it when its bytes in all do not fit one Java array (then each slice gets its own)
        long limit = Math.min(objectIntLimit, MAX_ARRAY);
        int[] large = {soff[p] > limit || roff[p] > limit ? 1 : 0}, anyLarge = new int[1];
        oc.allreduce(large, anyLarge, Op.MAX);
        List<T> in = new ArrayList<>(p);
        if (anyLarge[0] == 0) {
          byte[] rbuf = new byte[(int) roff[p]];
          int[] sc = new int[p], sd = new int[p], rc = new int[p], rd = new int[p];
          for (int i = 0; i < p; i++) {
            sc[i] = soff[i + 1] - soff[i];
            sd[i] = soff[i];
            rc[i] = (int) (roff[i + 1] - roff[i]);
            rd[i] = (int) roff[i];
          }
          oc.alltoallv(w.buf, sc, sd, rbuf, rc, rd);
          for (int i = 0; i < p; i++) in.add(Wire.read(rbuf, rd[i], rc[i], type, false));
        } else {
          byte[][] slices = alltoallLarge(oc, p, w, soff, rmeta);
          for (int i = 0; i < p; i++) in.add(Wire.read(slices[i], 0, slices[i].length, type, false));
        }
        return in;
      } finally {
        w.release();
      }
    } finally {
      oc.delete();
    }
  }

  /** Writes x as one message of the given type (C++'s save of one object): its class must be
   *  type, and null is refused unless type has a null reference (a Transportable class). */
  private static void writeAs(WireWriter w, Object x, Class<?> type, String op) {
    if (x == null) {
      if (!(WirePlan.top(type, false) instanceof WireCodecs.RefCodec))
        throw new IllegalArgumentException("oompi: " + op + ": null cannot travel as a " + type.getName()
            + " (only a Transportable class has a null reference)");
    } else if (!type.isPrimitive() && !type.isInstance(x)) {
      throw new IllegalArgumentException("oompi: " + op + ": a " + x.getClass().getName() + " where a "
          + type.getName() + " is expected");
    }
    Wire.write(w, x, false);
  }

  private static byte[] encodeAs(Object x, Class<?> type, String op) {
    WireWriter w = WireWriter.lease();
    try {
      writeAs(w, x, type, op);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  /** C++'s large path of oalltoall: every receive (tag 14) posted, then every send, then all
   *  completed; through direct buffers (the transfers are nonblocking). A slice too large for a
   *  Java array is still taken off the queue, then refused. */
  private static byte[][] alltoallLarge(Comm oc, int p, WireWriter w, int[] soff, long[] rmeta) {
    ByteBuffer sbuf = ByteBuffer.allocateDirect(soff[p]).order(ByteOrder.nativeOrder());
    sbuf.put(w.buf, 0, soff[p]).flip();
    ByteBuffer[] rbufs = new ByteBuffer[p];
    List<Request> reqs = new ArrayList<>(2 * p);
    long tooLarge = -1;
    try {
      for (int i = 0; i < p; i++) {
        long n = rmeta[2 * i];
        if (n > MAX_ARRAY) {
          tooLarge = n;
          continue;
        }
        rbufs[i] = ByteBuffer.allocateDirect((int) n).order(ByteOrder.nativeOrder());
        reqs.add(oc.irecv(rbufs[i], i, TAG_LARGE));
      }
      for (int i = 0; i < p; i++)
        reqs.add(oc.isend(sbuf.slice(soff[i], soff[i + 1] - soff[i]).order(ByteOrder.nativeOrder()), i, TAG_LARGE));
      for (int i = 0; i < p; i++)
        if (rbufs[i] == null) drain(oc, i, TAG_LARGE);
      for (Request r : reqs) r.waitFor();
    } finally {
      for (Request r : reqs) r.close();
    }
    if (tooLarge >= 0)
      throw new SerializationException("oompi: oalltoall: an object of " + tooLarge + " bytes exceeds a Java array");
    byte[][] out = new byte[p][];
    for (int i = 0; i < p; i++) {
      out[i] = new byte[rbufs[i].capacity()];
      rbufs[i].get(out[i]);
    }
    return out;
  }

  /** Takes a message that cannot land in a Java array off the queue (truncated on purpose). */
  private static void drain(Comm oc, int source, int tag) {
    Message m = oc.mprobe(source, tag);
    try {
      m.recv(ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()));
    } catch (MPIException ignored) {
      // expected (MPI_ERR_TRUNCATE)
    } finally {
      m.delete();
    }
  }

  // --- oreduce / oallreduce -------------------------------------------------------------------

  /** What reduceToZero leaves on a rank (C++'s detail::object_ops::reduction). */
  private static final class Reduction<T> {
    T value;              // at rank 0: the result (unless failed)
    boolean has;          // value was set
    boolean failed;       // this rank or one below it in the tree failed
    Throwable local;      // this rank's own failure
  }

  /** An argument error found before the reduction starts: the rank takes part as a failed one
   *  (so nobody waits for it) and throws it afterwards. */
  private static Throwable reduceArguments(String op, Object fn, Class<?> type) {
    if (fn == null) return new NullPointerException("oompi: " + op + ": the operator is null");
    if (type == null)
      return new IllegalArgumentException("oompi: " + op + ": obj is null, so its class is unknown; use " + op
          + "(obj, type, ...)");
    return null;
  }

  static <T> T oreduce(Comm comm, T obj, Class<T> type, BinaryOperator<T> op, int root) {
    int p = comm.getSize(), me = comm.getRank();
    if (root < 0 || root >= p)
      throw new IllegalArgumentException("oompi: oreduce: root " + root + " is not a rank of this communicator (size " + p + ")");
    Comm oc = comm.objectComm();
    try {
      Reduction<T> red = reduceToZero(oc, me, p, obj, type, op, "oreduce");
      if (root != 0) {
        if (me == 0) {
          byte[] bytes = null;
          if (!red.failed) {
            try {
              bytes = encodeAs(red.value, type, "oreduce");
            } catch (RuntimeException e) {  // the result cannot be written: the root hears of it
              red.local = e;
              red.failed = true;
            }
          }
          if (red.failed) oc.send(NOTHING, 0, 0, root, TAG_REDUCE_FAILED);
          else oc.send(bytes, 0, bytes.length, root, TAG_FORWARD);
        } else if (me == root) {
          Message m = oc.mprobe(0, MPI.ANY_TAG);
          try {
            if (m.getTag() == TAG_REDUCE_FAILED) {
              receive(m, null, false);
              red.failed = true;
            } else {
              red.value = receive(m, red.local == null ? type : null, false);
              red.has = true;
            }
          } finally {
            m.delete();
          }
        }
      }
      if (red.local != null) throw unchecked(red.local);
      if (me != root) return null;
      if (red.failed) throw new SerializationException("oompi: oreduce: the reduction failed on another rank");
      return red.value;
    } finally {
      oc.delete();
    }
  }

  static <T> T oallreduce(Comm comm, T obj, Class<T> type, BinaryOperator<T> op) {
    int p = comm.getSize(), me = comm.getRank();
    Comm oc = comm.objectComm();
    try {
      Reduction<T> red = reduceToZero(oc, me, p, obj, type, op, "oallreduce");
      long[] meta = {0, red.failed ? FAILURE_SERIALIZE : 0};
      byte[] bytes = NOTHING;
      if (me == 0 && !red.failed) {
        try {
          bytes = encodeAs(red.value, type, "oallreduce");
          meta[0] = bytes.length;
        } catch (RuntimeException e) {
          if (red.local == null) red.local = e;
          meta[1] = FAILURE_SERIALIZE;
        }
      }
      oc.bcast(meta, 0);
      // A pickling Python rank 0 whose reduction succeeded broadcasts its pickle: take it first.
      boolean refused = me != 0 && pickledBytesFollow(meta[1]);
      if (red.local != null && !refused) throw unchecked(red.local);
      if (meta[1] != 0 && !refused) throw new SerializationException("oompi: oallreduce: the reduction failed on another rank");
      if (me != 0) {
        if (meta[0] > MAX_ARRAY)
          throw new SerializationException("oompi: oallreduce: a result of " + meta[0] + " bytes exceeds a Java array");
        bytes = new byte[(int) meta[0]];
      }
      oc.bcast(bytes, 0);
      if (refused) throw red.local != null ? unchecked(red.local) : remote("oallreduce", meta[1]);
      if (me == 0) return red.value;
      return Wire.read(bytes, 0, bytes.length, type, false);
    } finally {
      oc.delete();
    }
  }

  /**
   * C++'s reduce_to_zero: a binomial tree towards rank 0 that keeps rank order. At step `mask` a
   * rank that is a multiple of 2 * mask holds x[r .. r + mask) and receives x[r + mask .. r + 2 *
   * mask) from r + mask (tag 11, or an empty message with tag 12 when that subtree failed), then
   * folds it on the right: op(mine, theirs). A rank that failed still receives from all its
   * children (so none blocks) and reports upwards. MPI errors propagate at once, as in C++.
   */
  private static <T> Reduction<T> reduceToZero(Comm oc, int me, int p, T obj, Class<T> type, BinaryOperator<T> op,
                                               String name) {
    Reduction<T> red = new Reduction<>();
    Throwable argumentError = reduceArguments(name, op, type);
    if (argumentError != null) {
      red.local = argumentError;
      red.failed = true;
    }
    T current = obj;
    for (int mask = 1; mask < p; mask <<= 1) {
      if ((me & mask) != 0) {
        if (!red.failed) {
          WireWriter w = WireWriter.lease();
          try {
            boolean written = false;
            try {
              writeAs(w, current, type, name);
              written = true;
            } catch (RuntimeException e) {  // could not serialize: tell the parent instead
              red.local = e;
              red.failed = true;
            }
            if (written) oc.send(w.buf, 0, w.pos, me - mask, TAG_REDUCE);
          } finally {
            w.release();
          }
        }
        if (red.failed) oc.send(NOTHING, 0, 0, me - mask, TAG_REDUCE_FAILED);
        return red;
      }
      if (me + mask < p) {
        T other = null;
        Message m = oc.mprobe(me + mask, MPI.ANY_TAG);
        try {
          if (m.getTag() == TAG_REDUCE_FAILED) {
            receive(m, null, false);
            red.failed = true;
          } else {
            other = receive(m, red.failed ? null : type, false);
          }
        } catch (MPIException e) {
          throw e;
        } catch (RuntimeException e) {
          if (red.local == null) red.local = e;
          red.failed = true;
        } finally {
          m.delete();
        }
        if (!red.failed) {
          try {
            red.value = op.apply(current, other);
            red.has = true;
            current = red.value;
          } catch (Throwable e) {  // the operator threw: rethrown here after the collective
            red.local = e;
            red.failed = true;
          }
        }
      }
    }
    if (me == 0 && !red.failed && !red.has) {
      try {  // one rank: the result is a copy of its object, as in C++
        byte[] copy = encodeAs(obj, type, name);
        red.value = Wire.read(copy, 0, copy.length, type, false);
        red.has = true;
      } catch (RuntimeException e) {
        red.local = e;
        red.failed = true;
      }
    }
    return red;
  }

  /** Rethrows t as it is (an operator may throw an Error or, sneakily, a checked exception). */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> RuntimeException unchecked(Throwable t) throws E {
    throw (E) t;
  }
}
