using System.Runtime.InteropServices;

namespace Oompi.Tests
{
    public enum Color : short { Red = 1, Green = 2 }

    public unsafe struct Particle
    {
        public double X;
        public int Id;
        public bool Flag;
        public Color Color;
        public fixed int A[3];
        public Inner Inner;
    }

    public struct Inner
    {
        public byte B;
        public long L;
    }

    public struct DoubleIndex
    {
        public double Value;
        public int Index;
    }

    public struct WithPointer
    {
        public IntPtr P;
    }

    /// <summary>Explicit datatypes (MpiBuffer.WithType), MAXLOC pairs, and struct datatypes by reflection.</summary>
    public class TypedTests : WorldTests
    {
        [Fact]
        public void VectorBlockOfAnArray()
        {
            var a = new double[25];
            for (int i = 0; i < 25; i++) a[i] = Rank == 0 ? i : -1;
            using (var blk = Datatype.Vector(3, 3, 5, Datatype.Double))
                world.Bcast(MpiBuffer.Of(a, 1, blk), 0);
            for (int i = 0; i < 25; i++)
                Assert.Equal(Rank == 0 || (i % 5 < 3 && i / 5 < 3) ? i : -1.0, a[i]);
        }

        private static unsafe Particle Make(int k)
        {
            var p = new Particle { X = k * 0.5, Id = k, Flag = k % 2 == 1, Color = (Color)(k % 2 + 1) };
            for (int i = 0; i < 3; i++) p.A[i] = k * 10 + i;
            p.Inner.B = (byte)k;
            p.Inner.L = -k * 1000L;
            return p;
        }

        private static unsafe void Check(Particle p, int k)
        {
            Assert.Equal(k * 0.5, p.X);
            Assert.Equal(k, p.Id);
            Assert.Equal(k % 2 == 1, p.Flag);
            Assert.Equal((Color)(k % 2 + 1), p.Color);
            for (int i = 0; i < 3; i++) Assert.Equal(k * 10 + i, p.A[i]);
            Assert.Equal((byte)k, p.Inner.B);
            Assert.Equal(-k * 1000L, p.Inner.L);
        }

        [Fact]
        public unsafe void StructArraysByReflection()
        {
            var t = StructDatatype.Of<Particle>();
            Assert.Same(t, StructDatatype.Of<Particle>());  // built once
            Assert.Equal(sizeof(Particle), t.Extent);
            Assert.Equal(8 + 4 + 1 + 2 + 12 + 1 + 8, t.Size);  // data only, no padding

            var output = new Particle[4];
            for (int k = 0; k < 4; k++) output[k] = Make(Rank * 100 + k);
            var input = new Particle[4];
            Status s = world.Sendrecv(output, Next, 1, input, Prev, 1);
            Assert.Equal(4, s.GetCount(t));
            for (int k = 0; k < 4; k++) Check(input[k], Prev * 100 + k);

            // Nonblocking: the request pins the arrays until it completes.
            var got = new Particle[2];
            using (Request r = world.Irecv(MpiBuffer.Of(got), Prev, 2))
            using (Request w = world.Isend(MpiBuffer.Of(output, 1, 2), Next, 2))
            {
                GC.Collect();
                r.Wait();
                w.Wait();
            }
            Check(got[0], Prev * 100 + 1);
            Check(got[1], Prev * 100 + 2);
        }

        [Fact]
        public void MaxLocOverDoubleIntPairs()
        {
            Assert.Equal(Marshal.SizeOf<DoubleIndex>(), Datatype.DoubleInt.Extent);
            var ain = new DoubleIndex[30];
            for (int k = 0; k < 30; k++) ain[k] = new DoubleIndex { Value = (Rank + 1) * (k + 3) % 7, Index = Rank };
            var aout = new DoubleIndex[30];
            world.Allreduce(MpiBuffer.Of(ain).WithType(Datatype.DoubleInt), MpiBuffer.Of(aout).WithType(Datatype.DoubleInt, 30),
                            Op.MaxLoc);
            for (int k = 0; k < 30; k++)
            {
                int best = 0;
                for (int r = 1; r < Size; r++)
                    if ((r + 1) * (k + 3) % 7 > (best + 1) * (k + 3) % 7) best = r;
                Assert.Equal((best + 1) * (k + 3) % 7, aout[k].Value);
                Assert.Equal(best, aout[k].Index);
            }
        }

        [Fact]
        public void BadTypedBuffers()
        {
            using (var blk = Datatype.Vector(3, 3, 5, Datatype.Double))  // spans 13 doubles
            {
                Assert.Throws<ArgumentOutOfRangeException>(() => world.Bcast(MpiBuffer.Of(new double[12], 1, blk), 0));
                Assert.Throws<ArgumentOutOfRangeException>(() => world.Send(MpiBuffer.Of(new double[25], 2, blk), Rank, 0));
                Assert.Throws<ArgumentOutOfRangeException>(() => MpiBuffer.Of(new double[25], -2, blk));
                Assert.Throws<ArgumentNullException>(() => MpiBuffer.Of(new double[25], 1, null));
                // Nonblocking, refused before MPI: the pin is released (no leak, no hang).
                Assert.Throws<ArgumentOutOfRangeException>(() => world.Irecv(MpiBuffer.Of(new double[12], 1, blk), Rank, 0));
            }
            var closed = Datatype.Vector(2, 1, 2, Datatype.Int);
            var typed = MpiBuffer.Of(new int[4], 1, closed);
            closed.Dispose();
            Assert.Throws<ObjectDisposedException>(() => world.Bcast(typed, 0));
            Assert.Throws<ArgumentException>(() => MpiBuffer.Of(new WithPointer[1]));
        }
    }
}
