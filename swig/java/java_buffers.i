// Java binding: run-time buffers, Java arrays for vectors, statuses.
// Part of the Java entry file java.i, which includes the parts in this order.

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
