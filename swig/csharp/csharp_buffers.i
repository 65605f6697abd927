// C# binding: run-time buffers (MpiBuffer), C# arrays for vectors, statuses.
// Part of the C# entry file csharp.i, which includes the parts in this order.

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
