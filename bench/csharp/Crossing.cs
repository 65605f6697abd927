using System;
using System.Diagnostics;
using System.Globalization;
using Oompi;

namespace OompiBench
{
    /// <summary>
    /// csharp_crossing (one rank): ns per call of a null downcall and of one with 3 int
    /// arguments through the SWIG wrapper (P/Invoke plus the pending-exception check), a
    /// director upcall (C++ calling a UserFunction&lt;int&gt;: its sealed Call, the try/catch, the
    /// span views) and MPI_Reduce_local of one int through that user op. The Java bench has the
    /// same rows (java_crossing), seed 001's Tables 2.2-2.3 the same idea.
    /// </summary>
    public static class Crossing
    {
        sealed class SumInts : UserFunction<int>
        {
            public long Calls;
            protected override void Invoke(ReadOnlySpan<int> input, Span<int> inOut)
            {
                Calls++;
                for (int i = 0; i < input.Length; i++) inOut[i] += input[i];
            }
        }

        static string N(double v) => v.ToString("G9", CultureInfo.InvariantCulture);

        public static int Run(string[] args)
        {
            bool quick = Array.Exists(args, a => a == "--quick");
            int rounds = quick ? 2 : 20;
            foreach (var a in args)
                if (a.StartsWith("--rounds=")) rounds = int.Parse(a.Substring(9));
            long iters = quick ? 200_000 : 2_000_000;
            using var env = new MpiEnvironment();
            var world = Comm.World();
            if (world.Rank != 0) return 0;
            var fn = new SumInts();
            using var op = Op.Create(fn);
            var one = new int[] { 1 };
            var two = new int[] { 2 };
            const string bench = "csharp_crossing";
            var o = Console.Out;
            o.Write("{\"type\":\"meta\",\"bench\":\"" + bench + "\",\"title\":\"C# crossing costs (rank 0)\","
                + "\"baseline\":\"csharp\",\"systems\":[\"csharp\"],\"case_label\":\"crossing\",\"case_format\":\"text\","
                + "\"metrics\":{\"ns_per_call\":{\"label\":\"time per call\",\"unit\":\"ns\",\"better\":\"lower\"}},"
                + "\"notes\":[\"null and int-argument downcalls through the SWIG wrapper (P/Invoke and the pending-exception check);"
                + " director upcall = C++ calling a UserFunction<int> (sealed Call, try/catch, span views);"
                + " user op = MPI_Reduce_local of 1 int through it\"]}\n");
            for (int r = -1; r < rounds; r++)  // round -1: warm-up and JIT, not recorded
            {
                long t0 = Stopwatch.GetTimestamp();
                for (long i = 0; i < iters; i++) BenchSupport.NullCall();
                long t1 = Stopwatch.GetTimestamp();
                int acc = 0;
                for (long i = 0; i < iters; i++) acc += BenchSupport.IntArgs((int)i, acc, 7);
                long t2 = Stopwatch.GetTimestamp();
                int up = (int)(iters / 10);
                BenchSupport.UpcallLoop(fn, one, 1, Datatype.Int, up);
                long t3 = Stopwatch.GetTimestamp();
                BenchSupport.ReduceLocalLoop(op, one, two, 1, Datatype.Int, up);
                long t4 = Stopwatch.GetTimestamp();
                if (acc == 42) Console.Error.Write("");
                if (r < 0) continue;
                double ns(long a, long b, long n) => (b - a) * 1e9 / Stopwatch.Frequency / n;
                foreach (var (name, v) in new[] {
                    ("null downcall", ns(t0, t1, iters)), ("downcall, 3 int args", ns(t1, t2, iters)),
                    ("director upcall", ns(t2, t3, up)), ("user op, 1 element", ns(t3, t4, up)) })
                    o.Write("{\"type\":\"sample\",\"bench\":\"" + bench + "\",\"case\":\"" + name
                        + "\",\"system\":\"csharp\",\"round\":" + r + ",\"metric\":\"ns_per_call\",\"value\":" + N(v) + "}\n");
            }
            if (fn.Calls == 0) throw new InvalidOperationException("the user function was never called");
            return 0;
        }
    }
}
