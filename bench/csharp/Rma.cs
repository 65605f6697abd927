using System;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Oompi;

namespace OompiBench
{
    /// <summary>
    /// csharp_rma_put / csharp_rma_get (issue 15): put + fence and get + fence of 8 B and 4 MiB,
    /// every rank targeting rank ^ 1. Systems: raw_c (MPI_Put/MPI_Get + MPI_Win_fence in a C
    /// loop inside this process, Oompi.BenchSupport, on its own MPI_Win_create window) and
    /// csharp_array (Window.Put/Get of a byte[] + Fence on a Window.Create window: the array is
    /// pinned by a GCHandle until the fence). One block per system, case and bench in every
    /// round, the order alternating by round; rank 0 times; ratios within a round.
    /// Options: --rounds=N (30) --first-round=R --quick
    /// </summary>
    public static class Rma
    {
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
            long rounds = long.Parse(Opt(args, "rounds", quick ? "2" : "30"));
            long first = long.Parse(Opt(args, "first-round", "0"));
            using var env = new MpiEnvironment();
            var world = Comm.World();
            int rank = world.Rank;
            if (world.Size % 2 != 0)
            {
                if (rank == 0) Console.Error.WriteLine("csharp_rma: run with an even number of ranks");
                return 2;
            }
            int peer = rank ^ 1;
            const int big = 4 << 20;
            // The raw window's memory must not move while the window lives: pinned here.
            var rawMem = new byte[big];
            var rawPin = GCHandle.Alloc(rawMem, GCHandleType.Pinned);
            long rawWin = BenchSupport.RawWinCreate(rawMem);
            var csMem = new byte[big];
            var outp = new StringBuilder();
            int[] sizes = { 8, big };
            var rawBufs = new[] { new byte[8], new byte[big] };
            var csBufs = new[] { new byte[8], new byte[big] };
            using (var win = Window.Create(world, csMem))
            {
                win.Fence();
                if (rank == 0)
                    foreach (var op in new[] { "put", "get" })
                        outp.Append("{\"type\":\"meta\",\"bench\":\"csharp_rma_").Append(op)
                            .Append("\",\"title\":\"C# ").Append(op).Append(" + fence, 2 partners (issue 15)\",\"baseline\":\"raw_c\",")
                            .Append("\"systems\":[\"raw_c\",\"csharp_array\"],\"system_labels\":{\"raw_c\":\"MPI_")
                            .Append(op == "put" ? "Put" : "Get").Append(" + MPI_Win_fence (C loop in the dotnet process)\",")
                            .Append("\"csharp_array\":\"win.").Append(op == "put" ? "Put" : "Get").Append("(byte[], peer, 0); win.Fence()\"},")
                            .Append("\"case_label\":\"message size\",\"case_format\":\"bytes\",")
                            .Append("\"metrics\":{\"time_us\":{\"label\":\"time per ").Append(op)
                            .Append(" + fence\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}},")
                            .Append("\"targets\":[{\"metric\":\"time_us\",\"case\":\"8\",\"system\":\"csharp_array\",\"max_ratio\":1.2,")
                            .Append("\"text\":\"issue 15: C# ").Append(op).Append(" + fence of 8 B ≤ 1.2× raw C\"},")
                            .Append("{\"metric\":\"time_us\",\"case\":\"4194304\",\"system\":\"csharp_array\",\"max_ratio\":1.2,")
                            .Append("\"text\":\"issue 15: C# ").Append(op).Append(" + fence of 4 MiB ≤ 1.2× raw C\"}],")
                            .Append("\"notes\":[\"raw C runs inside the dotnet process (a C loop in liboompi_csharp), interleaved with C#\"]}\n");
                for (long r = first - 1; r < first + rounds; r++)  // round first-1: warm-up
                    foreach (var op in new[] { "put", "get" })
                    {
                        bool put = op == "put";
                        for (int c = 0; c < sizes.Length; c++)
                        {
                            int iters = sizes[c] <= 4096 ? (quick ? 50 : 500) : (quick ? 2 : 10);
                            for (int k = 0; k < 2; k++)
                            {
                                bool raw = ((k + r) & 1) == 0;
                                world.Barrier();
                                double t;
                                if (raw)
                                {
                                    BenchSupport.RawRmaFence(rawWin, rawBufs[c], peer, 2, put);  // untimed
                                    t = BenchSupport.RawRmaFence(rawWin, rawBufs[c], peer, iters, put);
                                }
                                else
                                {
                                    var b = csBufs[c];
                                    for (int i = 0; i < 2; i++)  // untimed, as for raw_c
                                    {
                                        if (put) win.Put(b, peer, 0); else win.Get(b, peer, 0);
                                        win.Fence();
                                    }
                                    long t0 = Stopwatch.GetTimestamp();
                                    if (put)
                                        for (int i = 0; i < iters; i++) { win.Put(b, peer, 0); win.Fence(); }
                                    else
                                        for (int i = 0; i < iters; i++) { win.Get(b, peer, 0); win.Fence(); }
                                    t = (Stopwatch.GetTimestamp() - t0) / (double)Stopwatch.Frequency;
                                }
                                if (rank == 0 && r >= first)
                                    outp.Append("{\"type\":\"sample\",\"bench\":\"csharp_rma_").Append(op).Append("\",\"case\":\"")
                                        .Append(sizes[c]).Append("\",\"system\":\"").Append(raw ? "raw_c" : "csharp_array")
                                        .Append("\",\"round\":").Append(r).Append(",\"metric\":\"time_us\",\"value\":")
                                        .Append((t / iters * 1e6).ToString("G9", CultureInfo.InvariantCulture)).Append("}\n");
                            }
                        }
                    }
            }
            BenchSupport.RawWinFree(rawWin);
            rawPin.Free();
            world.Barrier();
            if (rank == 0) Console.Out.Write(outp.ToString());
            return 0;
        }
    }
}
