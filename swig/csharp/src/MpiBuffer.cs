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
        public IntPtr Type;    // an explicit datatype (oompi::rt::datatype*), when HasType
        public IntPtr Handle;  // pinned GCHandle owned by a request (nonblocking calls)
        public long TypeCount; // elements of Type; -1: as many whole ones as fit
        public int HasType;    // 1: Type and TypeCount apply (Type is null once disposed)
    }

    /// <summary>
    /// A run-time buffer: a managed array (or part of one) or native memory, with its element
    /// type. Arrays of primitive types convert implicitly, so <c>comm.Send(values, 1)</c> works;
    /// <see cref="Of{T}(T[], int, int)"/> takes a part of an array. Arrays are pinned
    /// automatically: for the duration of a blocking call (<c>fixed</c>), and by a pinned
    /// GCHandle that the request owns until the operation completes for nonblocking calls. No
    /// user ever pins by hand.
    /// </summary>
    public readonly struct MpiBuffer
    {
        private readonly Array array;
        private readonly long byteOffset;
        private readonly IntPtr address;
        private readonly Datatype type;   // explicit datatype, or null
        private readonly long typeCount;

        /// <summary>Number of elements.</summary>
        public long Count { get; }
        /// <summary>Element type.</summary>
        public TypeKind Kind { get; }

        private MpiBuffer(Array array, long byteOffset, IntPtr address, long count, TypeKind kind,
                       Datatype type = null, long typeCount = 0)
        {
            this.array = array;
            this.byteOffset = byteOffset;
            this.address = address;
            Count = count;
            Kind = kind;
            this.type = type;
            this.typeCount = typeCount;
        }

        /// <summary>The explicit datatype (null: the element type's own).</summary>
        public Datatype Datatype => type;

        /// <summary>
        /// This memory as <paramref name="count"/> elements of <paramref name="datatype"/> (a
        /// derived type, a MAXLOC pair such as <c>Datatype.DoubleInt</c>); -1: as many whole
        /// elements as fit. The elements must lie inside the memory (checked at the call, before
        /// MPI sees it: ArgumentOutOfRangeException).
        /// </summary>
        public MpiBuffer WithType(Datatype datatype, long count = -1)
        {
            if (datatype is null) throw new ArgumentNullException(nameof(datatype));
            if (count < -1) throw new ArgumentOutOfRangeException(nameof(count), $"oompi: negative count {count}");
            return new MpiBuffer(array, byteOffset, address, Count, Kind, datatype, count);
        }

        /// <summary><paramref name="count"/> elements of <paramref name="datatype"/> over an array.</summary>
        public static MpiBuffer Of<T>(T[] array, long count, Datatype datatype) where T : unmanaged =>
            Of(array).WithType(datatype, count);

        // An array or native memory of T: a primitive T is its own kind; a struct T is bytes seen
        // as elements of its struct datatype (StructDatatype: built by reflection once per type).
        private static unsafe MpiBuffer Make<T>(Array array, long byteOffset, IntPtr address, long count)
            where T : unmanaged
        {
            if (Primitive<T>.Kind is TypeKind kind)
                return new MpiBuffer(array, byteOffset, address, count, kind);
            return new MpiBuffer(array, byteOffset, address, count * sizeof(T), TypeKind.Uint8,
                              StructDatatype.Of<T>(), count);
        }

        private static class Primitive<T> where T : unmanaged
        {
            internal static readonly TypeKind? Kind = KindOrNull(typeof(T));
            // As an int (-1: not primitive): a constant for the JIT once the class is initialized.
            internal static readonly int Code = Kind.HasValue ? (int)Kind.Value : -1;
        }

        /// <summary>The TypeKind of a primitive T as an int, or -1 (the fast paths' test).</summary>
        internal static int PrimitiveCode<T>() where T : unmanaged => Primitive<T>.Code;

        private static MpiBuffer Whole(Array a, TypeKind kind)
        {
            if (a is null) throw new ArgumentNullException("buffer", "oompi: the buffer is null");
            return new MpiBuffer(a, 0, IntPtr.Zero, a.LongLength, kind);
        }

        public static implicit operator MpiBuffer(double[] a) => Whole(a, TypeKind.Float64);
        public static implicit operator MpiBuffer(float[] a) => Whole(a, TypeKind.Float32);
        public static implicit operator MpiBuffer(int[] a) => Whole(a, TypeKind.Int32);
        public static implicit operator MpiBuffer(uint[] a) => Whole(a, TypeKind.Uint32);
        public static implicit operator MpiBuffer(long[] a) => Whole(a, TypeKind.Int64);
        public static implicit operator MpiBuffer(ulong[] a) => Whole(a, TypeKind.Uint64);
        public static implicit operator MpiBuffer(short[] a) => Whole(a, TypeKind.Int16);
        public static implicit operator MpiBuffer(ushort[] a) => Whole(a, TypeKind.Uint16);
        public static implicit operator MpiBuffer(byte[] a) => Whole(a, TypeKind.Uint8);
        public static implicit operator MpiBuffer(sbyte[] a) => Whole(a, TypeKind.Int8);
        public static implicit operator MpiBuffer(char[] a) => Whole(a, TypeKind.Uint16);
        public static implicit operator MpiBuffer(bool[] a) => Whole(a, TypeKind.Boolean);

        /// <summary>The element kind of a primitive type (enums: their underlying type), or null.</summary>
        internal static TypeKind? KindOrNull(Type t)
        {
            if (t.IsEnum) t = Enum.GetUnderlyingType(t);
            if (t == typeof(double)) return TypeKind.Float64;
            if (t == typeof(float)) return TypeKind.Float32;
            if (t == typeof(int)) return TypeKind.Int32;
            if (t == typeof(uint)) return TypeKind.Uint32;
            if (t == typeof(long)) return TypeKind.Int64;
            if (t == typeof(ulong)) return TypeKind.Uint64;
            if (t == typeof(short)) return TypeKind.Int16;
            if (t == typeof(ushort)) return TypeKind.Uint16;
            if (t == typeof(byte)) return TypeKind.Uint8;
            if (t == typeof(sbyte)) return TypeKind.Int8;
            if (t == typeof(char)) return TypeKind.Uint16;
            if (t == typeof(bool)) return TypeKind.Boolean;
            return null;
        }

        /// <summary>The element kind of a primitive type T.</summary>
        public static TypeKind KindOf<T>() where T : unmanaged =>
            Primitive<T>.Kind ?? throw new ArgumentException(
                $"oompi: {typeof(T)} is not a primitive type (a struct's datatype is StructDatatype.Of<T>())");

        /// <summary>The whole array (of a primitive type, or of a struct: see StructDatatype).</summary>
        public static MpiBuffer Of<T>(T[] array) where T : unmanaged
        {
            if (array is null) throw new ArgumentNullException("buffer", "oompi: the buffer is null");
            return Make<T>(array, 0, IntPtr.Zero, array.LongLength);
        }

        /// <summary>Elements [offset, offset + count) of an array (bounds checked).</summary>
        public static unsafe MpiBuffer Of<T>(T[] array, int offset, int count) where T : unmanaged
        {
            if (array is null) throw new ArgumentNullException(nameof(array), "oompi: the buffer is null");
            if (offset < 0 || count < 0 || offset > array.Length || count > array.Length - offset)
                throw new ArgumentOutOfRangeException(nameof(offset),
                    $"oompi: offset {offset} and count {count} do not fit in an array of {array.Length} elements");
            return Make<T>(array, (long)offset * sizeof(T), IntPtr.Zero, count);
        }

        /// <summary>
        /// The elements of a Memory (an array's, as Memory over arrays always is unless a custom
        /// MemoryManager made it): pinned like an array, automatically, also for nonblocking calls.
        /// </summary>
        public static MpiBuffer Of<T>(Memory<T> memory) where T : unmanaged => Of((ReadOnlyMemory<T>)memory);

        /// <summary>As <see cref="Of{T}(Memory{T})"/>; only for sends (MPI never writes into it).</summary>
        public static MpiBuffer Of<T>(ReadOnlyMemory<T> memory) where T : unmanaged
        {
            if (!MemoryMarshal.TryGetArray(memory, out ArraySegment<T> segment) || segment.Array is null)
                throw new NotSupportedException(
                    "oompi: a Memory<T> not backed by an array (a custom MemoryManager); pin it yourself and use MpiBuffer.Of(T*, count)");
            return Of(segment.Array, segment.Offset, segment.Count);
        }

        /// <summary>
        /// <paramref name="count"/> elements of native memory. The caller keeps the memory alive
        /// (and, for a nonblocking call, unchanged) until the operation completes.
        /// </summary>
        public static unsafe MpiBuffer Of<T>(T* pointer, long count) where T : unmanaged
        {
            if (count < 0) throw new ArgumentOutOfRangeException(nameof(count), "oompi: negative count");
            return Make<T>(null, 0, (IntPtr)pointer, count);
        }

        /// <summary>For <c>fixed</c>: the array's first byte (a null reference for native memory).</summary>
        public ref byte GetPinnableReference() =>
            ref array is null ? ref Unsafe.NullRef<byte>() : ref MemoryMarshal.GetArrayDataReference(array);

        /// <summary>The descriptor of a buffer pinned at <paramref name="pinned"/> (blocking calls).</summary>
        public unsafe BufferDesc Describe(byte* pinned) => Typed(new BufferDesc
        {
            Data = pinned != null ? (IntPtr)(pinned + byteOffset) : address,
            Count = Count,
            Kind = (int)Kind,
        });

        private BufferDesc Typed(BufferDesc d)
        {
            if (type is null) return d;
            d.Type = Datatype.getCPtr(type).Handle;  // null once disposed: refused natively
            d.TypeCount = typeCount;
            d.HasType = 1;
            return d;
        }

        /// <summary>
        /// Pins an array with a pooled GCHandle that the caller (a light Request) keeps until the
        /// operation completes and then gives back (PinPool.Return); default for native memory.
        /// </summary>
        internal unsafe BufferDesc PinPooled(out GCHandle pin, out IntPtr sticky)
        {
            if (array is null)
            {
                pin = default;
                sticky = IntPtr.Zero;
                return Typed(new BufferDesc { Data = address, Count = Count, Kind = (int)Kind });
            }
            pin = PinPool.Rent(array, out sticky);
            return Typed(new BufferDesc
            {
                // pinned by pin: the address stays valid until it is given back
                Data = PinPool.AddressOf(array) + (nint)byteOffset,
                Count = Count,
                Kind = (int)Kind,
            });
        }

        /// <summary>
        /// Pins an array with a GCHandle that the native request takes over and frees when the
        /// operation completes (nonblocking calls).
        /// </summary>
        public BufferDesc PinForRequest()
        {
            if (array is null) return Typed(new BufferDesc { Data = address, Count = Count, Kind = (int)Kind });
            var handle = GCHandle.Alloc(array, GCHandleType.Pinned);
            return Typed(new BufferDesc
            {
                Data = handle.AddrOfPinnedObject() + (nint)byteOffset,
                Count = Count,
                Kind = (int)Kind,
                Handle = GCHandle.ToIntPtr(handle),
            });
        }
    }
}
