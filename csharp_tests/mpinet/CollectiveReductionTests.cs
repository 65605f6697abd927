using System;
using MPI;
using Xunit;

namespace MpiNetTests
{
    // The reductions' delegate paths: a value's Reduce runs as one Allreduce carrying the
    // failure flag, Reduce/Scan/ExclusiveScan/ReduceScatter run their MPI call through a static
    // callback, and none of them allocates per call.
    public partial class CollectiveTests
    {
        static bool failing;
        static readonly ReductionOperation<int> Sometimes = (a, b) => failing ? throw new DivideByZeroException("sometimes") : a + b;

        // The delegate's exception where it ran, MPIException elsewhere; on 1 process MPI never calls it.
        static void ThrowsEverywhere(Action a, string what)
        {
            Exception e = null;
            try { a(); } catch (Exception x) { e = x; }
            if (P == 1) Assert.Null(e);
            else Assert.True(e is DivideByZeroException || e is MPIException, $"{what}: {e?.ToString() ?? "no exception"}");
        }

        [Fact]
        public void DelegateThrowsOnEveryProcessAndWorksAgain()
        {
            failing = true;
            try
            {
                ThrowsEverywhere(() => W.Allreduce(R, Sometimes), "Allreduce of a value");
                ThrowsEverywhere(() => W.Allreduce((long)R, (a, b) => failing ? throw new DivideByZeroException("long") : a + b), "Allreduce of a long");
                ThrowsEverywhere(() => W.Reduce(R, Sometimes, P - 1), "Reduce of a value");
                ThrowsEverywhere(() => W.Reduce(new[] { R, 1 }, Sometimes, 0), "Reduce of an array");
                ThrowsEverywhere(() => W.Scan(R, Sometimes), "Scan of a value");
                ThrowsEverywhere(() => W.Scan(new[] { R }, Sometimes), "Scan of an array");
                var counts = new int[P];
                Array.Fill(counts, 1);
                ThrowsEverywhere(() => W.ReduceScatter(new int[P], Sometimes, counts), "ReduceScatter");
            }
            finally { failing = false; }
            int sum = P * (P - 1) / 2;
            Assert.Equal(sum, W.Allreduce(R, Sometimes));  // the same delegate's op, now without the failure
            Assert.Equal(R == P - 1 ? sum : 0, W.Reduce(R, Sometimes, P - 1));
            Assert.Equal(R * (R + 1) / 2, W.Scan(R, Sometimes));
            Assert.Equal(R == 0 ? 0 : R * (R - 1) / 2, W.ExclusiveScan(R, Sometimes));
            Assert.Equal(R == 0 ? new[] { sum, P } : null, W.Reduce(new[] { R, 1 }, Sometimes, 0));
        }

        [Fact]
        public void ReduceRefusesARootOutOfRange()
        {
            // Everywhere the same: no process waits for the others.
            Assert.ThrowsAny<ArgumentException>(() => W.Reduce(R, (a, b) => a + b, P));
            Assert.ThrowsAny<ArgumentException>(() => W.Reduce(R, (a, b) => a + b, -1));
            Assert.ThrowsAny<ArgumentException>(() => W.Reduce(R, Operation<int>.Add, P));
            W.Barrier();
            Assert.Equal(R == 0 ? P : 0, W.Reduce(1, (a, b) => a + b, 0));
        }

        // Allreduce of a primitive value or array with an Operation<T> of MPI's own calls oompi's
        // plain C entry point straight (PrimitiveKind<T>): every primitive kind, empty and longer
        // result arrays, and the errors of that path.
        [Fact]
        public void PrimitiveAllreduceOfEveryKind()
        {
            int sum = P * (P - 1) / 2;
            Assert.Equal((sbyte)sum, W.Allreduce((sbyte)R, Operation<sbyte>.Add));
            Assert.Equal((byte)(P - 1), W.Allreduce((byte)R, Operation<byte>.Max));
            Assert.Equal((short)-sum, W.Allreduce((short)-R, Operation<short>.Add));
            Assert.Equal((ushort)0, W.Allreduce((ushort)R, Operation<ushort>.Min));
            Assert.Equal((uint)((1 << P) - 1), W.Allreduce(1u << R, Operation<uint>.BitwiseOr));
            Assert.Equal((long)sum << 40, W.Allreduce((long)R << 40, Operation<long>.Add));
            Assert.Equal((1UL << 63) + (ulong)sum, W.Allreduce(R == 0 ? 1UL << 63 : (ulong)R, Operation<ulong>.Add));
            Assert.Equal(0.5f * P, W.Allreduce(0.5f, Operation<float>.Add));
            Assert.Equal(Math.Pow(2, P), W.Allreduce(2.0, Operation<double>.Multiply));
            Assert.Equal(P == 1, W.Allreduce(R == 0, Operation<bool>.LogicalAnd));
            Assert.Equal(1, W.Allreduce(R + 1, Operation<int>.LogicalAnd));  // C's &&: 1, not a sum

            // Arrays: empty, a result array of the right length (reused), a longer one (its tail kept).
            Assert.Empty(W.Allreduce(new double[0], Operation<double>.Add));
            var same = new long[2];
            var into = same;
            W.Allreduce(new long[] { R, 1 }, Operation<long>.Add, ref into);
            Assert.Same(same, into);
            Assert.Equal(new long[] { sum, P }, into);
            var longer = new[] { 7, 7, 7 };
            W.Allreduce(new[] { R, 1 }, Operation<int>.Max, ref longer);
            Assert.Equal(new[] { P - 1, 1, 7 }, longer);

            // The same results as oompi's own call on the same buffers.
            var send = new[] { R + 0.25, -R };
            var mine = new double[2];
            W.Comm.Allreduce(send, mine, Oompi.Op.Sum);
            Assert.Equal(mine, W.Allreduce(send, Operation<double>.Add));

            // Errors: a null array or op before anything is sent; a disposed communicator.
            Assert.Throws<ArgumentNullException>(() => W.Allreduce((int[])null, Operation<int>.Add));
            Assert.Throws<ArgumentNullException>(() => W.Allreduce(1, null));
            var dup = (Intracommunicator)W.Clone();
            Assert.Equal(P, dup.Allreduce(1, Operation<int>.Add));
            dup.Dispose();
            Assert.Throws<ObjectDisposedException>(() => dup.Allreduce(1, Operation<int>.Add));
            Assert.Throws<ObjectDisposedException>(() => dup.Allreduce(new[] { 1 }, Operation<int>.Add));
            Assert.Equal(P, W.Allreduce(1, Operation<int>.Add));  // the world still works
        }

        [Fact]
        public void ValueReductionsAllocateNothingPerCall()
        {
            // Delegates on the self communicator (MPI never calls the op of one process; where
            // it does, SWIG's callback makes a Datatype proxy per call, as for oompi's own user
            // ops), MPI's own ops on the world.
            ReductionOperation<int> lambda = (a, b) => a + b;
            var add = Operation<int>.Add;
            var self = Communicator.self;
            void Calls(int n)
            {
                int x = R;
                for (int i = 0; i < n; i++)
                {
                    x = self.Reduce(x, lambda, 0) + W.Reduce(x, add, 0);
                    x = self.Allreduce(x, lambda) - W.Allreduce(x, add) + R;
                    x = self.Scan(x, lambda) - self.ExclusiveScan(x, lambda) + W.Scan(x, add) - W.ExclusiveScan(x, add);
                    x = R;
                }
            }
            Calls(50);  // JIT, the cached user ops
            long before = GC.GetAllocatedBytesForCurrentThread();
            Calls(100);
            long bytes = GC.GetAllocatedBytesForCurrentThread() - before;
            // Arrays and closures per call were some 100 B each, 900 calls here: 90 KB.
            Assert.True(bytes < 1024, $"{bytes} bytes allocated by 900 reductions of values");
        }
    }
}
