namespace Oompi.Tests
{
    public struct Sample
    {
        public int Id;
        public double Value;
    }

    /// <summary>Generic collectives and nonblocking calls over arrays, spans and Memory of any unmanaged T.</summary>
    public class GenericTests : WorldTests
    {
        [Fact]
        public void StructArraysThroughCollectives()
        {
            var mine = new[] { new Sample { Id = Rank, Value = Rank * 0.5 } };
            var all = new Sample[Size];
            world.Allgather(mine, all);
            for (int r = 0; r < Size; r++)
            {
                Assert.Equal(r, all[r].Id);
                Assert.Equal(r * 0.5, all[r].Value);
            }
            var root = Rank == 0 ? all : new Sample[0];
            var one = new Sample[1];
            world.Scatter(root, one, 0);
            Assert.Equal(Rank, one[0].Id);
            var b = new Sample[2];
            if (Rank == Size - 1) b[1] = new Sample { Id = 42, Value = 4.2 };
            world.Bcast(b, Size - 1);
            Assert.Equal(42, b[1].Id);
        }

        [Fact]
        public void SpansOfPrimitives()
        {
            Span<long> buf = stackalloc long[3];
            buf.Fill(Rank + 1);
            Span<long> sum = stackalloc long[3];
            world.Allreduce((ReadOnlySpan<long>)buf, sum, Op.Sum);
            Assert.Equal((long)Size * (Size + 1) / 2, sum[2]);
            world.AllreduceInPlace(buf, Op.Max);
            Assert.Equal(Size, buf[0]);
            Span<int> mine = stackalloc int[] { Rank };
            var all = new int[Size];
            world.Allgather((ReadOnlySpan<int>)mine, all.AsSpan());
            Assert.Equal(Size - 1, all[Size - 1]);
        }

        [Fact]
        public void MemoryInNonblockingCalls()
        {
            var backing = new double[10];
            Memory<double> window = backing.AsMemory(2, 4);
            if (Rank == 0) window.Span.Fill(7.5);
            using (var r = world.Ibcast(window, 0)) r.Wait();
            Assert.Equal(7.5, backing[5]);
            Assert.Equal(0.0, backing[6]);  // outside the window: untouched
            Assert.Equal(0.0, backing[1]);
            var sum = new double[4];
            using (var r = world.Iallreduce((ReadOnlyMemory<double>)window, sum.AsMemory(), Op.Sum)) r.Wait();
            Assert.Equal(7.5 * Size, sum[0]);
            // a ring over Memory: the request pins the array until it completes
            var into = new int[1];
            using var recv = world.Irecv(into.AsMemory(), (Rank + Size - 1) % Size, 3);
            using var send = world.Isend(new[] { Rank }, (Rank + 1) % Size, 3);
            GC.Collect();
            recv.Wait();
            send.Wait();
            Assert.Equal((Rank + Size - 1) % Size, into[0]);
        }

        [Fact]
        public void BadBuffersAreRefused()
        {
            Assert.Throws<ArgumentNullException>(() => world.Bcast((Sample[])null!, 0));
            Assert.Throws<ArgumentException>(() => world.Allgather(new[] { 1 }, new int[Size + 1]));
        }
    }
}
