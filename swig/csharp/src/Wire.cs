using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Oompi
{
    /// <summary>
    /// Wire format v1 (docs/wire-format.md) for C# values: the bytes that <c>comm.OSend</c> and the
    /// other object operations put in MPI messages, the same as C++, Java and Python write.
    /// <list type="table">
    /// <item><c>bool</c>, <c>sbyte</c>…<c>ulong</c>, <c>float</c>, <c>double</c>, <c>char</c>
    /// (uint16), enums (their underlying type)</item>
    /// <item><c>string</c>: size + UTF-8 (null travels as "")</item>
    /// <item><c>T[]</c>, <c>List&lt;T&gt;</c>, <c>HashSet&lt;T&gt;</c>: size + elements (numbers
    /// packed; null travels as empty); <c>Dictionary&lt;K,V&gt;</c>: size + key, value pairs;
    /// <c>T?</c> of a struct: a bool that is true when empty, then the value</item>
    /// <item>a struct with <c>[Transportable]</c> fields (or a class marked
    /// <c>[Transportable(ByValue = true)]</c>): its transported fields, in order</item>
    /// <item>a class with <c>[Transportable]</c> fields: a reference (uint32 id; shared and cyclic
    /// references survive; null allowed)</item>
    /// <item>a class or struct marked <c>[Serializable]</c> with nothing of oompi's marked (an
    /// MPI.NET or BinaryFormatter user's type): as if every instance field of it and of its
    /// <c>[Serializable]</c> base classes, public or private, but the <c>[NonSerialized]</c>
    /// ones, were marked <c>[Transportable]</c></item>
    /// </list>
    /// Each type is compiled once, on first use, into delegates (System.Linq.Expressions) that
    /// read and write its fields directly: no reflection per object. When the last transported
    /// field of a class is a reference to the same class (a list's <c>next</c>), that link is
    /// followed in a loop, so lists of any length need no stack; other deep nesting recurses, and
    /// a graph too deep for the caller's stack is written or read again on a thread with a 512 MiB
    /// stack (beyond that: <see cref="SerializationException"/>). A message whose value is a
    /// list of a chain type (that link last, every other field a number, string or array of
    /// numbers) travels as a compact chain (revision 1.1: no ids, varint sizes); reading takes
    /// both forms.
    /// </summary>
    public static class Wire
    {
        /// <summary>The encoding of <paramref name="value"/> (of its run-time type when T is object).</summary>
        public static byte[] Serialize<T>(T value)
        {
            var w = scratch ?? new WireWriter(4096);
            scratch = null;  // reentrant use gets its own
            try
            {
                w.Reset();
                WriteTop(w, value);
                return w.ToArray();
            }
            finally
            {
                if (w.Buf.Length <= 64 << 20)
                {
                    w.Reset();
                    scratch = w;
                }
            }
        }

        [ThreadStatic] private static WireWriter scratch;
        [ThreadStatic] private static int bufferHint;  // Serialize(value, IBufferWriter)'s GetMemory size

        /// <summary>
        /// Appends the encoding of <paramref name="value"/> to <paramref name="destination"/> (a
        /// caller's reused buffer: no array per call); returns its length in bytes.
        /// </summary>
        public static int Serialize<T>(T value, System.Buffers.IBufferWriter<byte> destination)
        {
            if (destination is null) throw new ArgumentNullException(nameof(destination));
            var w = scratch ?? new WireWriter(4096);
            scratch = null;
            byte[] own = w.Buf;
            bool lent = false;
            try
            {
                w.Reset();
                // Straight into the destination's array when it lends one up to its end
                // (ArrayBufferWriter, a caller's reused sink): no copy of the message. If the
                // message outgrows it, the writer moves to an array of its own (Grow), copied
                // into the destination at the end as before. The memory asked for is what the
                // thread's last message took (or grew to: a string reserves 3 bytes a char
                // until it is written), so that a reused destination soon has room for the next.
                int at = 0;
                lent = MemoryMarshal.TryGetArray<byte>(destination.GetMemory(bufferHint), out var seg) &&
                       seg.Array is not null && seg.Count > 0 && seg.Offset + seg.Count == seg.Array.Length;
                if (lent)
                {
                    w.Buf = seg.Array;
                    w.Pos = at = seg.Offset;
                }
                WriteTop(w, value);
                int n = w.Pos - at;
                bool moved = !lent || !ReferenceEquals(w.Buf, seg.Array);
                if (moved) new ReadOnlySpan<byte>(w.Buf, at, n).CopyTo(destination.GetSpan(n));
                destination.Advance(n);
                bufferHint = (int)Math.Min(Math.Max(lent && moved ? w.Buf.Length - at : 0, n + (n >> 3) + 256L), Array.MaxLength);
                return n;
            }
            finally
            {
                if (lent) w.Buf = own;  // never keep the destination's array (nor a copy grown from it)
                if (w.Buf.Length <= 64 << 20)
                {
                    w.Reset();
                    scratch = w;
                }
            }
        }

        /// <summary>Reads a T from the whole of <paramref name="data"/>.</summary>
        public static T Deserialize<T>(byte[] data)
        {
            if (data is null) throw new ArgumentNullException(nameof(data));
            return Deserialize<T>(data, 0, data.Length);
        }

        /// <summary>Reads a T from data[offset, offset + count), all of which it must use.</summary>
        public static T Deserialize<T>(byte[] data, int offset, int count)
        {
            if (data is null) throw new ArgumentNullException(nameof(data));
            if (offset < 0 || count < 0 || offset > data.Length || count > data.Length - offset)
                throw new ArgumentOutOfRangeException(nameof(offset));
            return ReadTop<T>(new WireReader(data, offset, count));
        }

        /// <summary>Reads a T from <paramref name="data"/>.</summary>
        public static T Deserialize<T>(ReadOnlySpan<byte> data) => Deserialize<T>(data.ToArray());

        /// <summary>
        /// True when values of <paramref name="type"/> can travel; false with the reason otherwise.
        /// </summary>
        public static bool IsTransportable(Type type, out string reason)
        {
            try
            {
                Plans.Describe(type, type.Name);
                reason = null;
                return true;
            }
            catch (ArgumentException e)
            {
                reason = e.Message;
                return false;
            }
        }

        /// <summary>ArgumentException naming T (or what inside it) when T cannot travel.</summary>
        public static void Check<T>() => Codec<T>.Ensure();

        /// <summary>Checks the run-time type of <paramref name="value"/> when T does not say it.</summary>
        internal static void Check<T>(T value)
        {
            if (NeedsRuntimeType(typeof(T)) && value is not null) Boxed.For(value.GetType());  // no lock once known
            else Codec<T>.Ensure();
        }

        private static bool NeedsRuntimeType(Type t) => t == typeof(object) || t.IsAbstract || t.IsInterface;

        // --- top level: the run-time type when needed, and the deep-graph retry ---------------

        [ThreadStatic] private static bool onBigStack;
        private const int BigStackBytes = 512 << 20;

        internal static void WriteTop<T>(WireWriter w, T value)
        {
            if (NeedsRuntimeType(typeof(T)))
            {
                if (value is null)
                    throw new ArgumentException($"oompi: cannot send a null {typeof(T).Name} (its type says nothing about what to send)");
                Boxed.For(value.GetType()).Write(w, value);
                return;
            }
            Encode(w, value, static (w, v) => Codec<T>.WriteTop(w, v));
        }

        // Messages written again because the GC ran while objects were keyed by address (read
        // by the test IdentitySurvivesCollectionsWhileWriting, to know that it took that path).
        private static long rewrites;

        /// <summary>
        /// Writes with <paramref name="body"/> (the ids start at 1), again on a big stack when
        /// the graph is too deep for this one, and again keyed by identity hash when the GC
        /// moved objects while the identity map was keyed by their addresses (IdentityMap).
        /// Unless the writer's last message met an object twice, the first attempt numbers
        /// objects without looking them up (IdentityMap.Optimistic: a tree, records, most
        /// graphs sent) and verifies at the end that none came twice; if one did, the message
        /// is written again with look-ups (the same bytes either way).
        /// </summary>
        private static void Encode<S>(WireWriter w, S state, Action<WireWriter, S> body)
        {
            int start = w.Pos;
            w.IdsOptimistic = !w.SharedBefore;
            try
            {
                while (true)
                {
                    try
                    {
                        try
                        {
                            body(w, state);
                        }
                        catch (DeepGraphException) when (!onBigStack)
                        {
                            w.Pos = start;
                            w.ResetIds();
                            try
                            {
                                OnBigStack(() => body(w, state));
                            }
                            finally
                            {
                                w.StackMark = 0;  // the big stack's addresses say nothing here
                            }
                        }
                        // Verified first: its keys are read now, and a collection meanwhile is seen by IdsMoved.
                        if (!w.VerifyIds()) throw new SharedObjectsException();
                        if (!w.IdsMoved)
                        {
                            w.SharedBefore = !w.IdsOptimistic && w.BackRefs != 0;
                            return;
                        }
                    }
                    catch (ObjectsMovedException)
                    {
                    }
                    catch (SharedObjectsException)
                    {
                        Interlocked.Increment(ref sharedRewrites);
                        w.SharedBefore = true;
                        w.IdsOptimistic = false;
                        w.Pos = start;
                        w.ResetIds();
                        continue;
                    }
                    Interlocked.Increment(ref rewrites);
                    w.Pos = start;
                    w.ResetIds();
                    w.IdsByHash = true;
                }
            }
            finally
            {
                if (w.IdsByHash) w.IdsByHash = false;
                w.IdsOptimistic = false;
            }
        }

        // Messages written again because an optimistic attempt met an object twice (read by
        // tests, to know that a case took that path).
        private static long sharedRewrites;

        internal static T ReadTop<T>(WireReader r)
        {
            if (NeedsRuntimeType(typeof(T)))
                throw new ArgumentException($"oompi: cannot receive a {typeof(T).Name}: name a concrete transportable type (ORecv<Node>)");
            try
            {
                T value;
                try
                {
                    value = Codec<T>.ReadTop(r);
                }
                catch (DeepGraphException) when (!onBigStack)
                {
                    r.Restart();
                    T v = default;
                    OnBigStack(() => v = Codec<T>.ReadTop(r));
                    value = v;
                }
                r.CheckEnd();
                return value;
            }
            finally
            {
                r.Release();
            }
        }

        /// <summary>A slice of the split representation: size, then the elements, with its own ids.</summary>
        internal static void WriteSlice<T>(WireWriter w, T[] all, int first, int count)
        {
            w.ResetIds();
            Encode(w, (all, first, count), static (w, s) => SliceBody(w, s.all, s.first, s.count));
        }

        private static void SliceBody<T>(WireWriter w, T[] all, int first, int count)
        {
            w.WriteSize(count);
            for (int i = first; i < first + count; i++) Codec<T>.Write(w, all[i]);
        }

        internal static void ReadSlice<T>(byte[] data, int offset, int count, List<T> into)
        {
            var r = new WireReader(data, offset, count);
            int before = into.Count;
            try
            {
                try
                {
                    SliceRead(r, into);
                }
                catch (DeepGraphException) when (!onBigStack)
                {
                    r.Restart();
                    into.RemoveRange(before, into.Count - before);
                    OnBigStack(() => SliceRead(r, into));
                }
                r.CheckEnd();
            }
            finally
            {
                r.Release();
            }
        }

        private static void SliceRead<T>(WireReader r, List<T> into)
        {
            int n = r.ReadCount(Codec<T>.MinSize);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<T>.MinSize);
                into.Add(Codec<T>.Read(r));
            }
        }

        private static void OnBigStack(Action action)
        {
            ExceptionDispatchInfo error = null;
            var t = new Thread(() =>
            {
                onBigStack = true;
                try { action(); }
                catch (Exception e) { error = ExceptionDispatchInfo.Capture(e); }
            }, BigStackBytes);
            t.Start();
            t.Join();
            error?.Throw();
        }

        /// <summary>
        /// Before every nested object: stop before the stack runs out. The runtime's check
        /// (RuntimeHelpers.TryEnsureSufficientExecutionStack: at least 128 KiB left on 64-bit) is
        /// a call into the runtime, several ns for every node of a graph; so it runs only when
        /// the stack is deeper than where it last passed minus 16 KiB (<paramref name="mark"/>,
        /// the writer's or reader's: a thread-static costs a call per node to find the thread's
        /// statics): above that mark, at least 112 KiB are left. A writer or reader is used by
        /// one thread at a time, and its mark is cleared whenever it may change threads (a new
        /// message or slice, the retry on a big stack and back).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static unsafe void Guard(ref nuint mark)
        {
            byte here;
            if (~(nuint)(&here) > mark) CheckStack((nuint)(&here), ref mark);
        }

        // A mark is ~(the lowest stack address that needs no check); 0 (a new message): every
        // address needs one. Stored inverted so that the first Guard checks.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void CheckStack(nuint here, ref nuint mark)
        {
            if (!RuntimeHelpers.TryEnsureSufficientExecutionStack()) throw new DeepGraphException();
            mark = ~(here - (16 << 10));
        }

        private static class Boxed
        {
            private static readonly ConcurrentDictionary<Type, IBoxed> cache = new();
            internal interface IBoxed { void Write(WireWriter w, object value); }
            private sealed class Of<T> : IBoxed
            {
                public void Write(WireWriter w, object value) => WriteTop(w, (T)value);
            }
            internal static IBoxed For(Type t) => cache.GetOrAdd(t, static t =>
            {
                Plans.Describe(t, t.Name);
                return (IBoxed)Activator.CreateInstance(typeof(Of<>).MakeGenericType(t));
            });
        }
    }

    internal sealed class DeepGraphException : SerializationException
    {
        internal DeepGraphException()
            : base("oompi: the object graph nests too deeply for this thread's stack (even on a 512 MiB stack); " +
                   "put a list's link last among the [Transportable] fields so that it is followed in a loop") { }
    }
}
