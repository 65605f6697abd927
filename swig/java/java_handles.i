// Java binding: AutoCloseable handles (Environment, Comm and its kinds).
// Part of the Java entry file java.i, which includes the parts in this order.

// --- handles are AutoCloseable -------------------------------------------------------------
// close() frees the MPI handle (facade close) and the native object; a later call on this
// proxy throws IllegalStateException (the self check below), on other copies of the same
// handle the facade's closed_error does.
%define OOMPI_JAVA_CLOSEABLE(CLASS, CONDITION, EXTRA...)
%typemap(javainterfaces) CLASS "AutoCloseable"
%rename(closeHandle) CLASS::close;
%javamethodmodifiers CLASS::close "private";
%typemap(javacode) CLASS %{
  /** Frees the MPI handle (if this library made it) and the native object. Idempotent. */
  @Override
  public synchronized void close() {
    if (swigCPtr != 0 && CONDITION) {
      closeHandle();
      delete();
    }
  }
EXTRA
%}
%enddef
// A JVM that exits with MPI initialized and not finalized (Environment not closed: an
// uncaught exception, System.exit, a forgotten close) aborts the job from a shutdown hook:
// MPI_Finalize there could wait forever for ranks that are not finalizing. ExitPolicy's action
// (package mpi's) runs first and may finalize instead.
OOMPI_JAVA_CLOSEABLE(oompi::rt::environment, true,
  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (initialized() && !finalized()) ExitPolicy.runBeforeAbort();
      if (initialized() && !finalized()) {
        System.err.println("oompi: the JVM is exiting with MPI not finalized (Environment not "
            + "closed); aborting the MPI job");
        System.err.flush();
        abort(1);
      }
    }, "oompi-shutdown"));
  }
)
OOMPI_JAVA_CLOSEABLE(oompi::rt::comm, true,
  /** The port to `rank` (seed 003's OOMPI ports): port.send(buf), port.recv(buf), tag 0. */
  public Port port(int rank) {
    return new Port(this, rank);
  }

  /** Sends buf (a primitive array or a direct buffer) to dest with tag (0 by default). */
  public void send(Object buf, int dest, int tag) {
    if (!Port.trySend(this, buf, dest, tag)) sendAny(buf, dest, tag);
  }

  public void send(Object buf, int dest) { send(buf, dest, 0); }

  /** Starts sending buf (a direct buffer, used in place, or a primitive array, copied) to dest
   *  with tag (0 by default); complete the request with waitFor()/test() or close it. */
  public Request isend(Object buf, int dest, int tag) {
    Request r = Request.isendLight(this, buf, dest, tag);
    return r != null ? r : isendAny(buf, dest, tag);
  }

  public Request isend(Object buf, int dest) { return isend(buf, dest, 0); }

  /** Starts receiving into buf from source (MPI.ANY_SOURCE by default) with tag (MPI.ANY_TAG);
   *  an array is filled when the request completes (only the elements the message fills). */
  public Request irecv(Object buf, int source, int tag) {
    Request r = Request.irecvLight(this, buf, source, tag);
    if (r != null) return r;
    int kind = Port.arrayKind(buf);
    // an array: as its whole range (copied back as far as the message goes)
    if (kind >= 0) return irecvArray(buf, 0, java.lang.reflect.Array.getLength(buf), kind, source, tag);
    return irecvAny(buf, source, tag);
  }

  public Request irecv(Object buf, int source) { return irecv(buf, source, MPI.ANY_TAG); }

  public Request irecv(Object buf) { return irecv(buf, MPI.ANY_SOURCE, MPI.ANY_TAG); }

  /** Receives into buf from source (MPI.ANY_SOURCE by default) with tag (MPI.ANY_TAG). */
  public Status recv(Object buf, int source, int tag) {
    if (source >= 0 && tag >= 0) {
      // Source and tag known: of the status only the size is news (returned by the call).
      long n = Port.recvFast(this, buf, source, tag, Port.COUNT, null);
      if (n != Port.NOT_FAST) return new Status(source, tag, n);
    } else {
      java.nio.ByteBuffer slot = Status.slot();
      if (Port.tryRecv(this, buf, source, tag, slot)) return new Status(slot);
    }
    return recvAny(buf, source, tag);
  }

  public Status recv(Object buf, int source) { return recv(buf, source, MPI.ANY_TAG); }

  public Status recv(Object buf) { return recv(buf, MPI.ANY_SOURCE, MPI.ANY_TAG); }

  // --- ranges: [offset, offset + count) of buf (issue 29: an array's other elements are not
  // touched, and the call costs what the range carries) ----------------------------------

  /** Sends elements [offset, offset + count) of buf (an array, a direct buffer from its
   *  position, ...) to dest with tag. */
  public void send(Object buf, long offset, long count, int dest, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) {
      sendPart(buf, offset, count, dest, tag);
      return;
    }
    Port.checkRange(buf, offset, count, "Comm.send");
    if (ArrayRanges.small(buf, (int) count)) ArrayRanges.send(this, buf, (int) offset, (int) count, kind, dest, tag);
    else sendArray(buf, (int) offset, (int) count, kind, dest, tag);
  }

  /** Receives into elements [offset, offset + count) of buf from source with tag; of an array
   *  only the elements the message fills are written. */
  public Status recv(Object buf, long offset, long count, int source, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvPart(buf, offset, count, source, tag);
    Port.checkRange(buf, offset, count, "Comm.recv");
    if (ArrayRanges.smallRecv(buf, (int) count)) {
      if (source >= 0 && tag >= 0)  // of the status only the size is news
        return new Status(source, tag, ArrayRanges.recv(this, buf, (int) offset, (int) count, kind, source, tag, null));
      java.nio.ByteBuffer slot = Status.slot();
      ArrayRanges.recv(this, buf, (int) offset, (int) count, kind, source, tag, slot);
      return new Status(slot);
    }
    java.nio.ByteBuffer slot = Status.slot();
    recvArrayStatus(buf, (int) offset, (int) count, kind, source, tag, slot);
    return new Status(slot);
  }

  /** Starts sending elements [offset, offset + count) of buf: of an array, a copy of the range
   *  made now; of a direct buffer, the memory in place. */
  public Request isend(Object buf, long offset, long count, int dest, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return isend(Port.slice(buf, offset, count, "Comm.isend"), dest, tag);
    Port.checkRange(buf, offset, count, "Comm.isend");
    if (ArrayRanges.smallNonblocking(buf, (int) count))  // a light request on a pooled block
      return ArrayRanges.isend(this, buf, (int) offset, (int) count, kind, dest, tag);
    return isendArray(buf, (int) offset, (int) count, kind, dest, tag);
  }

  /** Starts receiving into elements [offset, offset + count) of buf: an array receives through
   *  a copy of the range, of which the elements the message filled are copied back into the
   *  range when the request completes (wait, test or a set; nothing if it failed or was closed
   *  pending): the array's other elements, and the range past a shorter message, are never
   *  written. */
  public Request irecv(Object buf, long offset, long count, int source, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return irecv(Port.slice(buf, offset, count, "Comm.irecv"), source, tag);
    Port.checkRange(buf, offset, count, "Comm.irecv");
    if (ArrayRanges.smallNonblocking(buf, (int) count))
      return ArrayRanges.irecv(this, buf, (int) offset, (int) count, kind, source, tag);
    return irecvArray(buf, (int) offset, (int) count, kind, source, tag);
  }

  // --- object graphs in wire format v1 (ObjectTransport.java, docs/wire-format.md) ---------

  /** Sends obj and the graph of its @Transportable fields as one message. An object of a
   *  Transportable class travels as a reference (C++ std::shared_ptr): null allowed, sharing
   *  and cycles kept, the root included. Strings, primitive arrays, arrays of those and boxed
   *  numbers travel as values. Not transportable: IllegalArgumentException naming the class. */
  public void osend(Object obj, int dest, int tag) { ObjectTransport.osend(this, obj, false, dest, tag); }

  public void osend(Object obj, int dest) { osend(obj, dest, 0); }

  /** Sends a Transportable object by value (C++ receives a T, not a shared_ptr). */
  public void osendValue(Object obj, int dest, int tag) { ObjectTransport.osend(this, obj, true, dest, tag); }

  /** Receives one object message of any size (matched probe: MPI_Mprobe, its size, MPI_Mrecv). */
  public <T> T orecv(Class<T> type, int source, int tag) { return ObjectTransport.orecv(this, type, false, source, tag); }

  public <T> T orecv(Class<T> type, int source) { return orecv(type, source, MPI.ANY_TAG); }

  /** Receives a Transportable object sent by value (osendValue, or a C++ T). */
  public <T> T orecvValue(Class<T> type, int source, int tag) { return ObjectTransport.orecv(this, type, true, source, tag); }

  /** The root's object on every rank (obj matters at the root only). */
  public <T> T obcast(T obj, Class<T> type, int root) { return ObjectTransport.obcast(this, obj, type, root); }

  /** The root's object on every rank; obj's class is the type (obj must not be null anywhere). */
  @SuppressWarnings("unchecked")
  public <T> T obcast(T obj, int root) {
    return ObjectTransport.obcast(this, obj, obj == null ? null : (Class<T>) obj.getClass(), root);
  }

  /** This rank's block of the root's list, cut as evenly as possible (the first size % n ranks
   *  get one more); each block is an independent graph (split representation). */
  public <T> java.util.List<T> oscatter(java.util.List<? extends T> all, Class<T> type, int root) {
    return ObjectTransport.oscatterv(this, all, null, type, root);
  }

  /** This rank's block of the root's list: counts[i] elements for rank i, in order. */
  public <T> java.util.List<T> oscatterv(java.util.List<? extends T> all, int[] counts, Class<T> type, int root) {
    return ObjectTransport.oscatterv(this, all, counts, type, root);
  }

  /** Every rank's list concatenated in rank order at the root (an empty list elsewhere). */
  public <T> java.util.List<T> ogather(java.util.List<? extends T> mine, Class<T> type, int root) {
    return ObjectTransport.ogather(this, mine, type, root, false);
  }

  /** Every rank's list concatenated in rank order, on every rank. */
  public <T> java.util.List<T> oallgather(java.util.List<? extends T> mine, Class<T> type) {
    return ObjectTransport.ogather(this, mine, type, 0, true);
  }

  /** Nonblocking osend: serializes now; the request keeps the bytes (in a direct buffer) until
   *  the send completes. Wait for it (or close it) before relying on the receiver having it. */
  public Request iosend(Object obj, int dest, int tag) { return ObjectTransport.iosend(this, obj, false, dest, tag); }

  /** Nonblocking osendValue. */
  public Request iosendValue(Object obj, int dest, int tag) { return ObjectTransport.iosend(this, obj, true, dest, tag); }

  /** Nonblocking receive of one object message of any size (MPI_Improbe, then MPI_Imrecv of
   *  exactly its size): poll test(), or waitFor()/get() it, which returns the object. */
  public <T> ObjectRequest<T> iorecv(Class<T> type, int source, int tag) {
    return ObjectTransport.iorecv(this, type, false, source, tag);
  }

  public <T> ObjectRequest<T> iorecv(Class<T> type, int source) { return iorecv(type, source, MPI.ANY_TAG); }

  /** Nonblocking orecvValue. */
  public <T> ObjectRequest<T> iorecvValue(Class<T> type, int source, int tag) {
    return ObjectTransport.iorecv(this, type, true, source, tag);
  }

  /** out.get(i) goes to rank i (one element per rank); returns what each rank sent to this one,
   *  in rank order. Each element is its own graph (objects shared between elements arrive as
   *  copies). Wrong length or an element that cannot be written: every rank throws. */
  public <T> java.util.List<T> oalltoall(java.util.List<? extends T> out, Class<T> type) {
    return ObjectTransport.oalltoall(this, out, type);
  }

  /** oalltoall over an array: out[i] goes to rank i. */
  @SuppressWarnings("unchecked")
  public <T> T[] oalltoall(T[] out, Class<T> type) {
    java.util.List<T> in = ObjectTransport.oalltoall(this, out == null ? null : java.util.Arrays.asList(out), type);
    return in.toArray((T[]) java.lang.reflect.Array.newInstance(type, in.size()));
  }

  /** op(op(op(x0, x1), x2), ...) over the ranks' objects in rank order (op need not be
   *  commutative) at the root, null elsewhere (C++'s oreduce, so C++ ranks take part). If op
   *  throws on a rank, that rank throws it and the root throws SerializationException. */
  public <T> T oreduce(T obj, Class<T> type, java.util.function.BinaryOperator<T> op, int root) {
    return ObjectTransport.oreduce(this, obj, type, op, root);
  }

  /** oreduce with obj's class as the type (obj must not be null). */
  @SuppressWarnings("unchecked")
  public <T> T oreduce(T obj, java.util.function.BinaryOperator<T> op, int root) {
    return ObjectTransport.oreduce(this, obj, obj == null ? null : (Class<T>) obj.getClass(), op, root);
  }

  /** The reduction in rank order, on every rank. If op throws on a rank, that rank throws it and
   *  every other rank throws SerializationException. */
  public <T> T oallreduce(T obj, Class<T> type, java.util.function.BinaryOperator<T> op) {
    return ObjectTransport.oallreduce(this, obj, type, op);
  }

  /** oallreduce with obj's class as the type (obj must not be null). */
  @SuppressWarnings("unchecked")
  public <T> T oallreduce(T obj, java.util.function.BinaryOperator<T> op) {
    return ObjectTransport.oallreduce(this, obj, obj == null ? null : (Class<T>) obj.getClass(), op);
  }

  /** A Cartesian grid (seed 000, Fig. 14): periods[i] true when dimension i wraps around. */
  public CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
    if (periods == null) throw new NullPointerException("oompi: null periods");
    int[] p = new int[periods.length];
    for (int i = 0; i < p.length; i++) p[i] = periods[i] ? 1 : 0;
    return createCart(dims, p, reorder);
  }
)
%typemap(javacode) oompi::rt::cart_comm %{
  /** MPI_Dims_create in place (seed 000's spelling): zeros of dims are filled in. */
  public static void createDims(int nnodes, int[] dims) {
    int[] d = dimsCreate(nnodes, dims);
    System.arraycopy(d, 0, dims, 0, d.length);
  }
%}
