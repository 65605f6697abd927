using System;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    public partial class CollectiveTests
    {
        static Intracommunicator W => Communicator.world;
        static int P => W.Size;
        static int R => W.Rank;
        static int Root => P - 1;

        [Fact]
        public void Broadcast()
        {
            int i = R == Root ? 17 : 0;
            W.Broadcast(ref i, Root);
            Assert.Equal(17, i);
            string s = R == Root ? "root's" : null;
            W.Broadcast(ref s, Root);
            Assert.Equal("root's", s);
            var p = R == Root ? new Point(1, 2) : default;
            W.Broadcast(ref p, Root);
            Assert.Equal(2, p.y);
            int[] a = R == Root ? new[] { 1, 2, 3 } : null;  // non-roots: made for them
            W.Broadcast(ref a, Root);
            Assert.Equal(new[] { 1, 2, 3 }, a);
            string[] sa = R == Root ? new[] { "x", "y" } : null;
            W.Broadcast(ref sa, Root);
            Assert.Equal(new[] { "x", "y" }, sa);
            int[] none = null;
            Assert.Throws<ArgumentNullException>(() => W.Broadcast(ref none, Root));  // the root's null: everywhere
        }

        [Fact]
        public void ReduceAndAllreduceWithOperations()
        {
            int expected = P * (P - 1) / 2;
            Assert.Equal(expected, W.Allreduce(R, Operation<int>.Add));
            Assert.Equal(expected, W.Allreduce(R, (a, b) => a + b));
            Assert.Equal(0, W.Allreduce(R, Operation<int>.Min));
            Assert.Equal(P - 1, W.Allreduce(R, Operation<int>.Max));
            Assert.Equal(P == 1 ? 1.0 : 0.0, W.Allreduce((double)(R == 0 ? 1 : 0) * (R + 1), Operation<double>.Multiply));
            Assert.False(W.Allreduce(R == 0, Operation<bool>.LogicalAnd) && P > 1);
            Assert.True(W.Allreduce(R == 0, Operation<bool>.LogicalOr));
            Assert.Equal(0, W.Allreduce(1 << R, Operation<int>.BitwiseAnd) & (P > 1 ? 1 : 0));
            Assert.Equal((1 << P) - 1, W.Allreduce(1 << R, Operation<int>.BitwiseOr));
            Assert.Equal((1 << P) - 1, W.Allreduce(1 << R, Operation<int>.ExclusiveOr));
            Assert.Equal((byte)(P * 3), W.Allreduce((byte)3, Operation<byte>.Add));
            var sum = W.Allreduce(new Point(R, P - R), Point.Plus);
            Assert.Equal(expected, sum.x);
            Assert.Equal(expected, W.Allreduce(new Point(R, P - R), Operation<Point>.Add).x);
            Assert.Equal(0, W.Allreduce(new Point(R, P - R), Operation<Point>.Min).x);
            Assert.Equal(1, W.Allreduce(new Point(R, P - R), Operation<Point>.Max).y);
            string cat = string.Concat(Enumerable.Range(0, P));
            Assert.Equal(cat, W.Allreduce(R.ToString(), Operation<string>.Add));
            // Not commutative: combined in rank order.
            Assert.Equal(cat, W.Allreduce(R.ToString(), (a, b) => a + b));
            Assert.Equal(R == Root ? expected : 0, W.Reduce(R, Operation<int>.Add, Root));
            Assert.Equal(R == 0 ? cat : null, W.Reduce(R.ToString(), Operation<string>.Add, 0));
            int[] arr = null;
            W.Allreduce(new[] { R, 1 }, Operation<int>.Add, ref arr);
            Assert.Equal(new[] { expected, P }, arr);
            Assert.Equal(new[] { expected, P }, W.Allreduce(new[] { R, 1 }, (a, b) => a + b));
            string[] sarr = null;
            W.Allreduce(new[] { R.ToString(), "W" }, Operation<string>.Add, ref sarr);
            Assert.Equal(cat, sarr[0]);
            var red = W.Reduce(new[] { 1.0, R }, Operation<double>.Add, 0);
            if (R == 0) Assert.Equal(new[] { P, (double)expected }, red); else Assert.Null(red);
        }

        [Fact]
        public void Scans()
        {
            Assert.Equal(R * (R + 1) / 2, W.Scan(R, Operation<int>.Add));
            Assert.Equal(R * (R + 1) / 2, W.Scan(R, (a, b) => a + b));
            Assert.Equal(R * (R - 1) / 2, W.ExclusiveScan(R, Operation<int>.Add));
            Assert.Equal(string.Concat(Enumerable.Range(0, R + 1)), W.Scan(R.ToString(), Operation<string>.Add));
            Assert.Equal(R == 0 ? null : string.Concat(Enumerable.Range(0, R)), W.ExclusiveScan(R.ToString(), Operation<string>.Add));
            Assert.Equal(new[] { R + 1, R * (R + 1) / 2 }, W.Scan(new[] { 1, R }, Operation<int>.Add));
            // Arrays: process 0 receives null (MPI.NET's documented result).
            Assert.Equal(R == 0 ? null : new[] { R, R * (R - 1) / 2 }, W.ExclusiveScan(new[] { 1, R }, Operation<int>.Add));
            Assert.Equal(R == 0 ? null : new[] { string.Concat(Enumerable.Range(0, R)) }, W.ExclusiveScan(new[] { R.ToString() }, Operation<string>.Add));
        }

        [Fact]
        public void GatherScatterAlltoall()
        {
            var g = W.Gather(R * 2, Root);
            if (R == Root) Assert.Equal(Enumerable.Range(0, P).Select(x => x * 2), g); else Assert.Null(g);
            var gs = W.Gather("g" + R, 0);
            if (R == 0) Assert.Equal(Enumerable.Range(0, P).Select(x => "g" + x), gs);
            Assert.Equal(Enumerable.Range(0, P), W.Allgather(R));
            Assert.Equal(Enumerable.Range(0, P).Select(x => "a" + x), W.Allgather("a" + R));
            Assert.Equal(R * 3, W.Scatter(R == 0 ? Enumerable.Range(0, P).Select(x => x * 3).ToArray() : null, 0));
            Assert.Equal("s" + R, W.Scatter(R == 0 ? Enumerable.Range(0, P).Select(x => "s" + x).ToArray() : null, 0));
            var mine = Enumerable.Range(0, P).Select(j => R * 100 + j).ToArray();
            Assert.Equal(Enumerable.Range(0, P).Select(j => j * 100 + R), W.Alltoall(mine));
            Assert.Equal(Enumerable.Range(0, P).Select(j => $"{j}>{R}"), W.Alltoall(Enumerable.Range(0, P).Select(j => $"{R}>{j}").ToArray()));
            // Flattened forms: rank i contributes i + 1 elements.
            var counts = Enumerable.Range(1, P).ToArray();
            var part = Enumerable.Repeat(R, R + 1).ToArray();
            var flat = W.GatherFlattened(part, counts, 0);
            var expect = Enumerable.Range(0, P).SelectMany(i => Enumerable.Repeat(i, i + 1)).ToArray();
            if (R == 0) Assert.Equal(expect, flat);
            int[] all = null;
            W.AllgatherFlattened(part, counts, ref all);
            Assert.Equal(expect, all);
            int[] back = null;
            W.ScatterFromFlattened(R == 0 ? expect : null, counts, 0, ref back);
            Assert.Equal(part, back);
            string[] sback = null;
            W.ScatterFromFlattened(R == 0 ? expect.Select(x => x.ToString()).ToArray() : null, counts, 0, ref sback);
            Assert.Equal(part.Select(x => x.ToString()), sback);
            Assert.Equal(Enumerable.Repeat(7, 2 * P), W.GatherFlattened(new[] { 7, 7 }, 0) ?? Enumerable.Repeat(7, 2 * P).ToArray());
            int[] at = null;
            W.AlltoallFlattened(Enumerable.Range(0, P).SelectMany(j => new[] { R, j }).ToArray(),
                Enumerable.Repeat(2, P).ToArray(), Enumerable.Repeat(2, P).ToArray(), ref at);
            Assert.Equal(Enumerable.Range(0, P).SelectMany(j => new[] { j, R }), at);
        }

        [Fact]
        public void ReduceScatter()
        {
            var counts = Enumerable.Range(1, P).ToArray();
            int n = counts.Sum();
            var mine = W.ReduceScatter(Enumerable.Range(0, n).ToArray(), Operation<int>.Add, counts);
            int start = counts.Take(R).Sum();
            Assert.Equal(Enumerable.Range(start, R + 1).Select(x => x * P), mine);
            var smine = W.ReduceScatter(Enumerable.Range(0, n).Select(x => "x").ToArray(), Operation<string>.Add, counts);
            Assert.Equal(Enumerable.Repeat(new string('x', P), R + 1), smine);
        }

        [Fact]
        public void RootsBadInputThrowsEverywhere()
        {
            // The root's array has the wrong length: every process throws, none waits.
            var e = Assert.ThrowsAny<ArgumentException>(() => W.Scatter(R == 0 ? new int[P + 1] : null, 0));
            var bad = Enumerable.Repeat(1, P + 1).ToArray();
            int[] o = null;
            Assert.ThrowsAny<ArgumentException>(() => W.GatherFlattened(new[] { 1 }, bad, 0, ref o));
            Assert.ThrowsAny<ArgumentException>(() => W.AllgatherFlattened(new[] { 1, 2 }, Enumerable.Repeat(1, P).ToArray(), ref o));
            Assert.ThrowsAny<ArgumentException>(() => W.ScatterFromFlattened(R == 0 ? new int[0] : null, Enumerable.Repeat(1, P).ToArray(), 0, ref o));
            Assert.ThrowsAny<ArgumentException>(() => W.Alltoall(new int[P + 1]));
            Assert.ThrowsAny<ArgumentException>(() => W.ReduceScatter(new int[3], Operation<int>.Add, new int[P]));
            W.Barrier();
        }

        [Fact]
        public void ThrowingDelegateIsTheCallersException()
        {
            Assert.Throws<ArgumentNullException>(() => W.Allreduce(1, null));
            if (P == 1) return;  // one process: MPI never calls the operation
            // Plain data: the delegate's exception where it ran, MPIException elsewhere; no hang.
            var e = Assert.ThrowsAny<Exception>(() => W.Allreduce(R, (a, b) => throw new InvalidTimeZoneException("boom")));
            Assert.True(e is InvalidTimeZoneException || e is MPIException, e.ToString());
            // Values that are not plain data: oompi's object reductions report it.
            Assert.ThrowsAny<Exception>(() => W.Allreduce("s", (a, b) => throw new InvalidTimeZoneException("boom")));
            // And the world still works.
            Assert.Equal(P, W.Allreduce(1, Operation<int>.Add));
        }

        // One delegate, reused (its MPI op is cached): it throws only while 'fail' is set.
        static bool fail;
        static readonly ReductionOperation<int> Flaky = (a, b) => fail ? throw new InvalidTimeZoneException("flaky") : a + b;

        [Fact]
        public void CachedDelegateOpSurvivesAThrow()
        {
            int expected = P * (P - 1) / 2;
            Assert.Equal(expected, W.Allreduce(R, Flaky));
            fail = true;
            try
            {
                Exception e = null, ea = null;
                try { W.Allreduce(R, Flaky); } catch (Exception x) { e = x; }
                try { W.Allreduce(new[] { R, 1 }, Flaky); } catch (Exception x) { ea = x; }
                if (P > 1)
                {
                    Assert.True(e is InvalidTimeZoneException || e is MPIException, e?.ToString() ?? "no exception");
                    Assert.True(ea is InvalidTimeZoneException || ea is MPIException, ea?.ToString() ?? "no exception");
                }
            }
            finally { fail = false; }
            // The same delegate (the same cached op) works again, for values and arrays.
            Assert.Equal(expected, W.Allreduce(R, Flaky));
            Assert.Equal(new[] { expected, P }, W.Allreduce(new[] { R, 1 }, Flaky));
            Assert.Equal(expected, W.Reduce(R, Flaky, 0) + (R == 0 ? 0 : expected));
        }

        [Fact]
        public void OperationWithoutOperatorIsRefused()
        {
            Assert.Throws<ArgumentException>(() => Operation<Particle>.Add);
            Assert.Throws<ArgumentException>(() => Operation<Particle>.Min);
            Assert.Equal(5, Operation<int>.Add(2, 3));
            Assert.Equal("ab", Operation<string>.Add("a", "b"));
            Assert.Equal(1, Operation<int>.LogicalAnd(4, 9));
            // MPI.NET's low-level form is IDisposable (it made an MPI_Op): `using` compiles, the
            // delegate keeps working after it, and a null delegate is refused.
            using (var op = new Operation<int>((a, b) => a * b))
                Assert.Equal(6, op.Op(2, 3));
            Assert.Throws<ArgumentNullException>(() => new Operation<int>(null));
        }
    }
}
