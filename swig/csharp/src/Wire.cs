using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
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
            int start = w.Pos;
            try
            {
                Codec<T>.WriteTop(w, value);
            }
            catch (DeepGraphException) when (!onBigStack)
            {
                w.Pos = start;
                w.ResetIds();
                OnBigStack(() => Codec<T>.WriteTop(w, value));
            }
        }

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
            int start = w.Pos;
            try
            {
                SliceBody(w, all, first, count);
            }
            catch (DeepGraphException) when (!onBigStack)
            {
                w.Pos = start;
                w.ResetIds();
                OnBigStack(() => SliceBody(w, all, first, count));
            }
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

        /// <summary>Before every nested object: stop before the stack runs out.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static void Guard()
        {
            if (!RuntimeHelpers.TryEnsureSufficientExecutionStack()) throw new DeepGraphException();
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

    /// <summary>How one C# type travels.</summary>
    internal enum WireKind
    {
        Primitive, String, PackedArray, PackedList, Array, List, HashSet, Dictionary, Nullable,
        Struct, ClassRef, ClassValue,
    }

    internal sealed class TypePlan
    {
        internal Type Type;
        internal WireKind Kind;
        internal int MinSize;            // fewest bytes a value takes (>= 1)
        internal FieldInfo[] Fields;     // Struct, ClassRef, ClassValue: transported fields in order
        internal FieldInfo Tail;         // ClassRef: the last field, a reference to the same class
        internal bool Chain;             // ClassRef: a chain type (wire 1.1): a Tail and only leaves before it
        internal Type Element, Key;      // containers (Key: dictionaries, Element is the value)
    }

    /// <summary>Classification and validation of types (reflection, once per type).</summary>
    internal static class Plans
    {
        internal static readonly object Lock = new();
        private static readonly Dictionary<Type, TypePlan> plans = new();
        // The by-value types whose fields are being described, from the last reference or
        // container on: meeting one of them again means it contains itself by value.
        private static List<Type> valueChain = new();

        private static readonly List<Type> added = new();
        private static int depth;

        internal static TypePlan Describe(Type t, string where)
        {
            if (t is null) throw new ArgumentNullException(nameof(t));
            lock (Lock)
            {
                if (plans.TryGetValue(t, out var known)) return known;
                if (depth++ == 0) added.Clear();
                try
                {
                    return DescribeLocked(t, where);
                }
                catch
                {
                    foreach (var a in added) plans.Remove(a);  // a type inside was refused
                    added.Clear();
                    throw;
                }
                finally
                {
                    depth--;
                }
            }
        }

        private static void Add(Type t, TypePlan p)
        {
            plans[t] = p;
            added.Add(t);
        }

        /// <summary>Describes t behind a reference or a container (which ends a by-value chain).</summary>
        private static TypePlan DescribeBehind(Type t, string where)
        {
            var saved = valueChain;
            valueChain = new List<Type>();
            try
            {
                return DescribeLocked(t, where);
            }
            finally
            {
                valueChain = saved;
            }
        }

        private static TypePlan DescribeLocked(Type t, string where)
        {
            if (valueChain.Contains(t))
                throw Refuse(t, where, "it contains itself by value (make the class travel by reference)");
            if (plans.TryGetValue(t, out var known)) return known;
            var p = new TypePlan { Type = t };
            Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
            if (PrimitiveSize(u) is int size)
            {
                p.Kind = WireKind.Primitive;
                p.MinSize = size;
            }
            else if (t == typeof(string))
            {
                p.Kind = WireKind.String;
                p.MinSize = 8;
            }
            else if (t.IsArray)
            {
                if (t.GetArrayRank() != 1 || !t.IsSZArray)
                    throw Refuse(t, where, "multidimensional arrays have no wire form (use an array of arrays)");
                p.Element = t.GetElementType();
                p.Kind = IsPacked(p.Element) ? WireKind.PackedArray : WireKind.Array;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Element, where + "[]");
                return p;
            }
            else if (t.IsGenericType && !t.IsGenericTypeDefinition &&
                     (t.GetGenericTypeDefinition() == typeof(List<>) || t.GetGenericTypeDefinition() == typeof(HashSet<>)))
            {
                p.Element = t.GetGenericArguments()[0];
                bool list = t.GetGenericTypeDefinition() == typeof(List<>);
                p.Kind = list ? (IsPacked(p.Element) ? WireKind.PackedList : WireKind.List) : WireKind.HashSet;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Element, where + "<>");
                return p;
            }
            else if (t.IsGenericType && !t.IsGenericTypeDefinition && t.GetGenericTypeDefinition() == typeof(Dictionary<,>))
            {
                p.Key = t.GetGenericArguments()[0];
                p.Element = t.GetGenericArguments()[1];
                p.Kind = WireKind.Dictionary;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Key, where + ".Key");
                DescribeBehind(p.Element, where + ".Value");
                return p;
            }
            else if (Nullable.GetUnderlyingType(t) is Type inner)
            {
                p.Kind = WireKind.Nullable;
                p.Element = inner;
                p.MinSize = 1;
                Add(t, p);
                DescribeLocked(inner, where + "?");
                return p;
            }
            else
            {
                if (t.IsPrimitive || t.IsPointer || t.IsByRef || t.IsInterface || t.IsAbstract ||
                    typeof(Delegate).IsAssignableFrom(t) || t.IsGenericTypeDefinition ||
                    t.Namespace == "System" || t.Namespace?.StartsWith("System.") == true)
                    throw Refuse(t, where, null);
                var attr = t.GetCustomAttribute<TransportableAttribute>(false);
                var fields = TransportedFields(t);
                if (attr is null && fields.Length == 0) throw Refuse(t, where, null);
                p.Fields = fields;
                p.Kind = t.IsValueType ? WireKind.Struct : attr?.ByValue == true ? WireKind.ClassValue : WireKind.ClassRef;
                if (p.Kind == WireKind.ClassRef)
                {
                    p.MinSize = 4;
                    Add(t, p);  // before the fields: they may refer back to t
                    foreach (var f in fields) DescribeBehind(f.FieldType, $"{t.Name}.{f.Name}");
                    var last = fields.LastOrDefault();
                    if (last is not null && last.FieldType == t) p.Tail = last;
                    p.Chain = p.Tail is not null && fields.Length >= 2 && fields[..^1].All(f => IsLeaf(f.FieldType));
                    return p;
                }
                // By value: the fields' sizes add up. Registered first (its size filled in after
                // the fields), so that a reference or container inside may lead back to it.
                Add(t, p);
                valueChain.Add(t);
                try
                {
                    int min = 0;
                    foreach (var f in fields) min += DescribeLocked(f.FieldType, $"{t.Name}.{f.Name}").MinSize;
                    if (min == 0)
                        throw Refuse(t, where, "it has no [Transportable] fields, so it would take no bytes by value");
                    p.MinSize = min;
                }
                finally
                {
                    valueChain.RemoveAt(valueChain.Count - 1);
                }
                return p;
            }
            Add(t, p);
            return p;
        }

        /// <summary>
        /// True when values of t can hold no reference to a class that travels by reference
        /// (numbers, strings, packed arrays, and containers and structs of those).
        /// </summary>
        internal static bool HoldsNoReferences(Type t) => HoldsNoReferences(t, new HashSet<Type>());

        private static bool HoldsNoReferences(Type t, HashSet<Type> seen)
        {
            if (!seen.Add(t)) return true;  // met again inside itself: its other parts decide
            var p = Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                case WireKind.String:
                case WireKind.PackedArray:
                case WireKind.PackedList:
                    return true;
                case WireKind.Array:
                case WireKind.List:
                case WireKind.HashSet:
                case WireKind.Nullable:
                    return HoldsNoReferences(p.Element, seen);
                case WireKind.Dictionary:
                    return HoldsNoReferences(p.Key, seen) && HoldsNoReferences(p.Element, seen);
                case WireKind.Struct:
                    return p.Fields.All(f => HoldsNoReferences(f.FieldType, seen));
                default:
                    return false;  // ClassRef, ClassValue (which may hold one)
            }
        }

        private static ArgumentException Refuse(Type t, string where, string why)
        {
            string at = where == t.Name ? "" : $" (in {where})";
            return new ArgumentException(
                $"oompi: {t} is not transportable{at}: " +
                (why ?? "mark its fields [Transportable] (or use numbers, strings, arrays, List, HashSet, Dictionary, Nullable)"));
        }

        internal static int? PrimitiveSize(Type t)
        {
            if (t == typeof(bool) || t == typeof(byte) || t == typeof(sbyte)) return 1;
            if (t == typeof(short) || t == typeof(ushort) || t == typeof(char)) return 2;
            if (t == typeof(int) || t == typeof(uint) || t == typeof(float)) return 4;
            if (t == typeof(long) || t == typeof(ulong) || t == typeof(double)) return 8;
            return null;
        }

        /// <summary>
        /// A field a compact chain carries (docs/wire-format.md 2.1): a number or bool (not an
        /// enum), a string, an array of numbers (not of bools). Every language decides alike, so
        /// List&lt;int&gt; (a container) is not one, although its bytes are those of an int[].
        /// </summary>
        internal static bool IsLeaf(Type t) =>
            PrimitiveSize(t) is not null || t == typeof(string) ||
            t.IsSZArray && t.GetElementType() != typeof(bool) && PrimitiveSize(t.GetElementType()) is not null;

        internal static bool IsPacked(Type t) => PrimitiveSize(t.IsEnum ? Enum.GetUnderlyingType(t) : t) is not null;

        private static FieldInfo[] TransportedFields(Type t)
        {
            var chain = new List<Type>();
            for (var b = t; b is not null && b != typeof(object) && b != typeof(ValueType); b = b.BaseType) chain.Add(b);
            chain.Reverse();
            return chain.SelectMany(b => b
                    .GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                    .Where(f => f.IsDefined(typeof(TransportableAttribute), false))
                    .OrderBy(f => f.MetadataToken))
                .ToArray();
        }
    }

    /// <summary>
    /// The compiled reader and writer of one type (any type Wire supports); built once, on first
    /// use. Public only so that compiled plans can call it.
    /// </summary>
    internal static class Codec<T>
    {
        private static Action<WireWriter, T> write;
        private static Func<WireReader, T> read;
        private static int minSize;
        // A message's value: a chain type's root as a compact chain, which a reference reads too.
        private static Action<WireWriter, T> writeTop;
        private static Func<WireReader, T> readTop;

        internal static int MinSize => minSize != 0 ? minSize : Ensure().minSize;

        public static void Write(WireWriter w, T value) => (write ?? Ensure().write)(w, value);
        public static T Read(WireReader r) => (read ?? Ensure().read)(r);

        internal static void WriteTop(WireWriter w, T value)
        {
            var f = writeTop;
            if (f is null)
            {
                Ensure();
                f = writeTop;
            }
            f(w, value);
        }

        internal static T ReadTop(WireReader r)
        {
            var f = readTop;
            if (f is null)
            {
                Ensure();
                f = readTop;
            }
            return f(r);
        }

        internal static (Action<WireWriter, T> write, Func<WireReader, T> read, int minSize) Ensure()
        {
            if (write is null)
            {
                var plan = Plans.Describe(typeof(T), typeof(T).Name);
                lock (Plans.Lock)
                {
                    if (write is null)
                    {
                        var w = Expression.Parameter(typeof(WireWriter), "w");
                        var v = Expression.Parameter(typeof(T), "v");
                        var r = Expression.Parameter(typeof(WireReader), "r");
                        read = Expression.Lambda<Func<WireReader, T>>(WireEmit.Read(r, typeof(T)), r).Compile();
                        minSize = plan.MinSize;
                        var wr = Expression.Lambda<Action<WireWriter, T>>(WireEmit.Write(w, v, typeof(T)), w, v).Compile();
                        writeTop = wr;
                        readTop = read;
                        if (plan.Kind == WireKind.ClassRef)
                        {
                            var chains = typeof(Chains<>).MakeGenericType(typeof(T));
                            readTop = chains.GetMethod(nameof(Chains<object>.ReadTop))!.CreateDelegate<Func<WireReader, T>>();
                            if (plan.Chain) writeTop = chains.GetMethod(nameof(Chains<object>.Write))!.CreateDelegate<Action<WireWriter, T>>();
                        }
                        write = wr;  // last: the others are set when it is
                    }
                }
            }
            return (write, read, minSize);
        }
    }

    /// <summary>References to a class (ids; shared and cyclic graphs; a tail link in a loop).</summary>
    internal static class Refs<T> where T : class
    {
        private sealed class Plan
        {
            internal Action<WireWriter, T> WriteFields;  // every field but the tail link
            internal Action<WireReader, T> ReadFields;
            internal Func<T, T> GetTail;                 // null: no tail link
            internal Action<T, T> SetTail;
            internal Func<T> New;
            internal bool Exact;
            // With a tail link: the whole walk from a new object on, compiled as one loop (the
            // fields written or read inline, no delegate call per node).
            internal Action<WireWriter, T> WriteChain;
            // The same without the identity map (the fields hold no references; see
            // WireWriter.BeginDeferred): false when the list cycles (nothing is kept then).
            internal Func<WireWriter, T, bool> WriteChainDeferred;
            internal Action<WireReader, T> ReadChain;  // without the reader's table when the fields hold no references
        }

        private static Plan plan;

        private static Plan Ensure()
        {
            if (plan is null)
            {
                var tp = Plans.Describe(typeof(T), typeof(T).Name);
                if (tp.Kind != WireKind.ClassRef) throw new InvalidOperationException($"oompi: {typeof(T)} is not a reference type plan");
                lock (Plans.Lock)
                {
                    if (plan is null)
                    {
                        var fields = tp.Tail is null ? tp.Fields : tp.Fields[..^1];
                        var p = new Plan
                        {
                            WriteFields = WireEmit.FieldWriter<T>(fields),
                            ReadFields = WireEmit.FieldReader<T>(fields),
                            New = WireEmit.Constructor<T>(),
                            Exact = typeof(T).IsSealed,
                        };
                        if (tp.Tail is not null)
                        {
                            var o = Expression.Parameter(typeof(T), "o");
                            var n = Expression.Parameter(typeof(T), "n");
                            p.GetTail = Expression.Lambda<Func<T, T>>(Expression.Field(o, tp.Tail), o).Compile();
                            p.SetTail = Expression.Lambda<Action<T, T>>(WireEmit.AssignField(o, tp.Tail, n), o, n).Compile();
                            p.WriteChain = WireEmit.ChainWriter<T>(fields, tp.Tail, p.Exact);
                            if (fields.All(f => Plans.HoldsNoReferences(f.FieldType)))
                            {
                                var getTail = p.GetTail;
                                Func<object, object> walk = x => getTail(Unsafe.As<T>(x));
                                p.WriteChainDeferred = WireEmit.ChainWriterDeferred<T>(fields, tp.Tail, p.Exact, walk);
                                p.ReadChain = WireEmit.ChainReaderDeferred<T>(fields, tp.Tail, walk);
                            }
                            else
                            {
                                p.ReadChain = WireEmit.ChainReader<T>(fields, tp.Tail);
                            }
                        }
                        plan = p;
                    }
                }
            }
            return plan;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static Exception WrongType(object o) => new SerializationException(
            $"oompi: an object of class {o.GetType()} where the field or array says {typeof(T)}: wire format v1 " +
            "carries no type names, so only objects of exactly the declared class travel");

        public static void Write(WireWriter w, T obj)
        {
            if (obj is null)
            {
                w.WriteU32(0);
                return;
            }
            var p = plan ?? Ensure();
            if (!p.Exact && obj.GetType() != typeof(T)) throw WrongType(obj);
            if (!w.WriteRefHeader(obj)) return;
            Wire.Guard();
            if (p.WriteChain is not null)
            {
                if (p.WriteChainDeferred is not null && w.OnlyObject())
                {
                    int pos = w.Pos;
                    if (p.WriteChainDeferred(w, obj)) return;
                    w.Rewind(pos, 1);  // a cycle: again, with the identity map
                }
                p.WriteChain(w, obj);
                return;
            }
            while (true)
            {
                p.WriteFields(w, obj);
                if (p.GetTail is null) return;
                T next = p.GetTail(obj);
                if (next is null)
                {
                    w.WriteU32(0);
                    return;
                }
                if (!p.Exact && next.GetType() != typeof(T)) throw WrongType(next);
                if (!w.WriteRefHeader(next)) return;
                obj = next;
            }
        }

        public static T Read(WireReader r)
        {
            T first = r.ReadRefHeader<T>(out bool isNew);
            if (!isNew) return first;
            var p = plan ?? Ensure();
            Wire.Guard();
            first = p.New();
            r.Register(first);
            if (p.ReadChain is not null)
            {
                p.ReadChain(r, first);
                return first;
            }
            T obj = first;
            while (true)
            {
                p.ReadFields(r, obj);
                if (p.GetTail is null) return first;
                T next = r.ReadRefHeader<T>(out isNew);
                if (!isNew)
                {
                    p.SetTail(obj, next);
                    return first;
                }
                next = p.New();
                r.Register(next);
                p.SetTail(obj, next);
                obj = next;
            }
        }
    }

    /// <summary>
    /// Compact chains (docs/wire-format.md 2.1, revision 1.1): a message whose value is a chain
    /// type's root travels as 0x80000000, n, close, then the nodes' leaves with varint sizes; no
    /// ids, and neither the writer's identity map nor the reader's table.
    /// </summary>
    internal static class Chains<T> where T : class
    {
        private sealed class Plan
        {
            // Writes nodes from the root along the links until the limit, a null link (the node
            // count), or a link back to Brent's tortoise (minus the cycle's length).
            internal Func<WireWriter, T, int, int> Write;
            internal Func<WireReader, int, int, T> Read;  // n nodes, the last linked to node close
            internal Func<T, T> GetTail;
            internal int MinNode;  // fewest bytes a node takes (>= 1)
            internal bool Exact;
        }

        private static Plan plan;

        private static Plan Ensure()
        {
            if (plan is null)
            {
                var tp = Plans.Describe(typeof(T), typeof(T).Name);
                lock (Plans.Lock)
                {
                    if (plan is null)
                    {
                        var p = new Plan();
                        if (tp.Chain)
                        {
                            var fields = tp.Fields[..^1];
                            var o = Expression.Parameter(typeof(T), "o");
                            p.Exact = typeof(T).IsSealed;
                            p.GetTail = Expression.Lambda<Func<T, T>>(Expression.Field(o, tp.Tail), o).Compile();
                            p.Write = WireEmit.CompactWriter<T>(fields, tp.Tail, p.Exact);
                            p.Read = WireEmit.CompactReader<T>(fields, tp.Tail);
                            p.MinNode = fields.Sum(f => Plans.PrimitiveSize(f.FieldType) ?? 1);
                        }
                        plan = p;
                    }
                }
            }
            return plan;
        }

        public static void Write(WireWriter w, T root)
        {
            if (root is null)
            {
                w.WriteU32(0);
                return;
            }
            var p = plan ?? Ensure();
            if (!p.Exact && root.GetType() != typeof(T)) throw Refs<T>.WrongType(root);
            int start = w.Pos;
            w.WriteU32(WireWriter.NewBit);
            w.WriteU64(0);  // n and close, patched below
            // One pass for a list that ends. A cycle is found after a few rounds of it (so it
            // needs room for a few times its bytes meanwhile), then measured (Brent: the first
            // node of the cycle is mu links from the root, the cycle lam long) and its
            // n = mu + lam nodes written again.
            int n = p.Write(w, root, int.MaxValue);
            uint close = 0;
            if (n < 0)
            {
                int lam = -n, mu = 0;
                T a = root, b = root;
                for (int i = 0; i < lam; i++) b = p.GetTail(b);
                for (; !ReferenceEquals(a, b); mu++)
                {
                    a = p.GetTail(a);
                    b = p.GetTail(b);
                }
                w.Pos = start + 12;
                n = p.Write(w, root, mu + lam);
                close = (uint)mu + 1;
            }
            w.PatchU32(start + 4, (uint)n);
            w.PatchU32(start + 8, close);
        }

        /// <summary>A message's reference to a T: a compact chain, or the revision 1.0 form.</summary>
        public static T ReadTop(WireReader r)
        {
            if (!r.AtCompactChain()) return Refs<T>.Read(r);
            var p = plan ?? Ensure();
            if (p.Read is null)
                throw r.Corrupt($"a compact chain (wire revision 1.1) for {typeof(T)}, which is not a chain type " +
                                "(its last field a link to the same class, every other one a number, string or array of numbers)", 0);
            r.Pos += 4;
            uint n = r.ReadU32();
            uint close = r.ReadU32();
            if (n == 0) throw r.Corrupt("a compact chain of 0 nodes", 8);
            if ((ulong)n * (ulong)p.MinNode > (ulong)r.Remaining)
                throw r.Corrupt($"a compact chain of {n} nodes with only {r.Remaining} bytes left", 8);
            if (close > n) throw r.Corrupt($"a compact chain of {n} nodes closing on node {close}", 4);
            return p.Read(r, (int)n, (int)close);
        }
    }

    /// <summary>Classes marked [Transportable(ByValue = true)]: their fields, no id.</summary>
    internal static class ValueClass<T> where T : class
    {
        private static Action<WireWriter, T> writeFields;
        private static Action<WireReader, T> readFields;
        private static Func<T> create;
        private const int MaxDepth = 100_000;

        private static void Ensure()
        {
            var tp = Plans.Describe(typeof(T), typeof(T).Name);
            lock (Plans.Lock)
            {
                if (writeFields is null)
                {
                    create = WireEmit.Constructor<T>();
                    readFields = WireEmit.FieldReader<T>(tp.Fields);
                    writeFields = WireEmit.FieldWriter<T>(tp.Fields);
                }
            }
        }

        public static void Write(WireWriter w, T obj)
        {
            if (obj is null)
                throw new SerializationException($"oompi: a null {typeof(T).Name}, which travels by value ([Transportable(ByValue = true)]): values cannot be null");
            if (obj.GetType() != typeof(T))
                throw new SerializationException($"oompi: an object of class {obj.GetType()} where the field says {typeof(T)} (by value)");
            if (writeFields is null) Ensure();
            if (++w.ValueDepth > MaxDepth)
                throw new SerializationException($"oompi: {typeof(T).Name} values nested {MaxDepth} deep: a cycle through a class that travels by value?");
            Wire.Guard();
            writeFields(w, obj);
            w.ValueDepth--;
        }

        public static T Read(WireReader r)
        {
            if (writeFields is null) Ensure();
            Wire.Guard();
            T obj = create();
            readFields(r, obj);
            return obj;
        }
    }

    /// <summary>Containers of anything Wire supports (called by the compiled plans).</summary>
    internal static class WireContainers
    {
        public static void WriteArray<E>(WireWriter w, E[] a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard();
            w.WriteSize(a.Length);
            for (int i = 0; i < a.Length; i++) Codec<E>.Write(w, a[i]);
        }

        public static E[] ReadArray<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            if (n == 0) return Array.Empty<E>();
            Wire.Guard();
            var a = new E[n];
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a[i] = Codec<E>.Read(r);
            }
            return a;
        }

        public static void WriteRefArray<E>(WireWriter w, E[] a) where E : class
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard();
            w.WriteSize(a.Length);
            for (int i = 0; i < a.Length; i++) Refs<E>.Write(w, a[i]);
        }

        public static E[] ReadRefArray<E>(WireReader r) where E : class
        {
            int n = r.ReadCount(4);
            if (n == 0) return Array.Empty<E>();
            Wire.Guard();
            var a = new E[n];
            for (int i = 0; i < n; i++)
            {
                r.Element(4);
                a[i] = Refs<E>.Read(r);
            }
            return a;
        }

        public static void WriteList<E>(WireWriter w, List<E> a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard();
            w.WriteSize(a.Count);
            foreach (var e in System.Runtime.InteropServices.CollectionsMarshal.AsSpan(a)) Codec<E>.Write(w, e);
        }

        public static List<E> ReadList<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            Wire.Guard();
            var a = new List<E>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a.Add(Codec<E>.Read(r));
            }
            return a;
        }

        public static void WriteSet<E>(WireWriter w, HashSet<E> a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard();
            w.WriteSize(a.Count);
            foreach (var e in a) Codec<E>.Write(w, e);
        }

        public static HashSet<E> ReadSet<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            Wire.Guard();
            var a = new HashSet<E>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a.Add(Codec<E>.Read(r));
            }
            return a;
        }

        public static void WriteDictionary<K, V>(WireWriter w, Dictionary<K, V> d)
        {
            if (d is null) { w.WriteU64(0); return; }
            Wire.Guard();
            w.WriteSize(d.Count);
            foreach (var kv in d)
            {
                Codec<K>.Write(w, kv.Key);
                Codec<V>.Write(w, kv.Value);
            }
        }

        public static Dictionary<K, V> ReadDictionary<K, V>(WireReader r)
        {
            int n = r.ReadCount(Codec<K>.MinSize + Codec<V>.MinSize);
            Wire.Guard();
            var d = new Dictionary<K, V>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<K>.MinSize + Codec<V>.MinSize);
                K k = Codec<K>.Read(r);
                V v = Codec<V>.Read(r);
                if (k is null) throw r.Corrupt("a null dictionary key", 0);
                if (!d.TryAdd(k, v)) throw r.Corrupt($"the dictionary key {k} appears twice", 0);
            }
            return d;
        }

        public static void WriteNullable<E>(WireWriter w, E? v) where E : struct
        {
            w.WriteBool(!v.HasValue);  // cereal's flag: true when empty
            if (v.HasValue) Codec<E>.Write(w, v.GetValueOrDefault());
        }

        public static E? ReadNullable<E>(WireReader r) where E : struct =>
            r.ReadBool() ? null : Codec<E>.Read(r);
    }

    /// <summary>Expression trees for reading and writing one value of a given type.</summary>
    internal static class WireEmit
    {
        private static MethodInfo M(Type owner, string name) =>
            owner.GetMethod(name, BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance) ??
            throw new MissingMethodException(owner.Name, name);

        private static readonly Dictionary<Type, string> Suffix = new()
        {
            [typeof(bool)] = "Bool", [typeof(byte)] = "U8", [typeof(sbyte)] = "I8",
            [typeof(short)] = "I16", [typeof(ushort)] = "U16", [typeof(char)] = "Char",
            [typeof(int)] = "I32", [typeof(uint)] = "U32", [typeof(long)] = "I64",
            [typeof(ulong)] = "U64", [typeof(float)] = "F32", [typeof(double)] = "F64",
        };

        internal static Expression Write(Expression w, Expression value, Type t)
        {
            var p = Plans.Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                {
                    Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
                    return Expression.Call(w, M(typeof(WireWriter), "Write" + Suffix[u]),
                                           t.IsEnum ? Expression.Convert(value, u) : value);
                }
                case WireKind.String:
                    return Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteString)), value);
                case WireKind.PackedArray:
                case WireKind.PackedList:
                {
                    Type e = p.Element.IsEnum ? Enum.GetUnderlyingType(p.Element) : p.Element;
                    if (e != p.Element)  // an array of enums is an array of their underlying type
                        value = Expression.Call(typeof(WireEmit).GetMethod(p.Kind == WireKind.PackedArray ? nameof(EnumArray) : nameof(EnumList),
                                                BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(p.Element, e), value);
                    var m = M(typeof(WireWriter), p.Kind == WireKind.PackedArray ? nameof(WireWriter.WritePacked) : nameof(WireWriter.WritePackedList));
                    return Expression.Call(w, m.MakeGenericMethod(e), value);
                }
                case WireKind.Array:
                    return Expression.Call(IsRef(p.Element)
                        ? M(typeof(WireContainers), nameof(WireContainers.WriteRefArray)).MakeGenericMethod(p.Element)
                        : M(typeof(WireContainers), nameof(WireContainers.WriteArray)).MakeGenericMethod(p.Element), w, value);
                case WireKind.List:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteList)).MakeGenericMethod(p.Element), w, value);
                case WireKind.HashSet:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteSet)).MakeGenericMethod(p.Element), w, value);
                case WireKind.Dictionary:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteDictionary)).MakeGenericMethod(p.Key, p.Element), w, value);
                case WireKind.Nullable:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteNullable)).MakeGenericMethod(p.Element), w, value);
                case WireKind.Struct:
                {
                    // Inlined field by field (a struct cannot contain itself by value).
                    if (p.Fields.Length == 0) return Expression.Empty();
                    var tmp = Expression.Variable(t, "s");
                    return Expression.Block(new[] { tmp },
                        new Expression[] { Expression.Assign(tmp, value) }.Concat(
                            p.Fields.Select(f => Write(w, Expression.Field(tmp, f), f.FieldType))));
                }
                case WireKind.ClassRef:
                    return Expression.Call(M(typeof(Refs<>).MakeGenericType(t), "Write"), w, value);
                case WireKind.ClassValue:
                    return Expression.Call(M(typeof(ValueClass<>).MakeGenericType(t), "Write"), w, value);
            }
            throw new InvalidOperationException(p.Kind.ToString());
        }

        internal static Expression Read(Expression r, Type t)
        {
            var p = Plans.Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                {
                    Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
                    Expression e = Expression.Call(r, M(typeof(WireReader), "Read" + Suffix[u]));
                    return t.IsEnum ? Expression.Convert(e, t) : e;
                }
                case WireKind.String:
                    return Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadString)));
                case WireKind.PackedArray:
                case WireKind.PackedList:
                {
                    Type e = p.Element.IsEnum ? Enum.GetUnderlyingType(p.Element) : p.Element;
                    var m = M(typeof(WireReader), p.Kind == WireKind.PackedArray ? nameof(WireReader.ReadPacked) : nameof(WireReader.ReadPackedList));
                    Expression call = Expression.Call(r, m.MakeGenericMethod(e));
                    if (e != p.Element)
                        call = Expression.Call(typeof(WireEmit).GetMethod(p.Kind == WireKind.PackedArray ? nameof(EnumArray) : nameof(EnumList),
                                               BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(e, p.Element), call);
                    return call;
                }
                case WireKind.Array:
                    return Expression.Call(IsRef(p.Element)
                        ? M(typeof(WireContainers), nameof(WireContainers.ReadRefArray)).MakeGenericMethod(p.Element)
                        : M(typeof(WireContainers), nameof(WireContainers.ReadArray)).MakeGenericMethod(p.Element), r);
                case WireKind.List:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadList)).MakeGenericMethod(p.Element), r);
                case WireKind.HashSet:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadSet)).MakeGenericMethod(p.Element), r);
                case WireKind.Dictionary:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadDictionary)).MakeGenericMethod(p.Key, p.Element), r);
                case WireKind.Nullable:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadNullable)).MakeGenericMethod(p.Element), r);
                case WireKind.Struct:
                {
                    var tmp = Expression.Variable(t, "s");
                    var body = new List<Expression> { Expression.Assign(tmp, Expression.New(t)) };
                    foreach (var f in p.Fields) body.Add(AssignField(tmp, f, Read(r, f.FieldType)));
                    body.Add(tmp);
                    return Expression.Block(t, new[] { tmp }, body);
                }
                case WireKind.ClassRef:
                    return Expression.Call(M(typeof(Refs<>).MakeGenericType(t), "Read"), r);
                case WireKind.ClassValue:
                    return Expression.Call(M(typeof(ValueClass<>).MakeGenericType(t), "Read"), r);
            }
            throw new InvalidOperationException(p.Kind.ToString());
        }

        private static bool IsRef(Type t) => Plans.Describe(t, t.Name).Kind == WireKind.ClassRef;

        internal static Action<WireWriter, T> FieldWriter<T>(FieldInfo[] fields)
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            Expression body = fields.Length == 0 ? Expression.Empty()
                : Expression.Block(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType)));
            return Expression.Lambda<Action<WireWriter, T>>(body, w, o).Compile();
        }

        internal static Action<WireReader, T> FieldReader<T>(FieldInfo[] fields)
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Parameter(typeof(T), "o");
            Expression body = fields.Length == 0 ? Expression.Empty()
                : Expression.Block(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            return Expression.Lambda<Action<WireReader, T>>(body, r, o).Compile();
        }

        /// <summary>
        /// The loop of Refs&lt;T&gt;.Write from an object whose new id is written: its fields but
        /// the tail, then the tail's reference header, and on while the tail is new.
        /// </summary>
        internal static Action<WireWriter, T> ChainWriter<T>(FieldInfo[] fields, FieldInfo tail, bool exact) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))),
                Expression.Block(Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteU32)), Expression.Constant(0u)),
                                 Expression.Break(done))));
            if (!exact)
                body.Add(Expression.IfThen(
                    Expression.NotEqual(Expression.Call(next, typeof(object).GetMethod(nameof(GetType))!), Expression.Constant(typeof(T))),
                    Expression.Throw(Expression.Call(typeof(Refs<T>).GetMethod(nameof(Refs<T>.WrongType), BindingFlags.NonPublic | BindingFlags.Static)!, next))));
            body.Add(Expression.IfThen(Expression.Not(Expression.Call(w, typeof(WireWriter).GetMethod(nameof(WireWriter.WriteRefHeader),
                BindingFlags.NonPublic | BindingFlags.Instance)!, next)), Expression.Break(done)));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Action<WireWriter, T>>(Expression.Block(new[] { next }, loop), w, o).Compile();
        }

        /// <summary>
        /// ChainWriter for a top-level list whose fields hold no references: every link is
        /// numbered without the identity map (WireWriter.BeginDeferred; the ids counted in a
        /// local); false as soon as the walk meets a node again (Brent's cycle detection: a
        /// tortoise moved to the hare at powers of two).
        /// </summary>
        internal static Func<WireWriter, T, bool> ChainWriterDeferred<T>(FieldInfo[] fields, FieldInfo tail, bool exact, Func<object, object> walk) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var tortoise = Expression.Variable(typeof(T), "tortoise");
            var power = Expression.Variable(typeof(int), "power");
            var steps = Expression.Variable(typeof(int), "steps");
            var id = Expression.Variable(typeof(uint), "id");
            var done = Expression.Label(typeof(bool), "done");
            var writeU32 = M(typeof(WireWriter), nameof(WireWriter.WriteU32));
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))),
                Expression.Block(Expression.Call(w, writeU32, Expression.Constant(0u)),
                                 Expression.Call(w, Internal(typeof(WireWriter), nameof(WireWriter.EndDeferred)), id),
                                 Expression.Break(done, Expression.Constant(true)))));
            body.Add(Expression.IfThen(Expression.ReferenceEqual(next, tortoise), Expression.Break(done, Expression.Constant(false))));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(steps), power),
                Expression.Block(Expression.Assign(tortoise, next), Expression.LeftShiftAssign(power, Expression.Constant(1)),
                                 Expression.Assign(steps, Expression.Constant(0)))));
            if (!exact)
                body.Add(Expression.IfThen(
                    Expression.NotEqual(Expression.Call(next, typeof(object).GetMethod(nameof(GetType))!), Expression.Constant(typeof(T))),
                    Expression.Throw(Expression.Call(typeof(Refs<T>).GetMethod(nameof(Refs<T>.WrongType), BindingFlags.NonPublic | BindingFlags.Static)!, next))));
            body.Add(Expression.IfThen(Expression.Equal(id, Expression.Constant(0x7FFFFFFFu)),
                Expression.Throw(Expression.Call(Internal(typeof(WireWriter), nameof(WireWriter.TooManyObjects))))));
            body.Add(Expression.Call(w, writeU32, Expression.Or(Expression.PreIncrementAssign(id), Expression.Constant(WireWriter.NewBit))));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireWriter, T, bool>>(Expression.Block(typeof(bool), new[] { next, tortoise, power, steps, id },
                Expression.Assign(tortoise, o), Expression.Assign(power, Expression.Constant(1)), Expression.Assign(steps, Expression.Constant(0)),
                Expression.Assign(id, Expression.Call(w, Internal(typeof(WireWriter), nameof(WireWriter.BeginDeferred)), o, Expression.Constant(walk))),
                loop), w, o).Compile();
        }

        /// <summary>
        /// ChainReader for a list whose fields hold no references: the links are not entered in
        /// the reader's table (WireReader.BeginChain; the ids counted in a local), each node is
        /// its fields, then the next new id (a new node) or the header that ends the list.
        /// </summary>
        internal static Action<WireReader, T> ChainReaderDeferred<T>(FieldInfo[] fields, FieldInfo tail, Func<object, object> walk) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var id = Expression.Variable(typeof(uint), "id");
            var raw = Expression.Variable(typeof(uint), "raw");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            body.Add(Expression.Assign(raw, Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadU32)))));
            body.Add(Expression.IfThen(
                Expression.NotEqual(raw, Expression.Or(Expression.Add(id, Expression.Constant(1u)), Expression.Constant(WireWriter.NewBit))),
                Expression.Block(
                    Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.EndChain)), id),
                    AssignField(o, tail, Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.ChainEnd)).MakeGenericMethod(typeof(T)), raw)),
                    Expression.Break(done))));
            body.Add(Expression.PreIncrementAssign(id));
            body.Add(Expression.Assign(next, New<T>()));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Action<WireReader, T>>(Expression.Block(new[] { next, id, raw },
                Expression.Assign(id, Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.BeginChain)), o, Expression.Constant(walk))),
                loop), r, o).Compile();
        }

        /// <summary>A leaf of a compact chain: a number as in 1.0; a string or array with a varint size.</summary>
        private static Expression WriteLeaf(Expression w, Expression value, Type t) =>
            t == typeof(string) ? Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteVarString)), value)
            : t.IsArray ? Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteVarPacked)).MakeGenericMethod(t.GetElementType()), value)
            : Write(w, value, t);

        private static Expression ReadLeaf(Expression r, Type t) =>
            t == typeof(string) ? Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadVarString)))
            : t.IsArray ? Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadVarPacked)).MakeGenericMethod(t.GetElementType()))
            : Read(r, t);

        /// <summary>
        /// Chains&lt;T&gt;.Plan.Write: (w, root, limit) writes the nodes' leaves from the root on, and
        /// returns their count at the limit or a null link, or minus the cycle's length when a
        /// link comes back to Brent's tortoise (moved to the hare at powers of two).
        /// </summary>
        internal static Func<WireWriter, T, int, int> CompactWriter<T>(FieldInfo[] fields, FieldInfo tail, bool exact) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var limit = Expression.Parameter(typeof(int), "limit");
            var next = Expression.Variable(typeof(T), "next");
            var tortoise = Expression.Variable(typeof(T), "tortoise");
            var power = Expression.Variable(typeof(int), "power");
            var steps = Expression.Variable(typeof(int), "steps");
            var count = Expression.Variable(typeof(int), "count");
            var done = Expression.Label(typeof(int), "done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => WriteLeaf(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(count), limit), Expression.Break(done, count)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))), Expression.Break(done, count)));
            body.Add(Expression.IfThen(Expression.ReferenceEqual(next, tortoise),
                Expression.Break(done, Expression.Negate(Expression.Add(steps, Expression.Constant(1))))));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(steps), power),
                Expression.Block(Expression.Assign(tortoise, next), Expression.LeftShiftAssign(power, Expression.Constant(1)),
                                 Expression.Assign(steps, Expression.Constant(0)))));
            if (!exact)
                body.Add(Expression.IfThen(
                    Expression.NotEqual(Expression.Call(next, typeof(object).GetMethod(nameof(GetType))!), Expression.Constant(typeof(T))),
                    Expression.Throw(Expression.Call(typeof(Refs<T>).GetMethod(nameof(Refs<T>.WrongType), BindingFlags.NonPublic | BindingFlags.Static)!, next))));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireWriter, T, int, int>>(Expression.Block(typeof(int), new[] { next, tortoise, power, steps, count },
                Expression.Assign(tortoise, o), Expression.Assign(power, Expression.Constant(1)), loop), w, o, limit).Compile();
        }

        /// <summary>
        /// Chains&lt;T&gt;.Plan.Read: (r, n, close) makes and reads n nodes in a loop, each linked
        /// to the next, the last to node close (1-based; 0: null).
        /// </summary>
        internal static Func<WireReader, int, int, T> CompactReader<T>(FieldInfo[] fields, FieldInfo tail) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var n = Expression.Parameter(typeof(int), "n");
            var close = Expression.Parameter(typeof(int), "close");
            var first = Expression.Variable(typeof(T), "first");
            var o = Expression.Variable(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var closing = Expression.Variable(typeof(T), "closing");
            var i = Expression.Variable(typeof(int), "i");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, ReadLeaf(r, f.FieldType))));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(i), n), Expression.Break(done)));
            body.Add(Expression.Assign(next, New<T>()));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            body.Add(Expression.IfThen(Expression.Equal(i, close), Expression.Assign(closing, o)));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireReader, int, int, T>>(Expression.Block(typeof(T), new[] { first, o, next, closing, i },
                Expression.Assign(first, New<T>()), Expression.Assign(o, first),
                Expression.Assign(close, Expression.Subtract(close, Expression.Constant(1))),  // the node's index from 0
                Expression.IfThen(Expression.Equal(close, Expression.Constant(0)), Expression.Assign(closing, first)),
                loop,
                AssignField(o, tail, closing),
                first), r, n, close).Compile();
        }

        private static MethodInfo Internal(Type owner, string name) =>
            owner.GetMethod(name, BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance) ??
            throw new MissingMethodException(owner.Name, name);

        /// <summary>A new T: its parameterless constructor (public or not), else every field zero.</summary>
        private static Expression New<T>()
        {
            var ctor = typeof(T).GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, null, Type.EmptyTypes, null);
            return ctor is not null ? Expression.New(ctor) : Expression.Invoke(Expression.Constant(Constructor<T>()));
        }

        /// <summary>
        /// The loop of Refs&lt;T&gt;.Read from a new, registered object: its fields but the tail,
        /// then the tail's reference header, a new object for a new id, and on.
        /// </summary>
        internal static Action<WireReader, T> ChainReader<T>(FieldInfo[] fields, FieldInfo tail) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var isNew = Expression.Variable(typeof(bool), "isNew");
            var done = Expression.Label("done");
            Expression create = New<T>();
            var header = typeof(WireReader).GetMethod(nameof(WireReader.ReadRefHeader), BindingFlags.NonPublic | BindingFlags.Instance)!
                .MakeGenericMethod(typeof(T));
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            body.Add(Expression.Assign(next, Expression.Call(r, header, isNew)));
            body.Add(Expression.IfThen(Expression.Not(isNew),
                Expression.Block(AssignField(o, tail, next), Expression.Break(done))));
            body.Add(Expression.Assign(next, create));
            body.Add(Expression.Call(r, typeof(WireReader).GetMethod(nameof(WireReader.Register), BindingFlags.NonPublic | BindingFlags.Instance)!, next));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Action<WireReader, T>>(Expression.Block(new[] { next, isNew }, loop), r, o).Compile();
        }

        /// <summary>target.f = value, also for readonly fields (through a small IL setter).</summary>
        internal static Expression AssignField(Expression target, FieldInfo f, Expression value)
        {
            if (!f.IsInitOnly) return Expression.Assign(Expression.Field(target, f), value);
            Type owner = target.Type;
            var setterType = owner.IsValueType
                ? typeof(RefSetter<,>).MakeGenericType(owner, f.FieldType)
                : typeof(Action<,>).MakeGenericType(owner, f.FieldType);
            var dm = new DynamicMethod("oompi_set_" + f.Name, null,
                new[] { owner.IsValueType ? owner.MakeByRefType() : owner, f.FieldType }, typeof(WireEmit).Module, skipVisibility: true);
            var il = dm.GetILGenerator();
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldarg_1);
            il.Emit(OpCodes.Stfld, f);
            il.Emit(OpCodes.Ret);
            var setter = dm.CreateDelegate(setterType);
            return Expression.Invoke(Expression.Constant(setter, setterType), target, value);
        }

        internal delegate void RefSetter<S, F>(ref S target, F value);

        /// <summary>A new object for a reference or value read: the parameterless constructor
        /// (public or not) when there is one, else an object with every field zero.</summary>
        internal static Func<T> Constructor<T>()
        {
            var ctor = typeof(T).GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic,
                                                null, Type.EmptyTypes, null);
            if (ctor is not null) return Expression.Lambda<Func<T>>(Expression.New(ctor)).Compile();
            return () => (T)RuntimeHelpers.GetUninitializedObject(typeof(T));
        }

        private static U[] EnumArray<E, U>(E[] a) where E : unmanaged where U : unmanaged =>
            a is null ? null : System.Runtime.InteropServices.MemoryMarshal.Cast<E, U>(a).ToArray();

        private static List<U> EnumList<E, U>(List<E> a) where E : unmanaged where U : unmanaged =>
            a is null ? null : new List<U>(System.Runtime.InteropServices.MemoryMarshal.Cast<E, U>(
                System.Runtime.InteropServices.CollectionsMarshal.AsSpan(a)).ToArray());
    }
}
