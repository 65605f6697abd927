using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Text;
using MemoryPack;
using Oompi;

namespace OompiBench
{
    // --- the shapes: one class per system where the systems need different markings ----------
    // oompi and MemoryPack's default mode share a class (both markings on it); MemoryPack's
    // circular-reference mode needs [MemoryPackOrder] members and its own GenerateType, so it
    // has a twin class with the same fields, built from the same values.

    /// <summary>A binary tree node {int id; double; 8-12 char string; left; right}.</summary>
    [MemoryPackable]
    public sealed partial class TreeNode
    {
        [Transportable] public int Id;
        [Transportable] public double Weight;
        [Transportable] public string Name;
        [Transportable] public TreeNode Left;
        [Transportable] public TreeNode Right;
    }

    [MemoryPackable(GenerateType.CircularReference)]
    public sealed partial class TreeNodeC
    {
        [MemoryPackOrder(0)] public int Id;
        [MemoryPackOrder(1)] public double Weight;
        [MemoryPackOrder(2)] public string Name;
        [MemoryPackOrder(3)] public TreeNodeC Left;
        [MemoryPackOrder(4)] public TreeNodeC Right;
    }

    /// <summary>A flat record {int64; 10-20 char string; double[4]; bool}.</summary>
    [MemoryPackable]
    public sealed partial class FlatRecord
    {
        [Transportable] public long Key;
        [Transportable] public string Label;
        [Transportable] public double[] Values;
        [Transportable] public bool Flag;
    }

    [MemoryPackable(GenerateType.CircularReference)]
    public sealed partial class FlatRecordC
    {
        [MemoryPackOrder(0)] public long Key;
        [MemoryPackOrder(1)] public string Label;
        [MemoryPackOrder(2)] public double[] Values;
        [MemoryPackOrder(3)] public bool Flag;
    }

    /// <summary>A message of flat records (the array is the value sent).</summary>
    [MemoryPackable(GenerateType.CircularReference)]
    public sealed partial class FlatRecordsC
    {
        [MemoryPackOrder(0)] public FlatRecordC[] Items;
    }

    /// <summary>How one shape is made, checked and sent, for the three systems.</summary>
    internal interface IShape
    {
        string Bench { get; }
        string Title { get; }
        string CaseLabel { get; }
        bool HasDefaultMode { get; }  // MemoryPack's default mode keeps the shape's meaning
        void Make(int n);
        object Oompi { get; }
        object Pack { get; }
        object PackCircular { get; }
        // A digest of a received value (node count, ids, identity), compared to the sent one's.
        long Digest(object value);
        void OSend(Comm c, object v, int peer);
        object ORecv(Comm c, int peer);
        object OLocal(object v, Objects.ByteSink sink);
        byte[] OEncode(object v, Objects.ByteSink sink);
        object OLocalDecode(byte[] b, int n);
        byte[] PackBytes(object v, Objects.ByteSink sink, bool circular);
        object PackRead(ReadOnlySpan<byte> bytes, bool circular);
    }

    internal abstract class Shape<T, TC> : IShape where T : class where TC : class
    {
        public abstract string Bench { get; }
        public abstract string Title { get; }
        public abstract string CaseLabel { get; }
        public virtual bool HasDefaultMode => true;
        public abstract void Make(int n);
        public object Oompi { get; protected set; }
        public object Pack => Oompi;
        public object PackCircular { get; protected set; }
        public abstract long Digest(object value);
        public void OSend(Comm c, object v, int peer) => c.OSend((T)v, peer, 0);
        public object ORecv(Comm c, int peer) => c.ORecv<T>(peer, 0);
        // Encode + decode as MemoryPack's runs: into the same kind of reused buffer.
        public object OLocal(object v, Objects.ByteSink sink)
        {
            sink.Count = 0;
            Wire.Serialize((T)v, sink);
            return Wire.Deserialize<T>(sink.Buf, 0, sink.Count);
        }
        public byte[] OEncode(object v, Objects.ByteSink sink)
        {
            sink.Count = 0;
            Wire.Serialize((T)v, sink);
            return sink.Buf;
        }
        public object OLocalDecode(byte[] b, int n) => Wire.Deserialize<T>(b, 0, n);

        public byte[] PackBytes(object v, Objects.ByteSink sink, bool circular)
        {
            sink.Count = 0;
            if (circular) MemoryPackSerializer.Serialize(sink, (TC)v);
            else MemoryPackSerializer.Serialize(sink, (T)v);
            return sink.Buf;
        }

        public object PackRead(ReadOnlySpan<byte> bytes, bool circular) =>
            circular ? MemoryPackSerializer.Deserialize<TC>(bytes) : MemoryPackSerializer.Deserialize<T>(bytes);

        protected static string Text(int i, int min, int spread)
        {
            // ASCII, min..min+spread-1 characters, distinct per i.
            string s = "s" + i.ToString(CultureInfo.InvariantCulture) + "-abcdefghijklmnopqrstuvwxyz";
            return s.Substring(0, min + i % spread);
        }
    }

    /// <summary>A complete binary tree of n nodes (numbered breadth first).</summary>
    internal sealed class TreeShape : Shape<TreeNode, TreeNodeC>
    {
        public override string Bench => "csharp_objects_tree";
        public override string Title => "C# binary tree of N nodes {int; double; 8-12 char string; left; right}, round trip between 2 ranks";
        public override string CaseLabel => "nodes";

        public override void Make(int n)
        {
            var a = new TreeNode[n];
            var c = new TreeNodeC[n];
            for (int i = 0; i < n; i++)
            {
                a[i] = new TreeNode { Id = i, Weight = i * 0.5, Name = Text(i, 8, 5) };
                c[i] = new TreeNodeC { Id = i, Weight = i * 0.5, Name = a[i].Name };
            }
            for (int i = 0; i < n; i++)
            {
                if (2 * i + 1 < n) { a[i].Left = a[2 * i + 1]; c[i].Left = c[2 * i + 1]; }
                if (2 * i + 2 < n) { a[i].Right = a[2 * i + 2]; c[i].Right = c[2 * i + 2]; }
            }
            Oompi = a[0];
            PackCircular = c[0];
        }

        public override long Digest(object value) => value is TreeNode t
            ? Walk(t, x => (x.Id, x.Name, x.Weight, x.Left, x.Right))
            : Walk((TreeNodeC)value, x => (x.Id, x.Name, x.Weight, x.Left, x.Right));

        // The same walk over either twin class (their fields, through the accessor).
        static long Walk<TNode>(TNode t, Func<TNode, (int id, string name, double weight, TNode left, TNode right)> fields) where TNode : class
        {
            long d = 0;
            var stack = new Stack<TNode>();
            stack.Push(t);
            while (stack.Count > 0)
            {
                var x = stack.Pop();
                if (x is null) continue;
                var f = fields(x);
                d = d * 31 + f.id + f.name.Length + (long)f.weight;
                stack.Push(f.left);
                stack.Push(f.right);
            }
            return d;
        }
    }

    /// <summary>
    /// A DAG with shared subtrees: layers of w nodes, node j of a layer linked to nodes 2j and
    /// 2j+1 (mod w) of the next, so every node below the first layers has two parents; the root
    /// is node 0 of the first layer. MemoryPack's default mode would send every shared node once
    /// per path (exponentially many): only its circular-reference mode is a peer here.
    /// </summary>
    internal sealed class DagShape : Shape<TreeNode, TreeNodeC>
    {
        public override string Bench => "csharp_objects_dag";
        public override string Title => "C# DAG of N tree nodes in 256 (or N/16) layers, every node below the top reached from two parents, round trip between 2 ranks";
        public override string CaseLabel => "nodes (reachable fewer in the top layers)";
        public override bool HasDefaultMode => false;

        public override void Make(int n)
        {
            int w = Math.Max(16, n / 256), layers = n / w;
            var a = new TreeNode[layers, w];
            var c = new TreeNodeC[layers, w];
            for (int k = 0; k < layers; k++)
                for (int j = 0; j < w; j++)
                {
                    int i = k * w + j;
                    a[k, j] = new TreeNode { Id = i, Weight = i * 0.5, Name = Text(i, 8, 5) };
                    c[k, j] = new TreeNodeC { Id = i, Weight = i * 0.5, Name = a[k, j].Name };
                }
            for (int k = 0; k + 1 < layers; k++)
                for (int j = 0; j < w; j++)
                {
                    a[k, j].Left = a[k + 1, 2 * j % w];
                    a[k, j].Right = a[k + 1, (2 * j + 1) % w];
                    c[k, j].Left = c[k + 1, 2 * j % w];
                    c[k, j].Right = c[k + 1, (2 * j + 1) % w];
                }
            Oompi = a[0, 0];
            PackCircular = c[0, 0];
        }

        // Distinct nodes, their ids, and shared links: a copy that duplicated shared nodes
        // differs (more nodes reached by path than distinct).
        public override long Digest(object value)
        {
            var seen = new HashSet<object>(ReferenceEqualityComparer.Instance);
            long d = 0, paths = 0;
            var stack = new Stack<object>();
            stack.Push(value);
            while (stack.Count > 0)
            {
                var x = stack.Pop();
                if (x is null) continue;
                paths++;
                if (!seen.Add(x)) continue;
                if (x is TreeNode t) { d += t.Id * 7 + t.Name.Length; stack.Push(t.Left); stack.Push(t.Right); }
                else { var u = (TreeNodeC)x; d += u.Id * 7 + u.Name.Length; stack.Push(u.Left); stack.Push(u.Right); }
            }
            return d * 1_000_003 + seen.Count * 1009 + paths;
        }
    }

    /// <summary>An array of n flat records.</summary>
    internal sealed class RecordShape : Shape<FlatRecord[], FlatRecordsC>
    {
        public override string Bench => "csharp_objects_records";
        public override string Title => "C# array of N flat records {int64; 10-20 char string; double[4]; bool}, round trip between 2 ranks";
        public override string CaseLabel => "records";

        public override void Make(int n)
        {
            var a = new FlatRecord[n];
            var c = new FlatRecordC[n];
            for (int i = 0; i < n; i++)
            {
                a[i] = new FlatRecord { Key = i * 1_000_003L, Label = Text(i, 10, 11), Values = new[] { i, i + 0.25, i + 0.5, i + 0.75 }, Flag = i % 3 == 0 };
                c[i] = new FlatRecordC { Key = a[i].Key, Label = a[i].Label, Values = (double[])a[i].Values.Clone(), Flag = a[i].Flag };
            }
            Oompi = a;
            PackCircular = new FlatRecordsC { Items = c };
        }

        public override long Digest(object value)
        {
            long d = 0;
            if (value is FlatRecord[] a)
                foreach (var r in a) d = d * 31 + r.Key + r.Label.Length + (long)r.Values[3] + (r.Flag ? 1 : 0);
            else
                foreach (var r in ((FlatRecordsC)value).Items) d = d * 31 + r.Key + r.Label.Length + (long)r.Values[3] + (r.Flag ? 1 : 0);
            return d;
        }
    }

    /// <summary>
    /// Seed 004's linked list (Objects.cs: N nodes, 4 KiB of int32 in all), for the profile mode
    /// only (its bench is csharp_objects_list); MemoryPack through Objects.NodeListFormatter.
    /// </summary>
    internal sealed class ListShape : Shape<Node, Node>
    {
        public override string Bench => "csharp_objects_list";
        public override string Title => "C# linked list";
        public override string CaseLabel => "nodes";

        public override void Make(int n)
        {
            Oompi = Objects.MakeList(n);
            PackCircular = null;
        }

        public override long Digest(object value)
        {
            long d = 0;
            for (var p = (Node)value; p != null; p = p.Next) d = d * 31 + p.Data.Length;
            return d;
        }
    }

    /// <summary>
    /// Issue 28's shapes in C# (benches csharp_objects_tree, csharp_objects_records,
    /// csharp_objects_dag): oompi's wire (OSend/ORecv, [Transportable]; shared and cyclic
    /// references kept) against MemoryPack 1.21.4's default mode ([MemoryPackable]: no object
    /// identity, a shared node is sent once per reference) and its circular-reference mode
    /// (identity kept, as oompi does). Round trip between 2 ranks (serialize into a reused
    /// buffer, Send; Mprobe + Recv into a reused buffer, Deserialize), and encode + decode on
    /// rank 0 alone; systems interleaved in short blocks in a shuffled order per round; JSON
    /// sample lines on stdout, the medians of per-round ratios on stderr.
    /// Options: --shapes=tree,records,dag --rounds=N --block-ms=B --max-seconds=S --quick.
    /// </summary>
    public static class ObjectShapes
    {
        static readonly string[] AllSystems = { "oompi", "memorypack", "memorypack_circular" };

        static readonly Dictionary<string, (IShape shape, int[] sizes, int[] quick)> Shapes = new()
        {
            ["tree"] = (new TreeShape(), new[] { 255, 4095, 65535 }, new[] { 255, 4095 }),
            ["records"] = (new RecordShape(), new[] { 1000, 100000 }, new[] { 1000 }),
            ["dag"] = (new DagShape(), new[] { 256, 4096, 65536 }, new[] { 256, 4096 }),
            ["list"] = (new ListShape(), new[] { 16, 256, 4096 }, new[] { 256 }),  // profile mode only
        };

        [ThreadStatic] static Objects.ByteSink sink;
        [ThreadStatic] static byte[] recvBuf;

        static void SendPack(IShape s, Comm c, object v, int peer, bool circular)
        {
            sink ??= new Objects.ByteSink();
            var buf = s.PackBytes(v, sink, circular);
            c.Send(new ReadOnlySpan<byte>(buf, 0, sink.Count), peer, 0);
        }

        static object RecvPack(IShape s, Comm c, int peer, bool circular)
        {
            using var msg = c.Mprobe(peer, 0);
            int n = (int)msg.CountBytes;
            if (recvBuf is null || recvBuf.Length < n) recvBuf = new byte[Math.Max(n, 1 << 16)];
            msg.Recv(MpiBuffer.Of(recvBuf, 0, n));
            return s.PackRead(new ReadOnlySpan<byte>(recvBuf, 0, n), circular);
        }

        static object RoundTrip(string sys, IShape s, Comm c, int peer, bool first)
        {
            switch (sys)
            {
                case "oompi":
                    return Objects.Echo(first, s.Oompi, (s, c, peer), static (x, v) => x.s.OSend(x.c, v, x.peer), static x => x.s.ORecv(x.c, x.peer));
                default:
                    bool circ = sys == "memorypack_circular";
                    return Objects.Echo(first, circ ? s.PackCircular : s.Pack, (s, c, peer, circ),
                                        static (x, v) => SendPack(x.s, x.c, v, x.peer, x.circ), static x => RecvPack(x.s, x.c, x.peer, x.circ));
            }
        }

        static object Local(string sys, IShape s)
        {
            sink ??= new Objects.ByteSink();
            if (sys == "oompi") return s.OLocal(s.Oompi, sink);
            bool circ = sys == "memorypack_circular";
            var buf = s.PackBytes(circ ? s.PackCircular : s.Pack, sink, circ);
            return s.PackRead(new ReadOnlySpan<byte>(buf, 0, sink.Count), circ);
        }

        // Collections per system, metric and size on this rank (gen0, gen1, gen2 counts over the
        // iterations counted): the table's GC line (does one system make the GC work more?).
        static readonly Dictionary<(string metric, int n, string sys), (long iters, long g0, long g1, long g2)> gcs = new();

        static (int, int, int) GcNow() => (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2));

        static void CountGcs(string metric, int n, string sys, long iters, (int g0, int g1, int g2) before)
        {
            var now = GcNow();
            gcs.TryGetValue((metric, n, sys), out var a);
            gcs[(metric, n, sys)] = (a.iters + iters, a.g0 + now.Item1 - before.g0, a.g1 + now.Item2 - before.g1, a.g2 + now.Item3 - before.g2);
        }

        // Every block starts from a collected heap, as BenchmarkDotNet forces a collection before
        // each iteration: a block of few iterations over 100,000 objects otherwise pays, or not,
        // for a gen2 collection of the garbage the system before it left (records 100,000:
        // encode + decode 0.60-1.39x run to run). Collections during the block stay in its time.
        static void FreshHeap()
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        static double Block(string sys, IShape s, Comm c, int peer, long iters, long expect, int n = 0)
        {
            FreshHeap();
            c.Barrier();
            bool first = c.Rank == 0;
            var gc0 = GcNow();
            long t0 = Stopwatch.GetTimestamp();
            object got = null;
            for (long i = 0; i < iters; i++) got = RoundTrip(sys, s, c, peer, first);
            double t = (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
            if (n != 0) CountGcs("roundtrip_us", n, sys, iters, gc0);
            if (s.Digest(got) != expect) throw new Exception($"{s.Bench}: {sys}'s value came back wrong");
            return t;
        }

        static double LocalBlock(string sys, IShape s, Comm c, long iters, long expect, int n)
        {
            FreshHeap();
            c.Barrier();
            if (c.Rank != 0) { c.Barrier(); return 0; }
            var gc0 = GcNow();
            long t0 = Stopwatch.GetTimestamp();
            object got = null;
            for (long i = 0; i < iters; i++) got = Local(sys, s);
            double t = (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
            CountGcs("local_us", n, sys, iters, gc0);
            c.Barrier();
            if (s.Digest(got) != expect) throw new Exception($"{s.Bench}: {sys}'s local copy is wrong");
            return t;
        }

        public static int Run(string[] args) => Objects.RunOnBigStack("csharp shapes", 64 << 20, args, Body);

        /// <summary>
        /// Profiling aid (no MPI): encode and decode of one shape apart, per system, for a number
        /// of seconds each, in ns of CPU time per node; run under perf with DOTNET_PerfMapEnabled=1.
        /// Options: --shapes=tree --sizes=4095 --seconds=2 --systems=oompi,memorypack
        /// --phases=encode,decode,echo (the phases timed; the others print NaN: one phase alone under perf).
        /// </summary>
        public static int Profile(string[] args)
        {
            double seconds = double.Parse(Objects.Opt(args, "seconds", "2"), CultureInfo.InvariantCulture);
            var systems = Objects.Opt(args, "systems", "oompi,memorypack,memorypack_circular").Split(',');
            var phases = Objects.Opt(args, "phases", "encode,decode,echo").Split(',');
            double Phase(string name, Action a) => phases.Contains(name) ? Time(a, seconds) : double.NaN;
            MemoryPackFormatterProvider.Register(new NodeListFormatter());
            foreach (var name in Objects.Opt(args, "shapes", "tree,records,dag").Split(','))
            {
                var (shape, allSizes, _) = Shapes[name];
                var sizes = Objects.Opt(args, "sizes", null) is string ss ? Array.ConvertAll(ss.Split(','), int.Parse) : allSizes;
                foreach (int n in sizes)
                {
                    shape.Make(n);
                    foreach (var sys in systems)
                    {
                        if (sys == "memorypack" && !shape.HasDefaultMode) continue;
                        if (sys == "memorypack_circular" && shape.PackCircular is null) continue;
                        bool circ = sys == "memorypack_circular";
                        object value = sys == "oompi" ? shape.Oompi : circ ? shape.PackCircular : shape.Pack;
                        sink ??= new Objects.ByteSink();
                        byte[] bytes = null;
                        int len = 0;
                        // Both into the same reused buffer (a new array per encode would time the
                        // allocation: for large messages on the large-object heap, with gen2 collections).
                        Action enc = sys == "oompi"
                            ? () => { bytes = shape.OEncode(value, sink); len = sink.Count; }
                            : () => { bytes = shape.PackBytes(value, sink, circ); len = sink.Count; };
                        Action dec = sys == "oompi"
                            ? () => shape.OLocalDecode(bytes, len)
                            : () => shape.PackRead(new ReadOnlySpan<byte>(bytes, 0, len), circ);
                        // What the echoing rank of a round trip does: decode, then encode the copy
                        // (objects nobody has encoded before), into the same reused buffer.
                        enc();
                        byte[] received = bytes.AsSpan(0, len).ToArray();
                        Action echo = sys == "oompi"
                            ? () => shape.OEncode(shape.OLocalDecode(received, received.Length), sink)
                            : () => shape.PackBytes(shape.PackRead(received, circ), sink, circ);
                        double e = Phase("encode", enc), d = Phase("decode", dec), x = Phase("echo", echo);
                        Console.WriteLine(FormattableString.Invariant(
                            $"{shape.Bench} n={n} {sys}: encode {e * 1e9 / n:F1} ns/node, decode {d * 1e9 / n:F1} ns/node, decode + encode of the copy {x * 1e9 / n:F1} ns/node, {len} bytes"));
                    }
                }
            }
            return 0;
        }

        // The process's CPU time per call (user + system: the GC's work included, run with
        // DOTNET_gcConcurrent=0 to keep it on this thread), not wall time: on a machine shared
        // with other work, the time slices this process waits do not count.
        static double Time(Action a, double seconds)
        {
            a();
            long iters = 0;
            var self = Process.GetCurrentProcess();
            self.Refresh();
            var cpu0 = self.TotalProcessorTime;
            var sw = Stopwatch.StartNew();
            while (sw.Elapsed.TotalSeconds < seconds) { a(); iters++; }
            self.Refresh();
            return (self.TotalProcessorTime - cpu0).TotalSeconds / iters;
        }

        static string J(string s) => Objects.J(s);
        static string N(double v) => Objects.N(v);
        static long Share(Comm c, long v) => Objects.Share(c, v);

        static int Body(Comm world, string[] args)
        {
            bool quick = Objects.Opt(args, "quick", null) != null;
            long rounds = long.Parse(Objects.Opt(args, "rounds", quick ? "2" : "21"));
            double blockMs = double.Parse(Objects.Opt(args, "block-ms", quick ? "1" : "20"), CultureInfo.InvariantCulture);
            double maxSeconds = double.Parse(Objects.Opt(args, "max-seconds", quick ? "30" : "360"), CultureInfo.InvariantCulture);
            var which = Objects.Opt(args, "shapes", "tree,records,dag").Split(',');
            int rank = world.Rank, peer = 1 - rank;
            var outp = new StringBuilder();
            var clock = Stopwatch.StartNew();
            foreach (var name in which)
            {
                var (shape, allSizes, quickSizes) = Shapes[name];
                var sizes = Objects.Opt(args, "sizes", null) is string ss ? Array.ConvertAll(ss.Split(','), int.Parse) : quick ? quickSizes : allSizes;
                var systems = AllSystems.Where(s => shape.HasDefaultMode || s != "memorypack").ToArray();
                string baseline = shape.HasDefaultMode ? "memorypack" : "memorypack_circular";
                if (rank == 0) outp.Append(Meta(shape, systems, baseline, sizes));
                var samples = new Dictionary<(string metric, int n, string sys, long round), double>();
                long done = 0;
                foreach (int n in sizes)
                {
                    shape.Make(n);
                    long expect = shape.Digest(shape.Oompi);
                    if (shape.Digest(shape.PackCircular) != expect)
                        throw new Exception($"{shape.Bench}: the twin values differ");
                    double per = 0;
                    foreach (var s in systems)
                    {
                        Block(s, shape, world, peer, 2, Expect(shape, s, expect));  // JIT, plans, buffers
                        per = Math.Max(per, Block(s, shape, world, peer, 2, Expect(shape, s, expect)) / 2);
                    }
                    long iters = Share(world, Math.Clamp((long)Math.Ceiling(blockMs * 1e-3 / Math.Max(per, 1e-8)), 1, 100000));
                    long r = 0;
                    for (; r < rounds; r++)
                    {
                        if (r > 0 && Share(world, rank == 0 && clock.Elapsed.TotalSeconds > maxSeconds ? 1 : 0) != 0) break;
                        foreach (int k in Order(systems.Length, r))
                        {
                            double sec = Block(systems[k], shape, world, peer, iters, Expect(shape, systems[k], expect), n);
                            if (rank == 0) samples[("roundtrip_us", n, systems[k], r)] = sec / iters * 1e6;
                        }
                        foreach (int k in Order(systems.Length, r + 1000))
                        {
                            double sec = LocalBlock(systems[k], shape, world, iters, Expect(shape, systems[k], expect), n);
                            if (rank == 0) samples[("local_us", n, systems[k], r)] = sec / iters * 1e6;
                        }
                    }
                    done = Math.Max(done, r);
                }
                if (rank == 0)
                {
                    foreach (var kv in samples)
                        outp.Append("{\"type\":\"sample\",\"bench\":").Append(J(shape.Bench)).Append(",\"case\":\"").Append(kv.Key.n)
                            .Append("\",\"system\":").Append(J(kv.Key.sys)).Append(",\"round\":").Append(kv.Key.round)
                            .Append(",\"metric\":\"").Append(kv.Key.metric).Append("\",\"value\":").Append(N(kv.Value)).Append("}\n");
                    Console.Error.Write(Table(shape, systems, baseline, sizes, samples, done));
                }
            }
            if (rank == 0)
            {
                Console.Out.Write(outp.ToString());
                Console.Out.Flush();
            }
            return 0;
        }

        // The record digest of the circular twin is that of its array (same values).
        static long Expect(IShape s, string sys, long expect) => expect;

        static string Meta(IShape s, string[] systems, string baseline, int[] sizes)
        {
            var labels = new Dictionary<string, string>
            {
                ["oompi"] = "oompi [Transportable] (wire v1, identity kept): world.OSend(value, peer) / world.ORecv<T>(peer)",
                ["memorypack"] = "MemoryPack 1.21.4 default mode ([MemoryPackable]: no identity, a shared object sent once per reference), reused buffer, Send; Mprobe + Recv, Deserialize",
                ["memorypack_circular"] = "MemoryPack 1.21.4 circular-reference mode ([MemoryPackable(GenerateType.CircularReference)]: identity kept), same transport",
            };
            var names = string.Join(",", systems.Select(J));
            var lab = string.Join(",", systems.Select(x => J(x) + ":" + J(labels[x])));
            var targets = string.Join(",", sizes.SelectMany(n => new[] { "roundtrip_us", "local_us" }.Select(m =>
                $"{{\"metric\":\"{m}\",\"case\":\"{n}\",\"system\":\"oompi\",\"baseline\":\"{baseline}\",\"max_ratio\":1.0," +
                $"\"text\":\"issue 28: oompi ≤ 1.0× {(baseline == "memorypack" ? "MemoryPack's default mode" : "MemoryPack's circular-reference mode (its default mode would duplicate the shared nodes)")} (N = {n}, {(m == "local_us" ? "encode + decode" : "round trip")})\"}}")));
            return new StringBuilder()
                .Append("{\"type\":\"meta\",\"bench\":").Append(J(s.Bench)).Append(",\"title\":").Append(J(s.Title))
                .Append(",\"baseline\":").Append(J(baseline)).Append(",\"systems\":[").Append(names).Append("],\"system_labels\":{").Append(lab).Append('}')
                .Append(",\"case_label\":").Append(J(s.CaseLabel))
                .Append(",\"metrics\":{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},")
                .Append("\"local_us\":{\"label\":\"encode + decode on rank 0 alone, no MPI\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}}")
                .Append(",\"targets\":[").Append(targets).Append(']')
                .Append(",\"notes\":[\"All systems in one dotnet process per rank, short blocks interleaved in a shuffled order per round; ")
                .Append("serialization, the receive of a message of unknown size (Mprobe) and the rebuilt value included. oompi writes strings as UTF-8 ")
                .Append("(the bytes C++, Java and Python read); MemoryPack writes them as UTF-16 (a memcpy).\"]}\n").ToString();
        }

        static double Median(IEnumerable<double> xs) => Objects.Median(xs);

        static string Table(IShape shape, string[] systems, string baseline, int[] sizes,
                            Dictionary<(string metric, int n, string sys, long round), double> s, long rounds)
        {
            var sb = new StringBuilder();
            foreach (var metric in new[] { "roundtrip_us", "local_us" })
            {
                sb.Append($"\n{shape.Bench}: {(metric == "local_us" ? "encode + decode on rank 0 alone" : "round trip between 2 ranks")}, medians of {rounds} rounds\n");
                sb.Append("| N | " + string.Join(" | ", systems.Select(x => x + " µs")) + " | " +
                          string.Join(" | ", systems.Where(x => x != "oompi").Select(x => "oompi / " + x)) + " |\n");
                sb.Append("|---:|" + string.Concat(Enumerable.Repeat("---:|", 2 * systems.Length - 1)) + "\n");
                foreach (int n in sizes)
                {
                    var rs = s.Keys.Where(k => k.metric == metric && k.n == n && k.sys == "oompi").Select(k => k.round).ToArray();
                    double M(string sys) => Median(s.Where(kv => kv.Key.metric == metric && kv.Key.n == n && kv.Key.sys == sys).Select(kv => kv.Value));
                    double R(string sys) => Median(rs.Where(r => s.ContainsKey((metric, n, sys, r)))
                                                     .Select(r => s[(metric, n, "oompi", r)] / s[(metric, n, sys, r)]));
                    sb.Append($"| {n} | " + string.Join(" | ", systems.Select(x => M(x).ToString("F1", CultureInfo.InvariantCulture))) + " | " +
                              string.Join(" | ", systems.Where(x => x != "oompi").Select(x => R(x).ToString("F3", CultureInfo.InvariantCulture) + "×")) + " |\n");
                }
                sb.Append("collections on rank 0 per 1,000 " + (metric == "local_us" ? "copies" : "round trips") + " (gen0/gen1/gen2): ");
                foreach (int n in sizes)
                    sb.Append($"N={n} " + string.Join(", ", systems.Select(x => gcs.TryGetValue((metric, n, x), out var g) && g.iters > 0
                        ? FormattableString.Invariant($"{x} {1000.0 * g.g0 / g.iters:F1}/{1000.0 * g.g1 / g.iters:F1}/{1000.0 * g.g2 / g.iters:F1}")
                        : x + " -")) + "; ");
                sb.Append('\n');
            }
            return sb.ToString();
        }

        static int[] Order(int n, long round) => Objects.Order(n, round);
    }
}
