// Java binding: handle arguments and closed proxies, in Java's names.
// Part of the Java entry file java.i, which includes the parts in this order.

// A handle passed as an argument (comm.compare(other), allreduce(..., op), a Datatype, a Group,
// a Request in a RequestVector, ...): closed, it throws the IllegalStateException a call on it
// throws (Handles.java), not SWIG's NullPointerException naming the C++ type.
%typemap(javain) SWIGTYPE &, const SWIGTYPE & "Handles.ptr($javaclassname.getCPtr($javainput), $javainput, \"$javaclassname\")"

// A call on a closed proxy names its Java class and method ($symname: "Window_putAny" ->
// "Window.put: this Window has been closed", binding_names.hpp).
%typemap(check) SWIGTYPE *self %{
  if (!$1) {
    oompi::java::throw_java(jenv, "java/lang/IllegalStateException",
                            oompi::binding::closed_self("$symname", oompi::java::java_names).c_str());
    return $null;
  }
%}

// A null reference argument natively (Handles.ptr has refused it in Java already): named in
// Java's names, not SWIG's C++ type.
%typemap(in) SWIGTYPE &, const SWIGTYPE & %{
  $1 = *($&1_ltype)&$input;
  if (!$1) {
    oompi::java::throw_java(jenv, "java/lang/NullPointerException",
                            oompi::binding::null_argument("$symname", oompi::java::java_names).c_str());
    return $null;
  }
%}
