namespace Oompi.Tests
{
    /// <summary>Span overloads of the blocking calls (pinned with fixed), and their bad inputs.</summary>
    public class SpanTests : WorldTests
    {
        [Fact]
        public void RingWithSpansOfSeveralTypes()
        {
            // A slice of a larger array: only the slice travels, the rest is untouched.
            var output = new long[] { -9, Rank * 10L, Rank * 10L + 1, -9 };
            var input = new long[] { 5, 5, 5, 5 };
            Status s = world.Sendrecv<long>(output.AsSpan(1, 2), Next, 3, input.AsSpan(1, 2), Prev, 3);
            Assert.Equal(new long[] { 5, Prev * 10L, Prev * 10L + 1, 5 }, input);
            Assert.Equal(Prev, s.Source);
            Assert.Equal(2, s.GetCount(Datatype.Long));

            // Stack memory: send with Send(Span), receive with Recv(Span).
            Span<double> d = stackalloc double[3];
            for (int i = 0; i < 3; i++) d[i] = Rank + i * 0.25;
            Span<double> r = stackalloc double[3];
            if (Size == 1)
            {
                world.Sendrecv<double>(d, 0, 4, r, 0, 4);
            }
            else if (Rank % 2 == 0)
            {
                world.Send<double>(d, Next, 4);
                world.Recv(r, Prev, 4);
            }
            else
            {
                world.Recv(r, Prev, 4);
                world.Send<double>(d, Next, 4);
            }
            for (int i = 0; i < 3; i++) Assert.Equal(Prev + i * 0.25, r[i]);
        }

        [Fact]
        public void EmptySpanAndTruncation()
        {
            var empty = Span<int>.Empty;
            Status s = world.Sendrecv<int>(empty, Next, 5, empty, Prev, 5);
            Assert.Equal(0, s.GetCount(Datatype.Int));
            // Two ints into a span of one: MPI reports truncation as an MpiException. (Open MPI
            // 4.1's MPI_Sendrecv to self does not report it, so only between two processes.)
            if (Size == 1) return;
            var two = new int[] { 1, 2 };
            var one = new int[1];
            Assert.Throws<MpiException>(() => world.Sendrecv<int>(two.AsSpan(), Next, 6, one.AsSpan(), Prev, 6));
        }

        [Fact]
        public void NullArrayIsNotAnEmptySpan()
        {
            Assert.Throws<ArgumentNullException>(() => world.Send((int[])null, Next, 0));
            Assert.Throws<ArgumentNullException>(() => world.Recv((double[])null, Prev, 0));
        }

        [Fact]
        public void BadRankThroughSpanOverload()
        {
            var a = new int[1];
            var e = Assert.Throws<MpiException>(() => world.Send<int>(a.AsSpan(), Size + 3, 0));
            Assert.Equal(Mpi.ErrRank, e.ErrorClass);
        }
    }
}
