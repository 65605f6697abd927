// C# entry file: namespace Oompi, module class Mpi (constants), native library oompi_csharp.
// Naming: PascalCase methods, classes, properties, constants and enum items. The environment
// class is MpiEnvironment (System.Environment would clash in user code).
%module(directors="1") Mpi

%{
#include "oompi_csharp.hpp"
%}

%define OOMPI_TRANSLATE_EXCEPTION oompi::csharp::translate() %enddef
%define OOMPI_FAIL return $null; %enddef
%define OOMPI_AFTER_ACTION %enddef

// --- naming ------------------------------------------------------------------------------
%rename("%(camelcase)s", %$isfunction) "";
%rename("%(camelcase)s", %$isclass) "";
%rename("%(camelcase)s", %$isenum) "";
%rename("%(camelcase)s", %$isenumitem) "";
%rename("%(camelcase)s", %$isconstant) "";
%rename("%(camelcase)s", %$isvariable) "";
%rename(MpiEnvironment) oompi::rt::environment;
// std_vector.i's C# classes (IntVector, ...) call these by their own names from their C# code.
%rename(capacity) std::vector::capacity;
%rename(size) std::vector::size;
%rename(reserve) std::vector::reserve;
%rename(getitem) std::vector::getitem;
%rename(getitemcopy) std::vector::getitemcopy;
%rename(setitem) std::vector::setitem;
// Offsets and counts live in the MpiBuffer (MpiBuffer.Of(array, offset, count)).
%ignore oompi::rt::comm::send_part;
%ignore oompi::rt::comm::recv_part;

// Buffers are pinned with `fixed` inside the generated methods.
%csmethodmodifiers "public unsafe";
%typemap(csclassmodifiers) SWIGTYPE "public unsafe partial class"

// --- run-time buffers --------------------------------------------------------------------
// Blocking: the array stays pinned (`fixed`) for the duration of the native call.
%typemap(ctype) const oompi::rt::buffer&, oompi::rt::buffer& "oompi_cs_buffer"
%typemap(imtype) const oompi::rt::buffer&, oompi::rt::buffer& "BufferDesc"
%typemap(cstype) const oompi::rt::buffer&, oompi::rt::buffer& "MpiBuffer"
%typemap(csin, pre="    fixed (byte* swig_ptr_$csinput = $csinput) {", terminator="    }")
    const oompi::rt::buffer&, oompi::rt::buffer& "$csinput.Describe(swig_ptr_$csinput)"
%typemap(in) const oompi::rt::buffer& (oompi::rt::buffer tmp) %{
  if (!oompi::csharp::describe($input, tmp)) return $null;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::buffer& (oompi::rt::buffer tmp) %{
  if (!oompi::csharp::describe($input, tmp)) return $null;
  $1 = &tmp;
%}

// Nonblocking: a pinned GCHandle goes to the request, which frees it on completion.
%typemap(ctype) const oompi::rt::async_buffer&, oompi::rt::async_buffer& "oompi_cs_buffer"
%typemap(imtype) const oompi::rt::async_buffer&, oompi::rt::async_buffer& "BufferDesc"
%typemap(cstype) const oompi::rt::async_buffer&, oompi::rt::async_buffer& "MpiBuffer"
%typemap(csin) const oompi::rt::async_buffer&, oompi::rt::async_buffer& "$csinput.PinForRequest()"
%typemap(in) const oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::csharp::describe_async($input, tmp)) return $null;
  $1 = &tmp;
%}
%typemap(in) oompi::rt::async_buffer& (oompi::rt::async_buffer tmp) %{
  if (!oompi::csharp::describe_async($input, tmp)) return $null;
  $1 = &tmp;
%}

// --- counts, displacements, ranks, coordinates: C# arrays ----------------------------------
// const std::vector<int>& takes an int[] (long[] for long long), std::vector<int> returns one;
// they travel through std_vector.i's IntVector/Int64Vector. Expanded by oompi.i after those
// templates, which keep their own methods.
%define OOMPI_CS_ARRAY_VECTOR(CTYPE, CSTYPE, PROXY)
%typemap(cstype) const std::vector<CTYPE>&, std::vector<CTYPE> #CSTYPE "[]"
%typemap(csin, pre="    using var temp$csinput = new PROXY($csinput ?? throw new global::System.ArgumentNullException(nameof($csinput)));")
    const std::vector<CTYPE>& "PROXY.getCPtr(temp$csinput)"
%typemap(csout, excode=SWIGEXCODE) std::vector<CTYPE> {
    using var v = new PROXY($imcall, true);$excode
    var a = new CSTYPE[v.Count];
    v.CopyTo(a);
    return a;
  }
%enddef
%define OOMPI_VECTOR_TYPEMAPS
OOMPI_CS_ARRAY_VECTOR(int, int, IntVector)
OOMPI_CS_ARRAY_VECTOR(long long, long, Int64Vector)
%enddef

// --- statuses: plain C# objects (src/Status.cs), returned by value from the native call ------
%typemap(ctype) oompi::rt::status, oompi::rt::status* "oompi_cs_status"
%typemap(imtype) oompi::rt::status, oompi::rt::status* "StatusData"
%typemap(cstype) oompi::rt::status, oompi::rt::status* "Status"
%typemap(out, null="oompi_cs_status()") oompi::rt::status %{ $result = oompi::csharp::to_cs(&$1); %}
%typemap(out, null="oompi_cs_status()") oompi::rt::status* %{
  $result = oompi::csharp::to_cs($1);
  delete $1;
%}
%typemap(csout, excode=SWIGEXCODE) oompi::rt::status {
    StatusData data = $imcall;$excode
    return new Status(data);
  }
%typemap(csout, excode=SWIGEXCODE) oompi::rt::status* {
    StatusData data = $imcall;$excode
    return data.Valid != 0 ? new Status(data) : null;
  }

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

%typemap(check) SWIGTYPE *self %{
  if (!$1) {
    oompi::csharp::raise(oompi::csharp::closed, "oompi: this $*1_ltype has been disposed");
    return $null;
  }
%}
// The handles' messages name their C# class, as those of arguments do (HandleArg).
%define OOMPI_CS_SELF(CLASS, NAME)
%typemap(check) CLASS *self %{
  if (!$1) {
    oompi::csharp::raise(oompi::csharp::closed, "oompi: this " #NAME " has been disposed");
    return $null;
  }
%}
%enddef
OOMPI_CS_SELF(oompi::rt::comm, Comm)
OOMPI_CS_SELF(oompi::rt::topo_comm, TopoComm)
OOMPI_CS_SELF(oompi::rt::cart_comm, CartComm)
OOMPI_CS_SELF(oompi::rt::dist_graph_comm, DistGraphComm)
OOMPI_CS_SELF(oompi::rt::graph_comm, GraphComm)
OOMPI_CS_SELF(oompi::rt::info, Info)
OOMPI_CS_SELF(oompi::rt::keyval, Keyval)
OOMPI_CS_SELF(oompi::rt::comm_future, CommFuture)
OOMPI_CS_SELF(oompi::rt::intercomm, Intercomm)
OOMPI_CS_SELF(oompi::rt::group, Group)
OOMPI_CS_SELF(oompi::rt::datatype, Datatype)
OOMPI_CS_SELF(oompi::rt::op, Op)
OOMPI_CS_SELF(oompi::rt::request, Request)
OOMPI_CS_SELF(oompi::rt::message, Message)
OOMPI_CS_SELF(oompi::rt::buffer_attachment, BufferAttachment)
OOMPI_CS_SELF(oompi::rt::environment, MpiEnvironment)
OOMPI_CS_SELF(oompi::rt::window, Window)
OOMPI_CS_SELF(oompi::rt::epoch, Epoch)
OOMPI_CS_SELF(std::vector<oompi::rt::datatype>, DatatypeVector)
OOMPI_CS_SELF(std::vector<oompi::rt::request>, RequestVector)
OOMPI_CS_SELF(std::vector<oompi::rt::info>, InfoVector)

// A handle passed as an argument (comm.Compare(other), an Op in Allreduce, a Datatype, a
// Group, the Requests of a RequestVector...): a disposed one is ObjectDisposedException naming
// its class, as a call on it is; null is ArgumentNullException (both checked in C#: natively
// the two look alike, a null pointer).
%typemap(csin) SWIGTYPE &, SWIGTYPE const & "HandleArg.Live($csclassname.getCPtr($csinput), $csinput, nameof($csinput))"

// Register the callbacks before the first native call.
%pragma(csharp) imclasscode=%{
  internal const string LibraryName = "liboompi_csharp";  // as -dllimport in CMakeLists.txt
  static readonly bool oompiCallbacksRegistered = NativeCallbacks.Register();
%}

%typemap(cscode) oompi::rt::datatype %{
  public static readonly Datatype Byte = Of(TypeKind.Byte);
  public static readonly Datatype SByte = Of(TypeKind.Int8);
  public static readonly Datatype UInt8 = Of(TypeKind.Uint8);
  public static readonly Datatype Short = Of(TypeKind.Int16);
  public static readonly Datatype UShort = Of(TypeKind.Uint16);
  public static readonly Datatype Char = Of(TypeKind.Uint16);
  public static readonly Datatype Int = Of(TypeKind.Int32);
  public static readonly Datatype UInt = Of(TypeKind.Uint32);
  public static readonly Datatype Long = Of(TypeKind.Int64);
  public static readonly Datatype ULong = Of(TypeKind.Uint64);
  public static readonly Datatype Float = Of(TypeKind.Float32);
  public static readonly Datatype Double = Of(TypeKind.Float64);
  public static readonly Datatype Bool = Of(TypeKind.Boolean);
  /// <summary>Value-index pairs for MaxLoc/MinLoc: a struct { T value; int index; } as C lays it out.</summary>
  public static readonly Datatype ShortInt = ValueIndex(TypeKind.Int16);
  public static readonly Datatype Int2 = ValueIndex(TypeKind.Int32);
  public static readonly Datatype LongInt = ValueIndex(TypeKind.Int64);
  public static readonly Datatype FloatInt = ValueIndex(TypeKind.Float32);
  public static readonly Datatype DoubleInt = ValueIndex(TypeKind.Float64);
%}

// User ops: the director is NativeUserFunction, which only this assembly's UserFunction and
// UserFunction<T> (src/UserFunction.cs) may extend: their sealed Call catches every exception
// (on CoreCLR an exception crossing native frames kills the process).
%rename(NativeUserFunction) oompi::rt::user_function;
%typemap(csclassmodifiers) oompi::rt::user_function "public abstract unsafe partial class"
%csmethodmodifiers oompi::rt::user_function::user_function "internal";
%csmethodmodifiers oompi::rt::user_function::fail "internal";
%csmethodmodifiers oompi::rt::user_function::call "public virtual";
// Op.Create keeps the function alive (a collected director would be called after it is freed).
%rename(CreateNative) oompi::rt::op::create;
%csmethodmodifiers oompi::rt::op::create "private";
%typemap(cscode) oompi::rt::op %{
  private NativeUserFunction function;

  /// <summary>A user op calling fn (kept alive by this Op); commutative as MPI_Op_create's flag.</summary>
  public static Op Create(NativeUserFunction fn, bool commutative = true)
  {
    if (fn == null) throw new global::System.ArgumentNullException(nameof(fn));
    var op = CreateNative(fn, commutative);
    op.function = fn;
    return op;
  }

  /// <summary>A user op from a delegate over spans: <c>inOut[i] = input[i] op inOut[i]</c>.</summary>
  public static Op Create<T>(Reduction<T> reduce, bool commutative = true) where T : unmanaged
  {
    if (reduce == null) throw new global::System.ArgumentNullException(nameof(reduce));
    return Create(new DelegateFunction<T>(reduce), commutative);
  }

  public static readonly Op Sum = Of(OpKind.Sum);
  public static readonly Op Prod = Of(OpKind.Prod);
  public static readonly Op Max = Of(OpKind.Max);
  public static readonly Op Min = Of(OpKind.Min);
  public static readonly Op LAnd = Of(OpKind.Land);
  public static readonly Op LOr = Of(OpKind.Lor);
  public static readonly Op LXor = Of(OpKind.Lxor);
  public static readonly Op BAnd = Of(OpKind.Band);
  public static readonly Op BOr = Of(OpKind.Bor);
  public static readonly Op BXor = Of(OpKind.Bxor);
  public static readonly Op MaxLoc = Of(OpKind.Maxloc);
  public static readonly Op MinLoc = Of(OpKind.Minloc);
  /// <summary>One-sided only (Accumulate, GetAccumulate, FetchAndOp): overwrite, atomic read.</summary>
  public static readonly Op Replace = Of(OpKind.Replace);
  public static readonly Op NoOp = Of(OpKind.NoOp);
%}

// --- MPI-IO (issue 15): MpiFile (System.IO.File would clash in user code), IDisposable -------
%rename(MpiFile) oompi::rt::file;
OOMPI_CS_DISPOSABLE(oompi::rt::file, true)

%include "../oompi.i"

// The native side of bench/csharp (Oompi.BenchSupport: raw C loop, crossing-cost probes).
%{
#include "../bench_support.hpp"
%}
%include "../bench_support.hpp"
