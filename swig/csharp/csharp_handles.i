// C# binding: IDisposable handles, windows, handle arguments and disposed proxies in C#'s names.
// Part of the C# entry file csharp.i, which includes the parts in this order.

// --- handles are IDisposable ---------------------------------------------------------------
// Dispose() frees the MPI handle (facade close, on the calling thread) and the native object;
// the finalizer only frees the native object (no MPI call on the finalizer thread). A later
// call on a disposed proxy throws ObjectDisposedException (the self check below).
%define OOMPI_CS_DISPOSABLE(CLASS, CONDITION)
%rename(CloseHandle) CLASS::close;
%csmethodmodifiers CLASS::close "private";
%typemap(csdisposing, methodname="Dispose", methodmodifiers="protected virtual", parameters="bool disposing") CLASS {
    lock(this) {
      if (swigCPtr.Handle != global::System.IntPtr.Zero && (!disposing || CONDITION)) {
        if (disposing) {
          CloseHandle();
        }
        if (swigCMemOwn) {
          swigCMemOwn = false;
          $imcall;
        }
        swigCPtr = new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
      }
    }
  }
%enddef
OOMPI_CS_DISPOSABLE(oompi::rt::environment, true)
OOMPI_CS_DISPOSABLE(oompi::rt::comm, true)
OOMPI_CS_DISPOSABLE(oompi::rt::group, true)
OOMPI_CS_DISPOSABLE(oompi::rt::info, true)
OOMPI_CS_DISPOSABLE(oompi::rt::keyval, true)
// Communicators of a kind (CartComm, DistGraphComm, Intercomm) share Comm's handle: close it
// through Comm's CloseHandle before freeing the native object, then let Comm forget it.
%csmethodmodifiers oompi::rt::comm::close "protected";
%define OOMPI_CS_DISPOSABLE_COMM(CLASS)
%typemap(csdisposing_derived, methodname="Dispose", methodmodifiers="protected override", parameters="bool disposing") CLASS {
    lock(this) {
      if (swigCPtr.Handle != global::System.IntPtr.Zero) {
        if (disposing) {
          CloseHandle();
        }
        if (swigCMemOwn) {
          swigCMemOwn = false;
          $imcall;
        }
        swigCPtr = new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
      }
      base.Dispose(false);
    }
  }
%enddef
// Dispose(bool) must be virtual, or Comm.Dispose() on an Intercomm/CartComm/... runs Comm's and
// leaves the derived proxy's pointer dangling. SWIG takes the method's modifiers from the
// destructor's %csmethodmodifiers (the global "public unsafe" above) over the typemap's
// methodmodifiers, so they are set on the destructors themselves.
%csmethodmodifiers oompi::rt::comm::~comm "public virtual unsafe";
%csmethodmodifiers oompi::rt::topo_comm::~topo_comm "public override unsafe";
%csmethodmodifiers oompi::rt::cart_comm::~cart_comm "public override unsafe";
%csmethodmodifiers oompi::rt::dist_graph_comm::~dist_graph_comm "public override unsafe";
%csmethodmodifiers oompi::rt::graph_comm::~graph_comm "public override unsafe";
%csmethodmodifiers oompi::rt::intercomm::~intercomm "public override unsafe";
OOMPI_CS_DISPOSABLE_COMM(oompi::rt::topo_comm)
OOMPI_CS_DISPOSABLE_COMM(oompi::rt::cart_comm)
OOMPI_CS_DISPOSABLE_COMM(oompi::rt::dist_graph_comm)
OOMPI_CS_DISPOSABLE_COMM(oompi::rt::graph_comm)
OOMPI_CS_DISPOSABLE_COMM(oompi::rt::intercomm)
// Requests: no finalizer per request. Comm.Isend/Irecv (src/Request.cs) make "light" requests
// (a bare MPI_Request and a pooled pin, both held in C#); a request with a native object (the
// other nonblocking calls, or a light one turned native for a request set) frees it in Dispose,
// or, if the proxy is collected undisposed, through a finalizable NativeOwner made only for it.
%rename(CloseHandle) oompi::rt::request::close;
%csmethodmodifiers oompi::rt::request::close "private";
%rename(WaitNative) oompi::rt::request::wait;
%rename(TestNative) oompi::rt::request::test;
%rename(CancelNative) oompi::rt::request::cancel;
%rename(IsPendingNative) oompi::rt::request::is_pending;
%rename(StartNative) oompi::rt::request::start;
%rename(IsPersistentNative) oompi::rt::request::is_persistent;
%rename(LastStatusNative) oompi::rt::request::last_status;
%csmethodmodifiers oompi::rt::request::wait "private";
%csmethodmodifiers oompi::rt::request::test "private";
%csmethodmodifiers oompi::rt::request::cancel "private";
%csmethodmodifiers oompi::rt::request::is_pending "private";
%csmethodmodifiers oompi::rt::request::start "private";
%csmethodmodifiers oompi::rt::request::is_persistent "private";
%csmethodmodifiers oompi::rt::request::last_status "private";
%typemap(csdispose) oompi::rt::request %{
  [global::System.Runtime.CompilerServices.MethodImpl(global::System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
  public void Dispose() {
    if (DisposedLightFast()) return;
    Dispose(true);
  }
%}
%typemap(csbody) oompi::rt::request %{
  private global::System.Runtime.InteropServices.HandleRef swigCPtr;
  protected bool swigCMemOwn;
  private NativeOwner owner;

  internal Request(global::System.IntPtr cPtr, bool cMemoryOwn) {
    swigCMemOwn = cMemoryOwn;
    swigCPtr = new global::System.Runtime.InteropServices.HandleRef(this, cPtr);
    if (cMemoryOwn && cPtr != global::System.IntPtr.Zero) owner = new NativeOwner(cPtr);
  }

  internal static global::System.Runtime.InteropServices.HandleRef getCPtr(Request obj) {
    if (obj == null) return new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
    obj.MakeNative();
    return obj.swigCPtr;
  }

  internal static global::System.Runtime.InteropServices.HandleRef swigRelease(Request obj) {
    throw new global::System.InvalidOperationException("oompi: a Request cannot give up its native object");
  }
%}
%typemap(csdisposing, methodname="Dispose", methodmodifiers="protected virtual", parameters="bool disposing") oompi::rt::request {
    lock(this) {
      if (light) {
        DisposeLight();
        return;
      }
      if (swigCPtr.Handle != global::System.IntPtr.Zero) {
        if (disposing) {
          CloseHandle();
        }
        if (swigCMemOwn) {
          swigCMemOwn = false;
          owner?.Disarm();
          $imcall;
        }
        swigCPtr = new global::System.Runtime.InteropServices.HandleRef(null, global::System.IntPtr.Zero);
      }
    }
  }
// Comm.Isend/Irecv of an MpiBuffer are written in C# (src/Request.cs, light requests).
%rename(IsendPinned) oompi::rt::comm::isend;
%rename(IrecvPinned) oompi::rt::comm::irecv;
%csmethodmodifiers oompi::rt::comm::isend "internal";
%csmethodmodifiers oompi::rt::comm::irecv "internal";
// Predefined ops are shared constants (Op.Sum): disposing one does nothing; a user op is closed.
OOMPI_CS_DISPOSABLE(oompi::rt::op, (IsNull() || IsUser()))
// Builtin datatypes are shared constants (Datatype.Double): disposing one does nothing.
OOMPI_CS_DISPOSABLE(oompi::rt::datatype, (IsNull() || !IsBuiltin()))
// One-sided windows: the memory of Create and every origin and result are pinned by a GCHandle
// (async_buffer's typemap) that the window holds until close / the synchronisation that
// completes the operation; parts of arrays through MpiBuffer.Of(array, offset, count).
OOMPI_CS_DISPOSABLE(oompi::rt::window, true)
OOMPI_CS_DISPOSABLE(oompi::rt::epoch, true)
%ignore oompi::rt::window::put_part;
%ignore oompi::rt::window::get_part;
%ignore oompi::rt::window::accumulate_part;
%typemap(cscode) oompi::rt::window %{
  /// <summary>The local window memory as elements of T (Allocate: MPI's memory; Create: the
  /// caller's array). Do not use it after Dispose: it would reach freed memory.</summary>
  public global::System.Span<T> Memory<T>() where T : unmanaged =>
      new global::System.Span<T>((void*)Address(), checked((int)(Size / sizeof(T))));
  /// <summary>Shared-memory windows (AllocateShared): <paramref name="rank"/>'s part as
  /// elements of T, read and written by load and store (in a LockAll epoch: Sync(), a barrier,
  /// Sync() between a store and another process's load). Do not use it after Dispose.</summary>
  public global::System.Span<T> SharedMemory<T>(int rank) where T : unmanaged {
    long size = SharedSize(rank);  // checks the rank and the window's kind
    return new global::System.Span<T>((void*)SharedAddress(rank), checked((int)(size / sizeof(T))));
  }
%}

// A call on a disposed proxy names its C# class and method, as those of arguments do
// (HandleArg): $symname "MpiFile_WriteAt" -> "MpiFile.WriteAt: this MpiFile has been disposed"
// (binding_names.hpp).
%typemap(check) SWIGTYPE *self %{
  if (!$1) {
    oompi::csharp::raise(oompi::csharp::closed,
                         oompi::binding::closed_self("$symname", oompi::csharp::csharp_names).c_str());
    return $null;
  }
%}

// A null reference argument natively (HandleArg has refused it in C# already): named in C#'s
// names, not SWIG's C++ type.
%typemap(in, canthrow=1) SWIGTYPE &, const SWIGTYPE & %{
  $1 = ($1_ltype)$input;
  if (!$1) {
    SWIG_CSharpSetPendingExceptionArgument(SWIG_CSharpArgumentNullException,
        oompi::binding::null_argument("$symname", oompi::csharp::csharp_names).c_str(), 0);
    return $null;
  }
%}

// A handle passed as an argument (comm.Compare(other), an Op in Allreduce, a Datatype, a
// Group, the Requests of a RequestVector...): a disposed one is ObjectDisposedException naming
// its class, as a call on it is; null is ArgumentNullException (both checked in C#: natively
// the two look alike, a null pointer).
%typemap(csin) SWIGTYPE &, SWIGTYPE const & "HandleArg.Live($csclassname.getCPtr($csinput), $csinput, nameof($csinput))"
