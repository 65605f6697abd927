using System.Text;

namespace Oompi.Tests
{
    // ObjectTests, continued: the object collectives (OBcast, OScatter, OGather, OAlltoall, OReduce, OAllreduce).
    public partial class ObjectTests
    {
        // --- collectives --------------------------------------------------------------------

        [Fact]
        public void Broadcast()
        {
            var g = world.OBcast(Rank == 0 ? Golden.Graph(7) : null, 0);
            Assert.Null(Golden.CheckGraph(g, 7));
            var s = world.OBcast(Rank == Size - 1 ? Golden.Shape() : default, Size - 1);
            CheckShape(s, Golden.Shape());
            Assert.Null(world.OBcast<ListNode>(null, 0));
        }

        [Fact]
        public void ScatterGather()
        {
            int p = Size;
            ListNode[] all = null;
            if (Rank == 0)
            {
                all = new ListNode[2 * p + 1];
                var shared = new ListNode(-1);
                for (int i = 0; i < all.Length; i++) all[i] = new ListNode(i) { Other = shared };
            }
            var mine = world.OScatter(all, 0);
            int expect = 2 + (Rank < 1 ? 1 : 0);
            Assert.Equal(expect, mine.Length);
            Assert.All(mine, n => Assert.Same(mine[0].Other, n.Other));  // shared inside a slice
            Assert.Equal(-1, mine[0].Other.Data[0]);
            int first = Rank * 2 + (Rank >= 1 ? 1 : 0);
            Assert.Equal(first, mine[0].Data[0]);

            var gathered = world.OGather(mine, p - 1);
            if (Rank == p - 1)
            {
                Assert.Equal(Enumerable.Range(0, 2 * p + 1), gathered.Select(n => n.Data[0]));
                if (p > 1) Assert.NotSame(gathered[0].Other, gathered[^1].Other);  // slices are independent graphs
            }
            else
            {
                Assert.Empty(gathered);
            }

            var everywhere = world.OAllgather(new[] { $"rank {Rank} ✓" });
            Assert.Equal(Enumerable.Range(0, p).Select(r => $"rank {r} ✓"), everywhere);

            var counts = Enumerable.Range(0, p).Select(r => r).ToArray();
            var v = world.OScatterv(Rank == 0 ? Enumerable.Range(0, counts.Sum()).ToArray() : null, Rank == 0 ? counts : null, 0);
            Assert.Equal(Rank, v.Length);
        }

        /// <summary>
        /// The collectives run on ObjectComm() (C++'s private duplicate), so their large path (one
        /// message per rank with tag 14, lowered here to 64 bytes as C++'s tests do) never takes
        /// a user message with that tag, and they give the same results as the usual path.
        /// </summary>
        [Fact]
        public void LargePathOnThePrivateCommunicator()
        {
            using (var oc = world.ObjectComm())
            {
                Assert.Equal("oompi object collectives", oc.Name);
                Assert.Equal(world.Rank, oc.Rank);
            }
            var limit = typeof(Comm).GetField("ObjectIntLimit", System.Reflection.BindingFlags.Static |
                                                                System.Reflection.BindingFlags.NonPublic);
            Assert.NotNull(limit);
            int p = Size, last = p - 1;
            var user = new byte[] { 42, (byte)Rank };
            using var pending = world.Isend(user, last, 14);  // a user message with the large path's tag
            limit.SetValue(null, 64L);
            try
            {
                var nodes = Rank == 0 ? Enumerable.Range(0, 3 * p).Select(i => new ListNode(i, i, i, i)).ToArray() : null;
                var mine = world.OScatter(nodes, 0);
                Assert.Equal(Enumerable.Range(3 * Rank, 3), mine.Select(n => n.Data[0]));
                var shared = new ListNode(-Rank);
                var contrib = Enumerable.Range(0, 5).Select(i => new ListNode(10 * Rank + i) { Other = shared }).ToArray();
                var atLast = world.OGather(contrib, last);
                if (Rank == last)
                {
                    Assert.Equal(Enumerable.Range(0, p).SelectMany(r => Enumerable.Range(10 * r, 5)), atLast.Select(n => n.Data[0]));
                    Assert.Same(atLast[0].Other, atLast[4].Other);
                }
                else
                {
                    Assert.Empty(atLast);
                }
                var everywhere = world.OAllgather(contrib);
                Assert.Equal(5 * p, everywhere.Length);
                Assert.Equal(-last, everywhere[^1].Other.Data[0]);
                var big = world.OBcast(Rank == 0 ? new ListNode(Enumerable.Range(0, 100).ToArray()) : null, 0);
                Assert.Equal(100, big.Data.Length);
            }
            finally
            {
                limit.SetValue(null, (long)int.MaxValue);
            }
            if (Rank == last)
                for (int r = 0; r < p; r++)
                {
                    var got = new byte[2];
                    world.Recv(got, r, 14);
                    Assert.Equal(new byte[] { 42, (byte)r }, got);
                }
            pending.Wait();
        }

        [Fact]
        public void CollectiveFailuresReachEveryRank()
        {
            // Counts that do not add up, at the root: ArgumentException everywhere.
            var e = Assert.ThrowsAny<ArgumentException>(() =>
                world.OScatterv(Rank == 0 ? new[] { 1, 2, 3 } : null, Rank == 0 ? new[] { 99 } : null, 0));
            // An object the root cannot serialize: SerializationException everywhere.
            Assert.Throws<SerializationException>(() =>
                world.OBcast(Rank == 0 ? new Holder { Item = new Derived() } : null, 0));
            Assert.Throws<SerializationException>(() =>
                world.OGather(Rank == Size - 1 ? new[] { new Holder { Item = new Derived() } } : new[] { new Holder() }, 0));
            // Everything still works afterwards.
            Assert.Equal(new[] { 5 }, world.OBcast(Rank == 0 ? new[] { 5 } : null, 0));
        }

        // --- OAlltoall ----------------------------------------------------------------------

        // What rank `from` sends rank `to`: a cycle x <-> y, x.Other = x, y.Other = a node all of
        // `from`'s elements share.
        private static ListNode Pair(int from, int to, ListNode common)
        {
            var x = new ListNode(from, to);
            x.Next = new ListNode(to, from) { Next = x, Other = common };
            x.Other = x;
            return x;
        }

        private static void CheckPair(ListNode x, int from, int to)
        {
            Assert.Equal(new[] { from, to }, x.Data);
            Assert.Same(x, x.Other);
            Assert.Equal(new[] { to, from }, x.Next.Data);
            Assert.Same(x, x.Next.Next);
            Assert.Equal(new[] { -from }, x.Next.Other.Data);
        }

        private void AlltoallRound()
        {
            var common = new ListNode(-Rank);
            var outgoing = Enumerable.Range(0, Size).Select(i => Pair(Rank, i, common)).ToArray();
            var incoming = world.OAlltoall(outgoing);
            Assert.Equal(Size, incoming.Length);
            for (int r = 0; r < Size; r++) CheckPair(incoming[r], r, Rank);
            if (Size == 1) Assert.NotSame(outgoing[0], incoming[0]);  // each element is its own graph

            var heard = world.OAlltoall(Enumerable.Range(0, Size).Select(i => $"{Rank}→{i}").ToArray());
            Assert.Equal(Enumerable.Range(0, Size).Select(r => $"{r}→{Rank}"), heard);
            var numbers = world.OAlltoall(Enumerable.Range(0, Size).Select(i => 10 * Rank + i).ToArray());
            Assert.Equal(Enumerable.Range(0, Size).Select(r => 10 * r + Rank), numbers);
            // null references, and elements of very different sizes
            var blocks = Enumerable.Range(0, Size).Select(i => i % 2 == 1 ? null : new ListNode(new int[1000 * (Rank + 1) + i])).ToArray();
            var got = world.OAlltoall(blocks);
            for (int r = 0; r < Size; r++)
                if (Rank % 2 == 1) Assert.Null(got[r]);
                else Assert.Equal(1000 * (r + 1) + Rank, got[r].Data.Length);
        }

        /// <summary>
        /// OAlltoall on both paths: one Alltoallv, then C++'s large path (one message per pair with
        /// tag 14 on the private communicator, the limit lowered to 64 bytes as C++'s tests do),
        /// which never takes a user message with that tag.
        /// </summary>
        [Fact]
        public void Alltoall()
        {
            AlltoallRound();
            var limit = typeof(Comm).GetField("ObjectIntLimit", System.Reflection.BindingFlags.Static |
                                                                System.Reflection.BindingFlags.NonPublic);
            Assert.NotNull(limit);
            int last = Size - 1;
            using var pending = world.Isend(new byte[] { 42, (byte)Rank }, last, 14);
            limit.SetValue(null, 64L);
            try
            {
                AlltoallRound();
            }
            finally
            {
                limit.SetValue(null, (long)int.MaxValue);
            }
            if (Rank == last)
                for (int r = 0; r < Size; r++)
                {
                    var got = new byte[2];
                    world.Recv(got, r, 14);
                    Assert.Equal(new byte[] { 42, (byte)r }, got);
                }
            pending.Wait();
        }

        [Fact]
        public void AlltoallBadInput()
        {
            int last = Size - 1;
            var ok = Enumerable.Range(0, Size).Select(i => $"x{i}").ToArray();
            // the wrong length, or null, on one rank: ArgumentException on every rank
            var e = Assert.Throws<ArgumentException>(() => world.OAlltoall(Rank == last ? ok.Append("one too many").ToArray() : ok));
            Assert.Contains(Rank == last ? "one object per rank" : "another rank", e.Message);
            Assert.Throws<ArgumentException>(() => world.OAlltoall(Rank == last ? null : ok));
            // an element that cannot be written on one rank: SerializationException everywhere
            var holders = Enumerable.Range(0, Size).Select(i => new Holder { Item = i == 0 && Rank == last ? new Derived() : new Base() }).ToArray();
            var se = Assert.Throws<SerializationException>(() => world.OAlltoall(holders));
            Assert.Equal(Rank != last, se.Message.Contains("another rank"));
            // a type that cannot travel: ArgumentException naming it (every rank, after the exchange)
            e = Assert.Throws<ArgumentException>(() => world.OAlltoall(new NotMarked[Size]));
            // still in step
            Assert.Equal(Enumerable.Range(0, Size).Select(r => 10 * r + Rank),
                         world.OAlltoall(Enumerable.Range(0, Size).Select(i => 10 * Rank + i).ToArray()));
        }

        // --- OReduce / OAllreduce -----------------------------------------------------------

        // The fold: {a.Data ++ b.Data, Other = itself, Next = b} (not commutative).
        private static ListNode Cat(ListNode a, ListNode b)
        {
            var c = new ListNode(a.Data.Concat(b.Data).ToArray()) { Next = b };
            c.Other = c;
            return c;
        }

        private static ListNode Leaf(int r)
        {
            var x = new ListNode(r, -r);
            x.Other = x;
            return x;
        }

        // The fold of Leaf(0) .. Leaf(p - 1) in rank order, computed here without MPI.
        private void CheckReduced(ListNode got)
        {
            Assert.Equal(Enumerable.Range(0, Size).SelectMany(r => new[] { r, -r }), got.Data);
            Assert.Same(got, got.Other);  // cyclic: the result refers to itself
            if (Size > 1)
            {
                Assert.Same(got.Next, got.Next.Other);
                Assert.Equal(-(Size - 1), got.Next.Data[^1]);
            }
        }

        [Fact]
        public void ReduceInRankOrder()
        {
            string want = string.Concat(Enumerable.Range(0, Size).Select(r => $"{r};"));
            Func<string, string, string> concat = (x, y) => x + y;
            foreach (int root in new[] { 0, Size - 1, Size / 2 })
            {
                var s = world.OReduce($"{Rank};", concat, root);
                Assert.Equal(Rank == root ? want : null, s);
                var n = world.OReduce(Leaf(Rank), Cat, root);
                if (Rank == root) CheckReduced(n);
                else Assert.Null(n);
            }
            Assert.Equal(want, world.OAllreduce($"{Rank};", concat));
            CheckReduced(world.OAllreduce(Leaf(Rank), Cat));
            Assert.Equal(Size * (Size - 1) / 2, world.OAllreduce(Rank, (a, b) => a + b));
            Assert.Equal(new[] { Size - 1, 0 }, world.OAllreduce(new[] { Rank, Rank }, (a, b) => new[] { Math.Max(a[0], b[0]), Math.Min(a[1], b[1]) }));
            // a function that returns null: a null reference travels (one rank: a copy of its object)
            var none = world.OAllreduce(Leaf(Rank), (x, y) => null);
            if (Size == 1) CheckReduced(none);
            else Assert.Null(none);
            var mine = Leaf(Rank);
            if (Size == 1) Assert.NotSame(mine, world.OAllreduce(mine, Cat));  // a copy, as in C++
        }

        public sealed class PickyException : Exception
        {
            public PickyException(string m) : base(m) { }
        }

        [Fact]
        public void ReduceFailures()
        {
            int last = Size - 1;
            Func<string, string, string> concat = (x, y) => x + y;
            // a root that is not a rank: ArgumentOutOfRangeException everywhere, nothing sent
            Assert.Throws<ArgumentOutOfRangeException>(() => world.OReduce("x", concat, -1));
            Assert.Throws<ArgumentOutOfRangeException>(() => world.OReduce("x", concat, Size));
            // a null function on one rank: ArgumentNullException there, SerializationException elsewhere
            if (Rank == last) Assert.Throws<ArgumentNullException>(() => world.OAllreduce("x", null));
            else Assert.Throws<SerializationException>(() => world.OAllreduce("x", concat));
            // an object that cannot be written on one rank: SerializationException everywhere
            var se = Assert.Throws<SerializationException>(() =>
                world.OAllreduce(new Holder { Item = Rank == last ? new Derived() : new Base() }, (x, y) => x));
            Assert.Equal(Rank != last, se.Message.Contains("another rank"));
            // a type that cannot travel: ArgumentException on every rank
            Assert.Throws<ArgumentException>(() => world.OAllreduce(new NotMarked(), (x, y) => x));
            if (Size > 1)
            {
                // the function throws on one rank (the one that folds in the last rank's object): that
                // rank throws its exception, every other rank SerializationException
                int thrower = last & (last - 1);
                Func<ListNode, ListNode, ListNode> picky = (x, y) =>
                    y.Data[0] == last ? throw new PickyException($"picky: {y.Data[0]}") : Cat(x, y);
                if (Rank == thrower)
                {
                    Assert.StartsWith("picky", Assert.Throws<PickyException>(() => world.OAllreduce(Leaf(Rank), picky)).Message);
                }
                else
                {
                    se = Assert.Throws<SerializationException>(() => world.OAllreduce(Leaf(Rank), picky));
                    Assert.Contains("failed on another rank", se.Message);
                }
                // OReduce to the last rank: the thrower throws, the root throws, the others get null
                if (Rank == thrower) Assert.Throws<PickyException>(() => world.OReduce(Leaf(Rank), picky, last));
                else if (Rank == last) Assert.Throws<SerializationException>(() => world.OReduce(Leaf(Rank), picky, last));
                else Assert.Null(world.OReduce(Leaf(Rank), picky, last));
            }
            // still in step
            Assert.Equal(Size, world.OAllreduce(1, (a, b) => a + b));
        }
    }
}
