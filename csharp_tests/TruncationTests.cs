using System;
using Xunit;

namespace Oompi.Tests
{
    /// <summary>
    /// A truncated receive into a slice of a larger array (issue 14): MpiException with
    /// ErrTruncate, nothing outside the slice written, the slice holding the message's first
    /// elements (or unchanged: MPI specifies neither). Open MPI 4.1 alone writes a message
    /// above its eager limit (1000 and 100000 doubles here) past the slice: in a .NET array that
    /// is heap corruption. Ring: at 1 rank each rank sends to itself, sends first.
    /// </summary>
    public class TruncationTests
    {
        private const double Sentinel = -7.0;
        private const int Offset = 4;
        private static readonly int[] Sizes = { 10, 1000, 100000 };
        private readonly Comm world = Comm.World();
        private int Rank => world.Rank;
        private int Size => world.Size;
        private int Next => (Rank + 1) % Size;
        private int Prev => (Rank + Size - 1) % Size;

        private static double[] Message(int n)
        {
            var m = new double[2 * n];
            for (int i = 0; i < m.Length; i++) m[i] = i + 0.5;
            return m;
        }

        private static double[] Sentinels(int n)
        {
            var a = new double[3 * n + 8];
            Array.Fill(a, Sentinel);
            return a;
        }

        private static void CheckSlice(double[] a, int n)
        {
            int outside = 0, first = 0, kept = 0;
            for (int i = 0; i < a.Length; i++)
            {
                bool isIn = i >= Offset && i < Offset + n;
                if (!isIn && a[i] != Sentinel) outside++;
                if (isIn && a[i] == i - Offset + 0.5) first++;
                if (isIn && a[i] == Sentinel) kept++;
            }
            Assert.Equal(0, outside);
            // The message's first n elements (the guard, Open MPI) or unchanged (MPICH).
            Assert.True(first == n || kept == n);
        }

        private static void ExpectTruncate(Action f)
        {
            var e = Assert.Throws<MpiException>(f);
            Assert.Equal(Mpi.ErrTruncate, e.ErrorClass);
        }

        [Fact]
        public void RecvIntoASliceOfAnArray()
        {
            foreach (int n in Sizes)
            {
                double[] a = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 1))
                {
                    ExpectTruncate(() => world.Recv(MpiBuffer.Of(a, Offset, n), Prev, 1));
                    s.Wait();
                }
                CheckSlice(a, n);
            }
        }

        [Fact]
        public void RecvIntoASpanAndThroughAPort()
        {
            foreach (int n in Sizes)
            {
                double[] a = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 2))
                {
                    ExpectTruncate(() => world.Recv(a.AsSpan(Offset, n), Prev, 2));
                    s.Wait();
                }
                CheckSlice(a, n);
                double[] b = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 3))
                {
                    ExpectTruncate(() => world[Prev].Recv(b.AsSpan(Offset, n), 3));
                    s.Wait();
                }
                CheckSlice(b, n);
            }
        }

        [Fact]
        public void MatchedProbeBlockingAndNonblocking()
        {
            foreach (int n in Sizes)
            {
                double[] a = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 4))
                using (Message m = world.Mprobe(Prev, 4))
                {
                    Assert.Equal(16L * n, m.CountBytes);
                    ExpectTruncate(() => m.Recv(MpiBuffer.Of(a, Offset, n)));
                    s.Wait();
                }
                CheckSlice(a, n);
                double[] b = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 5))
                using (Message m = world.Mprobe(Prev, 5))
                {
                    ExpectTruncate(() => m.Irecv(MpiBuffer.Of(b, Offset, n)).Wait());
                    s.Wait();
                }
                CheckSlice(b, n);
            }
        }

        [Fact]
        public void SendrecvIntoASlice()
        {
            foreach (int n in Sizes)
            {
                double[] a = Sentinels(n);
                ExpectTruncate(() => world.Sendrecv(MpiBuffer.Of(Message(n)), Next, 6,
                                                    MpiBuffer.Of(a, Offset, n), Prev, 6));
                CheckSlice(a, n);
            }
        }

        /// <summary>MpiEnvironment.SetReceiveGuard: off, a message that fits as usual (and on
        /// Open MPI 4 a larger one past the slice, inside the array here: the guard was off);
        /// back on, nothing outside the slice is written.</summary>
        [Fact]
        public void ReceiveGuardSwitch()
        {
            string version = MpiEnvironment.LibraryVersion();
            Assert.Equal(version.StartsWith("Open MPI"), MpiEnvironment.ReceiveGuard());
            const int n = 100000;
            try
            {
                MpiEnvironment.SetReceiveGuard(false);
                Assert.False(MpiEnvironment.ReceiveGuard());
                double[] a = Sentinels(n);
                using (Request s = world.Isend(MpiBuffer.Of(Message(n), 0, n), Next, 7))
                {
                    Assert.Equal(8L * n, world.Recv(MpiBuffer.Of(a, Offset, n), Prev, 7).CountBytes);
                    s.Wait();
                }
                CheckSlice(a, n);
                if (version.StartsWith("Open MPI v4."))
                {
                    double[] b = Sentinels(n);
                    using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 8))
                    {
                        ExpectTruncate(() => world.Recv(MpiBuffer.Of(b, Offset, n), Prev, 8));
                        s.Wait();
                    }
                    Assert.Equal(n + 0.5, b[Offset + n]);  // the guard was off
                }
            }
            finally
            {
                MpiEnvironment.SetReceiveGuard(true);
            }
            double[] c = Sentinels(n);
            using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, 9))
            {
                ExpectTruncate(() => world.Recv(MpiBuffer.Of(c, Offset, n), Prev, 9));
                s.Wait();
            }
            CheckSlice(c, n);
        }
    }
}
