using System;
using System.Linq;
using System.Linq.Expressions;
using System.Runtime.CompilerServices;

namespace Oompi
{
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

    /// <summary>References to a class: the entry points (containers, chains) to its <see cref="RefCodec{T}"/>.</summary>
    internal static class Refs<T> where T : class
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static Exception WrongType(object o) => new SerializationException(
            $"oompi: an object of class {o.GetType()} where the field or array says {typeof(T)}: wire format v1 " +
            "carries no type names, so only objects of exactly the declared class travel");

        public static void Write(WireWriter w, T obj) => RefCodec<T>.Instance.Write(w, obj);
        public static T Read(WireReader r) => RefCodec<T>.Instance.Read(r);
    }

    /// <summary>
    /// References to a class (ids; shared and cyclic graphs; a tail link in a loop). One
    /// instance per class, made before its plans are compiled so that they can call it directly
    /// (a constant in the compiled code): its state is in instance fields, which shared generic
    /// code reads without the look-up a static field of a generic class costs on every node.
    /// </summary>
    internal sealed class RefCodec<T> where T : class
    {
        internal static readonly RefCodec<T> Instance = new();

        private Action<WireWriter, T> writeFields;  // every field but the tail link
        // After a new id: creates the object, registers it, reads its fields (and with a tail
        // link, the new objects along it), in one compiled delegate.
        private Func<WireReader, T> readNew;
        // A class whose fields hold no references: readNew without registering the object (an
        // array's elements; WireReader.ReadFreshArray). Null for other classes.
        private Func<WireReader, T> readFresh;
        private Func<T, T> getTail;                 // null: no tail link
        private bool exact;
        // With a tail link: the whole walk from a new object on, compiled as one loop (the
        // fields written or read inline, no delegate call per node).
        private Action<WireWriter, T> writeChain;
        // The same without the identity map (the fields hold no references; see
        // WireWriter.BeginDeferred): false when the list cycles (nothing is kept then).
        private Func<WireWriter, T, bool> writeChainDeferred;
        private volatile bool ready;              // set last: every field above is set when it is

        private void Ensure()
        {
            var tp = Plans.Describe(typeof(T), typeof(T).Name);
            if (tp.Kind != WireKind.ClassRef) throw new InvalidOperationException($"oompi: {typeof(T)} is not a reference type plan");
            lock (Plans.Lock)
            {
                if (ready) return;
                var fields = tp.Tail is null ? tp.Fields : tp.Fields[..^1];
                writeFields = WireEmit.FieldWriter<T>(fields);
                if (tp.Tail is null)
                {
                    readNew = WireEmit.NewReader<T>(fields, register: true);
                    if (fields.All(f => Plans.HoldsNoReferences(f.FieldType))) readFresh = WireEmit.NewReader<T>(fields, register: false);
                }
                exact = typeof(T).IsSealed;
                if (tp.Tail is not null)
                {
                    var o = Expression.Parameter(typeof(T), "o");
                    getTail = Expression.Lambda<Func<T, T>>(Expression.Field(o, tp.Tail), o).Compile();
                    writeChain = WireEmit.ChainWriter<T>(fields, tp.Tail, exact);
                    if (fields.All(f => Plans.HoldsNoReferences(f.FieldType)))
                    {
                        var tail = getTail;
                        Func<object, object> walk = x => tail(Unsafe.As<T>(x));
                        writeChainDeferred = WireEmit.ChainWriterDeferred<T>(fields, tp.Tail, exact, walk);
                        readNew = WireEmit.ChainReaderDeferred<T>(fields, tp.Tail, walk);
                    }
                    else
                    {
                        readNew = WireEmit.ChainReader<T>(fields, tp.Tail);
                    }
                }
                ready = true;
            }
        }

        public void Write(WireWriter w, T obj)
        {
            if (obj is null)
            {
                w.WriteU32(0);
                return;
            }
            if (!ready) Ensure();
            if (!exact && obj.GetType() != typeof(T)) throw Refs<T>.WrongType(obj);
            if (!w.WriteRefHeader(obj)) return;
            Wire.Guard(ref w.StackMark);
            if (writeChain is not null)
            {
                if (writeChainDeferred is not null && w.OnlyObject())
                {
                    int pos = w.Pos;
                    if (writeChainDeferred(w, obj)) return;
                    w.Rewind(pos, 1);  // a cycle: again, with the identity map
                }
                writeChain(w, obj);
                return;
            }
            writeFields(w, obj);
        }

        /// <summary>The n elements of an array of references to T (its size read by ReadCount(4)).</summary>
        internal T[] ReadArray(WireReader r, int n)
        {
            if (!ready) Ensure();
            var a = new T[n];
            if (readFresh is not null)
            {
                r.ReadFreshArray(a, readFresh);
                return a;
            }
            for (int i = 0; i < n; i++)
            {
                r.Element(4);
                a[i] = Read(r);
            }
            return a;
        }

        public T Read(WireReader r)
        {
            T first = r.ReadRefHeader<T>(out bool isNew);
            if (!isNew) return first;
            if (!ready) Ensure();
            Wire.Guard(ref r.StackMark);
            return readNew(r);
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
            Wire.Guard(ref w.StackMark);
            writeFields(w, obj);
            w.ValueDepth--;
        }

        public static T Read(WireReader r)
        {
            if (writeFields is null) Ensure();
            Wire.Guard(ref r.StackMark);
            T obj = create();
            readFields(r, obj);
            return obj;
        }
    }
}
