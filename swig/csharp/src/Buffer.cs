using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>What the native side sees of a buffer (passed by value to the native library).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct BufferDesc
    {
        public IntPtr Data;
        public long Count;
        public int Kind;
        public IntPtr Type;    // reserved for derived datatypes
        public IntPtr Handle;  // pinned GCHandle owned by a request (nonblocking calls)
    }

    /// <summary>
    /// A run-time buffer: a managed array (or part of one) or native memory, with its element
    /// type. Arrays of primitive types convert implicitly, so <c>comm.Send(values, 1)</c> works;
    /// <see cref="Of{T}(T[], int, int)"/> takes a part of an array. Arrays are pinned
    /// automatically: for the duration of a blocking call (<c>fixed</c>), and by a pinned
    /// GCHandle that the request owns until the operation completes for nonblocking calls. No
    /// user ever pins by hand.
    /// </summary>
    public readonly struct Buffer
    {
        private readonly Array array;
        private readonly long byteOffset;
        private readonly IntPtr address;

        /// <summary>Number of elements.</summary>
        public long Count { get; }
        /// <summary>Element type.</summary>
        public TypeKind Kind { get; }

        private Buffer(Array array, long byteOffset, IntPtr address, long count, TypeKind kind)
        {
            this.array = array;
            this.byteOffset = byteOffset;
            this.address = address;
            Count = count;
            Kind = kind;
        }

        private static Buffer Whole(Array a, TypeKind kind)
        {
            if (a is null) throw new ArgumentNullException("buffer", "oompi: the buffer is null");
            return new Buffer(a, 0, IntPtr.Zero, a.LongLength, kind);
        }

        public static implicit operator Buffer(double[] a) => Whole(a, TypeKind.Float64);
        public static implicit operator Buffer(float[] a) => Whole(a, TypeKind.Float32);
        public static implicit operator Buffer(int[] a) => Whole(a, TypeKind.Int32);
        public static implicit operator Buffer(uint[] a) => Whole(a, TypeKind.Uint32);
        public static implicit operator Buffer(long[] a) => Whole(a, TypeKind.Int64);
        public static implicit operator Buffer(ulong[] a) => Whole(a, TypeKind.Uint64);
        public static implicit operator Buffer(short[] a) => Whole(a, TypeKind.Int16);
        public static implicit operator Buffer(ushort[] a) => Whole(a, TypeKind.Uint16);
        public static implicit operator Buffer(byte[] a) => Whole(a, TypeKind.Uint8);
        public static implicit operator Buffer(sbyte[] a) => Whole(a, TypeKind.Int8);
        public static implicit operator Buffer(char[] a) => Whole(a, TypeKind.Uint16);
        public static implicit operator Buffer(bool[] a) => Whole(a, TypeKind.Boolean);

        /// <summary>The element kind of a primitive type T.</summary>
        public static TypeKind KindOf<T>() where T : unmanaged
        {
            if (typeof(T) == typeof(double)) return TypeKind.Float64;
            if (typeof(T) == typeof(float)) return TypeKind.Float32;
            if (typeof(T) == typeof(int)) return TypeKind.Int32;
            if (typeof(T) == typeof(uint)) return TypeKind.Uint32;
            if (typeof(T) == typeof(long)) return TypeKind.Int64;
            if (typeof(T) == typeof(ulong)) return TypeKind.Uint64;
            if (typeof(T) == typeof(short)) return TypeKind.Int16;
            if (typeof(T) == typeof(ushort)) return TypeKind.Uint16;
            if (typeof(T) == typeof(byte)) return TypeKind.Uint8;
            if (typeof(T) == typeof(sbyte)) return TypeKind.Int8;
            if (typeof(T) == typeof(char)) return TypeKind.Uint16;
            if (typeof(T) == typeof(bool)) return TypeKind.Boolean;
            throw new ArgumentException($"oompi: {typeof(T)} has no MPI datatype (yet): use a primitive type");
        }

        /// <summary>The whole array.</summary>
        public static Buffer Of<T>(T[] array) where T : unmanaged => Whole(array, KindOf<T>());

        /// <summary>Elements [offset, offset + count) of an array (bounds checked).</summary>
        public static unsafe Buffer Of<T>(T[] array, int offset, int count) where T : unmanaged
        {
            if (array is null) throw new ArgumentNullException(nameof(array), "oompi: the buffer is null");
            if (offset < 0 || count < 0 || offset > array.Length || count > array.Length - offset)
                throw new ArgumentOutOfRangeException(nameof(offset),
                    $"oompi: offset {offset} and count {count} do not fit in an array of {array.Length} elements");
            return new Buffer(array, (long)offset * sizeof(T), IntPtr.Zero, count, KindOf<T>());
        }

        /// <summary>
        /// <paramref name="count"/> elements of native memory. The caller keeps the memory alive
        /// (and, for a nonblocking call, unchanged) until the operation completes.
        /// </summary>
        public static unsafe Buffer Of<T>(T* pointer, long count) where T : unmanaged
        {
            if (count < 0) throw new ArgumentOutOfRangeException(nameof(count), "oompi: negative count");
            return new Buffer(null, 0, (IntPtr)pointer, count, KindOf<T>());
        }

        /// <summary>For <c>fixed</c>: the array's first byte (a null reference for native memory).</summary>
        public ref byte GetPinnableReference() =>
            ref array is null ? ref Unsafe.NullRef<byte>() : ref MemoryMarshal.GetArrayDataReference(array);

        /// <summary>The descriptor of a buffer pinned at <paramref name="pinned"/> (blocking calls).</summary>
        public unsafe BufferDesc Describe(byte* pinned) => new BufferDesc
        {
            Data = pinned != null ? (IntPtr)(pinned + byteOffset) : address,
            Count = Count,
            Kind = (int)Kind,
        };

        /// <summary>
        /// Pins an array with a GCHandle that the native request takes over and frees when the
        /// operation completes (nonblocking calls).
        /// </summary>
        public BufferDesc PinForRequest()
        {
            if (array is null) return new BufferDesc { Data = address, Count = Count, Kind = (int)Kind };
            var handle = GCHandle.Alloc(array, GCHandleType.Pinned);
            return new BufferDesc
            {
                Data = handle.AddrOfPinnedObject() + (nint)byteOffset,
                Count = Count,
                Kind = (int)Kind,
                Handle = GCHandle.ToIntPtr(handle),
            };
        }
    }
}
