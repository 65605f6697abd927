// Java binding (after oompi.i): Window.put/get of direct buffers and array ranges.
// Part of the Java entry file java.i, which includes the parts in this order.

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
