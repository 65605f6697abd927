using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;

namespace Oompi
{
    /// <summary>
    /// Reads wire format v1 from a byte array, checking everything the specification asks a reader
    /// to check: sizes against the bytes left (so a corrupt size never allocates much), ids in
    /// sequence, back-references to objects already read and of the expected type, bool bytes,
    /// truncation and bytes left over. Every failure is a <see cref="SerializationException"/>.
    /// Public only so that the compiled plans of <see cref="Wire"/> can call it.
    /// </summary>
    internal sealed class WireReader
    {
        private readonly byte[] buf;
        internal int Pos;
        private readonly int start;
        private readonly int end;
        // The objects read so far, by id - 1: an array taken from the thread's spare (one per
        // thread, cleared and given back by Release), not a list grown for every message.
        private object[] objects;
        private int objectCount;
        [ThreadStatic] private static object[] spare;
        internal int ValueDepth;
        internal nuint StackMark;  // Wire.Guard's (a reader is made per message: 0 at first)

        internal WireReader(byte[] buf, int offset, int count)
        {
            this.buf = buf;
            start = Pos = offset;
            end = offset + count;
            objects = spare ?? new object[64];
            spare = null;  // a read inside this one (a constructor deserializing) gets its own
        }

        /// <summary>Done reading: the table goes back to the thread's spare, holding nothing.</summary>
        internal void Release()
        {
            object[] o = objects;
            if (o is null) return;
            objects = null;
            Array.Clear(o, 0, objectCount);
            objectCount = 0;
            ClearPending();
            if (o.Length <= 1 << 20) spare = o;
        }

        internal int Remaining => end - Pos;

        // Bytes the open arrays, lists, sets and dictionaries claim for their elements still to
        // come (ReadCount): a container nested in the first element cannot count them too, so
        // the containers open at once never describe more than the message (without this, a
        // message nesting arrays in their first element, each claiming every byte left,
        // allocated with the square of its size).
        private long claimed;

        /// <summary>The size of a container whose elements (read one by one after this) take at
        /// least <paramref name="minElementBytes"/> bytes each, checked as ReadSize does; those
        /// bytes are then claimed. Call Element before reading each element.</summary>
        public int ReadCount(int minElementBytes)
        {
            int n = ReadSize(minElementBytes);
            claimed += (long)n * Math.Max(1, minElementBytes);
            return n;
        }

        /// <summary>Gives back one element's claim, before reading it (see ReadCount).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Element(int minElementBytes) => claimed -= Math.Max(1, minElementBytes);

        internal void Restart()
        {
            claimed = 0;
            Pos = start;
            ResetIds();
            ValueDepth = 0;
            StackMark = 0;  // read again on another thread (a big stack)
        }

        internal void ResetIds()
        {
            Array.Clear(objects, 0, objectCount);
            objectCount = 0;
            ClearPending();
        }

        private void ClearPending()
        {
            chain.Clear();
            run = null;
        }

        // Ids objectCount + 1 ... objectCount + chain.Count: the links that a list loop read
        // without entering them in the table, or (run not null) the elements run[runStart ..]
        // of an array that ReadFreshArray read so; they enter it when an id is next looked up
        // (Materialize).
        private LinkRun chain;
        private object[] run;
        private int runStart;

        /// <summary>
        /// A list loop starts reading the links after <paramref name="from"/> (just registered)
        /// without the table: the last id so far, which the loop counts on from in a local and
        /// hands to <see cref="EndChain"/>.
        /// </summary>
        internal uint BeginChain(object from, Func<object, object> walk)
        {
            if (chain.Count != 0) Materialize();
            chain.From = from;
            chain.Walk = walk;
            return (uint)objectCount;
        }

        /// <summary>The loop of BeginChain read the new objects up to id <paramref name="last"/>.</summary>
        internal void EndChain(uint last) => chain.Count = last - (uint)objectCount;

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Materialize()
        {
            int need = objectCount + (int)chain.Count;
            if (need > objects.Length) Array.Resize(ref objects, Math.Max(need, objects.Length * 2));
            if (run is not null)
            {
                Array.Copy(run, runStart, objects, objectCount, (int)chain.Count);
            }
            else
            {
                object o = chain.From;
                for (int i = objectCount; i < need; i++) objects[i] = o = chain.Walk(o);
            }
            objectCount = need;
            ClearPending();
        }

        /// <summary>
        /// Reads the elements of <paramref name="a"/> (its size read by ReadCount(4)), an array of
        /// a class whose fields hold no references: reading one element's fields reads no
        /// reference header, so while the elements are each the next new id, they are made and
        /// read by <paramref name="fresh"/> and kept in the array alone. Such a run enters the
        /// table only when an id is looked up: at once for a null, a back-reference or a wrong
        /// id among the elements (then checked as ReadRefHeader does), else when a later
        /// reference in the message needs it (never for a message that is such an array). So
        /// the table takes no store (a GC card marked in an old array for a young object) per
        /// element and needs no clearing; the ids and checks are the same.
        /// </summary>
        internal void ReadFreshArray<T>(T[] a, Func<WireReader, T> fresh) where T : class
        {
            if (chain.Count != 0) Materialize();
            int from = 0;
            uint due = ((uint)objectCount + 1) | WireWriter.NewBit;  // at most 2^31 / 4 ids: no overflow
            ref T at = ref MemoryMarshal.GetArrayDataReference(a);
            for (int i = 0; i < a.Length; i++)
            {
                claimed -= 4;  // Element(4)
                uint raw = ReadU32();
                if (raw == due)
                {
                    Unsafe.Add(ref at, i) = fresh(this);
                    due++;
                    continue;
                }
                if (i > from) Pend(a, from, i - from);
                from = i + 1;
                if (raw == 0) continue;  // the array is new: its element is null already
                if (chain.Count != 0) Materialize();
                if ((raw & WireWriter.NewBit) != 0) throw OutOfSequence(raw);
                Unsafe.Add(ref at, i) = BackRef<T>(raw);
            }
            if (a.Length > from) Pend(a, from, a.Length - from);
        }

        private void Pend(object[] a, int from, int count)
        {
            run = a;
            runStart = from;
            chain.Count = (uint)count;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private ref byte Take(int n)
        {
            if (end - Pos < n) Truncated(n);
            ref byte at = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buf), Pos);
            Pos += n;
            return ref at;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private T Get<T>() where T : unmanaged => Unsafe.ReadUnaligned<T>(ref Take(Unsafe.SizeOf<T>()));

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Truncated(long need) =>
            throw new SerializationException(
                $"oompi: truncated stream: {need} bytes needed at byte {Pos - start}, {end - Pos} left");

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal Exception Corrupt(string what, int back) =>
            new SerializationException($"oompi: corrupt stream at byte {Pos - start - back}: {what}");

        internal void CheckEnd()
        {
            if (Pos != end)
                throw new SerializationException(
                    $"oompi: {end - Pos} bytes left over after the object ({Pos - start} read): the message holds another type, or is corrupt");
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public byte ReadU8() => Take(1);
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public sbyte ReadI8() => (sbyte)Take(1);
        public bool ReadBool()
        {
            byte b = Take(1);
            if (b > 1) throw Corrupt($"a bool byte is {b}, not 0 or 1", 1);
            return b != 0;
        }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public short ReadI16() { var v = Get<short>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public ushort ReadU16() { var v = Get<ushort>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public char ReadChar() => (char)ReadU16();
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int ReadI32() { var v = Get<int>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public uint ReadU32() { var v = Get<uint>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public long ReadI64() { var v = Get<long>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public ulong ReadU64() { var v = Get<ulong>(); return BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public float ReadF32() => BitConverter.UInt32BitsToSingle(ReadU32());
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public double ReadF64() => BitConverter.UInt64BitsToDouble(ReadU64());

        /// <summary>
        /// A size of elements that take at least <paramref name="minElementBytes"/> bytes each:
        /// refused when they could not fit in the bytes left.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int ReadSize(int minElementBytes)
        {
            ulong n = ReadU64();
            long left = end - Pos - claimed;
            // n <= left < 2^31 first, so the product cannot overflow (no division per size)
            if (n > (ulong)left || (long)n * minElementBytes > left) BadSize(n, left);
            return (int)n;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void BadSize(ulong n, long left) => throw Corrupt($"a size of {n} with only {Math.Max(0, left)} bytes left for it", 8);

        public string ReadString() => StringOf(ReadSize(1));

        /// <summary>The n UTF-8 bytes at Pos as a string (n already checked against the bytes left).</summary>
        private string StringOf(int n)
        {
            if (n == 0) return string.Empty;
            if (n <= 32 && WireAscii.Widen(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buf), Pos), n) is string ascii)
            {
                Pos += n;
                return ascii;
            }
            var bytes = new ReadOnlySpan<byte>(buf, Pos, n);
            // Most strings are ASCII: short ones widened inline (WireAscii), longer ones straight
            // into a new string (one vectorized pass; Encoding.UTF8 counts, validates and
            // transcodes in passes of its own). The string is new and seen by no one yet, so it
            // is filled in place.
            string s = new string('\0', n);
            var chars = MemoryMarshal.CreateSpan(ref Unsafe.AsRef(in s.GetPinnableReference()), n);
            if (System.Text.Ascii.ToUtf16(bytes, chars, out _) != System.Buffers.OperationStatus.Done)
                s = Encoding.UTF8.GetString(bytes);
            Pos += n;
            return s;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public T[] ReadPacked<T>() where T : unmanaged => PackedOf<T>(ReadSize(Unsafe.SizeOf<T>()));

        /// <summary>The n packed elements at Pos (n already checked against the bytes left).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private T[] PackedOf<T>(int n) where T : unmanaged
        {
            if (n == 0) return Array.Empty<T>();
            var a = GC.AllocateUninitializedArray<T>(n);
            FillPacked<T>(a);
            return a;
        }

        public List<T> ReadPackedList<T>() where T : unmanaged
        {
            int n = ReadSize(Unsafe.SizeOf<T>());
            var list = new List<T>(n);
            CollectionsMarshal.SetCount(list, n);
            FillPacked<T>(CollectionsMarshal.AsSpan(list));
            return list;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void FillPacked<T>(Span<T> dest) where T : unmanaged
        {
            int bytes = dest.Length * Unsafe.SizeOf<T>();  // ReadSize checked that they are there
            ref byte src = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buf), Pos);
            if (typeof(T) == typeof(bool))
            {
                int bad = MemoryMarshal.CreateReadOnlySpan(ref src, bytes).IndexOfAnyExcept((byte)0, (byte)1);
                if (bad >= 0) throw Corrupt($"a bool byte is {Unsafe.Add(ref src, bad)}, not 0 or 1", -bad);
            }
            if (BitConverter.IsLittleEndian || Unsafe.SizeOf<T>() == 1)
                WireEndian.Copy(ref Unsafe.As<T, byte>(ref MemoryMarshal.GetReference(dest)), ref src, bytes);
            else
                WireEndian.ReverseCopy(MemoryMarshal.CreateReadOnlySpan(ref src, bytes), MemoryMarshal.AsBytes(dest), Unsafe.SizeOf<T>());
            Pos += bytes;
        }

        // --- compact chains (revision 1.1) --------------------------------------------------

        /// <summary>True when the next uint32 is 0x80000000, which starts a compact chain.</summary>
        internal bool AtCompactChain() =>
            end - Pos >= 4 && Unsafe.ReadUnaligned<uint>(ref buf[Pos]) == (BitConverter.IsLittleEndian ? WireWriter.NewBit : 0x80u);

        /// <summary>A varint size of elements of at least <paramref name="minElementBytes"/> bytes each (see ReadSize).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int ReadVarSize(int minElementBytes)
        {
            if (Pos < end)
            {
                uint b = Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(buf), Pos);
                if (b < 0x80)
                {
                    Pos++;
                    if (b * (long)minElementBytes > end - Pos) BadVarSize(b, 1);
                    return (int)b;
                }
            }
            return ReadLongVarSize(minElementBytes);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private int ReadLongVarSize(int minElementBytes)
        {
            int at = Pos;
            ulong n = 0;
            for (int i = 0; ; i++)
            {
                if (Pos == end) Truncated(1);
                byte b = buf[Pos++];
                if (i == 9 && b > 1)
                    throw Corrupt(b >= 0x80 ? "a varint longer than 10 bytes" : "a varint above 2^64 - 1", Pos - at);
                n |= (ulong)(b & 0x7F) << (7 * i);
                if (b < 0x80)
                {
                    if (b == 0 && i > 0) throw Corrupt("a varint longer than its shortest form", Pos - at);
                    break;
                }
            }
            long left = end - Pos;
            if (n > (ulong)left || (long)n * minElementBytes > left) BadVarSize(n, Pos - at);
            return (int)n;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void BadVarSize(ulong n, int back) => throw Corrupt($"a size of {n} with only {end - Pos} bytes left", back);

        public string ReadVarString() => StringOf(ReadVarSize(1));

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public T[] ReadVarPacked<T>() where T : unmanaged => PackedOf<T>(ReadVarSize(Unsafe.SizeOf<T>()));

        /// <summary>
        /// A reference header: 0 (null), a back-reference (the object, checked to be a
        /// <typeparamref name="T"/>), or a new id (must be the next number): then
        /// <paramref name="isNew"/> is true and the caller creates the object and calls
        /// <see cref="Register"/> before reading its fields.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal T ReadRefHeader<T>(out bool isNew) where T : class
        {
            uint raw = ReadU32();
            isNew = false;
            if (raw == 0) return null;
            if (chain.Count != 0) Materialize();
            if ((raw & WireWriter.NewBit) != 0)
            {
                if (raw != ((uint)objectCount + 1 | WireWriter.NewBit)) throw OutOfSequence(raw);
                isNew = true;
                return null;
            }
            return BackRef<T>(raw);
        }

        /// <summary>
        /// The header that ended a list loop (not the next new id): null, or a back-reference
        /// checked as <see cref="ReadRefHeader"/> does.
        /// </summary>
        internal T ChainEnd<T>(uint raw) where T : class
        {
            if (raw == 0) return null;
            if (chain.Count != 0) Materialize();
            if ((raw & WireWriter.NewBit) != 0) throw OutOfSequence(raw);
            return BackRef<T>(raw);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private T BackRef<T>(uint raw) where T : class
        {
            if (raw > (uint)objectCount)
                throw Corrupt($"reference to object {raw} before it appeared (not seen yet)", 4);
            object o = objects[(int)raw - 1];
            if (o.GetType() != typeof(T))
                throw Corrupt($"reference {raw} names an object of another type ({o.GetType().Name}, not {typeof(T).Name})", 4);
            return Unsafe.As<T>(o);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private Exception OutOfSequence(uint raw) =>
            Corrupt($"new object id {raw & ~WireWriter.NewBit} where {objectCount + 1} was due (out of sequence)", 4);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void Register(object o)
        {
            if (objectCount == objects.Length) Array.Resize(ref objects, objectCount * 2);
            // Through a ref: no covariance check call (see IdentityMap.Remember).
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(objects), objectCount++) = o;
        }
    }

    /// <summary>
    /// Objects a list loop numbered (WireWriter) or read (WireReader) without the identity
    /// table: the Count links that follow From, Walk giving a node's link. Nothing is stored per
    /// node; they enter the table only when a later reference needs looking up.
    /// </summary>
    internal struct LinkRun
    {
        internal object From;
        internal Func<object, object> Walk;
        internal uint Count;

        internal void Clear()
        {
            From = null;
            Walk = null;
            Count = 0;
        }
    }

    internal static class WireEndian
    {
        /// <summary>
        /// memcpy, with up to 64 bytes copied inline (two overlapping blocks of 8, 16 or 32): a
        /// list's nodes and records often hold a few numbers (a double[4] is 32 bytes), and the
        /// copy call costs more than the copy there.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static void Copy(ref byte dest, ref byte src, int bytes)
        {
            if (bytes <= 16)
            {
                if (bytes >= 8)
                {
                    Unsafe.WriteUnaligned(ref dest, Unsafe.ReadUnaligned<ulong>(ref src));
                    Unsafe.WriteUnaligned(ref Unsafe.Add(ref dest, bytes - 8), Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref src, bytes - 8)));
                }
                else if (bytes >= 4)
                {
                    Unsafe.WriteUnaligned(ref dest, Unsafe.ReadUnaligned<uint>(ref src));
                    Unsafe.WriteUnaligned(ref Unsafe.Add(ref dest, bytes - 4), Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref src, bytes - 4)));
                }
                else
                {
                    for (int i = 0; i < bytes; i++) Unsafe.Add(ref dest, i) = Unsafe.Add(ref src, i);
                }
                return;
            }
            if (bytes <= 32)
            {
                Unsafe.WriteUnaligned(ref dest, Unsafe.ReadUnaligned<Vector128<byte>>(ref src));
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref dest, bytes - 16), Unsafe.ReadUnaligned<Vector128<byte>>(ref Unsafe.Add(ref src, bytes - 16)));
                return;
            }
            if (bytes <= 64 && Vector256.IsHardwareAccelerated)
            {
                Unsafe.WriteUnaligned(ref dest, Unsafe.ReadUnaligned<Vector256<byte>>(ref src));
                Unsafe.WriteUnaligned(ref Unsafe.Add(ref dest, bytes - 32), Unsafe.ReadUnaligned<Vector256<byte>>(ref Unsafe.Add(ref src, bytes - 32)));
                return;
            }
            Unsafe.CopyBlockUnaligned(ref dest, ref src, (uint)bytes);
        }

        internal static void ReverseCopy(ReadOnlySpan<byte> src, Span<byte> dest, int size)
        {
            for (int i = 0; i < src.Length; i += size)
                for (int k = 0; k < size; k++)
                    dest[i + k] = src[i + size - 1 - k];
        }
    }
}
