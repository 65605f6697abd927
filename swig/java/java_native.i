// Java binding: loading the native library; the Port fast paths' typemaps.
// Part of the Java entry file java.i, which includes the parts in this order.

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
