using System;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using Oompi;
using static OompiBench.PingPong;

namespace OompiBench
{
    /// <summary>
    /// selfloop (one rank, Open MPI): the binding's own cost per message without a peer, robust
    /// to a loaded machine. One iteration = Irecv from self + Isend to self + two Waits of 8 B
    /// (each request in a <c>using</c>, as csharp_nonblocking), against the same four calls
    /// P/Invoked directly; and Send + Recv to self of 8 B (csharp_array) against MPI_Send +
    /// MPI_Recv P/Invoked. Prints ns per iteration: the minimum over many short blocks.
    /// Each loop is a method of its own (no inlining across them); --only=k runs one (perf).
    /// </summary>
    public static unsafe class SelfLoop
    {
        [MethodImpl(MethodImplOptions.NoInlining)]
        static void Nonblocking(Comm c, int me, byte[] s, byte[] r, int iters)
        {
            for (int i = 0; i < iters; i++)
            {
                using var rr = c.Irecv(r, me, 0);
                using var rs = c.Isend(s, me, 0);
                rs.Wait();
                rr.Wait();
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void PInvokeNonblocking(int me, byte[] s, byte[] r, int iters)
        {
            fixed (byte* ps = s)
            fixed (byte* pr = r)
                for (int i = 0; i < iters; i++)
                {
                    MPI_Irecv(pr, 8, mpiChar, me, 0, commWorld, out IntPtr hr);
                    MPI_Isend(ps, 8, mpiChar, me, 0, commWorld, out IntPtr hs);
                    MPI_Wait(ref hs, IntPtr.Zero);
                    MPI_Wait(ref hr, IntPtr.Zero);
                }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void Blocking(Comm c, int me, byte[] s, byte[] r, int iters)
        {
            for (int i = 0; i < iters; i++)
            {
                c.Send(s, me, 0);
                c.Recv(r, me, 0);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static void PInvokeBlocking(int me, byte[] s, byte[] r, int iters)
        {
            fixed (byte* ps = s)
            fixed (byte* pr = r)
                for (int i = 0; i < iters; i++)
                {
                    MPI_Send(ps, 8, mpiChar, me, 0, commWorld);
                    MPI_Recv(pr, 8, mpiChar, me, 0, commWorld, IntPtr.Zero);
                }
        }

        public static int Run(string[] args)
        {
            int blocks = 200, iters = 2000, only = -1;
            foreach (var a in args)
            {
                if (a.StartsWith("--only=")) only = int.Parse(a.Substring(7));
                if (a.StartsWith("--blocks=")) blocks = int.Parse(a.Substring(9));
                if (a.StartsWith("--iters=")) iters = int.Parse(a.Substring(8));
            }
            using var env = new MpiEnvironment();
            var c = Comm.World();
            if (!LoadRawMpi())
            {
                Console.Error.WriteLine("selfloop: needs Open MPI (libmpi.so.40)");
                return 2;
            }
            int me = c.Rank;
            var s = new byte[8];
            var r = new byte[8];
            var names = new[] { "csharp_nonblocking", "pinvoke_nonblocking", "csharp_array", "pinvoke_blocking" };
            var best = new double[names.Length];
            Array.Fill(best, double.MaxValue);
            for (int b = -20; b < blocks; b++)  // negative blocks: warm-up
                for (int k = 0; k < names.Length; k++)
                {
                    if (only >= 0 && k != only) continue;
                    long t0 = Stopwatch.GetTimestamp();
                    switch (k)
                    {
                        case 0: Nonblocking(c, me, s, r, iters); break;
                        case 1: PInvokeNonblocking(me, s, r, iters); break;
                        case 2: Blocking(c, me, s, r, iters); break;
                        case 3: PInvokeBlocking(me, s, r, iters); break;
                    }
                    double ns = (Stopwatch.GetTimestamp() - t0) * 1e9 / Stopwatch.Frequency / iters;
                    if (b >= 0) best[k] = Math.Min(best[k], ns);
                }
            string F(double v) => v.ToString("F1", CultureInfo.InvariantCulture);
            for (int k = 0; k < names.Length; k++)
                if (only < 0 || k == only) Console.WriteLine(names[k] + " " + F(best[k]) + " ns");
            if (only < 0)
                Console.WriteLine("nonblocking overhead " + F(best[0] - best[1]) + " ns, ratio "
                    + (best[0] / best[1]).ToString("F2", CultureInfo.InvariantCulture) + "; blocking overhead "
                    + F(best[2] - best[3]) + " ns, ratio " + (best[2] / best[3]).ToString("F2", CultureInfo.InvariantCulture));
            return 0;
        }
    }
}
