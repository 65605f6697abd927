using System;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    public class CommunicatorTests
    {
        static Intracommunicator W => Communicator.world;

        // Visual Basic ignores the case of names: two public members of one type whose names
        // differ only in case make every use of either ambiguous there (Communicator.world and
        // seed 002's Communicator.World did: MPI.NET's VB example could not compile).
        [Fact]
        public void NoNamesThatDifferOnlyInCase()
        {
            var clashes = typeof(Communicator).Assembly.GetExportedTypes()
                .Where(t => t.Namespace == "MPI")
                .SelectMany(t => t.GetMembers(System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Instance |
                                              System.Reflection.BindingFlags.Static | System.Reflection.BindingFlags.DeclaredOnly)
                    .Select(m => m.Name).Distinct()
                    .GroupBy(n => n.ToLowerInvariant()).Where(g => g.Count() > 1)
                    .Select(g => t.Name + ": " + string.Join(", ", g)))
                .ToList();
            Assert.True(clashes.Count == 0, string.Join("; ", clashes));
            Assert.Same(Communicator.world, Communicator.World);  // seed 002's name still reaches it in C#
        }

        [Fact]
        public void SplitCloneCreate()
        {
            using var half = (Intracommunicator)W.Split(W.Rank % 2, -W.Rank);
            int mates = Enumerable.Range(0, W.Size).Count(r => r % 2 == W.Rank % 2);
            Assert.Equal(mates, half.Size);
            Assert.Equal(mates - 1 - W.Rank / 2, half.Rank);  // keys reverse the order
            Assert.Equal(mates, half.Allreduce(1, Operation<int>.Add));
            Assert.Throws<ArgumentException>(() => W.Split(-1, 0));

            using var dup = (Intracommunicator)W.Clone();
            Assert.Equal(Comparison.Congruent, dup.Compare(W));
            Communicator plain = dup;  // MPI.NET has Parent on Communicator (it was on Intracommunicator only here)
            Assert.Null(plain.Parent);
            Assert.Equal(W.Size, dup.Allreduce(1, Operation<int>.Add));

            using var g = W.Group;
            using var evens = g.IncludeOnly(Enumerable.Range(0, W.Size).Where(r => r % 2 == 0).ToArray());
            var made = W.Create(evens);
            if (W.Rank % 2 == 0)
            {
                Assert.NotNull(made);
                Assert.Equal(W.Rank / 2, made.Rank);
                Assert.IsType<Intracommunicator>(made);
                made.Dispose();
            }
            else Assert.Null(made);
            Assert.Throws<ArgumentNullException>(() => W.Create(null));
        }

        [Fact]
        public void DisposedCommunicatorIsRefused()
        {
            var dup = (Intracommunicator)W.Clone();
            dup.Dispose();
            dup.Dispose();  // idempotent
            Assert.Throws<ObjectDisposedException>(() => dup.Rank);
            Assert.Throws<ObjectDisposedException>(() => dup.Send(1, 0, 0));
            var ints = new int[2];
            Assert.Throws<ObjectDisposedException>(() => dup.Send(ints, 0, 0));
            Assert.Throws<ObjectDisposedException>(() => dup.Receive(0, 0, ref ints));
            Assert.Throws<ObjectDisposedException>(() => dup.Receive<double>(0, 0));
            Assert.Throws<ObjectDisposedException>(() => dup.Allreduce(1, Operation<int>.Add));
            Assert.Throws<ObjectDisposedException>(() => dup.Barrier());
        }

        [Fact]
        public void Groups()
        {
            using var g = W.Group;
            Assert.Equal(W.Size, g.Size);
            Assert.Equal(W.Rank, g.Rank);
            using var first = g.IncludeOnly(new[] { 0 });
            using var rest = g.Exclude(new[] { 0 });
            Assert.Equal(W.Size - 1, rest.Size);
            Assert.Equal(W.Rank == 0 ? 0 : Group.NoProcess, first.Rank);
            using var union = first | rest;
            Assert.Equal(Comparison.Identical, union.Compare(g));
            using var inter = first & rest;
            Assert.Equal(0, inter.Size);
            using var diff = g - first;
            Assert.Equal(Comparison.Identical, diff.Compare(rest));
            Assert.Equal(new[] { 0 }, g.TranslateRanks(new[] { 0 }, first));
            Assert.Equal(0, Group.empty.Size);
            Assert.ThrowsAny<ArgumentException>(() => g.IncludeOnly(new[] { W.Size + 3 }));
            Assert.Throws<ArgumentNullException>(() => g.Compare(null));
        }

        [Fact]
        public void Intercommunicators()
        {
            if (W.Size < 2) return;  // two groups need two processes
            int color = W.Rank < W.Size / 2 ? 0 : 1;
            using var local = (Intracommunicator)W.Split(color, W.Rank);
            int remoteLeader = color == 0 ? W.Size / 2 : 0;
            using var inter = new Intercommunicator(local, 0, W, remoteLeader, 99);
            Assert.Equal(W.Size - local.Size, inter.RemoteSize);
            Assert.Equal(inter.RemoteSize, inter.RemoteGroup.Size);
            // Point-to-point across: local rank 0 of each side exchanges with the other's rank 0.
            if (local.Rank == 0)
            {
                inter.SendReceive($"from {color}", 0, 5, out string got);
                Assert.Equal($"from {1 - color}", got);
            }
            using var merged = inter.Merge(color == 1);
            Assert.Equal(W.Size, merged.Size);
            Assert.Equal(color == 0 ? local.Rank : W.Size - local.Size + local.Rank, merged.Rank);
        }
    }
}
