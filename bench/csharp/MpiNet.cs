using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using Oompi;

namespace OompiBench
{
    /// <summary>
    /// Namespace MPI (MPI.NET's API over oompi) against oompi's own C# API and raw C, all in one
    /// dotnet process per rank, 2 ranks, blocks of each system interleaved in a random order
    /// every round (bench csharp_mpinet): ping-pong of 8 B and 4 MiB (Send/Receive of a byte[]),
    /// Allreduce (sum) of one double, and an object round trip (a 64-node list: oompi's OSend of
    /// a [Transportable] class, MPI's Send&lt;T&gt; of the same class, and MPI's Send&lt;T&gt; of an
    /// MPI.NET-style [Serializable] class, which travels as JSON). Samples as JSON lines on
    /// stdout (rank 0); the median ratios per case on stderr. The self_* cases run on the self
    /// communicator: the layer's own cost per call, with no peer to wait for.
    /// </summary>
    public static class MpiNet
    {
        public sealed class Node
        {
            [Transportable] public int Value;
            [Transportable] public string Label;
            [Transportable] public Node Next;
        }

        [Serializable]
        public sealed class SerialNode
        {
            public int Value;
            public string Label;
            public SerialNode Next;
        }

        delegate void Step(long iters);

        static string Opt(string[] args, string key, string def)
        {
            foreach (var a in args)
                if (a.StartsWith("--" + key + "=")) return a.Substring(key.Length + 3);
                else if (a == "--" + key) return "";
            return def;
        }

        public static int Run(string[] args)
        {
            bool quick = Opt(args, "quick", null) != null;
            int rounds = int.Parse(Opt(args, "rounds", quick ? "2" : "15"));
            double blockMs = double.Parse(Opt(args, "block-ms", quick ? "1" : "20"), CultureInfo.InvariantCulture);
            var cmdArgs = Array.Empty<string>();
            using var env = new MPI.Environment(ref cmdArgs, MPI.Threading.Multiple);
            var world = MPI.Communicator.world;
            var comm = world.Comm;
            // 1 rank: the self_* cases only (the layer's own cost, undisturbed by a peer that a
            // loaded machine does not schedule); 2 ranks: everything.
            bool selfOnly = world.Size == 1;
            if (world.Size != 2 && !selfOnly)
            {
                if (world.Rank == 0) Console.Error.WriteLine("csharp mpinet bench: run with 2 ranks (or 1: the self cases only)");
                return 2;
            }
            int rank = world.Rank, peer = 1 - rank;
            bool first = rank == 0;

            var cases = new List<(string name, List<(string sys, Step run)> systems)>();
            Op oompiAdd = Op.Create<int>((input, inOut) =>
            {
                for (int k = 0; k < inOut.Length; k++) inOut[k] = input[k] + inOut[k];
            }, commutative: false);
            if (!selfOnly) AddPeerCases(cases, world, comm, rank, peer, first, oompiAdd);
            AddSelfCases(cases, oompiAdd);
            return Measure(cases, world, rank, rounds, blockMs);
        }

        static void AddPeerCases(List<(string name, List<(string sys, Step run)> systems)> cases, MPI.Intracommunicator world,
                                 Comm comm, int rank, int peer, bool first, Op oompiAdd)
        {
            foreach (int size in new[] { 8, 4 << 20 })
            {
                var buf = new byte[size];
                cases.Add(($"pingpong_{size}", new()
                {
                    ("raw_c_inproc", n => BenchSupport.RawPingpong(buf, peer, (int)n, first)),
                    ("oompi", n =>
                    {
                        for (long i = 0; i < n; i++)
                            if (first) { comm.Send(buf, peer, 0); comm.Recv(buf, peer, 0); }
                            else { comm.Recv(buf, peer, 0); comm.Send(buf, peer, 0); }
                    }),
                    ("mpinet", n =>
                    {
                        for (long i = 0; i < n; i++)
                            if (first) { world.Send(buf, peer, 0); world.Receive(peer, 0, ref buf); }
                            else { world.Receive(peer, 0, ref buf); world.Send(buf, peer, 0); }
                    }),
                }));
            }
            {
                var s = new[] { 1.0 + rank };
                var r = new double[1];
                cases.Add(("allreduce_8", new()
                {
                    ("raw_c_inproc", n => BenchSupport.RawAllreduceSum(s, r, (int)n)),
                    ("oompi", n => { for (long i = 0; i < n; i++) comm.Allreduce(s, r, Op.Sum); }),
                    ("mpinet", n => { for (long i = 0; i < n; i++) world.Allreduce(s, MPI.Operation<double>.Add, ref r); }),
                    ("mpinet_scalar", n => { double x = 1.0 + rank; for (long i = 0; i < n; i++) x = world.Allreduce(x, MPI.Operation<double>.Add) - x; }),
                }));
            }
            // Ints: one int (MPI.NET's Send<int>/Receive<int> against oompi's one-element
            // array), an int[1024], and an int Allreduce with Operation<int>.Add and with a
            // lambda (oompi: its own user op, made once).
            AddIntCases(cases, "", world, peer, first, oompiAdd);
            {
                Node list = null;
                SerialNode slist = null;
                for (int i = 63; i >= 0; i--)
                {
                    list = new Node { Value = i, Label = "node" + i, Next = list };
                    slist = new SerialNode { Value = i, Label = "node" + i, Next = slist };
                }
                cases.Add(("object_list_64", new()
                {
                    ("oompi", n =>
                    {
                        for (long i = 0; i < n; i++)
                            if (first) { comm.OSend(list, peer, 0); list = comm.ORecv<Node>(peer, 0); }
                            else { list = comm.ORecv<Node>(peer, 0); comm.OSend(list, peer, 0); }
                    }),
                    ("mpinet", n =>
                    {
                        for (long i = 0; i < n; i++)
                            if (first) { world.Send(list, peer, 0); list = world.Receive<Node>(peer, 0); }
                            else { list = world.Receive<Node>(peer, 0); world.Send(list, peer, 0); }
                    }),
                    ("mpinet_serializable", n =>
                    {
                        for (long i = 0; i < n; i++)
                            if (first) { world.Send(slist, peer, 0); slist = world.Receive<SerialNode>(peer, 0); }
                            else { slist = world.Receive<SerialNode>(peer, 0); world.Send(slist, peer, 0); }
                    }),
                }));
            }

        }

        // The layer's own cost without a peer: the self communicator (no wait for another
        // process, so the load of the machine disturbs it least).
        static void AddSelfCases(List<(string name, List<(string sys, Step run)> systems)> cases, Op oompiAdd)
        {
            {
                var self = MPI.Communicator.self;
                var oself = self.Comm;
                var buf = new byte[8];
                var s = new[] { 1.0 };
                var r = new double[1];
                cases.Add(("self_pingpong_8", new()
                {
                    ("oompi", n => { for (long i = 0; i < n; i++) { oself.Send(buf, 0, 0); oself.Recv(buf, 0, 0); } }),
                    ("mpinet", n => { for (long i = 0; i < n; i++) { self.Send(buf, 0, 0); self.Receive(0, 0, ref buf); } }),
                }));
                cases.Add(("self_allreduce_8", new()
                {
                    ("oompi", n => { for (long i = 0; i < n; i++) oself.Allreduce(s, r, Op.Sum); }),
                    ("mpinet", n => { for (long i = 0; i < n; i++) self.Allreduce(s, MPI.Operation<double>.Add, ref r); }),
                }));
                AddIntCases(cases, "self_", self, 0, true, oompiAdd);
            }
        }

        static int Measure(List<(string name, List<(string sys, Step run)> systems)> cases, MPI.Intracommunicator world,
                           int rank, int rounds, double blockMs)
        {

            // Calibration: iterations per block from the oompi system, agreed by both ranks.
            var iters = new long[cases.Count];
            for (int c = 0; c < cases.Count; c++)
            {
                foreach (var (_, run) in cases[c].systems) Block(world, run, 4);
                var oompi = cases[c].systems.First(s => s.sys == "oompi").run;
                double t = Block(world, oompi, 16) / 16;
                long n = Math.Clamp((long)Math.Ceiling(blockMs * 1e-3 / Math.Max(t, 1e-8)), 4, 1_000_000);
                world.Broadcast(ref n, 0);
                iters[c] = n;
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();

            var samples = new Dictionary<(string, string), List<double>>();
            var outp = new System.Text.StringBuilder();
            if (rank == 0)
                outp.Append("{\"type\":\"meta\",\"bench\":\"csharp_mpinet\",\"title\":\"namespace MPI (MPI.NET's API) vs oompi's C# API vs raw C, " + world.Size + " rank(s), interleaved blocks\"")
                    .Append(",\"baseline\":\"oompi\",\"case_label\":\"case\",\"metrics\":{\"time_us\":{\"label\":\"time per round trip or call\",\"unit\":\"µs\",\"better\":\"lower\"}}}\n");
            for (int round = -1; round < rounds; round++)  // round -1: unrecorded warm-up
            {
                var rnd = new Random(round * 7919 + 17);
                for (int c = 0; c < cases.Count; c++)
                {
                    var order = cases[c].systems.OrderBy(_ => rnd.Next()).ToList();
                    foreach (var (sys, run) in order)
                    {
                        double us = Block(world, run, iters[c]) / iters[c] * 1e6;
                        if (round < 0 || rank != 0) continue;
                        var key = (cases[c].name, sys);
                        if (!samples.TryGetValue(key, out var l)) samples[key] = l = new List<double>();
                        l.Add(us);
                        outp.Append("{\"type\":\"sample\",\"bench\":\"csharp_mpinet\",\"case\":\"").Append(cases[c].name)
                            .Append("\",\"system\":\"").Append(sys).Append("\",\"round\":").Append(round)
                            .Append(",\"metric\":\"time_us\",\"value\":").Append(us.ToString("G9", CultureInfo.InvariantCulture)).Append("}\n");
                    }
                }
            }
            if (rank != 0) return 0;
            Console.Out.Write(outp.ToString());
            // Medians of the per-round ratios (each system against oompi and against raw C in the same round).
            Console.Error.WriteLine($"{"case",-16} {"system",-20} {"median µs",10} {"÷ oompi",8} {"÷ raw C",8}");
            foreach (var (name, systems) in cases)
                foreach (var (sys, _) in systems)
                {
                    var v = samples[(name, sys)];
                    var o = samples[(name, "oompi")];
                    string vsRaw = samples.TryGetValue((name, "raw_c_inproc"), out var raw)
                        ? Median(v.Select((x, i) => x / raw[i])).ToString("F3", CultureInfo.InvariantCulture) : "-";
                    Console.Error.WriteLine($"{name,-16} {sys,-20} {Median(v),10:F3} {Median(v.Select((x, i) => x / o[i])),8:F3} {vsRaw,8}");
                }
            return 0;
        }

        // The int cases on comm (world: ping-pong with peer; self: a send and a receive to itself).
        static void AddIntCases(List<(string name, List<(string sys, Step run)> systems)> cases, string prefix,
                                MPI.Intracommunicator comm, int peer, bool first, Op oompiAdd)
        {
            var oc = comm.Comm;
            var one = new int[1];
            cases.Add(($"{prefix}int_pingpong", new()
            {
                ("oompi", n =>
                {
                    for (long i = 0; i < n; i++)
                        if (first) { oc.Send(one, peer, 0); oc.Recv(one, peer, 0); }
                        else { oc.Recv(one, peer, 0); oc.Send(one, peer, 0); }
                }),
                ("mpinet", n =>
                {
                    int x = 7;
                    for (long i = 0; i < n; i++)
                        if (first) { comm.Send(x, peer, 0); x = comm.Receive<int>(peer, 0); }
                        else { x = comm.Receive<int>(peer, 0); comm.Send(x, peer, 0); }
                }),
            }));
            // On self a blocking send must fit Open MPI's self-transport eager limit (1 KiB), or
            // it waits for a receive that comes after it: 128 ints there, 1024 between ranks.
            var ints = new int[comm.Size == 1 ? 128 : 1024];
            cases.Add(($"{prefix}ints_pingpong_{ints.Length}", new()
            {
                ("oompi", n =>
                {
                    for (long i = 0; i < n; i++)
                        if (first) { oc.Send(ints, peer, 0); oc.Recv(ints, peer, 0); }
                        else { oc.Recv(ints, peer, 0); oc.Send(ints, peer, 0); }
                }),
                ("mpinet", n =>
                {
                    for (long i = 0; i < n; i++)
                        if (first) { comm.Send(ints, peer, 0); comm.Receive(peer, 0, ref ints); }
                        else { comm.Receive(peer, 0, ref ints); comm.Send(ints, peer, 0); }
                }),
            }));
            var s = new[] { 3 };
            var r = new int[1];
            cases.Add(($"{prefix}allreduce_int_add", new()
            {
                ("oompi", n => { for (long i = 0; i < n; i++) oc.Allreduce(s, r, Op.Sum); }),
                ("mpinet", n => { int x = 3; for (long i = 0; i < n; i++) x = comm.Allreduce(x, MPI.Operation<int>.Add) - x; }),
            }));
            cases.Add(($"{prefix}allreduce_int_lambda", new()
            {
                ("oompi", n => { for (long i = 0; i < n; i++) oc.Allreduce(s, r, oompiAdd); }),
                ("mpinet", n => { int x = 3; for (long i = 0; i < n; i++) x = comm.Allreduce(x, (a, b) => a + b) - x; }),
            }));
        }

        static double Block(MPI.Intracommunicator world, Step run, long iters)
        {
            world.Barrier();
            long t0 = Stopwatch.GetTimestamp();
            run(iters);
            return (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
        }

        static double Median(IEnumerable<double> xs)
        {
            var a = xs.OrderBy(x => x).ToArray();
            return a.Length % 2 == 1 ? a[a.Length / 2] : (a[a.Length / 2 - 1] + a[a.Length / 2]) / 2;
        }
    }
}
