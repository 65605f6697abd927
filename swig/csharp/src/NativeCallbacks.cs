using System;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>
    /// The two calls the native library makes into C#: free a request's pinned GCHandle when its
    /// operation completes, and raise a C++ exception as a pending C# exception (thrown by the
    /// proxy right after the native call returns; nothing unwinds through native frames).
    /// Registered by the P/Invoke class before its first native call.
    /// </summary>
    internal static unsafe class NativeCallbacks
    {
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_register")]
        private static extern void Register(delegate* unmanaged<IntPtr, void> freeHandle,
            delegate* unmanaged<int, IntPtr, int, int, IntPtr, void> raise);

        internal static bool Register()
        {
            Register(&FreeHandle, &Raise);
            return true;
        }

        [UnmanagedCallersOnly]
        private static void FreeHandle(IntPtr handle)
        {
            try
            {
                GCHandle.FromIntPtr(handle).Free();
            }
            catch
            {
                // Never let an exception reach native frames.
            }
        }

        [UnmanagedCallersOnly]
        private static void Raise(int kind, IntPtr message, int errorClass, int errorCode, IntPtr routine)
        {
            try
            {
                string text = Marshal.PtrToStringUTF8(message) ?? "oompi: error";
                Exception e = kind switch
                {
                    0 => new MpiException(text, errorClass, errorCode, Marshal.PtrToStringUTF8(routine) ?? ""),
                    1 => new ObjectDisposedException(null, text),
                    2 => new ArgumentOutOfRangeException(null, text),
                    3 => new ArgumentException(text),
                    4 => new InvalidOperationException(text),
                    5 => new ArithmeticException(text),
                    6 => new OutOfMemoryException(text),
                    8 => new UserFunctionException(text, UserFunction.TakeFailure()),
                    _ => new Exception(text),
                };
                if (!MpiPINVOKE.SWIGPendingException.Pending) MpiPINVOKE.SWIGPendingException.Set(e);
            }
            catch
            {
                // Never let an exception reach native frames.
            }
        }
    }
}
