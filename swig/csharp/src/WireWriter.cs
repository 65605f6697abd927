using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Oompi
{
    /// <summary>
    /// Writes wire format v1 (docs/wire-format.md) into a growable byte array: little-endian
    /// numbers, sizes as uint64, strings as size + UTF-8, references as uint32 ids numbered in
    /// order of first appearance (one counter per message, or per slice). Used by the compiled
    /// plans of <see cref="Wire"/>; public only so that those plans can call it.
    /// </summary>
    internal sealed class WireWriter
    {
        internal const uint NewBit = 0x80000000u;
        internal byte[] Buf;
        internal int Pos;
        private IdentityMap ids;
        private uint lastId;
        internal int ValueDepth;  // nesting of by-value classes (a cycle through them never ends)
        internal nuint StackMark;  // Wire.Guard's: cleared with the ids

        internal WireWriter(int capacity = 256) => Buf = new byte[Math.Max(capacity, 16)];

        /// <summary>Bytes written so far.</summary>
        public int Length => Pos;

        internal ReadOnlySpan<byte> Written => new ReadOnlySpan<byte>(Buf, 0, Pos);

        internal byte[] ToArray() => Written.ToArray();

        /// <summary>
        /// True when the identity map keyed objects by address and the GC may have moved them
        /// since (see <see cref="IdentityMap"/>): the message must be written again with
        /// <see cref="IdsByHash"/>.
        /// </summary>
        internal bool IdsMoved => ids is not null && ids.Moved;

        /// <summary>Keys the identity map by identity hash instead of address (until set back).</summary>
        internal bool IdsByHash
        {
            get => ids is not null && ids.ByHash;
            set => (ids ??= new IdentityMap()).ByHash = value;
        }

        /// <summary>
        /// Numbers objects without looking them up (<see cref="IdentityMap.Optimistic"/>): set
        /// by Wire.Encode for an attempt at a message, which it checks with
        /// <see cref="VerifyIds"/> at the end and writes again without it when an object was
        /// met twice. Off for any other use of a writer.
        /// </summary>
        internal bool IdsOptimistic
        {
            get => optimisticIds;
            set
            {
                optimisticIds = value;
                if (ids is not null) ids.Optimistic = value;
            }
        }
        private bool optimisticIds;

        /// <summary>
        /// Kept across messages: the last message met an object twice (a shared or cyclic
        /// graph), so the next one is written with look-ups straight away (Wire.Encode).
        /// </summary>
        internal bool SharedBefore;

        /// <summary>Back-references written in this message (with look-ups; 0 when optimistic).</summary>
        internal int BackRefs => ids is null ? 0 : ids.BackRefs;

        /// <summary>
        /// After an optimistic attempt: true when no object was numbered twice (the bytes are
        /// the ones look-ups would have written); false when one was (write it again).
        /// </summary>
        internal bool VerifyIds() => ids is null || !ids.Optimistic || ids.Verify();

        /// <summary>Forgets every object written so far (a new message or slice starts at id 1).</summary>
        internal void ResetIds()
        {
            ids?.Clear();
            lastId = 0;
            ValueDepth = 0;
            StackMark = 0;
            deferred.Clear();
        }

        // Objects a list loop numbered without the identity map (ids deferredFirst, +1, ...): a
        // top-level list whose nodes hold no references can meet no node twice unless it cycles
        // (which the loop detects, then writes the list again with the map). They enter the map
        // only if a later reference needs looking up (FlushDeferred walks the list again).
        private LinkRun deferred;
        private uint deferredFirst;

        /// <summary>True when the object just written (new) is the message's only object so far.</summary>
        internal bool OnlyObject() => lastId == 1 && deferred.Count == 0;

        /// <summary>
        /// A list loop starts numbering the links after <paramref name="from"/> (the only
        /// object so far) without the identity map: the last id used, which the loop counts on
        /// from in a local and hands to <see cref="EndDeferred"/>.
        /// </summary>
        internal uint BeginDeferred(object from, Func<object, object> walk)
        {
            deferred.From = from;
            deferred.Walk = walk;
            deferredFirst = lastId + 1;
            return lastId;
        }

        /// <summary>The loop of BeginDeferred stopped with <paramref name="last"/> the last id it wrote.</summary>
        internal void EndDeferred(uint last)
        {
            deferred.Count = last - lastId;
            lastId = last;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static Exception TooManyObjects() => new SerializationException("oompi: more than 2^31-1 objects in one message");

        /// <summary>Back to just after the object with id <paramref name="id"/> at <paramref name="pos"/>: the deferred ones are forgotten.</summary>
        internal void Rewind(int pos, uint id)
        {
            Pos = pos;
            lastId = id;
            deferred.Clear();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void FlushDeferred()
        {
            object o = deferred.From;
            for (uint i = 0; i < deferred.Count; i++)
            {
                o = deferred.Walk(o);
                ids.GetOrAdd(o, deferredFirst + i);
            }
            deferred.Clear();
        }

        internal void Reset()
        {
            Pos = 0;
            ResetIds();
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private ref byte Reserve(int n)
        {
            if (Buf.Length - Pos < n) Grow(n);
            ref byte at = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Buf), Pos);
            Pos += n;
            return ref at;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Grow(long n)
        {
            long need = Pos + n;
            if (need > Array.MaxLength)
                throw new SerializationException(
                    $"oompi: the serialized object graph exceeds {Array.MaxLength} bytes (the largest C# byte array)");
            long size = Math.Max(need, Math.Min((long)Buf.Length * 2, Array.MaxLength));
            Array.Resize(ref Buf, (int)size);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void Put<T>(T v) where T : unmanaged => Unsafe.WriteUnaligned(ref Reserve(Unsafe.SizeOf<T>()), v);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteU8(byte v) => Reserve(1) = v;
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteI8(sbyte v) => Reserve(1) = (byte)v;
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteBool(bool v) => Reserve(1) = v ? (byte)1 : (byte)0;
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteI16(short v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteU16(ushort v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteChar(char v) => WriteU16(v);
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteI32(int v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteU32(uint v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteI64(long v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteU64(ulong v) => Put(BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteF32(float v) => WriteU32(BitConverter.SingleToUInt32Bits(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteF64(double v) => WriteU64(BitConverter.DoubleToUInt64Bits(v));
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteSize(int n) => WriteU64((ulong)n);

        /// <summary>A string: its UTF-8 byte count, then the bytes. Null travels as "".</summary>
        public void WriteString(string s)
        {
            if (string.IsNullOrEmpty(s))
            {
                WriteU64(0);
                return;
            }
            long max = (long)s.Length * 3;  // Encoding.UTF8.GetMaxByteCount without its call
            if (Buf.Length - Pos < 8 + max) Grow(8 + max);
            int n = PutUtf8(s, Pos + 8);
            Unsafe.WriteUnaligned(ref Buf[Pos], BitConverter.IsLittleEndian ? (ulong)n : BinaryPrimitives.ReverseEndianness((ulong)n));
            Pos += 8 + n;
        }

        /// <summary>
        /// s as UTF-8 at <paramref name="at"/> (room checked): the byte count. Most strings are
        /// ASCII: up to 32 chars narrowed inline (WireAscii), longer ones in one vectorized pass
        /// (Ascii.FromUtf16 stops at the first other char, and then Encoding.UTF8 writes the
        /// whole string, as it always did).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int PutUtf8(string s, int at)
        {
            if (s.Length <= 32 && WireAscii.Narrow(s, ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Buf), at))) return s.Length;
            var dest = new Span<byte>(Buf, at, Buf.Length - at);
            if (System.Text.Ascii.FromUtf16(s, dest, out int n) == System.Buffers.OperationStatus.Done) return n;
            return Encoding.UTF8.GetBytes(s, dest);
        }

        /// <summary>An array of numbers: size, then the elements packed. Null travels as empty.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WritePacked<T>(T[] a) where T : unmanaged => WritePackedSpan<T>(a);

        /// <summary>A List of numbers: size, then the elements packed. Null travels as empty.</summary>
        public void WritePackedList<T>(List<T> a) where T : unmanaged =>
            WritePackedSpan<T>(a is null ? default : CollectionsMarshal.AsSpan(a));

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void WritePackedSpan<T>(ReadOnlySpan<T> a) where T : unmanaged
        {
            // One room check for the size and the elements, then a block copy: this runs once
            // per node of a list of small arrays.
            long bytes = (long)a.Length * Unsafe.SizeOf<T>();
            if (Buf.Length - Pos < 8 + bytes) Grow(8 + bytes);  // refuses more than a byte[] holds
            ref byte at = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Buf), Pos);
            ulong n = (ulong)a.Length;
            Unsafe.WriteUnaligned(ref at, BitConverter.IsLittleEndian ? n : BinaryPrimitives.ReverseEndianness(n));
            if (BitConverter.IsLittleEndian || Unsafe.SizeOf<T>() == 1)
                WireEndian.Copy(ref Unsafe.Add(ref at, 8), ref Unsafe.As<T, byte>(ref MemoryMarshal.GetReference(a)), a.Length * Unsafe.SizeOf<T>());
            else
                WireEndian.ReverseCopy(MemoryMarshal.AsBytes(a), new Span<byte>(Buf, Pos + 8, (int)bytes), Unsafe.SizeOf<T>());
            Pos += 8 + (int)bytes;
        }

        // --- compact chains (revision 1.1): sizes as LEB128 varints ------------------------

        /// <summary>Overwrites the uint32 at <paramref name="at"/> (a compact chain's n and close, known last).</summary>
        internal void PatchU32(int at, uint v) =>
            Unsafe.WriteUnaligned(ref Buf[at], BitConverter.IsLittleEndian ? v : BinaryPrimitives.ReverseEndianness(v));

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static int PutVar(ref byte at, uint n)
        {
            int k = 0;
            for (; n >= 0x80; n >>= 7) Unsafe.Add(ref at, k++) = (byte)(n | 0x80);
            Unsafe.Add(ref at, k) = (byte)n;
            return k + 1;
        }

        private static int VarLength(uint n) => n < 1u << 7 ? 1 : n < 1u << 14 ? 2 : n < 1u << 21 ? 3 : n < 1u << 28 ? 4 : 5;

        /// <summary>A string with a varint size. Null travels as "".</summary>
        public void WriteVarString(string s)
        {
            if (string.IsNullOrEmpty(s))
            {
                Reserve(1) = 0;
                return;
            }
            long max = (long)s.Length * 3;
            if (Buf.Length - Pos < 5 + max) Grow(5 + max);
            // Encoded after a one-byte size (most strings are short), moved on when the size is longer.
            int n = PutUtf8(s, Pos + 1);
            int k = VarLength((uint)n);
            if (k > 1) Buffer.BlockCopy(Buf, Pos + 1, Buf, Pos + k, n);
            PutVar(ref Buf[Pos], (uint)n);
            Pos += k + n;
        }

        /// <summary>An array of numbers with a varint size, then the elements packed. Null travels as empty.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void WriteVarPacked<T>(T[] a) where T : unmanaged
        {
            ReadOnlySpan<T> span = a;
            long bytes = (long)span.Length * Unsafe.SizeOf<T>();
            if (Buf.Length - Pos < 5 + bytes) Grow(5 + bytes);
            ref byte at = ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(Buf), Pos);
            int k = 1;
            if (span.Length < 0x80) at = (byte)span.Length;
            else k = PutVar(ref at, (uint)span.Length);
            if (BitConverter.IsLittleEndian || Unsafe.SizeOf<T>() == 1)
                WireEndian.Copy(ref Unsafe.Add(ref at, k), ref Unsafe.As<T, byte>(ref MemoryMarshal.GetReference(span)), (int)bytes);
            else
                WireEndian.ReverseCopy(MemoryMarshal.AsBytes(span), new Span<byte>(Buf, Pos + k, (int)bytes), Unsafe.SizeOf<T>());
            Pos += k + (int)bytes;
        }

        /// <summary>See <see cref="IdentityMap.Prefetch"/>: o (not null) will be looked up soon.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void PrefetchRef(object o)
        {
            if (!optimisticIds) ids?.Prefetch(o);  // no look-ups to prefetch for while optimistic
        }

        /// <summary>
        /// The reference header of <paramref name="obj"/> (not null): true when it is new (its id
        /// with the top bit was written and its fields must follow), false when it was written
        /// before (its id alone was written).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal bool WriteRefHeader(object obj)
        {
            ids ??= new IdentityMap { Optimistic = optimisticIds };
            if (deferred.Count != 0) FlushDeferred();
            if (lastId == 0x7FFFFFFFu)
            {
                if (ids.Optimistic) throw new SharedObjectsException();  // again with look-ups, which can tell
                uint old = ids.Get(obj);
                if (old == 0) throw new SerializationException("oompi: more than 2^31-1 objects in one message");
                WriteU32(old);
                return false;
            }
            uint seen = ids.GetOrAdd(obj, lastId + 1);
            if (seen != 0)
            {
                WriteU32(seen);
                return false;
            }
            WriteU32(++lastId | NewBit);
            return true;
        }
    }

    /// <summary>
    /// Object -> id by reference identity. The table holds no references: each entry is a key
    /// of the object and its id in one ulong (open addressing, Fibonacci hashing, linear
    /// probing; 0: empty, as ids are never 0), and an entry whose key matches is confirmed
    /// against the object of that id in a list by id. So a probe reads 8 bytes, a new object
    /// costs a store without a GC write barrier in the table and one at the end of the list
    /// (stores in order, on the same cards), and clearing the table is a memset the GC never
    /// scans.
    /// <para>
    /// The key is the object's address (bits 3-34), which costs nothing, unlike its
    /// RuntimeHelpers.GetHashCode: an object whose hash is asked for the first time (every
    /// object of a graph just received, when it is sent on) gets one generated and stored in
    /// its header, 30-60 ns each. An address holds only while the GC moves nothing, so the map
    /// notes GC.CollectionCount(0) (every collection counts there) before its first key:
    /// <see cref="Moved"/> says whether a collection came since (checked after the message,
    /// and every 4,096 new objects: a missed look-up writes an object again, and a cycle would
    /// go on), and the message is then written again keyed by identity hash
    /// (<see cref="ByHash"/>), which never changes. A match is always confirmed by reference,
    /// so a moved object can only be missed, never mistaken for another.
    /// </para>
    /// </summary>
    internal sealed class IdentityMap
    {
        private ulong[] table = new ulong[64];
        private object[] byId = new object[32];  // the object of id i at i - 1
        private int count;
        private uint maxId;
        private int shift = 32 - 6;
        private int collections;  // GC.CollectionCount(0) before the first key of the message

        /// <summary>
        /// Numbers every object as new without a look-up, noting its key in a log (a store in
        /// order: no table, no reference kept); the keys are entered into a set of their own
        /// (4 bytes an entry: 256 KiB for 32,767 objects) in batches by <see cref="Verify"/>:
        /// at 64, 128, ... 4,096 objects, then every 4,096 (so a cycle or a shared subgraph is
        /// caught after a bounded number of extra objects: no unbounded recursion, no graph
        /// unfolded), and at the end of the message. A batch loop overlaps its cache misses
        /// (prefetching ahead), where a look-up per object while writing (a table larger than
        /// the cache: 65,535 objects) waits for each miss in turn. A key met twice is taken
        /// as the same object (never confirmed: two addresses 32 GiB apart share a key, and
        /// two identity hashes may), which only costs writing the message again with
        /// look-ups. Keys read while writing are valid at the end because no collection came
        /// in between (<see cref="Moved"/>, checked at each batch and after the message).
        /// </summary>
        internal bool Optimistic;
        private uint[] keyLog = new uint[64];  // Optimistic: the keys of ids 1, 2, ... in order
        private int logged;                    // Optimistic: keys in keyLog
        private int verified;                  // Optimistic: keyLog[0, verified) are in keySet
        private uint[] keySet = new uint[128]; // Optimistic: open addressing, 0 empty
        private int setShift = 32 - 7;
        private int nextCheck = FirstCheck;
        private const int FirstCheck = 64;
        // Optimistic: every key logged so far is greater than the one before (objects met in
        // the order they were allocated: an array of records, a graph just received and sent
        // on). Distinct keys, so no object came twice: Verify has nothing to enter until one
        // key is not (then it enters them all, from the first).
        private bool ascending = true;
        private uint lastKey;

        /// <summary>Look-ups that found their object (back-references) since the last Clear.</summary>
        internal int BackRefs;

        /// <summary>Keys by identity hash (a message written again after the GC moved objects).</summary>
        internal bool ByHash;

        /// <summary>True when addresses were used as keys and a collection came since the first.</summary>
        internal bool Moved => !ByHash && (count | logged) != 0 && GC.CollectionCount(0) != collections;

        // The slot of a key: a 4 KiB block of addresses (512 keys) keeps its order in a window
        // of the table at a place hashed from the block's number (Fibonacci hashing). Objects
        // met in the order they were allocated (every graph just received, and most graphs
        // built then sent) then probe the table in address order, which the processor's
        // prefetcher follows, instead of at random: a table larger than the cache (65,535
        // objects: 1 MiB) otherwise costs a miss per object. Distinct addresses of one block
        // never share a slot; blocks meet at random, as single keys did.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private int Slot(uint key) => (int)(((key >> 9) * 2654435769u >> shift) + (key & 511)) & (table.Length - 1);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private uint Key(object o) => ByHash ? (uint)RuntimeHelpers.GetHashCode(o) : AddressKey(o);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static unsafe uint AddressKey(object o) =>
            (uint)((nuint)Unsafe.AsPointer(ref Unsafe.As<RawObject>(o).First) >> 3);

        /// <summary>Any object seen as its first field's storage, for its address (never dereferenced).</summary>
        private sealed class RawObject
        {
            internal byte First;
        }

        /// <summary>
        /// Asks the processor to fetch o's slot of the table now, for a look-up that comes soon:
        /// a table larger than the cache (a message of many objects) makes every look-up a
        /// cache miss, which this overlaps with the writing of the objects before o. A
        /// prefetch never faults, so a stale address (the GC moved the table) is harmless.
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void Prefetch(object o)
        {
            if (Optimistic || !System.Runtime.Intrinsics.X86.Sse.IsSupported || table.Length <= 1 << 14) return;  // 128 KiB: in the cache
            PrefetchSlot(table, Slot(Key(o)));
        }

        /// <summary>The id of o, or 0 after adding o with <paramref name="id"/>.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal uint GetOrAdd(object o, uint id)
        {
            if ((count | logged) == 0) collections = GC.CollectionCount(0);  // before the first address is read
            if (Optimistic)
            {
                uint k = Key(o);
                if (k <= lastKey) ascending = false;
                lastKey = k;
                if (logged == keyLog.Length) GrowKeyLog();
                Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(keyLog), logged) = k;
                if (++logged == nextCheck) Check();
                return 0;
            }
            uint key = Key(o);
            ulong[] t = table;
            int mask = t.Length - 1;
            for (int i = Slot(key); ; i = (i + 1) & mask)
            {
                ulong e = t[i];
                if (e == 0)
                {
                    t[i] = (ulong)key << 32 | id;
                    Remember(o, id);
                    if (++count * 2 > t.Length) Grow();
                    if ((count & 4095) == 0 && Moved) throw new ObjectsMovedException();
                    return 0;
                }
                if ((uint)(e >> 32) == key && ReferenceEquals(byId[(int)(uint)e - 1], o))
                {
                    BackRefs++;
                    return (uint)e;
                }
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void GrowKeyLog() =>
            Array.Resize(ref keyLog, (int)Math.Min((long)keyLog.Length * 2, Array.MaxLength));

        /// <summary>An optimistic batch is due: verify it, and check (as look-ups do) that no collection came.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Check()
        {
            if (!Verify()) throw new SharedObjectsException();
            nextCheck = (int)Math.Min(logged < 4096 ? logged * 2L : logged + 4096L, int.MaxValue);
            if (Moved) throw new ObjectsMovedException();
        }

        // The slot of a key in keySet: as Slot (a 4 KiB block of addresses in order in a window).
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static int SetSlot(uint key, int shift, int mask) => (int)(((key >> 9) * 2654435769u >> shift) + (key & 511)) & mask;

        /// <summary>
        /// Enters the keys logged since the last call into the key set: false as soon as one
        /// is there already (an object numbered twice, or two that share a key) or is 0 (not
        /// told from an empty slot): the message is then written again with look-ups.
        /// </summary>
        internal bool Verify()
        {
            if (ascending) return true;  // distinct keys (the set is entered from the first key once they are not)
            int n = logged;
            if (n * 2L > keySet.Length) GrowKeySet(n);
            uint[] set = keySet;
            int mask = set.Length - 1, shift = setShift;
            ref uint log = ref MemoryMarshal.GetArrayDataReference(keyLog);
            bool prefetch = System.Runtime.Intrinsics.X86.Sse.IsSupported && set.Length > 1 << 14;
            const int Ahead = 16;
            for (int i = verified; i < n; i++)
            {
                if (prefetch && i + Ahead < n) PrefetchSlot(set, SetSlot(Unsafe.Add(ref log, i + Ahead), shift, mask));
                uint key = Unsafe.Add(ref log, i);
                if (key == 0) return false;
                for (int j = SetSlot(key, shift, mask); ; j = (j + 1) & mask)
                {
                    uint e = set[j];
                    if (e == 0)
                    {
                        set[j] = key;
                        break;
                    }
                    if (e == key) return false;
                }
            }
            verified = n;
            return true;
        }

        /// <summary>A key set with room for n keys at half load, holding the ones verified so far.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void GrowKeySet(int n)
        {
            int bits = 7;
            while ((1L << bits) < n * 2L) bits++;
            if (bits > 31) throw new SerializationException("oompi: more objects in one message than an identity set can hold");
            keySet = new uint[1 << bits];
            setShift = 32 - bits;
            int done = verified;
            verified = 0;
            int keep = logged;
            logged = done;
            Verify();  // the keys verified before are distinct: this only re-enters them
            logged = keep;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static unsafe void PrefetchSlot<E>(E[] t, int i) where E : unmanaged =>
            System.Runtime.Intrinsics.X86.Sse.Prefetch0(Unsafe.AsPointer(ref Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(t), i)));

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void Remember(object o, uint id)
        {
            if (id > (uint)byId.Length) GrowById(id);
            // Stored through a ref: an object[] element store is otherwise a call to the
            // runtime's covariance check (the array could be a string[]), once per object.
            Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(byId), (int)id - 1) = o;
            if (id > maxId) maxId = id;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void GrowById(uint id) =>
            Array.Resize(ref byId, (int)Math.Min(Math.Max((long)id, (long)byId.Length * 2), Array.MaxLength));

        internal uint Get(object o)
        {
            uint key = Key(o);
            ulong[] t = table;
            int mask = t.Length - 1;
            for (int i = Slot(key); ; i = (i + 1) & mask)
            {
                ulong e = t[i];
                if (e == 0) return 0;
                if ((uint)(e >> 32) == key && ReferenceEquals(byId[(int)(uint)e - 1], o)) return (uint)e;
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Grow()
        {
            var old = table;
            var t = new ulong[old.Length * 2];
            shift--;
            int mask = t.Length - 1;
            table = t;
            foreach (ulong e in old)
            {
                if (e == 0) continue;
                int i = Slot((uint)(e >> 32));
                while (t[i] != 0) i = (i + 1) & mask;
                t[i] = e;
            }
        }

        internal void Clear()
        {
            if (logged != 0 && !ascending)  // keys may have entered the set (verified alone misses a failed batch's)
            {
                if (keySet.Length > 4096 && logged * 16 < keySet.Length)
                {
                    keySet = new uint[128];  // a huge message came before: do not clear its set for small ones
                    setShift = 32 - 7;
                }
                else
                {
                    Array.Clear(keySet);
                }
            }
            if (keyLog.Length > 1 << 16 && logged * 16 < keyLog.Length) keyLog = new uint[64];
            verified = 0;
            logged = 0;
            ascending = true;
            lastKey = 0;
            nextCheck = FirstCheck;
            BackRefs = 0;
            if (count == 0) return;
            Array.Clear(byId, 0, (int)maxId);
            maxId = 0;
            if (table.Length > 4096 && count * 16 < table.Length)
            {
                // A huge message came before: do not clear (and keep) its table for small ones.
                table = new ulong[64];
                byId = new object[32];
                shift = 32 - 6;
            }
            else
            {
                Array.Clear(table);
            }
            count = 0;
        }
    }

    /// <summary>
    /// The GC moved objects while the identity map was keyed by address (IdentityMap.Moved):
    /// caught by Wire's entry points, which write the message again keyed by identity hash.
    /// Never seen by callers, so no SerializationException.
    /// </summary>
    internal sealed class ObjectsMovedException : Exception
    {
    }

    /// <summary>
    /// An optimistic attempt (IdentityMap.Optimistic) numbered an object twice: caught by
    /// Wire.Encode, which writes the message again with look-ups. Never seen by callers.
    /// </summary>
    internal sealed class SharedObjectsException : Exception
    {
    }
}
