using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using Oompi;

namespace OompiBench
{
    /// <summary>
    /// C# ping-pong between ranks 0 and 1, one invocation per round (GROUP csharp_pingpong; the
    /// raw C peer is bench_pingpong --bench-name=csharp_pingpong --systems=raw_c). Systems:
    /// byte[] through the binding, Span<byte> overloads (fixed), Isend/Irecv + Wait, and a
    /// direct P/Invoke of MPI_Send/MPI_Recv (Open MPI symbols) that prices the bare downcall.
    /// </summary>
    public static unsafe class PingPong
    {
        delegate void Sys(Comm c, int peer, byte[] buf, bool first);

        static readonly List<(string name, string label, Sys run)> Systems = new()
        {
            ("csharp_array", "C# byte[] (Send/Recv)", (c, p, b, first) =>
                { if (first) { c.Send(b, p, 0); c.Recv(b, p, 0); } else { c.Recv(b, p, 0); c.Send(b, p, 0); } }),
            ("csharp_span", "C# Span<byte> (Send/Recv overloads, fixed)", (c, p, b, first) =>
            {
                Span<byte> s = b;
                if (first) { c.Send<byte>(s, p, 0); c.Recv(s, p, 0); } else { c.Recv(s, p, 0); c.Send<byte>(s, p, 0); }
            }),
            ("csharp_nonblocking", "C# Isend/Irecv + Wait", (c, p, b, first) =>
            {
                if (first)
                {
                    using (var r = c.Isend(b, p, 0)) r.Wait();
                    using (var r = c.Irecv(b, p, 0)) r.Wait();
                }
                else
                {
                    using (var r = c.Irecv(b, p, 0)) r.Wait();
                    using (var r = c.Isend(b, p, 0)) r.Wait();
                }
            }),
        };

        // --- direct P/Invoke of libmpi (Open MPI: handles are addresses of exported objects) ---
        [DllImport("libmpi.so.40")] internal static extern int MPI_Send(byte* buf, int count, IntPtr type, int dest, int tag, IntPtr comm);
        [DllImport("libmpi.so.40")] internal static extern int MPI_Recv(byte* buf, int count, IntPtr type, int src, int tag, IntPtr comm, IntPtr status);
        [DllImport("libmpi.so.40")] internal static extern int MPI_Isend(byte* buf, int count, IntPtr type, int dest, int tag, IntPtr comm, out IntPtr req);
        [DllImport("libmpi.so.40")] internal static extern int MPI_Irecv(byte* buf, int count, IntPtr type, int src, int tag, IntPtr comm, out IntPtr req);
        [DllImport("libmpi.so.40")] internal static extern int MPI_Wait(ref IntPtr req, IntPtr status);
        internal static IntPtr commWorld, mpiChar;

        internal static bool LoadRawMpi()
        {
            try
            {
                // Only when the binding runs on Open MPI: loading it beside another MPI (MPICH)
                // would bring a second, uninitialised MPI into the process.
                if (!System.IO.File.ReadAllText("/proc/self/maps").Contains("/libmpi.so.40")) return false;
                var lib = NativeLibrary.Load("libmpi.so.40");
                commWorld = NativeLibrary.GetExport(lib, "ompi_mpi_comm_world");
                mpiChar = NativeLibrary.GetExport(lib, "ompi_mpi_char");
                return true;
            }
            catch (Exception) { return false; }
        }

        static void PInvoke(Comm c, int p, byte[] b, bool first)
        {
            fixed (byte* ptr = b)
            {
                if (first) { MPI_Send(ptr, b.Length, mpiChar, p, 0, commWorld); MPI_Recv(ptr, b.Length, mpiChar, p, 0, commWorld, IntPtr.Zero); }
                else { MPI_Recv(ptr, b.Length, mpiChar, p, 0, commWorld, IntPtr.Zero); MPI_Send(ptr, b.Length, mpiChar, p, 0, commWorld); }
            }
        }

        // The floor of any binding's Isend/Irecv + Wait: the MPI calls P/Invoked directly.
        static void PInvokeNonblocking(Comm c, int p, byte[] b, bool first)
        {
            fixed (byte* ptr = b)
            {
                IntPtr r;
                if (first)
                {
                    MPI_Isend(ptr, b.Length, mpiChar, p, 0, commWorld, out r); MPI_Wait(ref r, IntPtr.Zero);
                    MPI_Irecv(ptr, b.Length, mpiChar, p, 0, commWorld, out r); MPI_Wait(ref r, IntPtr.Zero);
                }
                else
                {
                    MPI_Irecv(ptr, b.Length, mpiChar, p, 0, commWorld, out r); MPI_Wait(ref r, IntPtr.Zero);
                    MPI_Isend(ptr, b.Length, mpiChar, p, 0, commWorld, out r); MPI_Wait(ref r, IntPtr.Zero);
                }
            }
        }

        static string Opt(string[] args, string key, string def)
        {
            foreach (var a in args)
                if (a.StartsWith("--" + key + "=")) return a.Substring(key.Length + 3);
                else if (a == "--" + key) return "";
            return def;
        }

        static string J(string s) => System.Text.Json.JsonSerializer.Serialize(s);
        static string N(double v) => v.ToString("G9", CultureInfo.InvariantCulture);

        // Rank 0 tells rank 1 (a value both need), with the binding's own p2p.
        static long Share(Comm c, long v)
        {
            var a = new long[] { v };
            if (c.Rank == 0) c.Send(a, 1, 7); else c.Recv(a, 0, 7);
            return a[0];
        }

        // The raw C baseline inside this process (Oompi.BenchSupport: MPI_Send/MPI_Recv in a C
        // loop over the same buffer): same run, same memory, interleaved with the C# systems.
        const string RawInProcess = "raw_c_inproc";

        static double RawBlock(Comm c, int peer, byte[] buf, long iters)
        {
            c.Barrier();
            return BenchSupport.RawPingpong(buf, peer, (int)iters, c.Rank == 0);
        }

        static double Block(Sys s, Comm c, int peer, byte[] buf, long iters)
        {
            c.Barrier();
            long t0 = Stopwatch.GetTimestamp();
            bool first = c.Rank == 0;
            for (long i = 0; i < iters; i++) s(c, peer, buf, first);
            return (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
        }

        public static int Run(string[] args)
        {
            bool quick = Opt(args, "quick", null) != null;
            long rounds = long.Parse(Opt(args, "rounds", quick ? "2" : "20"));
            long firstRound = long.Parse(Opt(args, "first-round", "0"));
            double blockMs = double.Parse(Opt(args, "block-ms", quick ? "0.5" : "2"), CultureInfo.InvariantCulture);
            var sizes = Array.ConvertAll(Opt(args, "sizes", "8,1024,65536,4194304").Split(','), long.Parse);
            string bench = Opt(args, "bench-name", "csharp_pingpong");

            using var env = new MpiEnvironment();
            var world = Comm.World();
            if (world.Size != 2)
            {
                if (world.Rank == 0) Console.Error.WriteLine("csharp pingpong: run with exactly 2 ranks");
                return 2;
            }
            int rank = world.Rank, peer = 1 - rank;
            var systems = new List<(string name, string label, Sys run)>(Systems);
            if (LoadRawMpi())
            {
                systems.Add(("csharp_pinvoke_mpi", "C# P/Invoke MPI_Send/MPI_Recv (no binding)", PInvoke));
                systems.Add(("csharp_pinvoke_nonblocking", "C# P/Invoke MPI_Isend/MPI_Irecv + MPI_Wait (no binding)", PInvokeNonblocking));
            }
            systems.Add((RawInProcess, "raw C MPI_Send/MPI_Recv, a C loop inside the dotnet process", null));
            // --systems=a,b: only those (e.g. one system under perf); the default is all of them.
            string only = Opt(args, "systems", null);
            if (only != null) systems.RemoveAll(s => Array.IndexOf(only.Split(','), s.name) < 0);

            var bufs = Array.ConvertAll(sizes, s => new byte[s]);
            var iters = new long[sizes.Length];
            for (int i = 0; i < sizes.Length; i++)
            {
                // Warm-up (and JIT) of every system, then calibration on the first.
                foreach (var s in systems)
                    if (s.run is null) RawBlock(world, peer, bufs[i], 4); else Block(s.run, world, peer, bufs[i], 4);
                double t = Block(systems[0].run, world, peer, bufs[i], 8) / 8;
                iters[i] = Share(world, Math.Clamp((long)Math.Ceiling(blockMs * 1e-3 / Math.Max(t, 1e-8)), 1, 100000));
            }

            var outp = new System.Text.StringBuilder();
            if (rank == 0)
            {
                var names = string.Join(",", systems.ConvertAll(s => J(s.name)));
                var labels = string.Join(",", systems.ConvertAll(s => J(s.name) + ":" + J(s.label)));
                outp.Append("{\"type\":\"meta\",\"bench\":").Append(J(bench))
                    .Append(",\"title\":\"C# ping-pong between 2 ranks (raw C in a separate process, rounds interleaved)\"")
                    .Append(",\"baseline\":\"raw_c\",\"systems\":[").Append(names).Append("],\"system_labels\":{").Append(labels).Append('}')
                    .Append(",\"case_label\":\"message size\",\"case_format\":\"bytes\"")
                    .Append(",\"metrics\":{\"latency_us\":{\"label\":\"one-way latency\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"},")
                    .Append("\"bandwidth_MBps\":{\"label\":\"bandwidth\",\"unit\":\"MB/s\",\"better\":\"higher\",\"plot\":\"logx\"}}")
                    .Append(",\"targets\":[{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"csharp_array\",\"baseline\":\"raw_c_inproc\",\"max_ratio\":1.2,\"text\":\"issue 6: 8-byte latency ≤ 1.2× raw C (C loop in the same process and run)\"},")
                    .Append("{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"csharp_array\",\"max_ratio\":1.2,\"text\":\"issue 6: 8-byte latency ≤ 1.2× raw C (bench_pingpong in its own process, alternate rounds)\"},")
                    .Append("{\"metric\":\"bandwidth_MBps\",\"case\":\"4194304\",\"system\":\"csharp_array\",\"baseline\":\"raw_c_inproc\",\"min_ratio\":0.95,\"text\":\"issue 6: 4 MiB bandwidth ≥ 0.95× raw C (same process and run)\"},")
                    .Append("{\"metric\":\"bandwidth_MBps\",\"case\":\"4194304\",\"system\":\"csharp_array\",\"min_ratio\":0.95,\"text\":\"issue 6: 4 MiB bandwidth ≥ 0.95× raw C (own process)\"},")
                    .Append("{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"csharp_nonblocking\",\"baseline\":\"raw_c_inproc\",\"max_ratio\":1.5,\"text\":\"issue 16: 8-byte Isend/Irecv + Wait ≤ 1.5× raw C (C loop in the same process and run)\"},")
                    .Append("{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"csharp_nonblocking\",\"baseline\":\"csharp_pinvoke_nonblocking\",\"max_ratio\":1.5,\"text\":\"binding overhead of Isend/Irecv + Wait: 8 B ≤ 1.5× MPI_Isend/MPI_Irecv + MPI_Wait P/Invoked directly\"},")
                    .Append("{\"metric\":\"latency_us\",\"case\":\"8\",\"system\":\"csharp_array\",\"baseline\":\"csharp_pinvoke_mpi\",\"max_ratio\":1.2,\"text\":\"binding overhead in one process: 8-byte latency ≤ 1.2× MPI_Send/MPI_Recv P/Invoked directly\"}]")
                    .Append(",\"notes\":[\"C# systems run in one dotnet process per round, raw C (bench_pingpong) in another; the two alternate round by round (GROUP), ratios are taken within a round.\"]}\n");
            }
            // Unrecorded rounds first (as bench_pingpong does one): caches, pages, the peer's
            // state, and the JIT's tiers (below).
            // (Their samples are formatted and dropped: formatting gets compiled here too.)
            WarmUp(world, quick, () => Round(world, rank, peer, systems, sizes, bufs, iters, firstRound, new(), bench));
            long jitted = System.Runtime.JitInfo.GetCompiledMethodCount();
            for (long r = 0; r < rounds; r++)
                Round(world, rank, peer, systems, sizes, bufs, iters, firstRound + r, outp, bench);
            jitted = System.Runtime.JitInfo.GetCompiledMethodCount() - jitted;
            if (jitted > 0 && !quick)  // the warm-up missed something: say so
                Console.Error.WriteLine($"csharp pingpong: rank {rank}: {jitted} methods compiled while measuring");
            if (rank == 0) Console.Out.Write(outp.ToString());
            return 0;
        }

        /// <summary>
        /// Whole unrecorded rounds until the JIT has been quiet on both ranks for 0.3 s (at least
        /// 1 s in all, at most 20 s), then a full collection. Each round runs in a new process
        /// (GROUP), and one warm-up of 4 calls per system had left the measured blocks in tier-0
        /// code, with the tier-1 compile and the warm-up's collections running on one of the two
        /// cores the ranks spin on. The steady state is what BenchmarkDotNet measures and what a
        /// long MPI run sees. (Quiet for 0.3 s: call counting starts only after 0.1 s without new
        /// tier-0 code.)
        /// </summary>
        static void WarmUp(Comm world, bool quick, Action round)
        {
            var clock = Stopwatch.StartNew();
            double quietSince = 0;
            long seen = System.Runtime.JitInfo.GetCompiledMethodCount();
            var flag = new int[1];
            var any = new int[1];
            for (int w = 0; w < (quick ? 1 : 100000); w++)
            {
                round();
                long n = System.Runtime.JitInfo.GetCompiledMethodCount();
                flag[0] = n != seen ? 1 : 0;
                seen = n;
                world.Allreduce(flag, any, Op.Max);
                double now = clock.Elapsed.TotalSeconds;
                if (any[0] != 0) quietSince = now;
                flag[0] = (now - quietSince >= 0.3 && now >= 1.0) || now >= 20 ? 1 : 0;
                world.Allreduce(flag, any, Op.Min);
                if (any[0] != 0)
                {
                    // Then a full collection, as BenchmarkDotNet does before it measures: the
                    // warm-up's garbage otherwise set off a collection in the first measured
                    // round (csharp_nonblocking 1.9-2.3x raw C there, 1.1-1.4x after this).
                    // The collections the measured blocks cause themselves still count.
                    GC.Collect();
                    GC.WaitForPendingFinalizers();
                    GC.Collect();
                    world.Barrier();
                    return;
                }
            }
        }

        static void Round(Comm world, int rank, int peer, List<(string name, string label, Sys run)> systems,
                          long[] sizes, byte[][] bufs, long[] iters, long round, System.Text.StringBuilder outp, string bench)
        {
            for (int i = 0; i < sizes.Length; i++)
            {
                foreach (int k in Order(systems.Count, round))
                {
                    double t = systems[k].run is null ? RawBlock(world, peer, bufs[i], iters[i])
                                                      : Block(systems[k].run, world, peer, bufs[i], iters[i]);
                    if (rank != 0) continue;
                    double oneWay = t / (2.0 * iters[i]);
                    foreach (var (metric, v) in new[] { ("latency_us", oneWay * 1e6), ("bandwidth_MBps", sizes[i] / oneWay / 1e6) })
                        outp.Append("{\"type\":\"sample\",\"bench\":").Append(J(bench)).Append(",\"case\":\"").Append(sizes[i])
                            .Append("\",\"system\":").Append(J(systems[k].name)).Append(",\"round\":").Append(round)
                            .Append(",\"metric\":\"").Append(metric).Append("\",\"value\":").Append(N(v)).Append("}\n");
                }
            }
        }

        static int[] Order(int n, long round)
        {
            var o = new int[n];
            for (int i = 0; i < n; i++) o[i] = i;
            var rnd = new Random((int)(round * 7919 + 17));
            for (int i = n; i > 1; i--) { int j = rnd.Next(i); (o[i - 1], o[j]) = (o[j], o[i - 1]); }
            return o;
        }
    }

    public static class Program
    {
        public static int Main(string[] args)
        {
            string which = args.Length > 0 ? args[0] : "pingpong";
            return which switch
            {
                "pingpong" => PingPong.Run(args),
                "crossing" => Crossing.Run(args),
                "objects" => Objects.Run(args),
                "shapes" => ObjectShapes.Run(args),
                "shapes-profile" => ObjectShapes.Profile(args),
                "rma" => Rma.Run(args),
                "selfloop" => SelfLoop.Run(args),
                "mpinet" => MpiNet.Run(args),
                _ => Usage(which),
            };
        }

        static int Usage(string which)
        {
            Console.Error.WriteLine($"OompiBenchCs: unknown bench '{which}' (pingpong, crossing, objects, rma, selfloop)");
            return 2;
        }
    }
}
