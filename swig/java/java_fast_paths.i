// Java binding (after oompi.i): the Port fast paths and light requests.
// Part of the Java entry file java.i, which includes the parts in this order.

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
OOMPI_JAVA_LIGHT_EXCEPTION(light_adopt_range)
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
  // A pending light receive of an array range (ArrayRanges.Block): the native request copies
  // what arrived from the block (buf) back into elements [offset, offset + count) of array.
  static long long light_adopt_range(long long handle, jobject buf, jobject array, int offset,
                                     int count, int kind, JNIEnv* jni_env) {
    auto* r = new oompi::rt::request(oompi::java::adopt_light_range(
        jni_env, handle, buf, static_cast<jarray>(array), offset, count, kind));
    return static_cast<long long>(reinterpret_cast<std::intptr_t>(r));
  }
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
%javamethodmodifiers oompi::rt::comm::array_pin_from "";
%extend oompi::rt::comm {
  // ArrayRanges' bound: blocking ranges from this many bytes on are pinned (INT_MAX: copied;
  // -1: MPI not initialized).
  static int array_pin_from(JNIEnv* jni_env) { return oompi::java::array_pin_from(jni_env); }
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
