using System;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    /// <summary>
    /// Intercommunicator collectives with MPI.NET's root conventions. The world is split in two
    /// groups twice: even/odd ranks (at 4 ranks two processes per group, so the root's group
    /// has an idle process passing Intercommunicator.Null) and rank 0 against the rest (groups
    /// of different sizes). At 1 rank there is no second group: these tests have nothing to run.
    /// </summary>
    public class IntercommunicatorTests
    {
        static Intracommunicator W => Communicator.world;

        /// <summary>One layout: this process's group (0 or 1) and the intercommunicator.</summary>
        sealed class Layout : IDisposable
        {
            public readonly int Group;
            public readonly Intracommunicator Local;
            public readonly Intercommunicator Inter;

            public Layout(bool uneven)
            {
                int r = W.Rank;
                Group = uneven ? (r == 0 ? 0 : 1) : r % 2;
                Local = (Intracommunicator)W.Split(Group, r);
                // The other group's leader in the world: its lowest rank.
                int remoteLeader = uneven ? (Group == 0 ? 1 : 0) : (Group == 0 ? 1 : 0);
                Inter = new Intercommunicator(Local, 0, W, remoteLeader, 40);
            }

            /// <summary>The root argument when group <paramref name="rootGroup"/>'s process 0 is the root.</summary>
            public int RootArg(int rootGroup) =>
                Group == rootGroup ? (Inter.Rank == 0 ? Intercommunicator.Root : Intercommunicator.Null) : 0;

            public bool IsRoot(int rootGroup) => Group == rootGroup && Inter.Rank == 0;
            public bool IsLeaf(int rootGroup) => Group != rootGroup;

            public void Dispose()
            {
                Inter.Dispose();
                Local.Dispose();
            }
        }

        static void ForEachLayout(Action<Layout> test)
        {
            if (W.Size < 2) return;  // one process has no other group to talk to
            foreach (bool uneven in new[] { false, true })
            {
                using var l = new Layout(uneven);
                test(l);
            }
        }

        [Fact]
        public void ConstructionSizesAndMerge() => ForEachLayout(l =>
        {
            var x = l.Inter;
            Assert.Equal(l.Local.Size, x.Size);
            Assert.Equal(W.Size - l.Local.Size, x.RemoteSize);
            Assert.Equal(x.RemoteSize, x.RemoteGroup.Size);
            Assert.NotEqual(Intercommunicator.Root, Intercommunicator.Null);
            using var merged = x.Merge(l.Group == 1);
            Assert.Equal(W.Size, merged.Size);
            Assert.Equal(l.Group == 0 ? x.Rank : x.RemoteSize + x.Rank, merged.Rank);
            x.Barrier();
        });

        [Fact]
        public void BroadcastFromEitherGroup() => ForEachLayout(l =>
        {
            var x = l.Inter;
            for (int rg = 0; rg < 2; rg++)
            {
                int root = l.RootArg(rg);
                int i = l.IsRoot(rg) ? 41 + rg : -1;
                x.Broadcast(ref i, root);
                Assert.Equal(l.IsRoot(rg) || l.IsLeaf(rg) ? 41 + rg : -1, i);  // idle processes keep theirs
                string s = l.IsRoot(rg) ? "from the root" : "mine";
                x.Broadcast(ref s, root);
                Assert.Equal(l.IsRoot(rg) || l.IsLeaf(rg) ? "from the root" : "mine", s);
                int[] a = l.IsRoot(rg) ? new[] { 1, 2, 3 } : null;  // leaves: made for them
                x.Broadcast(ref a, root);
                if (l.IsLeaf(rg)) Assert.Equal(new[] { 1, 2, 3 }, a);
                var longer = l.IsLeaf(rg) ? new[] { 9, 9, 9, 9, 9 } : new[] { 4, 5, 6 };
                x.Broadcast(ref longer, root);
                if (l.IsLeaf(rg)) Assert.Equal(new[] { 4, 5, 6, 9, 9 }, longer);  // a longer array keeps its tail
                string[] sa = l.IsRoot(rg) ? new[] { "x", "", "z" } : null;
                x.Broadcast(ref sa, root);
                if (l.IsLeaf(rg)) Assert.Equal(new[] { "x", "", "z" }, sa);
                var p = l.IsRoot(rg) ? new Point(3, 4) : default;
                x.Broadcast(ref p, root);
                if (l.IsLeaf(rg)) Assert.Equal(new Point(3, 4), p);
            }
        });

        [Fact]
        public void GatherAndReduceAtTheRoot() => ForEachLayout(l =>
        {
            var x = l.Inter;
            int root = l.RootArg(0);
            int remote = x.RemoteSize;
            var ints = x.Gather(x.Rank * 10, root);
            var strs = x.Gather("s" + x.Rank, root);
            if (l.IsRoot(0))
            {
                Assert.Equal(Enumerable.Range(0, remote).Select(k => k * 10), ints);
                Assert.Equal(Enumerable.Range(0, remote).Select(k => "s" + k), strs);
            }
            else
            {
                Assert.Null(ints);
                Assert.Null(strs);
            }
            int expected = remote * (remote - 1) / 2;
            int sum = x.Reduce(x.Rank, Operation<int>.Add, root);
            int viaLambda = x.Reduce(x.Rank, (a, b) => a + b, root);
            string cat = x.Reduce(x.Rank.ToString(), Operation<string>.Add, root);
            // Not commutative: in the leaves' rank order.
            string ordered = x.Reduce(x.Rank.ToString(), (a, b) => a + b, root);
            var arr = x.Reduce(l.IsLeaf(0) ? new[] { x.Rank, 1 } : null, Operation<int>.Add, root);
            var sarr = x.Reduce(l.IsLeaf(0) ? new[] { x.Rank.ToString(), "." } : null, Operation<string>.Add, root);
            if (l.IsRoot(0))
            {
                Assert.Equal(expected, sum);
                Assert.Equal(expected, viaLambda);
                string digits = string.Concat(Enumerable.Range(0, remote));
                Assert.Equal(digits, cat);
                Assert.Equal(digits, ordered);
                Assert.Equal(new[] { expected, remote }, arr);  // no array allocated at the root
                Assert.Equal(new[] { digits, new string('.', remote) }, sarr);
            }
            else
            {
                Assert.Equal(0, sum);
                Assert.Null(cat);
                Assert.Null(arr);
            }
            // GatherFlattened: leaf i sends i+1 elements (each i).
            if (l.IsRoot(0))
            {
                var counts = Enumerable.Range(1, remote).ToArray();
                var got = x.GatherFlattened<int>(counts);
                Assert.Equal(Enumerable.Range(0, remote).SelectMany(k => Enumerable.Repeat(k, k + 1)), got);
                string[] gs = null;
                x.GatherFlattened(counts, ref gs);
                Assert.Equal(Enumerable.Range(0, remote).SelectMany(k => Enumerable.Repeat("v" + k, k + 1)), gs);
                Assert.Equal(remote * 2, x.GatherFlattened<double>(2).Length);
            }
            else if (l.IsLeaf(0))
            {
                x.GatherFlattened(Enumerable.Repeat(x.Rank, x.Rank + 1).ToArray(), 0);
                x.GatherFlattened(Enumerable.Repeat("v" + x.Rank, x.Rank + 1).ToArray(), 0);
                x.GatherFlattened(new[] { 0.5, 1.5 }, 0);
            }
            else
            {
                x.GatherFlattened<int>();
                x.GatherFlattened<string>();
                x.GatherFlattened<double>();
            }
        });

        [Fact]
        public void ScatterFromTheRoot() => ForEachLayout(l =>
        {
            var x = l.Inter;
            int remote = x.RemoteSize;
            // Group 1 is the root's group this time.
            if (l.IsRoot(1))
            {
                x.Scatter(Enumerable.Range(0, remote).Select(k => k * 3).ToArray());
                x.Scatter(Enumerable.Range(0, remote).Select(k => "to " + k).ToArray());
                var counts = Enumerable.Range(0, remote).Select(k => k + 1).ToArray();
                x.ScatterFromFlattened(Enumerable.Range(0, remote).SelectMany(k => Enumerable.Repeat(k, k + 1)).ToArray(), counts);
                x.ScatterFromFlattened(Enumerable.Range(0, remote).SelectMany(k => Enumerable.Repeat("e" + k, k + 1)).ToArray(), counts);
                x.ScatterFromFlattened(new long[remote * 2], 2);
            }
            else if (l.IsLeaf(1))
            {
                Assert.Equal(x.Rank * 3, x.Scatter<int>(0));
                Assert.Equal("to " + x.Rank, x.Scatter<string>(0));
                int[] got = null;
                x.ScatterFromFlattened(Enumerable.Range(1, x.Size).ToArray(), 0, ref got);
                Assert.Equal(Enumerable.Repeat(x.Rank, x.Rank + 1), got);
                string[] gs = null;
                x.ScatterFromFlattened((int[])null, 0, ref gs);  // counts are not needed for objects
                Assert.Equal(Enumerable.Repeat("e" + x.Rank, x.Rank + 1), gs);
                long[] two = null;
                x.ScatterFromFlattened(2, 0, ref two);
                Assert.Equal(2, two.Length);
            }
            else
            {
                x.Scatter<int>();
                x.Scatter<string>();
                x.ScatterFromFlattened<int>();
                x.ScatterFromFlattened<string>();
                x.ScatterFromFlattened<long>();
            }
        });

        [Fact]
        public void AllToAllBetweenTheGroups() => ForEachLayout(l =>
        {
            var x = l.Inter;
            int remote = x.RemoteSize;
            // Every value names its sender: group*100 + rank.
            int me = l.Group * 100 + x.Rank;
            int other = (1 - l.Group) * 100;
            Assert.Equal(Enumerable.Range(other, remote), x.Allgather(me));
            Assert.Equal(Enumerable.Range(other, remote).Select(v => v.ToString()), x.Allgather(me.ToString()));
            int remoteSum = Enumerable.Range(other, remote).Sum();
            Assert.Equal(remoteSum, x.Allreduce(me, Operation<int>.Add));
            Assert.Equal(remoteSum, x.Allreduce(me, (a, b) => a + b));
            Assert.Equal(string.Concat(Enumerable.Range(other, remote)), x.Allreduce(me.ToString(), Operation<string>.Add));
            Assert.Equal(new[] { remoteSum, remote }, x.Allreduce(new[] { me, 1 }, Operation<int>.Add));
            Assert.Equal(new[] { remoteSum, remote }, x.Allreduce(new[] { me, 1 }, (a, b) => a + b));
            var sa = x.Allreduce(new[] { me.ToString(), "-" }, Operation<string>.Add);
            Assert.Equal(new string('-', remote), sa[1]);
            // Alltoall: value j goes to remote process j.
            var sent = Enumerable.Range(0, remote).Select(j => me * 1000 + j).ToArray();
            Assert.Equal(Enumerable.Range(other, remote).Select(v => v * 1000 + x.Rank), x.Alltoall(sent));
            Assert.Equal(Enumerable.Range(other, remote).Select(v => (v * 1000 + x.Rank).ToString()),
                         x.Alltoall(sent.Select(v => v.ToString()).ToArray()));
            // Flattened forms: remote process j sends j+1 elements to everybody.
            var counts = Enumerable.Range(1, remote).ToArray();
            var mine = Enumerable.Repeat(me, x.Rank + 1).ToArray();
            int[] ag = null;
            x.AllgatherFlattened(mine, counts, ref ag);
            Assert.Equal(Enumerable.Range(0, remote).SelectMany(j => Enumerable.Repeat(other + j, j + 1)), ag);
            string[] ags = null;
            x.AllgatherFlattened(mine.Select(v => v.ToString()).ToArray(), counts, ref ags);
            Assert.Equal(ag.Select(v => v.ToString()), ags);
            // AlltoallFlattened: x.Rank+1 elements to every remote process; from remote j, j+1.
            var sendCounts = Enumerable.Repeat(x.Rank + 1, remote).ToArray();
            var payload = Enumerable.Range(0, remote).SelectMany(j => Enumerable.Repeat(me * 10 + j, x.Rank + 1)).ToArray();
            int[] at = null;
            x.AlltoallFlattened(payload, sendCounts, counts, ref at);
            Assert.Equal(Enumerable.Range(0, remote).SelectMany(j => Enumerable.Repeat((other + j) * 10 + x.Rank, j + 1)), at);
            string[] ats = null;
            x.AlltoallFlattened(payload.Select(v => v.ToString()).ToArray(), sendCounts, counts, ref ats);
            Assert.Equal(at.Select(v => v.ToString()), ats);
            // ReduceScatter: arrays of one length (the larger group's size) in both groups;
            // this group's process i gets element i (the rest: the last process).
            int n = Math.Max(x.Size, remote);
            var rsCounts = Enumerable.Repeat(1, x.Size).ToArray();
            rsCounts[^1] += n - x.Size;
            var rs = x.ReduceScatter(Enumerable.Range(0, n).Select(k => me + k).ToArray(), Operation<int>.Add, rsCounts);
            Assert.Equal(rsCounts[x.Rank], rs.Length);
            Assert.Equal(remoteSum + remote * x.Rank, rs[0]);
            var rss = x.ReduceScatter(Enumerable.Repeat(me.ToString(), n).ToArray(), Operation<string>.Add, rsCounts);
            Assert.Equal(string.Concat(Enumerable.Range(other, remote)), rss[0]);
        });

        [Fact]
        public void ClassesCrossTheGroups() => ForEachLayout(l =>
        {
            var x = l.Inter;
            int remote = x.RemoteSize;
            // A [Serializable] class (JSON of its public members) and a [Transportable] one (the wire).
            var mine = new Particle { Name = $"g{l.Group}r{x.Rank}", Position = new[] { 1.0, x.Rank }, Charge = -x.Rank };
            mine.Partner = mine;  // a cycle survives
            var got = x.Allgather(mine);
            Assert.Equal(remote, got.Length);
            for (int j = 0; j < remote; j++)
            {
                Assert.Equal($"g{1 - l.Group}r{j}", got[j].Name);
                Assert.Equal(-j, got[j].Charge);
                Assert.Same(got[j], got[j].Partner);
            }
            var node = new Node { Value = x.Rank, Label = "n", Next = new Node { Value = 100 } };
            var root = l.RootArg(0);
            var nodes = x.Gather(node, root);
            if (l.IsRoot(0)) Assert.Equal(Enumerable.Range(0, remote).Select(j => j + 100), nodes.Select(n => n.Value + n.Next.Value));
            var back = x.Alltoall(Enumerable.Range(0, remote).Select(j => new Node { Value = j }).ToArray());
            Assert.All(back, n => Assert.Equal(x.Rank, n.Value));
        });

        [Fact]
        public void BadInputThrowsEverywhereWithoutHanging() => ForEachLayout(l =>
        {
            var x = l.Inter;
            int remote = x.RemoteSize;
            int root = l.RootArg(0);
            // A root that is none of Root, Null or a remote rank (everywhere).
            int v = 1;
            Assert.Throws<ArgumentOutOfRangeException>(() => x.Broadcast(ref v, remote + 3));
            Assert.Throws<ArgumentOutOfRangeException>(() => x.Gather(1, -77));
            // The root's array of the wrong length: every process of both groups throws.
            if (l.IsRoot(0)) Assert.ThrowsAny<ArgumentException>(() => x.Scatter(new int[remote + 1]));
            else if (l.IsLeaf(0)) Assert.ThrowsAny<ArgumentException>(() => x.Scatter<int>(0));
            else Assert.ThrowsAny<ArgumentException>(() => x.Scatter<int>());
            // The root's counts against what the leaves send.
            if (l.IsRoot(0)) Assert.ThrowsAny<ArgumentException>(() => x.GatherFlattened<int>(Enumerable.Repeat(5, remote).ToArray()));
            else if (l.IsLeaf(0)) Assert.ThrowsAny<ArgumentException>(() => x.GatherFlattened(new[] { 1 }, 0));
            else Assert.ThrowsAny<ArgumentException>(() => x.GatherFlattened<int>());
            // The root's null array: the root and the leaves throw; idle processes take no part.
            int[] none = null;
            if (l.IsRoot(0) || l.IsLeaf(0)) Assert.Throws<ArgumentNullException>(() => x.Broadcast(ref none, root));
            else x.Broadcast(ref none, root);
            // The leaves' null arrays in an array Reduce.
            Assert.Throws<ArgumentNullException>(() => x.Reduce(null, Operation<int>.Add, root));
            // One process's short array in Alltoall, or wrong counts: everywhere.
            Assert.ThrowsAny<ArgumentException>(() => x.Alltoall(new int[W.Rank == 0 ? remote + 1 : remote]));
            int[] o = null;
            Assert.ThrowsAny<ArgumentException>(() => x.AllgatherFlattened(new[] { 1, 2 }, Enumerable.Repeat(1, remote).ToArray(), ref o));
            Assert.ThrowsAny<ArgumentException>(() => x.AlltoallFlattened(new int[remote], Enumerable.Repeat(1, remote).ToArray(),
                                                                         Enumerable.Repeat(W.Rank == 0 ? 2 : 1, remote).ToArray(), ref o));
            Assert.ThrowsAny<ArgumentException>(() => x.ReduceScatter(new int[3], Operation<int>.Add, new int[x.Size]));
            // Null operations, and types that cannot travel (refused before anything is sent).
            Assert.Throws<ArgumentNullException>(() => x.Allreduce(1, null));
            Assert.Throws<ArgumentException>(() => x.Allgather(new object()));
            // A reduction delegate that throws: its exception where it ran, MPIException on every
            // other process of both groups. (MPI calls it only where a group combines two or
            // more values: with groups of one process each, it never runs.)
            Exception e = null;
            try { x.Allreduce(W.Rank, (a, b) => throw new InvalidTimeZoneException("boom")); }
            catch (Exception caught) { e = caught; }
            Assert.True(e is null || e is InvalidTimeZoneException || e is MPIException, e?.ToString());
            Assert.Equal(W.Allreduce(e is not null, Operation<bool>.LogicalOr), W.Allreduce(e is not null, Operation<bool>.LogicalAnd));
            if (x.Size > 1 || remote > 1) Assert.NotNull(e);
            // Still usable after all of that.
            Assert.Equal(remote, x.Allreduce(1, Operation<int>.Add));
        });

        [Fact]
        public void DisposedIntercommunicatorThrows()
        {
            if (W.Size < 2) return;
            var l = new Layout(false);
            l.Dispose();
            int v = 0;
            Assert.Throws<ObjectDisposedException>(() => l.Inter.RemoteSize);
            Assert.Throws<ObjectDisposedException>(() => l.Inter.Allgather(1));
            Assert.Throws<ObjectDisposedException>(() => l.Inter.Broadcast(ref v, 0));
            Assert.Throws<ObjectDisposedException>(() => l.Inter.Allreduce("s", Operation<string>.Add));
            Assert.Throws<ObjectDisposedException>(() => l.Inter.Allreduce(1, Operation<int>.Add));
            Assert.Throws<ObjectDisposedException>(() => l.Inter.RemoteSize);  // still, after those calls
            Assert.Throws<ObjectDisposedException>(() => l.Local.Allgather(1));
            l.Inter.Dispose();  // idempotent
        }
    }
}
