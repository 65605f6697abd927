using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace Oompi
{
    /// <summary>
    /// Short ASCII strings (up to 32 chars: names, labels, keys) narrowed and widened inline.
    /// Ascii.FromUtf16/ToUtf16 are a call with argument checks and a scalar tail below 16
    /// elements, which cost more than the conversion at these lengths (issue 28's profile:
    /// string encode and decode 20 % of a tree of 8-12 char names). 8 to 32 chars are two
    /// overlapping blocks of one or two vectors, fewer a loop. Anything not ASCII returns false, and the
    /// callers fall back to the general path: the bytes are the same.
    /// </summary>
    internal static class WireAscii
    {
        /// <summary>s (at most 32 chars) as ASCII bytes at dest (room for s.Length): false when s is not ASCII.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static bool Narrow(string s, ref byte dest)
        {
            int n = s.Length;
            ref ushort src = ref Unsafe.As<char, ushort>(ref Unsafe.AsRef(in s.GetPinnableReference()));
            if (n > 16 && Vector128.IsHardwareAccelerated)
            {
                // 17 to 32: the first 16 and the last 16 (overlapping), each two vectors narrowed into one.
                var a0 = Vector128.LoadUnsafe(ref src);
                var a1 = Vector128.LoadUnsafe(ref src, 8);
                var b0 = Vector128.LoadUnsafe(ref src, (nuint)(n - 16));
                var b1 = Vector128.LoadUnsafe(ref src, (nuint)(n - 8));
                if (((a0 | a1 | b0 | b1) & Vector128.Create((ushort)0xFF80)) != Vector128<ushort>.Zero) return false;
                Vector128.Narrow(a0, a1).StoreUnsafe(ref dest);
                Vector128.Narrow(b0, b1).StoreUnsafe(ref dest, (nuint)(n - 16));
                return true;
            }
            if (n >= 8 && Vector128.IsHardwareAccelerated)
            {
                var a = Vector128.LoadUnsafe(ref src);
                var b = Vector128.LoadUnsafe(ref src, (nuint)(n - 8));
                if (((a | b) & Vector128.Create((ushort)0xFF80)) != Vector128<ushort>.Zero) return false;
                var bytes = Vector128.Narrow(a, b).AsUInt64();
                Unsafe.WriteUnaligned(ref dest, bytes.GetElement(0));
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref dest, n - 8), bytes.GetElement(1));
                return true;
            }
            for (int i = 0; i < n; i++)
            {
                ushort c = Unsafe.Add(ref src, i);
                if (c > 0x7F) return false;
                Unsafe.Add(ref dest, i) = (byte)c;
            }
            return true;
        }

        /// <summary>
        /// The n (1 to 32) bytes at src as a new string when they are ASCII, else null. The string
        /// is new and seen by no one yet, so it is filled in place.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static string Widen(ref byte src, int n)
        {
            string s;
            if (n > 16 && Vector128.IsHardwareAccelerated)
            {
                // 17 to 32: the first 16 and the last 16 bytes (overlapping), each widened into two vectors.
                var a = Vector128.LoadUnsafe(ref src);
                var b = Vector128.LoadUnsafe(ref src, (nuint)(n - 16));
                if (((a | b) & Vector128.Create((byte)0x80)) != Vector128<byte>.Zero) return null;
                s = new string('\0', n);
                ref ushort d = ref Unsafe.As<char, ushort>(ref Unsafe.AsRef(in s.GetPinnableReference()));
                Vector128.WidenLower(a).StoreUnsafe(ref d);
                Vector128.WidenUpper(a).StoreUnsafe(ref d, 8);
                Vector128.WidenLower(b).StoreUnsafe(ref d, (nuint)(n - 16));
                Vector128.WidenUpper(b).StoreUnsafe(ref d, (nuint)(n - 8));
                return s;
            }
            if (n >= 8 && Vector128.IsHardwareAccelerated)
            {
                ulong a = Unsafe.ReadUnaligned<ulong>(ref src);
                ulong b = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref src, n - 8));
                if (((a | b) & 0x8080808080808080ul) != 0) return null;
                s = new string('\0', n);
                ref ushort d = ref Unsafe.As<char, ushort>(ref Unsafe.AsRef(in s.GetPinnableReference()));
                Vector128.WidenLower(Vector128.CreateScalarUnsafe(a).AsByte()).StoreUnsafe(ref d);
                Vector128.WidenLower(Vector128.CreateScalarUnsafe(b).AsByte()).StoreUnsafe(ref d, (nuint)(n - 8));
                return s;
            }
            for (int i = 0; i < n; i++)
                if (Unsafe.Add(ref src, i) > 0x7F) return null;
            s = new string('\0', n);
            ref char c = ref Unsafe.AsRef(in s.GetPinnableReference());
            for (int i = 0; i < n; i++) Unsafe.Add(ref c, i) = (char)Unsafe.Add(ref src, i);
            return s;
        }
    }
}
