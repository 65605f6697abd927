namespace Oompi.Tests
{
    /// <summary>Communicators, groups, topologies and intercommunicators, with the bad inputs.</summary>
    public class CommTests : WorldTests
    {
        [Fact]
        public void SplitOrdersByKey()
        {
            using (var half = world.Split(Rank % 2, -Rank))
            {
                Assert.Equal((Size + 1 - Rank % 2) / 2, half.Size);
                Assert.Equal((Size - 1 - Rank) / 2, half.Rank);
                var total = new int[1];
                half.Allreduce(new[] { 1 }, total, Op.Sum);
                Assert.Equal(half.Size, total[0]);
                Assert.Equal(Size == 1 ? Comparison.Congruent : Comparison.Unequal, world.Compare(half));
            }
            var none = world.Split(Rank == 0 ? Mpi.Undefined : 1);
            Assert.Equal(Rank == 0, none.IsNull());
            none.Dispose();
            Assert.Throws<ArgumentException>(() => world.Split(-4));
        }

        [Fact]
        public void GroupsAndCreate()
        {
            using var g = world.GetGroup();
            using var first = g.Incl(new[] { 0 });
            using var rest = g.SetDifference(first);
            Assert.Equal(Size, g.Size);
            Assert.Equal(Rank, g.Rank);
            Assert.Equal(Rank == 0 ? 0 : Mpi.Undefined, first.Rank);
            Assert.Equal(Comparison.Ident, g.Compare(first.SetUnion(rest)));
            Assert.Equal(new[] { Mpi.Undefined }, g.TranslateRanks(new[] { 0 }, rest));
            Assert.Throws<ArgumentOutOfRangeException>(() => g.Incl(new[] { Size }));
            Assert.Throws<ArgumentNullException>(() => g.Incl(null!));
            using (var only0 = world.Create(first))
                Assert.Equal(Rank != 0, only0.IsNull());
            using var dup = world.Dup();
            dup.Name = "cs-dup";
            Assert.Equal("cs-dup", dup.Name);
            Assert.Equal(Comparison.Congruent, world.Compare(dup));
            g.Dispose();
            Assert.Throws<ObjectDisposedException>(() => g.Size);
        }

        [Fact]
        public void CartesianRingShiftsAndGathersNeighbours()
        {
            int[] dims = CartComm.DimsCreate(Size, new[] { 0 });
            Assert.Equal(new[] { Size }, dims);
            using (var ring = world.CreateCart(dims, new[] { 1 }))
            {
                Assert.Equal(TopologyKind.Cartesian, ring.Topology());
                Assert.Equal(1, ring.Ndims);
                int me = ring.Rank;
                Assert.Equal(new[] { me }, ring.Coords());
                using var s = ring.Shift(0, 1);
                Assert.Equal((me + 1) % Size, s.Dest);
                Assert.Equal((me + Size - 1) % Size, s.Source);
                var got = new[] { -1, -1 };
                ring.NeighborAllgather(new[] { me }, got);
                Assert.Equal(new[] { (me + Size - 1) % Size, (me + 1) % Size }, got);
                Assert.Throws<ArgumentOutOfRangeException>(() => ring.Shift(2, 1));
                Assert.Throws<ArgumentException>(() => ring.NeighborAllgather(new int[1], new int[7]));
            }
            Assert.Throws<ArgumentException>(() => world.CreateCart(new[] { Size }, new[] { 0, 0 }));
        }

        [Fact]
        public void DistributedGraphRing()
        {
            using var g = world.CreateDistGraph(new[] { (Rank + Size - 1) % Size }, new[] { (Rank + 1) % Size });
            Assert.Equal(new[] { (Rank + 1) % Size }, g.Destinations());
            Assert.Equal(1, g.InDegree);
            var got = new long[] { -1 };
            using (var r = g.IneighborAlltoall(new long[] { Rank }, got))
                r.Wait();
            Assert.Equal((Rank + Size - 1) % Size, got[0]);
        }

        [Fact]
        public void IntercommunicatorBetweenHalves()
        {
            if (Size < 2)
            {
                Assert.Throws<ArgumentOutOfRangeException>(() => Comm.Self().CreateIntercomm(1, world, 0, 0));
                return;
            }
            int color = Rank < Size / 2 ? 0 : 1;
            using var half = world.Split(color, Rank);
            using var x = half.CreateIntercomm(0, world, color == 0 ? Size / 2 : 0, 3);
            Assert.True(x.IsInter());
            Assert.Equal(color == 0 ? Size - Size / 2 : Size / 2, x.RemoteSize);
            if (half.Rank == 0)
            {
                var into = new[] { -1 };
                x.Sendrecv(new[] { color }, 0, 0, into, 0, 0);
                Assert.Equal(1 - color, into[0]);
            }
            var sum = new long[1];
            x.Allreduce(new long[] { Rank }, sum, Op.Sum);  // the other group's sum
            long lo = (Size / 2) * (Size / 2 - 1) / 2;
            Assert.Equal(color == 0 ? Size * (Size - 1) / 2 - lo : lo, sum[0]);
            Assert.Throws<InvalidOperationException>(() => x.AllreduceInPlace(new int[1], Op.Sum));
            using var merged = x.Merge(color == 1);
            Assert.Equal(Rank, merged.Rank);
            Assert.Equal(Size, merged.Size);
        }
    }
}
