using System.Threading;

namespace Oompi.Tests
{
    /// <summary>The first slice of the C# binding, end to end, at any number of ranks.</summary>
    public class BasicTests : WorldTests
    {
        [Fact]
        public void Environment()
        {
            Assert.True(MpiEnvironment.Initialized());
            Assert.False(MpiEnvironment.Finalized());
            Assert.InRange(Rank, 0, Size - 1);
            Assert.False(string.IsNullOrEmpty(MpiEnvironment.ProcessorName()));
            double t0 = MpiEnvironment.Wtime();
            Assert.True(MpiEnvironment.Wtime() >= t0);
            using var self = Comm.Self();
            Assert.Equal(1, self.Size);
            Assert.Equal(0, self.Rank);
        }

        [Fact]
        public void RingWithArrays()
        {
            double[] output = { Rank, Rank + 0.5, -Rank };
            var input = new double[3];
            Status s = world.Sendrecv(output, Next, 7, input, Prev, 7);
            Assert.Equal(new double[] { Prev, Prev + 0.5, -Prev }, input);
            Assert.Equal(Prev, s.Source);
            Assert.Equal(7, s.Tag);
            Assert.Equal(3, s.GetCount(Datatype.Double));

            var lo = new[] { long.MaxValue - Rank };
            var li = new long[1];
            world.Sendrecv(lo, Next, 1, li, Prev, 1);
            Assert.Equal(long.MaxValue - Prev, li[0]);
            var co = new[] { 'a', (char)('a' + Rank) };
            var ci = new char[2];
            world.Sendrecv(co, Next, 2, ci, Prev, 2);
            Assert.Equal((char)('a' + Prev), ci[1]);
            var bo = new[] { Rank % 2 == 0 };
            var bi = new bool[1];
            world.Sendrecv(bo, Next, 3, bi, Prev, 3);
            Assert.Equal(Prev % 2 == 0, bi[0]);
            var by = new byte[] { (byte)Rank, 200 };
            var byi = new byte[2];
            world.Sendrecv(by, Next, 4, byi, Prev, 4);
            Assert.Equal(new byte[] { (byte)Prev, 200 }, byi);
        }

        [Fact]
        public void RingWithOffsetAndCount()
        {
            int[] data = { -1, -1, 10 * Rank, 10 * Rank + 1, -1 };
            int[] into = { 5, 5, 5, 5, 5, 5 };
            Status s = world.Sendrecv(MpiBuffer.Of(data, 2, 2), Next, 4, MpiBuffer.Of(into, 3, 2), Prev, 4);
            Assert.Equal(new[] { 5, 5, 5, 10 * Prev, 10 * Prev + 1, 5 }, into);
            Assert.Equal(2, s.GetCount(Datatype.Int));
        }

        [Fact]
        public unsafe void NativeMemory()
        {
            double* output = stackalloc double[2];
            double* input = stackalloc double[2];
            output[0] = Rank;
            output[1] = Rank * 3.0;
            world.Sendrecv(MpiBuffer.Of(output, 2), Next, 5, MpiBuffer.Of(input, 2), Prev, 5);
            Assert.Equal(Prev, input[0]);
            Assert.Equal(Prev * 3.0, input[1]);
        }

        [Fact]
        public void Nonblocking()
        {
            var output = new long[] { Rank, Rank * 2 };
            var input = new long[2];
            using Request r = world.Irecv(input, Prev, 21);
            using Request s = world.Isend(output, Next, 21);
            Status st = r.Wait();
            s.Wait();
            Assert.Equal(Prev, st.Source);
            Assert.Equal(new long[] { Prev, Prev * 2 }, input);
            Assert.False(r.IsPending());
            Assert.NotNull(r.Test());
        }

        [Fact]
        public void NonblockingPinsTheArrayWhileTheGcRuns()
        {
            // The arrays are reachable only through the requests' pins while the GC compacts.
            Request r = world.Irecv(new double[4096], Prev, 22);
            var junk = new object[1000];
            for (int i = 0; i < junk.Length; i++) junk[i] = new byte[1000];
            Request s = world.Isend(MpiBuffer.Of(new double[] { Rank, 1, 2, 3 }), Next, 22);
            GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
            GC.WaitForPendingFinalizers();
            Status st = r.Wait();
            s.Wait();
            Assert.Equal(4, st.GetCount(Datatype.Double));
            r.Dispose();
            s.Dispose();
        }

        [Fact]
        public void NonblockingRequestsReusePinsAndTurnNativeWhenNeeded()
        {
            // Many Isend/Irecv pairs with compacting collections between them: the pooled pins
            // are re-pointed at new arrays, and every array stays put while MPI uses it.
            for (int i = 0; i < 50; i++)
            {
                var input = new int[3];
                using Request r = world.Irecv(input, Prev, 24);
                using Request s = world.Isend(new[] { Rank, i, -i }, Next, 24);
                if (i % 10 == 0) GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                s.Wait();
                Status st = r.Wait();
                Assert.Equal(new[] { Prev, i, -i }, input);
                Assert.False(r.IsPending());
                Assert.False(r.IsPersistent());
                Assert.Equal(12, r.LastStatus().CountBytes);
                Assert.Equal(Prev, st.Source);
            }
            // Cancel makes the request native (it takes over the pin); a cancelled receive.
            var never = new int[1];
            Request c = world.Irecv(never, Prev, 25);
            Assert.True(c.IsPending());
            c.Cancel();
            Assert.True(c.Wait().Cancelled);
            Assert.False(c.IsPending());
            c.Dispose();
            // Disposing a pending receive cancels it; a later call says "disposed".
            Request d = world.Irecv(new int[1], Prev, 26);
            d.Dispose();
            Assert.Throws<ObjectDisposedException>(() => d.Wait());
            Request e = world.Irecv(new int[1], Mpi.ProcNull, 0);
            e.Wait();
            e.Dispose();
            Assert.Throws<ObjectDisposedException>(() => e.Test());
            Assert.Throws<ObjectDisposedException>(() => e.IsPending());
            world.Barrier();
        }

        [Fact]
        public void NonblockingOnTheSameArraysKeepPinsAndStatuses()
        {
            // The same two arrays in every round: a completed request's pin stays on its (small)
            // array and the next request on it takes that pin back; compacting collections while
            // the operations are pending must not move them. Alternating tags and sizes: the
            // shared Status of a completed request must still be this request's own.
            var input = new long[8];
            var output = new long[8];
            var bigIn = new byte[PinPoolBigElements];  // above the sticky size: pins re-pointed
            var bigOut = new byte[PinPoolBigElements];
            for (int i = 0; i < 40; i++)
            {
                int n = 1 + i % 3, tag = 30 + i % 2;
                Array.Fill(input, -1L);
                for (int k = 0; k < n; k++) output[k] = Rank * 1000 + i * 10 + k;
                using Request r = world.Irecv(input, Prev, tag);
                using Request s = world.Isend(MpiBuffer.Of(output, 0, n), Next, tag);
                using Request rb = world.Irecv(bigIn, Prev, 40);
                bigOut[i] = (byte)(i + 1);
                using Request sb = world.Isend(bigOut, Next, 40);
                if (i % 8 == 0) GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                sb.Wait();
                Status bst = rb.Wait();
                Status st = r.Wait();
                s.Wait();
                Assert.Equal(tag, st.Tag);
                Assert.Equal(8L * n, st.CountBytes);
                Assert.Same(st, r.LastStatus());
                Assert.Equal(40, bst.Tag);
                Assert.Equal(PinPoolBigElements, bst.CountBytes);
                Assert.Equal((byte)(i + 1), bigIn[i]);
                for (int k = 0; k < n; k++) Assert.Equal(Prev * 1000 + i * 10 + k, input[k]);
                Assert.Equal(-1L, input[n]);
            }
            world.Barrier();
        }

        private const int PinPoolBigElements = 8193;

        [Fact]
        public void TestLoop()
        {
            var input = new int[1];
            using Request r = world.Irecv(input, Prev, 23);
            world.Send(new[] { Rank + 1000 }, Next, 23);
            Status st;
            while ((st = r.Test()) == null)
            {
                Thread.SpinWait(10);
            }
            Assert.Equal(23, st.Tag);
            Assert.Equal(Prev + 1000, input[0]);
        }

        [Fact]
        public void AllreduceSum()
        {
            var output = new int[2];
            world.Allreduce(new[] { Rank, 1 }, output, Op.Sum);
            Assert.Equal(new[] { Size * (Size - 1) / 2, Size }, output);
            var x = new[] { Rank + 1.0 };
            world.AllreduceInPlace(x, Op.Max);
            Assert.Equal(Size, x[0]);
        }

        [Fact]
        public void BcastAndBarrier()
        {
            var v = Rank == 0 ? new long[] { 42, 43 } : new long[2];
            world.Bcast(v, 0);
            Assert.Equal(new long[] { 42, 43 }, v);
            world.Barrier();
        }

        [Fact]
        public void Probe()
        {
            // Sent without blocking: a blocking send to oneself may wait until its receive is
            // posted (MPICH 4.0's does).
            using Request sent = world.Isend(new short[] { 1, 2, 3 }, Rank, 31);
            Status p = world.Probe(Rank, 31);
            Assert.Equal(3, p.GetCount(Datatype.Short));
            var got = new short[p.GetCount(Datatype.Short)];
            world.Recv(got, Rank, 31);
            sent.Wait();
            Assert.Equal(new short[] { 1, 2, 3 }, got);
            Assert.Null(world.Iprobe(Rank, 32));
        }

        [Fact]
        public void BadInput()
        {
            var a = new int[4];
            Assert.Throws<ArgumentOutOfRangeException>(() => MpiBuffer.Of(a, 3, 2));
            Assert.Throws<ArgumentOutOfRangeException>(() => MpiBuffer.Of(a, -1, 1));
            Assert.Throws<ArgumentNullException>(() => world.Send((int[])null, Next, 0));
            Assert.Throws<ArgumentException>(() => world.Allreduce(new double[2], new double[3], Op.Sum));
            Assert.Throws<ArgumentException>(() => MpiBuffer.Of(new decimal[1]));
        }

        [Fact]
        public void MpiErrors()
        {
            // Receiving 4 ints into room for 2: MPI_ERR_TRUNCATE.
            using (Request r = world.Isend(new[] { 1, 2, 3, 4 }, Rank, 41))
            {
                var e = Assert.Throws<MpiException>(() => world.Recv(new int[2], Rank, 41));
                Assert.Equal(Mpi.ErrTruncate, e.ErrorClass);
                Assert.Equal("MPI_Recv", e.Routine);
                r.Wait();
            }
            var e2 = Assert.Throws<MpiException>(() => world.Send(new int[1], Size, 0));
            Assert.Equal(Mpi.ErrRank, e2.ErrorClass);
            // A nonblocking call that fails at once frees its pin (the GCHandle) again.
            var e3 = Assert.Throws<MpiException>(() => world.Isend(new int[1], Size, 0));
            Assert.Equal(Mpi.ErrRank, e3.ErrorClass);
        }

        [Fact]
        public void LightRequestsOfArraysFailCleanly()
        {
            // Isend/Irecv of a primitive array take their own entry points (StartArray): bad
            // ranks are MpiException, the failed call's pin goes back, later calls work (the
            // same array each time: a pin given back on failure is found again).
            var a = new double[4];
            for (int i = 0; i < 3; i++)
            {
                var es = Assert.Throws<MpiException>(() => world.Isend(a, Size + 3, 0));
                Assert.Equal(Mpi.ErrRank, es.ErrorClass);
                Assert.Equal("MPI_Isend", es.Routine);
                var er = Assert.Throws<MpiException>(() => world.Irecv(a, -7, 0));
                Assert.Equal(Mpi.ErrRank, er.ErrorClass);
                Assert.Equal("MPI_Irecv", er.Routine);
                var eb = Assert.Throws<MpiException>(() => world.Isend(MpiBuffer.Of(a, 1, 2), Size, 0));
                Assert.Equal(Mpi.ErrRank, eb.ErrorClass);
            }
            Assert.Throws<ArgumentNullException>(() => world.Isend((int[])null, Next, 0));
            Assert.Throws<ArgumentNullException>(() => world.Irecv((int[])null, Prev, 0));
            var input = new double[4];
            using (Request r = world.Irecv(input, Prev, 27))
            using (Request s = world.Isend(new double[] { Rank, 1, 2, 3 }, Next, 27))
            {
                s.Wait();
                Assert.Equal(32, r.Wait().CountBytes);
            }
            Assert.Equal(Prev, input[0]);
            // A disposed communicator: ObjectDisposedException from the array entry points too.
            Comm c = world.Dup();
            c.Dispose();
            Assert.Throws<ObjectDisposedException>(() => c.Isend(a, Next, 0));
            Assert.Throws<ObjectDisposedException>(() => c.Irecv(a, Prev, 0));
            world.Barrier();
        }

        [Fact]
        public void CompletedLightRequestsAfterDispose()
        {
            // Completed, then disposed (the lock-free Dispose): every later call says "disposed";
            // Dispose again does nothing.
            var x = new int[2];
            Request r = world.Irecv(x, Rank, 28);
            Request s = world.Isend(new[] { 5, 6 }, Rank, 28);
            Status ss = s.Wait();
            Status rs = r.Wait();
            Assert.Equal(8, rs.CountBytes);
            Assert.Equal(new[] { 5, 6 }, x);
            Assert.NotSame(ss, rs);  // a send's status is not the receive's (one cache each)
            r.Dispose();
            s.Dispose();
            r.Dispose();
            Assert.Throws<ObjectDisposedException>(() => r.Wait());
            Assert.Throws<ObjectDisposedException>(() => s.Wait());
            Assert.Throws<ObjectDisposedException>(() => r.Test());
            Assert.Throws<ObjectDisposedException>(() => r.LastStatus());
            Assert.Throws<ObjectDisposedException>(() => s.IsPending());
        }

        [Fact]
        public void ManyOutstandingLightRequests()
        {
            // More outstanding requests than the pin pool holds (32), some on the same array
            // (two pins on one array), completed in an order unlike the pool's, with a compacting
            // collection while they are pending; then again, taking pins from the pool.
            const int n = 80;
            for (int round = 0; round < 2; round++)
            {
                var inputs = new long[n][];
                var shared = new long[] { Rank, round };
                var recvs = new Request[n];
                var sends = new Request[n];
                for (int i = 0; i < n; i++)
                {
                    inputs[i] = new long[2];
                    recvs[i] = world.Irecv(inputs[i], Prev, 100 + i);
                }
                for (int i = 0; i < n; i++)
                    sends[i] = i % 2 == 0 ? world.Isend(shared, Next, 100 + i)
                                          : world.Isend(new long[] { Rank, i }, Next, 100 + i);
                GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                for (int i = n - 1; i >= 0; i -= 2) Assert.Equal(100 + i, recvs[i].Wait().Tag);
                for (int i = 0; i < n; i += 2) Assert.Equal(16, recvs[i].Wait().CountBytes);
                for (int i = 0; i < n; i++)
                {
                    sends[i].Wait();
                    sends[i].Dispose();
                    recvs[i].Dispose();
                    Assert.Equal(i % 2 == 0 ? new long[] { Prev, round } : new long[] { Prev, i }, inputs[i]);
                }
            }
            world.Barrier();
        }

        [Fact]
        public void DisposedHandles()
        {
            Comm c = world.Dup();
            Assert.Equal(Size, c.Size);
            c.Barrier();
            c.Dispose();
            c.Dispose(); // idempotent
            Assert.Throws<ObjectDisposedException>(() => c.Barrier());
            Assert.Throws<ObjectDisposedException>(() => c.Rank);
            // the fast paths of primitive arrays and spans check it too
            var a = new int[2];
            Assert.Throws<ObjectDisposedException>(() => c.Send(a, Rank, 0));
            Assert.Throws<ObjectDisposedException>(() => c.Recv(a, Rank, 0));
            Assert.Throws<ObjectDisposedException>(() => c.Send<int>(a.AsSpan(), Rank, 0));
            Assert.Throws<ObjectDisposedException>(() => c.Recv(a.AsSpan(), Rank, 0));
            Assert.Throws<ObjectDisposedException>(() => c[Rank].Send(a));

            using (Comm d = world.Dup())
            {
                var y = new int[1];
                d.Allreduce(new[] { Rank }, y, Op.Sum);
                Assert.Equal(Size * (Size - 1) / 2, y[0]);
            }

            Datatype t = Datatype.Contiguous(3, Datatype.Int);
            Assert.Equal(12, t.Size);
            t.Dispose();
            Assert.Throws<ObjectDisposedException>(() => t.Size);
            Datatype.Int.Dispose(); // builtins are shared constants: disposing one does nothing
            Assert.Equal(4, Datatype.Int.Size);
        }
    }
}
