// Java wrapper support: C++ exceptions as Java exceptions, their messages in Java's names.
// Part of oompi_java.hpp (the Java wrapper's support code), which includes the parts.
#ifndef OOMPI_SWIG_JAVA_ERRORS_HPP
#define OOMPI_SWIG_JAVA_ERRORS_HPP

#include <oompi/rt/rt.hpp>
#include <oompi/detail/object_match.hpp>
#include "../binding_names.hpp"

#include <jni.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

namespace oompi::java {

// --- exceptions -------------------------------------------------------------------------

inline void throw_java(JNIEnv* env, const char* cls, const std::string& msg) noexcept {
  if (env->ExceptionCheck()) return;  // keep the first exception
  jclass c = env->FindClass(cls);
  if (!c) return;  // FindClass left NoClassDefFoundError pending
  env->ThrowNew(c, msg.c_str());
  env->DeleteLocalRef(c);
}

inline void throw_mpi(JNIEnv* env, const oompi::error& e) noexcept {
  if (env->ExceptionCheck()) return;
  jclass c = env->FindClass("org/oompi/MPIException");
  if (!c) return;
  jmethodID ctor = env->GetMethodID(c, "<init>", "(Ljava/lang/String;IILjava/lang/String;)V");
  jstring msg = env->NewStringUTF(e.what());
  jstring routine = env->NewStringUTF(e.routine().c_str());
  if (ctor && msg && routine) {
    auto ex = static_cast<jthrowable>(
        env->NewObject(c, ctor, msg, static_cast<jint>(e.error_class()), static_cast<jint>(e.code()), routine));
    if (ex) env->Throw(ex);
  }
}

/// Turns the C++ exception in flight into a pending Java exception.
/// A Java exception thrown by a user function (a director upcall inside MPI): carried as a C++
/// exception through the core's trampoline to the collective, which throws the same Throwable
/// again in Java (translate below).
class java_error : public std::exception {
public:
  java_error(JNIEnv* env, jthrowable t) {
    JavaVM* vm = nullptr;
    env->GetJavaVM(&vm);
    ref_ = std::shared_ptr<_jobject>(env->NewGlobalRef(t), [vm](jobject r) {
      JNIEnv* e = nullptr;
      if (r && vm && vm->GetEnv(reinterpret_cast<void**>(&e), JNI_VERSION_1_6) == JNI_OK)
        e->DeleteGlobalRef(r);
    });
  }
  const char* what() const noexcept override { return "oompi: a Java user function threw"; }
  jthrowable throwable() const noexcept { return static_cast<jthrowable>(ref_.get()); }

private:
  std::shared_ptr<_jobject> ref_;
};

/// Java's names for the facade's (java.i: lowerCamelCase methods, CamelCase classes).
using oompi::binding::java_names;
/// A facade exception's message in Java's names ("File.writeAt: ...").
inline std::string message(const std::exception& e) {
  return oompi::binding::message(e, java_names);
}

inline void translate(JNIEnv* env) noexcept {
  try {
    throw;
  } catch (const java_error& e) {
    env->Throw(e.throwable());
  } catch (const oompi::error& e) {
    throw_mpi(env, e);
  } catch (const oompi::rt::closed_error& e) {
    throw_java(env, "java/lang/IllegalStateException", message(e).c_str());
  } catch (const std::out_of_range& e) {
    throw_java(env, "java/lang/IndexOutOfBoundsException", message(e).c_str());
  } catch (const std::invalid_argument& e) {
    throw_java(env, "java/lang/IllegalArgumentException", message(e).c_str());
  } catch (const std::length_error& e) {
    throw_java(env, "java/lang/IllegalArgumentException", message(e).c_str());
  } catch (const std::domain_error& e) {
    throw_java(env, "java/lang/IllegalArgumentException", message(e).c_str());
  } catch (const std::logic_error& e) {
    throw_java(env, "java/lang/IllegalStateException", message(e).c_str());
  } catch (const std::range_error& e) {
    throw_java(env, "java/lang/ArithmeticException", message(e).c_str());
  } catch (const std::bad_alloc&) {
    throw_java(env, "java/lang/OutOfMemoryError", "oompi: out of native memory");
  } catch (const std::exception& e) {
    throw_java(env, "java/lang/RuntimeException", message(e).c_str());
  } catch (...) {
    throw_java(env, "java/lang/RuntimeException", "oompi: unknown C++ exception");
  }
}

}  // namespace oompi::java

#endif  // OOMPI_SWIG_JAVA_ERRORS_HPP
