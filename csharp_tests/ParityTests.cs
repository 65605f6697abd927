using System;
using System.Linq;
using Xunit;

namespace Oompi.Tests
{
    /// <summary>Binding parity with the C++ core (issue 15): group rank ranges, ReduceLocal,
    /// in-place v-collectives, IreduceScatter, neighbour v-collectives; with their bad inputs.</summary>
    public class ParityTests
    {
        private readonly Comm world = Comm.World();
        private int Rank => world.Rank;
        private int Size => world.Size;

        [Fact]
        public void GroupRanges()
        {
            using var g = world.GetGroup();
            using var evens = g.RangeIncl(new[] { 0, Size - 1, 2 });
            using var odds = g.RangeExcl(new[] { 0, Size - 1, 2 });
            using var backwards = g.RangeIncl(new[] { Size - 1, 0, -1 });
            Assert.Equal((Size + 1) / 2, evens.Size);
            Assert.Equal(Size / 2, odds.Size);
            Assert.Equal(new[] { Size - 1 }, backwards.TranslateRanks(new[] { 0 }, g));
            Assert.Throws<ArgumentException>(() => g.RangeIncl(new[] { 0, 1 }));
            Assert.Throws<ArgumentOutOfRangeException>(() => g.RangeIncl(new[] { 0, Size, 1 }));
            Assert.Throws<ArgumentException>(() => g.RangeIncl(new[] { 0, 0, 0 }));
        }

        [Fact]
        public void ReduceLocal()
        {
            var b = new long[] { 10, 10, 10 };
            Op.Sum.ReduceLocal(new long[] { 0, 1, 2 }, b);
            Assert.Equal(new long[] { 10, 11, 12 }, b);
            var c = new double[2];
            Op.Max.ReduceLocal(new double[] { 20, -1 }, c);
            Assert.Equal(new double[] { 20, 0 }, c);
            Assert.Throws<ArgumentException>(() => Op.Sum.ReduceLocal(new double[3], new double[4]));
            Assert.Throws<ArgumentException>(() => Op.Sum.ReduceLocal(new int[3], new double[3]));
        }

        [Fact]
        public void InPlaceVCollectives()
        {
            var counts = Enumerable.Range(1, Size).ToArray();
            var displs = counts.Select((_, r) => counts.Take(r).Sum()).ToArray();
            int total = counts.Sum();
            var expect = Enumerable.Range(0, Size).SelectMany(r => Enumerable.Repeat((double)r, r + 1)).ToArray();
            var buf = Enumerable.Repeat(-1.0, total).ToArray();
            for (int i = 0; i < counts[Rank]; i++) buf[displs[Rank] + i] = Rank;
            world.AllgathervInPlace(buf, counts, displs);
            Assert.Equal(expect, buf);

            var mine = Enumerable.Repeat((double)Rank, counts[Rank]).ToArray();
            var whole = Enumerable.Repeat(-1.0, total).ToArray();
            whole[0] = 0;
            world.GathervInPlace(Rank == 0 ? whole : mine, counts, displs, 0);
            if (Rank == 0) Assert.Equal(expect, whole);

            var blocks = Enumerable.Range(0, Size).Select(r => Rank * 100 + r).ToArray();
            world.AlltoallvInPlace(blocks, Enumerable.Repeat(1, Size).ToArray(), Enumerable.Range(0, Size).ToArray());
            Assert.Equal(Enumerable.Range(0, Size).Select(r => r * 100 + Rank).ToArray(), blocks);

            var bad = (int[])counts.Clone();
            bad[Size - 1] += 5;
            Assert.Throws<ArgumentException>(() => world.AllgathervInPlace(new double[total], bad, displs));
        }

        [Fact]
        public void IreduceScatter()
        {
            var counts = Enumerable.Range(1, Size).ToArray();
            int total = counts.Sum();
            var send = Enumerable.Range(0, total).Select(i => (double)(i + Rank)).ToArray();
            var mine = new double[counts[Rank]];
            using (var req = world.IreduceScatter(send, mine, counts, Op.Sum)) req.Wait();
            int start = counts.Take(Rank).Sum();
            for (int i = 0; i < counts[Rank]; i++)
                Assert.Equal(Enumerable.Range(0, Size).Sum(r => (double)(start + i + r)), mine[i]);
            Assert.Throws<ArgumentException>(() => world.IreduceScatter(send, new double[counts[Rank] + 1], counts, Op.Sum));
        }

        [Fact]
        public void NeighbourVCollectives()
        {
            int left = (Rank - 1 + Size) % Size, right = (Rank + 1) % Size;
            using var g = world.CreateDistGraph(new[] { left }, new[] { right });
            var got = Enumerable.Repeat(-1L, left + 2).ToArray();
            g.NeighborAllgatherv(Enumerable.Repeat((long)Rank, Rank + 1).ToArray(), got, new[] { left + 1 }, new[] { 1 });
            Assert.Equal(new[] { -1L }.Concat(Enumerable.Repeat((long)left, left + 1)).ToArray(), got);
            var into = new int[left + 1];
            g.NeighborAlltoallv(Enumerable.Repeat(Rank, Rank + 1).ToArray(), new[] { Rank + 1 }, new[] { 0 }, into,
                                new[] { left + 1 }, new[] { 0 });
            Assert.All(into, v => Assert.Equal(left, v));
            Assert.Throws<ArgumentException>(() => g.NeighborAllgatherv(new double[1], new double[1], new[] { 1, 1 }, new[] { 0, 0 }));
        }
    }
}
