using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>The check of a handle passed as an argument (the csin typemap of csharp.i).</summary>
    internal static class HandleArg
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static HandleRef Live(HandleRef handle, object owner, string name)
        {
            if (handle.Handle == IntPtr.Zero) Throw(owner, name);
            return handle;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void Throw(object owner, string name)
        {
            if (owner is null) throw new ArgumentNullException(name, $"oompi: {name} is null");
            string cls = owner.GetType().Name;
            throw new ObjectDisposedException(cls, $"oompi: the {cls} passed as {name} has been disposed");
        }
    }
}
