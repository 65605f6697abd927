namespace Oompi.Tests
{
    /// <summary>
    /// A truncated receive into a slice of a larger array (issue 14): MpiException with
    /// ErrTruncate, nothing outside the slice written, the slice holding the message's first
    /// elements (or unchanged: MPI specifies neither). Open MPI 4.1 alone writes a message
    /// above its eager limit (1000 and 100000 doubles here) past the slice: in a .NET array that
    /// is heap corruption; the MpiEnvironment sets pml_ob1_max_rdma_per_request=0 before
    /// MPI_Init so that it does not (ReceiveProtection() "mpi"), or guards blocking receives
    /// ("guard"). Ring: at 1 rank each rank sends to itself, sends first.
    /// </summary>
    public class TruncationTests : WorldTests
    {
        private const double Sentinel = -7.0;
        private const int Offset = 4;
        private static readonly int[] Sizes = { 10, 1000, 100000 };

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

        /// <summary>Sends 2n doubles to Next with <paramref name="tag"/> while
        /// <paramref name="receive"/> takes the message from Prev into a slice of n elements of a
        /// fresh array of sentinels: ErrTruncate, and nothing outside the slice written.</summary>
        private void TruncatedIntoSlice(int n, int tag, Action<double[]> receive)
        {
            double[] a = Sentinels(n);
            using (Request s = world.Isend(MpiBuffer.Of(Message(n)), Next, tag))
            {
                ExpectTruncate(() => receive(a));
                s.Wait();
            }
            CheckSlice(a, n);
        }

        [Fact]
        public void RecvIntoASliceOfAnArray()
        {
            foreach (int n in Sizes)
            {
                TruncatedIntoSlice(n, 1, a => world.Recv(MpiBuffer.Of(a, Offset, n), Prev, 1));
            }
        }

        [Fact]
        public void RecvIntoASpanAndThroughAPort()
        {
            foreach (int n in Sizes)
            {
                TruncatedIntoSlice(n, 2, a => world.Recv(a.AsSpan(Offset, n), Prev, 2));
                TruncatedIntoSlice(n, 3, b => world[Prev].Recv(b.AsSpan(Offset, n), 3));
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

        /// <summary>What the environment did to the MPI, and why (the registration says what
        /// it must be).</summary>
        [Fact]
        public void ProtectionIsReported()
        {
            string mode = MpiEnvironment.ReceiveProtection();
            string why = MpiEnvironment.ReceiveProtectionReason();
            Assert.Contains(mode, new[] { "mpi", "guard", "none" });
            Assert.NotEmpty(why);
            Assert.Equal(mode == "guard", MpiEnvironment.ReceiveGuard());
            string expect = System.Environment.GetEnvironmentVariable("OOMPI_TEST_EXPECT_PROTECTION");
            if (expect != null) Assert.Equal(expect, mode);
        }

        private const byte Canary = 0x5a;

        private static int WrittenAfter(byte[] a)
        {
            int n = 0;
            for (int i = 1; i < a.Length; i++) if (a[i] != Canary) n++;
            return n;
        }

        private static byte[] Landing(int bytes)
        {
            var a = new byte[bytes + 65];
            Array.Fill(a, Canary);
            return a;
        }

        /// <summary>Sends <paramref name="msg"/> to Next with <paramref name="tag"/> while
        /// <paramref name="receive"/> takes it from Prev into the first byte of a landing array:
        /// ErrTruncate, and not one byte after it written.</summary>
        private void TruncatedIntoOneByte(byte[] msg, int tag, Action<byte[]> receive)
        {
            byte[] a = Landing(msg.Length);
            using (Request s = world.Isend(MpiBuffer.Of(msg), Next, tag))
            {
                ExpectTruncate(() => receive(a));
                s.Wait();
            }
            Assert.Equal(0, WrittenAfter(a));
        }

        /// <summary>A too-large message (4 KiB, 64 KiB, 4 MiB) into a 1-byte receive:
        /// blocking (array slice and span), nonblocking, persistent, sendrecv; ErrTruncate and
        /// not one byte after the receive buffer written. Nonblocking and persistent receives
        /// are plain MPI: checked where the MPI itself stops at the buffer's end ("mpi").</summary>
        [Fact]
        public void TooLargeIntoOneElement()
        {
            bool mpiSafe = MpiEnvironment.ReceiveProtection() == "mpi";
            foreach (int bytes in new[] { 4 << 10, 64 << 10, 4 << 20 })
            {
                var msg = new byte[bytes];
                Array.Fill(msg, (byte)'m');
                TruncatedIntoOneByte(msg, 21, a => world.Recv(MpiBuffer.Of(a, 0, 1), Prev, 21));
                TruncatedIntoOneByte(msg, 22, b => world.Recv(b.AsSpan(0, 1), Prev, 22));
                byte[] c = Landing(bytes);
                ExpectTruncate(() => world.Sendrecv(MpiBuffer.Of(msg), Next, 23,
                                                    MpiBuffer.Of(c, 0, 1), Prev, 23));
                Assert.Equal(0, WrittenAfter(c));
                if (!mpiSafe) continue;  // Irecv and RecvInit are not guarded
                byte[] d = Landing(bytes);
                using (Request s = world.Isend(MpiBuffer.Of(msg), Next, 24))
                using (Request r = world.Irecv(MpiBuffer.Of(d, 0, 1), Prev, 24))
                {
                    ExpectTruncate(() => r.Wait());
                    s.Wait();
                }
                Assert.Equal(0, WrittenAfter(d));
                byte[] e = Landing(bytes);
                using (Request p = world.RecvInit(MpiBuffer.Of(e, 0, 1), Prev, 25))
                using (Request s = world.Isend(MpiBuffer.Of(msg), Next, 25))
                {
                    p.Start();
                    ExpectTruncate(() => p.Wait());
                    s.Wait();
                }
                Assert.Equal(0, WrittenAfter(e));
            }
        }

        /// <summary>MpiEnvironment.SetReceiveGuard: off, a message that fits as usual (and where
        /// the MPI stops at the buffer's end, a larger one writes nothing outside the slice;
        /// elsewhere Open MPI writes it past: the plain C control c.truncation_control shows
        /// that); on, nothing outside the slice is written.</summary>
        [Fact]
        public void ReceiveGuardSwitch()
        {
            bool wasOn = MpiEnvironment.ReceiveGuard();
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
                if (MpiEnvironment.ReceiveProtection() == "mpi")
                {
                    TruncatedIntoSlice(n, 8, b => world.Recv(MpiBuffer.Of(b, Offset, n), Prev, 8));
                }
                MpiEnvironment.SetReceiveGuard(true);
                TruncatedIntoSlice(n, 9, c => world.Recv(MpiBuffer.Of(c, Offset, n), Prev, 9));
            }
            finally
            {
                MpiEnvironment.SetReceiveGuard(wasOn);
            }
        }
    }
}
