package org.oompi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The object operations of {@link Comm} (osend, orecv, obcast, oscatter(v), ogather,
 * oallgather) over the byte-array calls of the facade, in wire format v1 and with the message
 * framing of C++'s include/oompi/object_ops.hpp, so a Java rank and a C++ rank exchange them:
 *
 * <ul>
 *   <li>osend: one MPI_BYTE message; orecv matches it with MPI_Mprobe, sizes the buffer from the
 *       message, takes it with MPI_Mrecv (no size message, no guessed buffer).
 *   <li>collectives run on the communicator's private duplicate (the one C++ uses); failures
 *       (bad arguments at the root, an object that cannot be written) travel with the sizes
 *       ({size, code} pairs of uint64), so every rank throws and none is left waiting.
 *   <li>oscatter/ogather: split representation, one slice per rank, each an independent graph
 *       (size, then the elements, its own id counter), all slices in one buffer moved by one
 *       Scatterv/Gatherv/Allgatherv after the sizes.
 * </ul>
 */
final class ObjectTransport {
  private ObjectTransport() {}

  static final long FAILURE_ARGUMENT = 1, FAILURE_SERIALIZE = 2;
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
      comm.send(w.buf, 0, w.pos, dest, tag);
    } finally {
      w.release();
    }
  }

  static <T> T orecv(Comm comm, Class<T> type, boolean byValue, int source, int tag) {
    if (type == null) throw new NullPointerException("oompi: orecv needs the class to receive");
    WirePlan.top(type, byValue);  // not transportable: fail before receiving anything
    Message m = comm.mprobe(source, tag);
    try {
      return receive(m, type, byValue);
    } finally {
      m.delete();  // frees the native message now (its Cleaner is unregistered)
    }
  }

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
      // the buffer may be longer than the message (MPI takes n bytes), but not much longer: in
      // copy mode (-Doompi.arrays=copy) the whole array is copied
      byte[] buf = s.recv.length > Math.max(4096, 4 * n) ? new byte[(int) n] : s.recv;
      m.recv(buf);
      return Wire.read(buf, 0, (int) n, type, byValue);
    } finally {
      release(s);
    }
  }

  // --- collectives --------------------------------------------------------------------------

  private static RuntimeException remote(String op, long code) {
    if ((code & FAILURE_ARGUMENT) != 0)
      return new IllegalArgumentException("oompi: " + op + ": invalid arguments on another rank");
    return new SerializationException("oompi: " + op + ": another rank could not serialize its objects (it threw there)");
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
      raise("obcast", meta[1], local);
      if (!atRoot) bytes = new byte[(int) meta[0]];
      oc.bcast(bytes, root);
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
      raise(op, mine[1], local);
      byte[] slice = new byte[(int) mine[0]];
      if (atRoot) {
        int[] sizes = new int[p], displs = new int[p];
        for (int i = 0; i < p; i++) {
          sizes[i] = offsets[i + 1] - offsets[i];
          displs[i] = offsets[i];
        }
        oc.scatterv(bytes, sizes, displs, slice, root);
      } else {
        oc.scatterv(new byte[0], new int[0], new int[0], slice, root);
      }
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
      if (off[p] > Integer.MAX_VALUE - 16)
        throw new SerializationException("oompi: " + op + ": " + off[p] + " bytes in all exceed a Java array");
      boolean receives = all || me == root;
      byte[] rbuf = new byte[receives ? (int) off[p] : 0];
      int[] counts = new int[p], displs = new int[p];
      for (int i = 0; i < p; i++) {
        counts[i] = (int) meta[2 * i];
        displs[i] = (int) off[i];
      }
      if (all) oc.allgatherv(bytes, rbuf, counts, displs);
      else oc.gatherv(bytes, rbuf, counts, displs, root);
      if (!receives) return Collections.emptyList();
      List<T> out = new ArrayList<>();
      for (int i = 0; i < p; i++) {
        WireReader r = new WireReader(rbuf, (int) off[i], (int) (off[i + 1] - off[i]));
        Wire.readList(r, type, out);
        Wire.finish(r);
      }
      return out;
    } finally {
      oc.delete();
    }
  }
}
