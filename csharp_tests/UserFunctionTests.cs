namespace Oompi.Tests
{
    public struct Complex
    {
        public double Re, Im;
    }

    /// <summary>User ops: typed spans, delegates, structs, raw bytes, order, and exceptions.</summary>
    public class UserFunctionTests : WorldTests
    {
        private sealed class SumDoubles : UserFunction<double>
        {
            protected override void Invoke(ReadOnlySpan<double> input, Span<double> inOut)
            {
                for (int i = 0; i < input.Length; i++) inOut[i] += input[i];
            }
        }

        private sealed class Boom : Exception
        {
            public Boom() : base("boom from a user function") { }
        }

        [Fact]
        public void TypedSpansSumInPlace()
        {
            using var op = Op.Create(new SumDoubles());
            var a = new double[1000];
            for (int i = 0; i < a.Length; i++) a[i] = i * (Rank + 1);
            var r = new double[1000];
            world.Allreduce(a, r, op);
            for (int i = 0; i < r.Length; i++) Assert.Equal(i * Size * (Size + 1) / 2.0, r[i]);
        }

        [Fact]
        public void DelegateOverComplexStructs()
        {
            // Complex product: not a predefined op on a struct type.
            using var op = Op.Create<Complex>((input, inOut) =>
            {
                for (int i = 0; i < input.Length; i++)
                {
                    var x = input[i];
                    var y = inOut[i];
                    inOut[i] = new Complex { Re = x.Re * y.Re - x.Im * y.Im, Im = x.Re * y.Im + x.Im * y.Re };
                }
            });
            var mine = new[] { new Complex { Re = 0, Im = 1 } };  // i on every rank
            var prod = new Complex[1];
            world.Allreduce(mine, prod, op);
            // i^Size
            double[] re = { 1, 0, -1, 0 }, im = { 0, 1, 0, -1 };
            Assert.Equal(re[Size % 4], prod[0].Re);
            Assert.Equal(im[Size % 4], prod[0].Im);
        }

        [Fact]
        public void NonCommutativeKeepsRankOrder()
        {
            using var op = Op.Create<int>((input, inOut) => input.CopyTo(inOut), commutative: false);
            Assert.False(op.IsCommutative());
            var r = new int[2];
            world.Allreduce(new[] { Rank + 10, Rank }, r, op);
            Assert.Equal(new[] { 10, 0 }, r);
        }

        [Fact]
        public void ExceptionSurfacesAsInnerException()
        {
            var boom = new Boom();
            using var op = Op.Create<int>((input, inOut) => throw boom);
            int threw = 0;
            try
            {
                world.Allreduce(new[] { 1 }, new int[1], op);
            }
            catch (UserFunctionException e)
            {
                Assert.Same(boom, e.InnerException);
                threw = 1;
            }
            var any = new int[1];
            world.Allreduce(new[] { threw }, any, Op.Max);  // the communicator still works
            Assert.Equal(Size > 1 ? 1 : 0, any[0]);      // one rank alone combines nothing
        }

        [Fact]
        public void WrongElementSizeIsReported()
        {
            using var op = Op.Create(new SumDoubles());
            int refused = 0;
            try
            {
                world.Allreduce(new[] { 1, 2 }, new int[2], op);  // ints through a double function
            }
            catch (UserFunctionException e)
            {
                Assert.IsType<ArgumentException>(e.InnerException);
                refused = 1;
            }
            var any = new int[1];
            world.Allreduce(new[] { refused }, any, Op.Max);
            Assert.Equal(Size > 1 ? 1 : 0, any[0]);
            Assert.Throws<ArgumentNullException>(() => Op.Create((NativeUserFunction)null!));
            Assert.Throws<ArgumentNullException>(() => Op.Create<int>(null!));
        }
    }
}
