// Java entry file: package org.oompi, module class MPI (constants), JNI class MPIJNI.
// Naming: camelCase methods, PascalCase classes, UPPER_CASE constants and enum items.
%module(directors="1") MPI

%include <enums.swg>   // C++ enums become Java enums

%{
#include "oompi_java.hpp"
#include "../bench_support.hpp"
#include <oompi/object_ops.hpp>
#include <oompi/rt/interop.hpp>
%}

%define OOMPI_TRANSLATE_EXCEPTION oompi::java::translate(jenv) %enddef
%define OOMPI_FAIL return $null; %enddef
%define OOMPI_AFTER_ACTION %enddef

// --- naming ------------------------------------------------------------------------------
%rename("%(lowercamelcase)s", %$isfunction) "";
%rename("%(camelcase)s", %$isclass) "";
%rename("%(camelcase)s", %$isenum) "";
%rename("%(upper)s", %$isenumitem) "";
%rename("%(upper)s", %$isconstant) "";
%rename("%(camelcase)s", %$isvariable) "";  // attributes: getErrorClass()
// Object.wait() is final in Java: Request.waitFor() (written below, light requests).
// Offset/count overloads: send(buf, offset, count, dest, tag), recv(buf, offset, count, src, tag)
// (Comm's javacode: arrays through Port's range paths, which touch only the range; other
// buffers through these).
%rename(sendPart) oompi::rt::comm::send_part;
%rename(recvPart) oompi::rt::comm::recv_part;
%javamethodmodifiers oompi::rt::comm::send_part "private";
%javamethodmodifiers oompi::rt::comm::recv_part "private";
// Message.recv: arrays through the range path (Message's javacode), other buffers through this.
%rename(recvAny) oompi::rt::message::recv;
%javamethodmodifiers oompi::rt::message::recv "private";
%typemap(javacode) oompi::rt::message %{
  /** Receives the message into buf (an array: only the elements it fills are written). */
  public Status recv(Object buf) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvAny(buf);
    return recv(buf, 0, java.lang.reflect.Array.getLength(buf));
  }

  /** Receives the message into elements [offset, offset + count) of buf. */
  public Status recv(Object buf, long offset, long count) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvAny(Port.slice(buf, offset, count, "message.recv"));
    Port.checkRange(buf, offset, count, "message.recv");
    java.nio.ByteBuffer slot = Status.slot();
    recvArrayStatus(buf, (int) offset, (int) count, kind, slot);
    return new Status(slot);
  }
%}

// --- run-time buffers -------------------------------------------------------------------
// A buffer is an Object: a primitive array (blocking calls) or a direct java.nio buffer.
%typemap(jni) const oompi::rt::buffer&, oompi::rt::buffer&,
              const oompi::rt::async_buffer&, oompi::rt::async_buffer& "jobject"
%typemap(jtype) const oompi::rt::buffer&, oompi::rt::buffer&,
                const oompi::rt::async_buffer&, oompi::rt::async_buffer& "Object"
%typemap(jstype) const oompi::rt::buffer&, oompi::rt::buffer&,
                 const oompi::rt::async_buffer&, oompi::rt::async_buffer& "Object"
%typemap(javain) const oompi::rt::buffer&, oompi::rt::buffer&,
                 const oompi::rt::async_buffer&, oompi::rt::async_buffer& "$javainput"

%typemap(in) const oompi::rt::buffer& (oompi::rt::buffer tmp, oompi::java::pin pin) %{
  if (!oompi::java::describe(jenv, $input, false, false, tmp, pin)) return $null;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::buffer& (oompi::rt::buffer tmp, oompi::java::pin pin) %{
  if (!oompi::java::describe(jenv, $input, true, false, tmp, pin)) return $null;
  $1 = &tmp;
%}
// Copied only after every argument is converted (a failed conversion leaves nothing to undo).
%typemap(check) const oompi::rt::buffer&, oompi::rt::buffer& %{
  if (pin$argnum.array && !pin$argnum.acquire(jenv, tmp$argnum)) return $null;
%}

// Nonblocking operations: a direct buffer in place, or a primitive array through a native copy
// (copied back into the array when a receive completes; oompi::java::describe_async). Arrays
// are refused for persistent requests (the *_init functions: a copy would not follow the
// array's contents from one start() to the next) and, below, for window memory and one-sided
// results.
%typemap(in) const oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::java::describe_async(jenv, $input, false, std::strstr("$symname", "Init") != nullptr, tmp))
    return $null;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::java::describe_async(jenv, $input, true, std::strstr("$symname", "Init") != nullptr, tmp))
    return $null;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::async_buffer& memory (oompi::rt::async_buffer tmp, oompi::java::pin pin),
             oompi::rt::async_buffer& result (oompi::rt::async_buffer tmp, oompi::java::pin pin) %{
  if (!oompi::java::describe(jenv, $input, true, true, tmp, pin)) return $null;
  tmp.keep.reset(new oompi::java::global_ref_keep(jenv, $input));
  $1 = &tmp;
%}

// --- counts, displacements, ranks, coordinates: Java arrays ---------------------------------
// const std::vector<int>& takes an int[] (long[] for long long); std::vector<int> returns one.
// Expanded by oompi.i after its IntVector/Int64Vector templates, which keep their own methods.
%define OOMPI_JAVA_ARRAY_VECTOR(CTYPE, JNITYPE, JTYPE, REGION)
%typemap(jni) const std::vector<CTYPE>&, std::vector<CTYPE> #JNITYPE "Array"
%typemap(jtype) const std::vector<CTYPE>&, std::vector<CTYPE> #JTYPE "[]"
%typemap(jstype) const std::vector<CTYPE>&, std::vector<CTYPE> #JTYPE "[]"
%typemap(javain) const std::vector<CTYPE>& "$javainput"
%typemap(javaout) std::vector<CTYPE> { return $jnicall; }
%typemap(in) const std::vector<CTYPE>& (std::vector<CTYPE> tmp) %{
  if (!$input) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "oompi: null array");
    return $null;
  }
  tmp.resize(static_cast<std::size_t>(jenv->GetArrayLength($input)));
  if (!tmp.empty())
    jenv->Get##REGION##ArrayRegion($input, 0, static_cast<jsize>(tmp.size()),
                                   reinterpret_cast<JNITYPE*>(tmp.data()));
  $1 = &tmp;
%}
%typemap(out) std::vector<CTYPE> %{
  $result = jenv->New##REGION##Array(static_cast<jsize>($1.size()));
  if ($result && !$1.empty())
    jenv->Set##REGION##ArrayRegion($result, 0, static_cast<jsize>($1.size()),
                                   reinterpret_cast<const JNITYPE*>($1.data()));
%}
%enddef
%define OOMPI_VECTOR_TYPEMAPS
OOMPI_JAVA_ARRAY_VECTOR(int, jint, int, Int)
OOMPI_JAVA_ARRAY_VECTOR(long long, jlong, long, Long)
%enddef

// --- statuses: plain Java objects (Status.java), no native memory, no finalizer ------------
%typemap(jni) oompi::rt::status, oompi::rt::status* "jlongArray"
%typemap(jtype) oompi::rt::status, oompi::rt::status* "long[]"
%typemap(jstype) oompi::rt::status, oompi::rt::status* "Status"
%typemap(javaout) oompi::rt::status {
    return new Status($jnicall);
  }
%typemap(javaout) oompi::rt::status* {
    long[] raw = $jnicall;
    return raw == null ? null : new Status(raw);
  }
%typemap(out) oompi::rt::status %{ $result = oompi::java::status_array(jenv, $1); %}
%typemap(out) oompi::rt::status* %{
  $result = $1 ? oompi::java::status_array(jenv, *$1) : nullptr;
  delete $1;
%}

// --- proxies freed by java.lang.ref.Cleaner, not finalize() ---------------------------------
// The cleaning action holds the C++ pointer only (never the proxy); delete()/close() runs it at
// once and unregisters it, so the native object is freed exactly once.
%define OOMPI_JAVA_CLEANER(CLASS)
%typemap(javafinalize) CLASS ""
%typemap(javabody) CLASS %{
  private transient long swigCPtr;
  protected transient boolean swigCMemOwn;
  private transient java.lang.ref.Cleaner.Cleanable swigCleanable;

  protected $javaclassname(long cPtr, boolean cMemoryOwn) {
    swigCMemOwn = cMemoryOwn;
    swigCPtr = cPtr;
    if (cMemoryOwn && cPtr != 0)
      swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(cPtr));
  }

  private static final class SwigFree implements Runnable {
    private final long ptr;
    SwigFree(long ptr) { this.ptr = ptr; }
    @Override
    public void run() { $imclassname.delete_$javaclassname(ptr); }
  }

  protected static long getCPtr($javaclassname obj) {
    return (obj == null) ? 0 : obj.swigCPtr;
  }
%}
%typemap(javadestruct, methodname="delete", methodmodifiers="public synchronized") CLASS {
    if (swigCPtr != 0) {
      if (swigCMemOwn) {
        swigCMemOwn = false;
        if (swigCleanable != null) swigCleanable.clean();
        else $jnicall;
      }
      swigCPtr = 0;
    }
  }
%enddef
OOMPI_JAVA_CLEANER(oompi::rt::environment)
OOMPI_JAVA_CLEANER(oompi::rt::comm)
OOMPI_JAVA_CLEANER(oompi::rt::datatype)
OOMPI_JAVA_CLEANER(oompi::rt::op)
OOMPI_JAVA_CLEANER(oompi::rt::message)  // one per orecv: no finalizer
OOMPI_JAVA_CLEANER(oompi::rt::group)
OOMPI_JAVA_CLEANER(oompi::rt::cart_shift)
OOMPI_JAVA_CLEANER(oompi::rt::info)
OOMPI_JAVA_CLEANER(oompi::rt::keyval)
OOMPI_JAVA_CLEANER(oompi::rt::comm_future)
OOMPI_JAVA_CLEANER(oompi::rt::datatype_contents)

// Communicators of a kind (CartComm, DistGraphComm, Intercomm) extend Comm: their proxy owns
// the native object (Comm's part does not), freed by the same Cleaner scheme; Comm.close()
// closes the shared handle, then delete() here frees the object.
%define OOMPI_JAVA_CLEANER_DERIVED(CLASS)
%typemap(javafinalize) CLASS ""
%typemap(javabody_derived) CLASS %{
  private transient long swigCPtr;
  private transient java.lang.ref.Cleaner.Cleanable swigCleanable;

  protected $javaclassname(long cPtr, boolean cMemoryOwn) {
    super($imclassname.$javaclazznameSWIGUpcast(cPtr), false);
    swigCPtr = cPtr;
    swigCMemOwn = cMemoryOwn;
    if (cMemoryOwn && cPtr != 0)
      swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(cPtr));
  }

  private static final class SwigFree implements Runnable {
    private final long ptr;
    SwigFree(long ptr) { this.ptr = ptr; }
    @Override
    public void run() { $imclassname.delete_$javaclassname(ptr); }
  }

  protected static long getCPtr($javaclassname obj) {
    return (obj == null) ? 0 : obj.swigCPtr;
  }
%}
%typemap(javadestruct_derived, methodname="delete", methodmodifiers="public synchronized") CLASS {
    if (swigCPtr != 0) {
      if (swigCMemOwn) {
        swigCMemOwn = false;
        if (swigCleanable != null) swigCleanable.clean();
        else $jnicall;
      }
      swigCPtr = 0;
    }
    super.delete();
  }
%enddef
OOMPI_JAVA_CLEANER_DERIVED(oompi::rt::topo_comm)
OOMPI_JAVA_CLEANER_DERIVED(oompi::rt::cart_comm)
OOMPI_JAVA_CLEANER_DERIVED(oompi::rt::dist_graph_comm)
OOMPI_JAVA_CLEANER_DERIVED(oompi::rt::graph_comm)
OOMPI_JAVA_CLEANER_DERIVED(oompi::rt::intercomm)

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
// MPI_Finalize there could wait forever for ranks that are not finalizing.
OOMPI_JAVA_CLOSEABLE(oompi::rt::environment, true,
  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
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
   *  an array is filled when the request completes. */
  public Request irecv(Object buf, int source, int tag) {
    Request r = Request.irecvLight(this, buf, source, tag);
    return r != null ? r : irecvAny(buf, source, tag);
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
    Port.checkRange(buf, offset, count, "comm.send");
    sendArray(buf, (int) offset, (int) count, kind, dest, tag);
  }

  /** Receives into elements [offset, offset + count) of buf from source with tag; of an array
   *  only the elements the message fills are written. */
  public Status recv(Object buf, long offset, long count, int source, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvPart(buf, offset, count, source, tag);
    Port.checkRange(buf, offset, count, "comm.recv");
    java.nio.ByteBuffer slot = Status.slot();
    recvArrayStatus(buf, (int) offset, (int) count, kind, source, tag, slot);
    return new Status(slot);
  }

  /** Starts sending elements [offset, offset + count) of buf: of an array, a copy of the range
   *  made now; of a direct buffer, the memory in place. */
  public Request isend(Object buf, long offset, long count, int dest, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return isend(Port.slice(buf, offset, count, "comm.isend"), dest, tag);
    Port.checkRange(buf, offset, count, "comm.isend");
    return isendArray(buf, (int) offset, (int) count, kind, dest, tag);
  }

  /** Starts receiving into elements [offset, offset + count) of buf: an array receives through
   *  a copy of the range, copied back into the range when the request completes (the array's
   *  other elements are never written). */
  public Request irecv(Object buf, long offset, long count, int source, int tag) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return irecv(Port.slice(buf, offset, count, "comm.irecv"), source, tag);
    Port.checkRange(buf, offset, count, "comm.irecv");
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

// --- requests: light mode -----------------------------------------------------------------
// comm.isend/irecv of a direct buffer (in native order, the Port fast paths' kinds) make a "light"
// request: the bare MPI_Request as a long and the buffer in a field, no native object, no global
// reference, no Cleaner, no other object, no lock or fence; waitFor/test get the status packed in
// the long they return (no slot, no Status kept). The buffer's memory stays valid while MPI may
// use it because the request keeps the buffer reachable and the request itself is held (strongly)
// by its thread's ring of the 16 youngest light requests; one still pending when 16 younger ones
// have been made on that thread gets a Cleaner then (promote, on that thread; a completion on
// another thread locks against it), whose action (Light) holds the buffer and, if the request is
// collected pending, hands handle and buffer to a native request that is dropped at once: the
// facade's reclaim list completes it on the MPI thread (as for any request dropped pending). Rings
// are never freed (a thread's end must not drop its pending requests): 16 slots per thread that
// ever made a light request. Anything only native requests do (cancel, start, a RequestVector,
// delete) first turns it native (makeNative).
%rename(waitNative) oompi::rt::request::wait;
%rename(testNative) oompi::rt::request::test;
%rename(cancelNative) oompi::rt::request::cancel;
%rename(isPendingNative) oompi::rt::request::is_pending;
%rename(isPersistentNative) oompi::rt::request::is_persistent;
%rename(lastStatusNative) oompi::rt::request::last_status;
%rename(startNative) oompi::rt::request::start;
%rename(closeHandle) oompi::rt::request::close;
%javamethodmodifiers oompi::rt::request::wait "private";
%javamethodmodifiers oompi::rt::request::test "private";
%javamethodmodifiers oompi::rt::request::cancel "private";
%javamethodmodifiers oompi::rt::request::is_pending "private";
%javamethodmodifiers oompi::rt::request::is_persistent "private";
%javamethodmodifiers oompi::rt::request::last_status "private";
%javamethodmodifiers oompi::rt::request::start "private";
%javamethodmodifiers oompi::rt::request::close "private";
%typemap(javafinalize) oompi::rt::request ""
%typemap(javainterfaces) oompi::rt::request "AutoCloseable"
%typemap(javabody) oompi::rt::request %{
  private transient long swigCPtr;
  protected transient boolean swigCMemOwn;
  private transient java.lang.ref.Cleaner.Cleanable swigCleanable;

  protected $javaclassname(long cPtr, boolean cMemoryOwn) {
    swigCMemOwn = cMemoryOwn;
    swigCPtr = cPtr;
    if (cMemoryOwn && cPtr != 0)
      swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(cPtr));
  }

  private static final class SwigFree implements Runnable {
    private final long ptr;
    SwigFree(long ptr) { this.ptr = ptr; }
    @Override
    public void run() { $imclassname.delete_$javaclassname(ptr); }
  }

  /** The native object (a light request becomes native first). */
  protected static long getCPtr($javaclassname obj) {
    if (obj == null) return 0;
    obj.makeNative();
    return obj.swigCPtr;
  }
%}
%typemap(javadestruct, methodname="delete", methodmodifiers="public synchronized") oompi::rt::request {
    makeNative();  // a pending light request: to the reclaim list through a native one
    if (swigCPtr != 0) {
      if (swigCMemOwn) {
        swigCMemOwn = false;
        if (swigCleanable != null) swigCleanable.clean();
        else $jnicall;
      }
      swigCPtr = 0;
    }
  }
%typemap(javacode) oompi::rt::request %{
  // Light mode (comm.isend/irecv of a direct buffer): see java.i.
  private transient boolean light;
  private transient boolean lightPending;
  private transient boolean lightReceive;  // close() of a pending receive cancels it
  private transient long lightHandle;  // the MPI_Request
  private transient java.nio.Buffer lightBuffer;  // MPI's memory: reachable while pending
  private transient long lightOwner;  // the id of the thread whose ring holds it
  private transient Light lightState;  // once evicted pending: its Cleaner's action
  private transient long lightPacked = -1;  // the last completion's status, packed (-1: none)
  private transient Status lightLast;  // one that did not fit the packing

  /**
   * The operation of a light request evicted pending from its thread's ring: its Cleaner's
   * action, which runs after the request was collected and reads the fields then (the
   * collection orders the completing thread's plain writes before it).
   */
  private static final class Light implements Runnable {
    final long handle;
    final boolean receive;
    boolean pending = true;
    java.nio.Buffer buffer;
    java.lang.ref.Cleaner.Cleanable cleanable;
    Light(long handle, java.nio.Buffer buffer, boolean receive) {
      this.handle = handle;
      this.buffer = buffer;
      this.receive = receive;
    }
    /** The request was collected: if still pending, to the facade's reclaim list. */
    @Override
    public void run() {
      if (pending) lightDrop(handle, buffer, receive);
    }
  }

  /** This thread's 16 youngest light requests (held strongly: see java.i). Every ring stays
   *  reachable (RINGS), so a thread's end does not drop its pending requests' buffers. */
  private static final class Young {
    static final java.util.List<Young> RINGS = new java.util.ArrayList<>();
    final $javaclassname[] ring = new $javaclassname[16];
    final long owner = Thread.currentThread().getId();  // ids are never reused
    int next;
    Young() { synchronized (RINGS) { RINGS.add(this); } }
  }
  private static final ThreadLocal<Young> YOUNG = ThreadLocal.withInitial(Young::new);
  /** The ring of the thread that made the last light request: a plain field read racily, safe
   *  because a Young's owner is final and only its owner touches the rest (saves the
   *  ThreadLocal look-up while one thread makes the requests). */
  private static Young lastRing;
  private static final long NULL_HANDLE = lightNull();

  private static $javaclassname light(long handle, java.nio.Buffer buf, boolean receive) {
    $javaclassname r = new $javaclassname(0, false);
    r.light = true;
    r.lightPending = true;
    r.lightReceive = receive;
    r.lightHandle = handle;
    r.lightBuffer = buf;
    long me = Thread.currentThread().getId();
    Young y = lastRing;
    if (y == null || y.owner != me) lastRing = y = YOUNG.get();
    r.lightOwner = me;
    $javaclassname old = y.ring[y.next];
    y.ring[y.next] = r;
    y.next = (y.next + 1) & 15;
    if (old != null && old.lightPending) old.promote();  // a completed one: no lock
    return r;
  }

  /**
   * Evicted from its thread's ring (on that thread) while pending: now it gets a Cleaner
   * (Light.run). Locked against a completion on another thread (finish).
   */
  private synchronized void promote() {
    if (!light || !lightPending || lightState != null) return;
    Light l = new Light(lightHandle, lightBuffer, lightReceive);
    lightState = l;
    l.cleanable = NativeCleaner.CLEANER.register(this, l);
  }

  /**
   * The operation is complete (or failed, which completes it too): MPI has let go of the
   * buffer. On the owner thread no lock (promote runs there too); elsewhere locked against it.
   */
  private void completed() {
    if (Thread.currentThread().getId() == lightOwner) {
      finish();
    } else {
      synchronized (this) { finish(); }
    }
  }

  private void finish() {
    lightPending = false;
    lightBuffer = null;
    Light l = lightState;
    if (l != null) {  // promoted: unregistered (run() does nothing)
      l.pending = false;
      l.buffer = null;
      l.cleanable.clean();
    }
  }

  /** comm.isend of a direct buffer in native order as a light request; null for other buffers. */
  static $javaclassname isendLight(Comm comm, Object buf, int dest, int tag) {
    if (!(buf instanceof java.nio.Buffer)) return null;
    java.nio.Buffer b = (java.nio.Buffer) buf;
    int kind = Port.fastKind(b);
    if (kind < 0) return null;
    return light(comm.isendLight(b, b.position(), b.remaining(), kind, dest, tag), b, false);
  }

  /** comm.irecv into a writable direct buffer in native order; null for other buffers. */
  static $javaclassname irecvLight(Comm comm, Object buf, int source, int tag) {
    if (!(buf instanceof java.nio.Buffer)) return null;
    java.nio.Buffer b = (java.nio.Buffer) buf;
    int kind = Port.fastKind(b);
    if (kind < 0 || b.isReadOnly()) return null;
    return light(comm.irecvLight(b, b.position(), b.remaining(), kind, source, tag), b, true);
  }

  /**
   * Turns a light request into a native one, which takes over the handle and (by a global
   * reference) the buffer, for what only native requests do. A completed one becomes a
   * completed native request.
   */
  synchronized void makeNative() {
    if (!light) return;
    boolean pending = lightPending;
    long p = lightAdopt(pending ? lightHandle : NULL_HANDLE, pending ? lightBuffer : null,
        lightReceive);
    finish();
    swigCPtr = p;
    swigCMemOwn = true;
    swigCleanable = NativeCleaner.CLEANER.register(this, new SwigFree(p));
    light = false;
  }

  /** A completion's status: packed (no object kept), or one that did not fit, kept whole. */
  private Status completion(long packed) {
    if (packed != -1) {
      lightPacked = packed;
      return Status.unpack(packed);
    }
    java.nio.ByteBuffer slot = Status.slot();
    lightSpilled(slot);
    lightPacked = -1;
    return lightLast = new Status(slot);
  }

  /** Blocks until the operation completes; returns its status. */
  public Status waitFor() {
    if (!light) return waitNative();
    if (!lightPending) return completion(Status.PACKED_ZERO);  // as a native one: a null request
    long packed;
    try {
      packed = lightWait(lightHandle);
    } finally {
      completed();
    }
    return completion(packed);
  }

  /** The status if the operation has completed (completing it); null while pending. */
  public Status test() {
    if (!light) return testNative();
    if (!lightPending) return completion(Status.PACKED_ZERO);
    long packed;
    try {
      packed = lightTest(lightHandle);
    } catch (RuntimeException | Error e) {
      completed();  // a failed operation is complete
      throw e;
    }
    if (packed == Long.MIN_VALUE) return null;  // status_not_done
    completed();
    return completion(packed);
  }

  /** True until the operation has been completed by waitFor(), test() or a request set. */
  public boolean isPending() {
    return light ? lightPending : isPendingNative();
  }

  /** False for the requests of isend/irecv; the *Init calls make persistent requests. */
  public boolean isPersistent() {
    return light ? false : isPersistentNative();
  }

  /** The status of the last completion (waitFor, test, a set function); null before. */
  public Status lastStatus() {
    if (!light) return lastStatusNative();
    return lightPacked != -1 ? Status.unpack(lightPacked) : lightLast;
  }

  /** Asks MPI to cancel the operation (waitFor() still has to complete it). */
  public void cancel() {
    makeNative();
    cancelNative();
  }

  /** Starts a persistent request (a request of isend/irecv is not one: it throws). */
  public void start() {
    makeNative();
    startNative();
  }

  /**
   * Completes the operation if it is still pending (cancelling a receive first) and frees the
   * request; later calls throw IllegalStateException. Idempotent.
   */
  @Override
  public void close() {
    if (light && !lightPending) {  // completed: nothing native to free, no lock
      light = false;  // swigCPtr stays 0: a later call says "closed"
      return;
    }
    synchronized (this) {
      makeNative();  // pending: the native request cancels a receive or waits, as before
      if (swigCPtr != 0) {
        closeHandle();
        delete();
      }
    }
  }
%}
OOMPI_JAVA_CLOSEABLE(oompi::rt::group, true, )
OOMPI_JAVA_CLOSEABLE(oompi::rt::info, true, )
OOMPI_JAVA_CLOSEABLE(oompi::rt::keyval, true, )
// Builtin datatypes are shared constants (Datatype.DOUBLE): closing one does nothing.
OOMPI_JAVA_CLOSEABLE(oompi::rt::datatype, (isNull() || !isBuiltin()),
  public static final Datatype BYTE = of(TypeKind.BYTE);
  public static final Datatype INT8 = of(TypeKind.INT8);
  public static final Datatype UINT8 = of(TypeKind.UINT8);
  public static final Datatype SHORT = of(TypeKind.INT16);
  public static final Datatype CHAR = of(TypeKind.UINT16);
  public static final Datatype INT = of(TypeKind.INT32);
  public static final Datatype LONG = of(TypeKind.INT64);
  public static final Datatype FLOAT = of(TypeKind.FLOAT32);
  public static final Datatype DOUBLE = of(TypeKind.FLOAT64);
  public static final Datatype BOOLEAN = of(TypeKind.BOOLEAN);
  /** Value-index pairs for MAXLOC/MINLOC, as C lays out {value; int index} (use them over a
   *  ByteBuffer with Buffers.typed). */
  public static final Datatype SHORT_INT = valueIndex(TypeKind.INT16);
  public static final Datatype INT2 = valueIndex(TypeKind.INT32);
  public static final Datatype LONG_INT = valueIndex(TypeKind.INT64);
  public static final Datatype FLOAT_INT = valueIndex(TypeKind.FLOAT32);
  public static final Datatype DOUBLE_INT = valueIndex(TypeKind.FLOAT64);
)

// The Op keeps its Java function reachable (BINDINGS trap 1: a collected director would be
// called by the trampoline after it was freed).
%rename(createNative) oompi::rt::op::create;
// The director is NativeUserFunction (addresses); org.oompi.UserFunction (hand-written) gives
// the ByteBuffer and array forms of seed 000's Figs. 12-13 over it.
%rename(NativeUserFunction) oompi::rt::user_function;
// A Java exception thrown in call() travels as oompi::java::java_error to the collective,
// which throws the same Throwable (never a copy, never a crash).
%feature("director:except") oompi::rt::user_function::call {
  jthrowable $error = jenv->ExceptionOccurred();
  if ($error) {
    jenv->ExceptionClear();
    throw oompi::java::java_error(jenv, $error);
  }
}
%javamethodmodifiers oompi::rt::op::create "private";
// Predefined ops are shared constants (Op.SUM): closing one does nothing.
OOMPI_JAVA_CLOSEABLE(oompi::rt::op, (isNull() || isUser()),
  private NativeUserFunction function;

  /** A user op calling fn (kept alive by this Op); commutative as MPI_Op_create's flag. */
  public static Op create(NativeUserFunction fn, boolean commutative) {
    return new Op(fn, commutative);
  }

  /** As create(): seed 000's {@code new Op(uf, true)}. Close it when done. */
  public Op(NativeUserFunction fn, boolean commutative) {
    this(MPIJNI.Op_createNative(NativeUserFunction.getCPtr(nonNull(fn)), fn, commutative), true);
    function = fn;
  }

  private static NativeUserFunction nonNull(NativeUserFunction fn) {
    if (fn == null) throw new NullPointerException("oompi: the user function is null");
    return fn;
  }

  public static final Op SUM = of(OpKind.SUM);
  public static final Op PROD = of(OpKind.PROD);
  public static final Op MAX = of(OpKind.MAX);
  public static final Op MIN = of(OpKind.MIN);
  public static final Op LAND = of(OpKind.LAND);
  public static final Op LOR = of(OpKind.LOR);
  public static final Op LXOR = of(OpKind.LXOR);
  public static final Op BAND = of(OpKind.BAND);
  public static final Op BOR = of(OpKind.BOR);
  public static final Op BXOR = of(OpKind.BXOR);
  public static final Op MAXLOC = of(OpKind.MAXLOC);
  public static final Op MINLOC = of(OpKind.MINLOC);
  /** One-sided only (accumulate, getAccumulate, fetchAndOp): overwrite, and an atomic read. */
  public static final Op REPLACE = of(OpKind.REPLACE);
  public static final Op NO_OP = of(OpKind.NO_OP);
)

// A handle passed as an argument (comm.compare(other), allreduce(..., op), a Datatype, a Group,
// a Request in a RequestVector, ...): closed, it throws the IllegalStateException a call on it
// throws (Handles.java), not SWIG's NullPointerException naming the C++ type.
%typemap(javain) SWIGTYPE &, const SWIGTYPE & "Handles.ptr($javaclassname.getCPtr($javainput), $javainput, \"$javaclassname\")"

%typemap(check) SWIGTYPE *self %{
  if (!$1) {
    oompi::java::throw_java(jenv, "java/lang/IllegalStateException",
                            "oompi: this $*1_ltype has been closed");
    return $null;
  }
%}

// --- loading the native library ------------------------------------------------------------
%pragma(java) jniclasscode=%{
  static {
    NativeLoader.load();
  }
%}
%pragma(java) moduleimports=%{
%}

// Arrays are always copied now (oompi_java.hpp, pin): setArrayCopy(false) changes nothing.
%inline %{
namespace oompi::java {
inline void set_array_copy(bool copy) { g_copy_arrays.store(copy); }
inline bool array_copy() { return g_copy_arrays.load(); }
}
%}

// --- Port fast paths, typemaps (package-private sendDirect/recvDirect/sendArray/recvArray) ---
// Typemaps before oompi.i (the wrappers are emitted at comm's place in the tree), the %extend
// methods after it (so that oompi.i's %exception covers them).
// Java has already checked that the buffer is direct, in native order and (for receives)
// writable, and passes its position, remaining and element kind: one JNI call
// (GetDirectBufferAddress) instead of the general path's class lookup and field reads.
%typemap(jni) oompi::java::direct_address "jobject"
%typemap(jtype) oompi::java::direct_address "java.nio.Buffer"
%typemap(jstype) oompi::java::direct_address "java.nio.Buffer"
%typemap(javain) oompi::java::direct_address "$javainput"
%typemap(in) oompi::java::direct_address %{
  $1.ptr = oompi::java::direct_address_of(jenv, $input);
  if (!$1.ptr) {
    oompi::java::throw_java(jenv, "java/lang/IllegalArgumentException", "oompi: not a direct buffer");
    return $null;
  }
%}
// Primitive arrays, same idea: Java passes the array's length and element kind; copied by the
// same pin as the general path (a receive copies back only what arrived), finished before any
// exception reaches Java.
%typemap(jni) oompi::java::array_ref "jobject"
%typemap(jtype) oompi::java::array_ref "Object"
%typemap(jstype) oompi::java::array_ref "Object"
%typemap(javain) oompi::java::array_ref "$javainput"
%typemap(in) oompi::java::array_ref %{
  $1.env = jenv;
  $1.array = static_cast<jarray>($input);
%}

// The status goes into a direct buffer of 5 longs (Status.slot(), one per thread), written
// through its address: no JNI call (SetLongArrayRegion was a VM transition per receive).
%typemap(jni) oompi::java::status_out "jobject"
%typemap(jtype) oompi::java::status_out "java.nio.ByteBuffer"
%typemap(jstype) oompi::java::status_out "java.nio.ByteBuffer"
%typemap(javain) oompi::java::status_out "$javainput"
%typemap(in) oompi::java::status_out %{
  $1.slot = static_cast<std::int64_t*>(oompi::java::direct_address_of(jenv, $input));
%}
%javamethodmodifiers oompi::rt::comm::recv_direct_status "";
%javamethodmodifiers oompi::rt::comm::recv_direct_count "";
%javamethodmodifiers oompi::rt::comm::recv_array_count "";
%javamethodmodifiers oompi::rt::comm::recv_array_status "";
// comm.send/recv of Java: the generated general-path methods become private sendAny/recvAny;
// Comm's javacode (below) tries the Port fast paths first.
%rename(sendAny) oompi::rt::comm::send;
// comm.isend/irecv likewise: the generated ones become isendAny/irecvAny (Request.java's light
// requests first).
%rename(isendAny) oompi::rt::comm::isend;
%rename(irecvAny) oompi::rt::comm::irecv;
%javamethodmodifiers oompi::rt::comm::isend "";
%javamethodmodifiers oompi::rt::comm::irecv "";
%rename(recvAny) oompi::rt::comm::recv;
%javamethodmodifiers oompi::rt::comm::send "";
%javamethodmodifiers oompi::rt::comm::recv "";

// comm.object_comm() (the private duplicate C++'s object collectives use): package-private,
// for ObjectTransport.java.
%javamethodmodifiers oompi::rt::comm::object_comm "";

// --- one-sided windows (rt/window.hpp) ------------------------------------------------------
// Origins (MPI reads them until the synchronisation that completes the operation): a direct
// buffer in place, or a primitive array copied into native memory the window holds until then.
// Results (get, get_accumulate, fetch_and_op, compare_and_swap) and window memory: direct
// buffers only (async_buffer's typemap: a Java array is refused with IllegalArgumentException).
%typemap(in) const oompi::rt::async_buffer& origin (oompi::rt::async_buffer tmp),
             const oompi::rt::async_buffer& value (oompi::rt::async_buffer tmp),
             const oompi::rt::async_buffer& compare (oompi::rt::async_buffer tmp) %{
  if (!oompi::java::describe_rma_origin(jenv, $input, tmp)) return $null;
  $1 = &tmp;
%}
%rename(putPart) oompi::rt::window::put_part;
%rename(get) oompi::rt::window::get_part;
%rename(accumulatePart) oompi::rt::window::accumulate_part;
%javamethodmodifiers oompi::rt::window::put_part "private";
%javamethodmodifiers oompi::rt::window::accumulate_part "private";
OOMPI_JAVA_CLEANER(oompi::rt::window)
OOMPI_JAVA_CLEANER(oompi::rt::epoch)
OOMPI_JAVA_CLOSEABLE(oompi::rt::epoch, true, )
// Window: as OOMPI_JAVA_CLOSEABLE, plus put/get of a direct buffer in native order through one
// JNI call with no global reference: the proxy holds the buffer (held, below) until the next
// fence or close(), the synchronisations after which the facade lets its origins go too. A
// window with 64 such buffers waiting (epochs and flushes end them in the facade only) sends
// further ones down the general path (global references) until then. A window collected
// unclosed keeps its buffers forever, as the facade keeps its origins' references.
%typemap(javainterfaces) oompi::rt::window "AutoCloseable"
%rename(closeHandle) oompi::rt::window::close;
%javamethodmodifiers oompi::rt::window::close "private";
%rename(putAny) oompi::rt::window::put;
%rename(getAny) oompi::rt::window::get;
%rename(fenceAny) oompi::rt::window::fence;
%javamethodmodifiers oompi::rt::window::put "private";
%javamethodmodifiers oompi::rt::window::get "private";
%javamethodmodifiers oompi::rt::window::fence "private";
%typemap(javacode) oompi::rt::window %{
  /** Frees the window (collective) and the native object. Idempotent. */
  @Override
  public synchronized void close() {
    if (swigCPtr != 0) {
      closeHandle();
      delete();
      if (held != null) held.release(true);
    }
  }

  /** Direct buffers of put/get not yet completed by a fence (see java.i). */
  private static final class Held implements Runnable {
    static final java.util.List<Object[]> LEAKED = new java.util.ArrayList<>();
    static final int MAX = 64;
    private Object[] bufs = new Object[8];
    private int n;
    private boolean closed;
    java.lang.ref.Cleaner.Cleanable cleanable;

    synchronized boolean add(Object b) {
      if (n == MAX) return false;
      if (n == bufs.length) bufs = java.util.Arrays.copyOf(bufs, 2 * n);
      bufs[n++] = b;
      return true;
    }

    synchronized void release(boolean close) {
      java.util.Arrays.fill(bufs, 0, n, null);
      n = 0;
      if (close && !closed) {
        closed = true;
        cleanable.clean();
      }
    }

    /** The window was collected unclosed: MPI may still read or write these. */
    @Override
    public synchronized void run() {
      if (!closed && n > 0) synchronized (LEAKED) { LEAKED.add(java.util.Arrays.copyOf(bufs, n)); }
      closed = true;
    }
  }
  private transient Held held;

  private boolean hold(java.nio.Buffer b) {
    if (swigCPtr == 0) return false;  // closed: the general path says so
    Held h = held;
    if (h == null) {
      synchronized (this) {
        if ((h = held) == null) {
          h = new Held();
          h.cleanable = NativeCleaner.CLEANER.register(this, h);
          held = h;
        }
      }
    }
    return h.add(b);
  }

  /** Puts origin (a direct buffer, or a primitive array, copied) into rank's window at disp;
   *  complete at the next synchronisation for rank (fence, epoch end, flush). */
  public void put(Object origin, int rank, long disp) {
    if (origin instanceof java.nio.Buffer) {
      java.nio.Buffer b = (java.nio.Buffer) origin;
      int kind = Port.fastKind(b);
      if (kind >= 0 && hold(b)) {
        putDirect(b, b.position(), b.remaining(), kind, rank, disp);
        return;
      }
    }
    putAny(origin, rank, disp);
  }

  /** Puts elements [offset, offset + count) of origin (of an array: a copy of the range only)
   *  into rank's window at disp. */
  public void put(Object origin, long offset, long count, int rank, long disp) {
    int kind = Port.arrayKind(origin);
    if (kind < 0) {
      putPart(origin, offset, count, rank, disp);
      return;
    }
    Port.checkRange(origin, offset, count, "window.put");
    putArray(origin, (int) offset, (int) count, kind, rank, disp);
  }

  /** Accumulates elements [offset, offset + count) of origin (of an array: a copy of the range
   *  only) into rank's window at disp with operation. */
  public void accumulate(Object origin, long offset, long count, int rank, long disp, Op operation) {
    int kind = Port.arrayKind(origin);
    if (kind < 0) {
      accumulatePart(origin, offset, count, rank, disp, operation);
      return;
    }
    Port.checkRange(origin, offset, count, "window.accumulate");
    accumulateArray(origin, (int) offset, (int) count, kind, rank, disp, operation);
  }

  /** Gets rank's window at disp into result (a direct buffer), which holds the data after the
   *  next synchronisation for rank. */
  public void get(Object result, int rank, long disp) {
    if (result instanceof java.nio.Buffer) {
      java.nio.Buffer b = (java.nio.Buffer) result;
      int kind = Port.fastKind(b);
      if (kind >= 0 && !b.isReadOnly() && hold(b)) {
        getDirect(b, b.position(), b.remaining(), kind, rank, disp);
        return;
      }
    }
    getAny(result, rank, disp);
  }

  /** MPI_Win_fence (collective): completes every operation of the previous epoch. */
  public void fence(int mode) {
    fenceAny(mode);
    Held h = held;
    if (h != null) h.release(false);
  }

  public void fence() { fence(0); }
  /** The local window memory as a direct ByteBuffer in native byte order (allocate: MPI's
   *  memory; create: the caller's buffer). Do not use it after close(): it would reach freed
   *  memory. */
  public java.nio.ByteBuffer memory() {
    return ((java.nio.ByteBuffer) memoryBytes()).order(java.nio.ByteOrder.nativeOrder());
  }
  /** Shared-memory windows (allocateShared): `rank`'s part as a direct ByteBuffer in native
   *  byte order, read and written by load and store (in a lockAll epoch: sync(), a barrier, sync()
   *  between a store and another process's load). Do not use it after close(). */
  public java.nio.ByteBuffer sharedMemory(int rank) {
    return ((java.nio.ByteBuffer) sharedMemoryBytes(rank)).order(java.nio.ByteOrder.nativeOrder());
  }%}
%typemap(in, numinputs=0) JNIEnv* jni_env %{ $1 = jenv; %}
%javamethodmodifiers oompi::rt::window::memory_bytes "private";
%javamethodmodifiers oompi::rt::window::shared_memory_bytes "private";
// Declared before oompi.i's %exception: its own handler (a bad rank or window kind throws).
%exception oompi::rt::window::shared_memory_bytes {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%extend oompi::rt::window {
  jobject memory_bytes(JNIEnv* jni_env) const {
    return jni_env->NewDirectByteBuffer(reinterpret_cast<void*>(static_cast<std::intptr_t>($self->address())),
                                        $self->size());
  }
  jobject shared_memory_bytes(int rank, JNIEnv* jni_env) const {
    const std::int64_t size = $self->shared_size(rank);  // checks rank and the window's kind
    return jni_env->NewDirectByteBuffer(
        reinterpret_cast<void*>(static_cast<std::intptr_t>($self->shared_address(rank))), size);
  }
}
// --- MPI-IO (issue 15): File is AutoCloseable (try-with-resources closes it collectively) ------
OOMPI_JAVA_CLOSEABLE(oompi::rt::file, true, )
OOMPI_JAVA_CLEANER(oompi::rt::file_view)

%include "../oompi.i"

// Window.put/get of a direct buffer (the proxy holds it: see the window's javacode above).
%define OOMPI_JAVA_WINDOW_EXCEPTION(NAME)
%exception oompi::rt::window::NAME {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%javamethodmodifiers oompi::rt::window::NAME "private";
%enddef
OOMPI_JAVA_WINDOW_EXCEPTION(put_direct)
OOMPI_JAVA_WINDOW_EXCEPTION(get_direct)
OOMPI_JAVA_WINDOW_EXCEPTION(put_array)
OOMPI_JAVA_WINDOW_EXCEPTION(accumulate_array)
%extend oompi::rt::window {
  // A range of an array (Window's javacode has checked it), copied: oompi::java::rma_array.
  void put_array(oompi::java::array_ref a, int offset, int count, int kind, int rank,
                 long long disp) {
    $self->put(oompi::java::rma_array(a, offset, count, kind), rank, disp);
  }
  void accumulate_array(oompi::java::array_ref a, int offset, int count, int kind, int rank,
                        long long disp, const oompi::rt::op& operation) {
    $self->accumulate(oompi::java::rma_array(a, offset, count, kind), rank, disp, operation);
  }
  void put_direct(oompi::java::direct_address a, int position, int count, int kind, int rank,
                  long long disp) {
    oompi::rt::async_buffer b;
    static_cast<oompi::rt::buffer&>(b) = oompi::java::direct_buffer(a, position, count, kind);
    $self->put(b, rank, disp);
  }
  void get_direct(oompi::java::direct_address a, int position, int count, int kind, int rank,
                  long long disp) {
    oompi::rt::async_buffer b;
    static_cast<oompi::rt::buffer&>(b) = oompi::java::direct_buffer(a, position, count, kind);
    $self->get(b, rank, disp);
  }
}

// Port fast paths (after oompi.i: its %exception must cover these %extend methods).
// Their own handler (the shared one's, less the unused after-action hook).
%define OOMPI_JAVA_FAST_EXCEPTION(NAME)
%exception oompi::rt::comm::NAME {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%enddef
OOMPI_JAVA_FAST_EXCEPTION(send_direct)
OOMPI_JAVA_FAST_EXCEPTION(recv_direct)
OOMPI_JAVA_FAST_EXCEPTION(recv_direct_status)
OOMPI_JAVA_FAST_EXCEPTION(send_array)
OOMPI_JAVA_FAST_EXCEPTION(recv_array)
OOMPI_JAVA_FAST_EXCEPTION(recv_array_status)
OOMPI_JAVA_FAST_EXCEPTION(recv_direct_count)
OOMPI_JAVA_FAST_EXCEPTION(recv_array_count)
OOMPI_JAVA_FAST_EXCEPTION(mprobe_recv_bytes)
OOMPI_JAVA_FAST_EXCEPTION(recv_matched_bytes)
OOMPI_JAVA_FAST_EXCEPTION(isend_light)
OOMPI_JAVA_FAST_EXCEPTION(irecv_light)
OOMPI_JAVA_FAST_EXCEPTION(isend_array)
OOMPI_JAVA_FAST_EXCEPTION(irecv_array)
%exception oompi::rt::message::recv_array_status {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%define OOMPI_JAVA_LIGHT_EXCEPTION(NAME)
%exception oompi::rt::request::NAME {
  try {
    $action
  } catch (...) {
    oompi::java::translate(jenv);
    return $null;
  }
}
%javamethodmodifiers oompi::rt::request::NAME "private";
%enddef
OOMPI_JAVA_LIGHT_EXCEPTION(light_wait)
OOMPI_JAVA_LIGHT_EXCEPTION(light_test)
OOMPI_JAVA_LIGHT_EXCEPTION(light_spilled)
OOMPI_JAVA_LIGHT_EXCEPTION(light_adopt)
OOMPI_JAVA_LIGHT_EXCEPTION(light_drop)
OOMPI_JAVA_LIGHT_EXCEPTION(light_null)

// Light requests (Request.java): the bare handle in, its completion's status packed in a long
// (oompi::java::pack_status; one that does not fit through the thread's status slot).
%javamethodmodifiers oompi::rt::comm::isend_light "";
%javamethodmodifiers oompi::rt::comm::irecv_light "";
%extend oompi::rt::comm {
  long long isend_light(oompi::java::direct_address a, int position, int count, int kind,
                        int dest, int tag) const {
    return oompi::rt::request_bits(
        $self->isend_native(oompi::java::direct_buffer(a, position, count, kind), dest, tag));
  }
  long long irecv_light(oompi::java::direct_address a, int position, int count, int kind,
                        int source, int tag) const {
    oompi::rt::buffer b = oompi::java::direct_buffer(a, position, count, kind);
    return oompi::rt::request_bits($self->irecv_native(b, source, tag));
  }
}
%extend oompi::rt::request {
  // The status packed (oompi::java::pack_status): primitives only, in and out.
  static long long light_wait(long long handle) {
    MPI_Request h = oompi::rt::request_from_bits(handle);
    return oompi::java::pack_status(oompi::rt::request::wait_native(h));
  }
  static long long light_test(long long handle) {
    MPI_Request h = oompi::rt::request_from_bits(handle);
    oompi::rt::status s;
    if (!oompi::rt::request::test_native(h, s)) return oompi::java::status_not_done;
    return oompi::java::pack_status(s);
  }
  // A status that did not fit the packing, from this thread's last light_wait/light_test.
  static void light_spilled(oompi::java::status_out out) {
    oompi::java::write_status(out, oompi::java::t_spilled);
  }
  // A native request (its pointer) owning handle and buffer.
  static long long light_adopt(long long handle, jobject buf, bool receive, JNIEnv* jni_env) {
    auto* r = new oompi::rt::request(oompi::java::adopt_light(jni_env, handle, buf, receive));
    return static_cast<long long>(reinterpret_cast<std::intptr_t>(r));
  }
  // A pending light request was collected (the Cleaner's thread): to the reclaim list.
  static void light_drop(long long handle, jobject buf, bool receive, JNIEnv* jni_env) {
    (void)oompi::java::adopt_light(jni_env, handle, buf, receive);
  }
  static long long light_null() { return oompi::rt::request_bits(MPI_REQUEST_NULL); }
}

// Elements [offset, offset + count) of an array (Port.checkRange has checked the range).
%javamethodmodifiers oompi::rt::comm::send_array "";
%javamethodmodifiers oompi::rt::comm::recv_array "";
%javamethodmodifiers oompi::rt::comm::isend_array "";
%javamethodmodifiers oompi::rt::comm::irecv_array "";
%javamethodmodifiers oompi::rt::message::recv_array_status "";
%extend oompi::rt::comm {
  void send_array(oompi::java::array_ref a, int offset, int count, int kind, int dest,
                  int tag) const {
    oompi::java::send_array(*$self, a, offset, count, kind, dest, tag);
  }
  void recv_array(oompi::java::array_ref a, int offset, int count, int kind, int source,
                  int tag) const {
    oompi::java::recv_array(*$self, a, offset, count, kind, source, tag);
  }
  oompi::rt::request isend_array(oompi::java::array_ref a, int offset, int count, int kind,
                                 int dest, int tag) const {
    return oompi::java::isend_array(*$self, a, offset, count, kind, dest, tag);
  }
  oompi::rt::request irecv_array(oompi::java::array_ref a, int offset, int count, int kind,
                                 int source, int tag) const {
    return oompi::java::irecv_array(*$self, a, offset, count, kind, source, tag);
  }
}
%extend oompi::rt::message {
  void recv_array_status(oompi::java::array_ref a, int offset, int count, int kind,
                         oompi::java::status_out out) {
    oompi::java::write_status(out, oompi::java::message_recv_array(*$self, a, offset, count, kind));
  }
}
// orecv's receive (ObjectTransport.java): one call for the matched probe and the receive into
// the thread's scratch array when the message fits in it.
%javamethodmodifiers oompi::rt::comm::mprobe_recv_bytes "";
%javamethodmodifiers oompi::rt::comm::recv_matched_bytes "";
%extend oompi::rt::comm {
  long long mprobe_recv_bytes(int source, int tag, oompi::java::array_ref scratch,
                              int capacity) const {
    return oompi::java::mprobe_recv_bytes(*$self, source, tag, scratch, capacity);
  }
  void recv_matched_bytes(oompi::java::array_ref a, int length) const {
    oompi::java::recv_matched_bytes(a, length);
  }
}
%javamethodmodifiers oompi::rt::comm::send_direct "";
%javamethodmodifiers oompi::rt::comm::recv_direct "";
%extend oompi::rt::comm {
  void send_direct(oompi::java::direct_address a, int position, int count, int kind, int dest,
                   int tag) const {
    $self->send(oompi::java::direct_buffer(a, position, count, kind), dest, tag);
  }
  void recv_direct(oompi::java::direct_address a, int position, int count, int kind, int source,
                   int tag) const {
    oompi::rt::buffer b = oompi::java::direct_buffer(a, position, count, kind);
    $self->recv_ignore_status(b, source, tag);
  }
  void recv_direct_status(oompi::java::direct_address a, int position, int count, int kind,
                          int source, int tag, oompi::java::status_out out) const {
    oompi::rt::buffer b = oompi::java::direct_buffer(a, position, count, kind);
    oompi::java::write_status(out, $self->recv(b, source, tag));
  }
  // Receives from a known source and tag: the message's size in bytes is all of the status
  // the caller lacks (returned, no slot to write).
  long long recv_direct_count(oompi::java::direct_address a, int position, int count, int kind,
                              int source, int tag) const {
    oompi::rt::buffer b = oompi::java::direct_buffer(a, position, count, kind);
    return $self->recv(b, source, tag).count_bytes();
  }
  long long recv_array_count(oompi::java::array_ref a, int offset, int count, int kind,
                             int source, int tag) const {
    return oompi::java::recv_array(*$self, a, offset, count, kind, source, tag).count_bytes();
  }
  void recv_array_status(oompi::java::array_ref a, int offset, int count, int kind, int source,
                         int tag, oompi::java::status_out out) const {
    // unpinned (or copied back) before write_status (no JNI call: the slot's address)
    oompi::java::write_status(out, oompi::java::recv_array(*$self, a, offset, count, kind, source, tag));
  }
}


// The native side of bench/java (org.oompi.BenchSupport).
%include "../bench_support.hpp"
