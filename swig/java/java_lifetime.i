// Java binding: proxies freed by java.lang.ref.Cleaner.
// Part of the Java entry file java.i, which includes the parts in this order.

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
