using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Threading;
using MemoryPack;
using Oompi;

namespace OompiBench
{
    /// <summary>The list node of seed 004's experiment: a piece of the 4 KiB payload and the link.</summary>
    public sealed class Node
    {
        [Transportable] public int[] Data;
        [Transportable] public Node Next;
    }

    /// <summary>
    /// MemoryPack's formatter for the list. [MemoryPackable]'s generated formatter recurses per
    /// node and MemoryPack refuses depths of 1000 and more ("reached depth limit", a constant of
    /// MemoryPackWriter), so a MemoryPack user writes the list as MemoryPack's docs show for a
    /// custom type: a formatter that walks it (node count, then each node's ints as an unmanaged
    /// array, MemoryPack's own memcpy path). No object identity, like the generated one.
    /// </summary>
    public sealed class NodeListFormatter : MemoryPackFormatter<Node>
    {
        public override void Serialize<TBufferWriter>(ref MemoryPackWriter<TBufferWriter> writer, scoped ref Node value)
        {
            int count = 0;
            for (var p = value; p != null; p = p.Next) count++;
            writer.WriteUnmanaged(count);
            for (var p = value; p != null; p = p.Next) writer.WriteUnmanagedArray(p.Data);
        }

        public override void Deserialize(ref MemoryPackReader reader, scoped ref Node value)
        {
            reader.ReadUnmanaged(out int count);
            Node head = null, tail = null;
            for (int i = 0; i < count; i++)
            {
                var x = new Node { Data = reader.ReadUnmanagedArray<int>() };
                if (tail is null) head = x; else tail.Next = x;
                tail = x;
            }
            value = head;
        }
    }

    [JsonSourceGenerationOptions(IncludeFields = true, MaxDepth = 1 << 20)]
    [JsonSerializable(typeof(Node))]
    internal partial class NodeJsonContext : JsonSerializerContext
    {
    }

    /// <summary>
    /// Seed 004's experiment in C# (bench csharp_objects_list): a linked list of N nodes, N = 1,
    /// 4, ..., 16384, carrying 4 KiB of int32 in all (1024 ints spread evenly), sent from rank 0
    /// to rank 1 and back (round trip; serialization, the receive of a message of unknown size
    /// and the rebuilt list included). Systems, all in one process, interleaved in short blocks
    /// in a shuffled order per round:
    /// <list type="bullet">
    /// <item>transportable: <c>world.OSend(head, peer)</c> / <c>world.ORecv&lt;Node&gt;(peer)</c> (wire v1)</item>
    /// <item>stj (baseline): System.Text.Json with reflection metadata, into a reused
    /// Utf8JsonWriter, the UTF-8 bytes sent with <c>Send(ReadOnlySpan&lt;byte&gt;)</c> and received
    /// with Mprobe + Message.Recv into a reused buffer, then <c>JsonSerializer.Deserialize</c></item>
    /// <item>stj_sourcegen: the same with System.Text.Json's source-generated metadata</item>
    /// <item>memorypack (issue 16's peer): MemoryPack 1.21.4 (NodeListFormatter) into the same
    /// reused buffer writer, sent and received as stj</item>
    /// </list>
    /// JSON lines on stdout (docs/bench.md), and a table of the medians of the per-round ratios
    /// on stderr. Everything runs on a thread with a 512 MiB stack (System.Text.Json recurses
    /// once per node). Options: --sizes=1,4,... --rounds=N --first-round=R --block-ms=4
    /// --max-seconds=S --quick.
    /// </summary>
    public static class Objects
    {
        delegate Node RoundTrip(Comm c, int peer, Node head, bool first);

        /// <summary>
        /// One round trip of <paramref name="value"/> (also ObjectShapes): the first rank sends it
        /// and returns what comes back, the other returns what it receives after sending it back.
        /// The state goes to static lambdas, so that no closure is allocated per round trip.
        /// </summary>
        internal static T Echo<S, T>(bool first, T value, S state, Action<S, T> send, Func<S, T> recv)
        {
            if (first)
            {
                send(state, value);
                return recv(state);
            }
            var got = recv(state);
            send(state, got);
            return got;
        }

        /// <summary>
        /// The MPI environment, then <paramref name="body"/> on a thread with a big stack (a
        /// serializer that recurses once per node); an exception on it aborts the job, so that
        /// the other rank does not wait. Also ObjectShapes.
        /// </summary>
        internal static int RunOnBigStack(string name, int stackBytes, string[] args, Func<Comm, string[], int> body)
        {
            using var env = new MpiEnvironment(ThreadLevel.Multiple);
            var world = Comm.World();
            if (world.Size != 2)
            {
                if (world.Rank == 0) Console.Error.WriteLine($"{name}: run with exactly 2 ranks");
                return 2;
            }
            int code = 0;
            Exception error = null;
            var t = new Thread(() =>
            {
                try { code = body(world, args); }
                catch (Exception e) { error = e; }
            }, stackBytes);
            t.Start();
            t.Join();
            if (error != null)
            {
                Console.Error.WriteLine($"{name}: {error}");
                MpiEnvironment.Abort(1);
            }
            return code;
        }

        static readonly JsonSerializerOptions Reflection = new() { IncludeFields = true, MaxDepth = 1 << 20 };
        [ThreadStatic] static ByteSink jsonOut;
        [ThreadStatic] static Utf8JsonWriter jsonWriter;
        [ThreadStatic] static byte[] recvBuf;

        /// <summary>A reused, growing buffer for the peers' serializers (also ObjectShapes).</summary>
        internal sealed class ByteSink : System.Buffers.IBufferWriter<byte>
        {
            public byte[] Buf = new byte[1 << 16];
            public int Count;
            public void Advance(int n) => Count += n;
            public Memory<byte> GetMemory(int hint = 0) { Ensure(hint); return Buf.AsMemory(Count); }
            public Span<byte> GetSpan(int hint = 0) { Ensure(hint); return Buf.AsSpan(Count); }
            void Ensure(int hint) { if (Buf.Length - Count < Math.Max(hint, 1)) Array.Resize(ref Buf, Math.Max(Buf.Length * 2, Count + hint)); }
        }

        static void SendJson(Comm c, Node head, int peer, bool sourceGen)
        {
            var bytes = JsonBytes(head, sourceGen);
            c.Send(new ReadOnlySpan<byte>(bytes, 0, jsonOut.Count), peer, 0);
        }

        static Node RecvJson(Comm c, int peer, bool sourceGen)
        {
            using var msg = c.Mprobe(peer, 0);
            int n = (int)msg.CountBytes;
            if (recvBuf is null || recvBuf.Length < n) recvBuf = new byte[Math.Max(n, 1 << 16)];
            msg.Recv(MpiBuffer.Of(recvBuf, 0, n));
            var span = new ReadOnlySpan<byte>(recvBuf, 0, n);
            return sourceGen ? JsonSerializer.Deserialize(span, NodeJsonContext.Default.Node)
                             : JsonSerializer.Deserialize<Node>(span, Reflection);
        }

        static void SendPack(Comm c, Node head, int peer)
        {
            jsonOut ??= new ByteSink();
            jsonOut.Count = 0;
            MemoryPackSerializer.Serialize(jsonOut, head);
            c.Send(new ReadOnlySpan<byte>(jsonOut.Buf, 0, jsonOut.Count), peer, 0);
        }

        static Node RecvPack(Comm c, int peer)
        {
            using var msg = c.Mprobe(peer, 0);
            int n = (int)msg.CountBytes;
            if (recvBuf is null || recvBuf.Length < n) recvBuf = new byte[Math.Max(n, 1 << 16)];
            msg.Recv(MpiBuffer.Of(recvBuf, 0, n));
            return MemoryPackSerializer.Deserialize<Node>(new ReadOnlySpan<byte>(recvBuf, 0, n));
        }

        static Node PackLocal(Node head)
        {
            jsonOut ??= new ByteSink();
            jsonOut.Count = 0;
            MemoryPackSerializer.Serialize(jsonOut, head);
            return MemoryPackSerializer.Deserialize<Node>(new ReadOnlySpan<byte>(jsonOut.Buf, 0, jsonOut.Count));
        }

        static byte[] JsonBytes(Node head, bool sourceGen)
        {
            jsonOut ??= new ByteSink();
            jsonOut.Count = 0;
            if (jsonWriter is null) jsonWriter = new Utf8JsonWriter(jsonOut, new JsonWriterOptions { SkipValidation = true, MaxDepth = 1 << 20 });
            else jsonWriter.Reset(jsonOut);
            if (sourceGen) JsonSerializer.Serialize(jsonWriter, head, NodeJsonContext.Default.Node);
            else JsonSerializer.Serialize(jsonWriter, head, Reflection);
            jsonWriter.Flush();
            return jsonOut.Buf;
        }

        /// <summary>The same encode + decode on rank 0 alone, without MPI (local_us).</summary>
        static readonly Dictionary<string, Func<Node, Node>> Local = new()
        {
            ["transportable"] = head => Wire.Deserialize<Node>(Wire.Serialize(head)),
            ["stj"] = head => { var b = JsonBytes(head, false); return JsonSerializer.Deserialize<Node>(new ReadOnlySpan<byte>(b, 0, jsonOut.Count), Reflection); },
            ["stj_sourcegen"] = head => { var b = JsonBytes(head, true); return JsonSerializer.Deserialize(new ReadOnlySpan<byte>(b, 0, jsonOut.Count), NodeJsonContext.Default.Node); },
            ["memorypack"] = PackLocal,
        };

        static double LocalBlock(string sys, Comm c, Node head, long iters, int n)
        {
            c.Barrier();
            if (c.Rank != 0) { c.Barrier(); return 0; }
            var f = Local[sys];
            long t0 = Stopwatch.GetTimestamp();
            Node got = null;
            for (long i = 0; i < iters; i++) got = f(head);
            double t = (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
            c.Barrier();
            if (!ListOk(got, n)) throw new Exception($"csharp_objects_list: the local copy of {n} is wrong");
            return t;
        }

        static readonly List<(string name, string label, RoundTrip run)> Systems = new()
        {
            ("transportable", "oompi [Transportable] (wire v1): world.OSend(head, peer) / world.ORecv<Node>(peer)",
                (c, p, head, first) => Echo(first, head, (c, p), static (s, v) => s.c.OSend(v, s.p, 0), static s => s.c.ORecv<Node>(s.p, 0))),
            ("stj", "System.Text.Json (reflection): serialize to UTF-8 bytes, Send; Mprobe + Recv, Deserialize",
                (c, p, head, first) => Echo(first, head, (c, p), static (s, v) => SendJson(s.c, v, s.p, false), static s => RecvJson(s.c, s.p, false))),
            ("stj_sourcegen", "System.Text.Json (source-generated metadata), same transport",
                (c, p, head, first) => Echo(first, head, (c, p), static (s, v) => SendJson(s.c, v, s.p, true), static s => RecvJson(s.c, s.p, true))),
            ("memorypack", "MemoryPack 1.21.4 (a formatter walking the list: [MemoryPackable] stops at depth 1000; no identity): serialize into a reused buffer writer, Send; Mprobe + Recv, Deserialize",
                (c, p, head, first) => Echo(first, head, (c, p), static (s, v) => SendPack(s.c, v, s.p), static s => RecvPack(s.c, s.p))),
        };

        internal static Node MakeList(int n)
        {
            Node head = null;
            for (int i = n - 1; i >= 0; i--)
            {
                int per = 1024 / n + (i < 1024 % n ? 1 : 0);
                head = new Node { Data = Enumerable.Range(0, per).ToArray(), Next = head };
            }
            return head;
        }

        static bool ListOk(Node head, int n)
        {
            int count = 0, ints = 0;
            for (var p = head; p != null; p = p.Next) { count++; ints += p.Data.Length; }
            return count == n && ints == 1024;
        }

        internal static string Opt(string[] args, string key, string def)
        {
            foreach (var a in args)
                if (a.StartsWith("--" + key + "=")) return a.Substring(key.Length + 3);
                else if (a == "--" + key) return "";
            return def;
        }

        internal static long Share(Comm c, long v)
        {
            var a = new long[] { v };
            c.Bcast(a, 0);
            return a[0];
        }

        static double Block(RoundTrip s, Comm c, int peer, Node head, long iters, int n)
        {
            c.Barrier();
            bool first = c.Rank == 0;
            long t0 = Stopwatch.GetTimestamp();
            Node got = null;
            for (long i = 0; i < iters; i++) got = s(c, peer, head, first);
            double t = (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
            if (!ListOk(got, n)) throw new Exception($"csharp_objects_list: the list of {n} came back wrong");
            return t;
        }

        public static int Run(string[] args) => RunOnBigStack("csharp objects", 512 << 20, args, Body);

        internal static string J(string s) => JsonSerializer.Serialize(s);
        internal static string N(double v) => v.ToString("G9", CultureInfo.InvariantCulture);

        static int Body(Comm world, string[] args)
        {
            bool quick = Opt(args, "quick", null) != null;
            long rounds = long.Parse(Opt(args, "rounds", quick ? "2" : "30"));
            long firstRound = long.Parse(Opt(args, "first-round", "0"));
            double blockMs = double.Parse(Opt(args, "block-ms", quick ? "1" : "4"), CultureInfo.InvariantCulture);
            double maxSeconds = double.Parse(Opt(args, "max-seconds", quick ? "20" : "240"), CultureInfo.InvariantCulture);
            var sizes = Array.ConvertAll(Opt(args, "sizes", quick ? "1,16,256,4096" : "1,4,16,64,256,1024,4096,16384").Split(','), int.Parse);
            const string bench = "csharp_objects_list";
            int rank = world.Rank, peer = 1 - rank;
            var lists = sizes.ToDictionary(n => n, MakeList);
            MemoryPackFormatterProvider.Register(new NodeListFormatter());

            var iters = new long[sizes.Length];
            for (int i = 0; i < sizes.Length; i++)
            {
                double per = 0;
                foreach (var s in Systems)
                {
                    Block(s.run, world, peer, lists[sizes[i]], 3, sizes[i]);  // JIT, plans, buffers
                    per = Math.Max(per, Block(s.run, world, peer, lists[sizes[i]], 4, sizes[i]) / 4);
                }
                iters[i] = Share(world, Math.Clamp((long)Math.Ceiling(blockMs * 1e-3 / Math.Max(per, 1e-8)), 1, 20000));
            }

            var outp = new StringBuilder();
            var samples = new Dictionary<(int n, string sys, long round), double>();
            var localSamples = new Dictionary<(int n, string sys, long round), double>();
            if (rank == 0)
            {
                var names = string.Join(",", Systems.ConvertAll(s => J(s.name)));
                var labels = string.Join(",", Systems.ConvertAll(s => J(s.name) + ":" + J(s.label)));
                var targets = string.Join(",", sizes.Where(n => n >= 256).Select(n =>
                    $"{{\"metric\":\"roundtrip_us\",\"case\":\"{n}\",\"system\":\"transportable\",\"max_ratio\":0.2," +
                    $"\"text\":\"issue 6: [Transportable] list ≥ 5× faster than System.Text.Json (N = {n})\"}}," +
                    $"{{\"metric\":\"roundtrip_us\",\"case\":\"{n}\",\"system\":\"transportable\",\"baseline\":\"memorypack\",\"max_ratio\":1.0," +
                    $"\"text\":\"issue 16: [Transportable] list ≤ 1.0× MemoryPack + MPI (N = {n})\"}}"));
                outp.Append("{\"type\":\"meta\",\"bench\":").Append(J(bench))
                    .Append(",\"title\":\"C# linked list of N nodes (4 KiB of int32 in all), round trip between 2 ranks\"")
                    .Append(",\"baseline\":\"stj\",\"systems\":[").Append(names).Append("],\"system_labels\":{").Append(labels).Append('}')
                    .Append(",\"case_label\":\"nodes\",\"metrics\":{\"roundtrip_us\":{\"label\":\"round trip\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},")
                    .Append("\"local_us\":{\"label\":\"encode + decode on rank 0 alone, no MPI\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}}")
                    .Append(",\"targets\":[").Append(targets).Append(']')
                    .Append(",\"notes\":[\"All systems in one dotnet process per rank, short blocks interleaved in a shuffled order per round; ")
                    .Append("serialization, the receive of a message of unknown size (Mprobe) and the rebuilt list included. System.Text.Json keeps ")
                    .Append("no object identity (no ReferenceHandler: a shared or cyclic graph would not survive), nor does MemoryPack's default GenerateType.Object; wire v1 does.\"]}\n");
            }
            var clock = Stopwatch.StartNew();
            long done = 0;
            for (long r = -1; r < rounds; r++)
            {
                if (r > 0 && Share(world, rank == 0 && clock.Elapsed.TotalSeconds > maxSeconds ? 1 : 0) != 0) break;
                long round = firstRound + Math.Max(r, 0);
                for (int i = 0; i < sizes.Length; i++)
                {
                    foreach (int k in Order(Systems.Count, round))
                    {
                        double sec = Block(Systems[k].run, world, peer, lists[sizes[i]], iters[i], sizes[i]);
                        if (rank != 0 || r < 0) continue;
                        double us = sec / iters[i] * 1e6;
                        samples[(sizes[i], Systems[k].name, round)] = us;
                        outp.Append("{\"type\":\"sample\",\"bench\":").Append(J(bench)).Append(",\"case\":\"").Append(sizes[i])
                            .Append("\",\"system\":").Append(J(Systems[k].name)).Append(",\"round\":").Append(round)
                            .Append(",\"metric\":\"roundtrip_us\",\"value\":").Append(N(us)).Append("}\n");
                    }
                    foreach (int k in Order(Systems.Count, round + 1))
                    {
                        double sec = LocalBlock(Systems[k].name, world, lists[sizes[i]], iters[i], sizes[i]);
                        if (rank != 0 || r < 0) continue;
                        double us = sec / iters[i] * 1e6;
                        localSamples[(sizes[i], Systems[k].name, round)] = us;
                        outp.Append("{\"type\":\"sample\",\"bench\":").Append(J(bench)).Append(",\"case\":\"").Append(sizes[i])
                            .Append("\",\"system\":").Append(J(Systems[k].name)).Append(",\"round\":").Append(round)
                            .Append(",\"metric\":\"local_us\",\"value\":").Append(N(us)).Append("}\n");
                    }
                }
                if (r >= 0) done++;
            }
            if (rank == 0)
            {
                Console.Out.Write(outp.ToString());
                Console.Out.Flush();
                Console.Error.Write(Table("round trip between 2 ranks", sizes, samples, done));
                Console.Error.Write(Table("encode + decode on rank 0 alone (no MPI)", sizes, localSamples, done));
            }
            return 0;
        }

        internal static double Median(IEnumerable<double> xs)
        {
            var a = xs.OrderBy(x => x).ToArray();
            if (a.Length == 0) return double.NaN;
            return a.Length % 2 == 1 ? a[a.Length / 2] : (a[a.Length / 2 - 1] + a[a.Length / 2]) / 2;
        }

        /// <summary>Medians of the round trips and of the per-round ratios to System.Text.Json.</summary>
        static string Table(string what, int[] sizes, Dictionary<(int n, string sys, long round), double> s, long rounds)
        {
            var sb = new StringBuilder();
            sb.Append($"\ncsharp_objects_list: {what}, linked list with 4 KiB of int32, medians of {rounds} rounds\n");
            sb.Append("| N | transportable µs | stj µs | stj_sourcegen µs | memorypack µs | stj / transportable (median of per-round ratios) | stj_sourcegen / transportable | transportable / memorypack |\n");
            sb.Append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            foreach (int n in sizes)
            {
                var rs = s.Keys.Where(k => k.n == n && k.sys == "transportable").Select(k => k.round).ToArray();
                double M(string sys) => Median(s.Where(kv => kv.Key.n == n && kv.Key.sys == sys).Select(kv => kv.Value));
                double R(string sys) => Median(rs.Where(r => s.ContainsKey((n, sys, r)))
                                                 .Select(r => s[(n, sys, r)] / s[(n, "transportable", r)]));
                double Rm() => Median(rs.Where(r => s.ContainsKey((n, "memorypack", r)))
                                        .Select(r => s[(n, "transportable", r)] / s[(n, "memorypack", r)]));
                sb.Append(FormattableString.Invariant(
                    $"| {n} | {M("transportable"):F1} | {M("stj"):F1} | {M("stj_sourcegen"):F1} | {M("memorypack"):F1} | {R("stj"):F2}× | {R("stj_sourcegen"):F2}× | {Rm():F3}× |\n"));
            }
            return sb.ToString();
        }

        /// <summary>The systems' order in a round: a shuffle seeded by the round (also ObjectShapes).</summary>
        internal static int[] Order(int n, long round)
        {
            var o = new int[n];
            for (int i = 0; i < n; i++) o[i] = i;
            var rnd = new Random((int)(round * 7919 + 17));
            for (int i = n; i > 1; i--) { int j = rnd.Next(i); (o[i - 1], o[j]) = (o[j], o[i - 1]); }
            return o;
        }
    }
}
