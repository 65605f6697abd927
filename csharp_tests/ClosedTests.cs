namespace Oompi.Tests
{
    /// <summary>
    /// Disposed handles passed as arguments (every kind: Comm and its subclasses, Group, Op,
    /// Datatype, Request, and the RequestVector / DatatypeVector that carry them) give
    /// ObjectDisposedException naming the class and the parameter, as a call on a disposed handle
    /// does; null gives ArgumentNullException. Every message names C#'s classes and methods
    /// (Window.Put, MpiFile.WriteAt), never the C++ facade's (oompi::rt::file, file.write_at).
    /// Run by csharp.closed.
    /// </summary>
    public class ClosedTests
    {
        private readonly Comm world = Comm.World();

        private static void Disposed(string cls, Action call)
        {
            var e = Assert.Throws<ObjectDisposedException>(call);
            Assert.Contains(cls, e.Message);
            Assert.Contains("disposed", e.Message);
        }

        [Fact]
        public void DisposedComm()
        {
            var dup = world.Dup();
            dup.Dispose();
            Disposed("Comm", () => world.Compare(dup));
            Disposed("Comm", () => Comm.Self().CreateIntercomm(0, dup, 0, 0));
            Disposed("Comm", () => dup.Compare(world));  // the handle itself, as before
            var cart = world.CreateCart(new[] { world.Size }, new[] { 0 });
            cart.Dispose();
            Disposed("Comm", () => world.Compare(cart));
            Assert.Throws<ArgumentNullException>(() => world.Compare(null));
            Assert.Equal(Comparison.Ident, world.Compare(world));  // still usable
        }

        [Fact]
        public void DisposedGroup()
        {
            using var g = world.GetGroup();
            var h = world.GetGroup();
            h.Dispose();
            Disposed("Group", () => g.Compare(h));
            Disposed("Group", () => g.SetUnion(h));
            Disposed("Group", () => g.TranslateRanks(new[] { 0 }, h));
            Disposed("Group", () => world.Create(h));
            Assert.Throws<ArgumentNullException>(() => g.Compare(null));
        }

        [Fact]
        public void DisposedOp()
        {
            var op = Op.Create<int>((input, inout) => { for (int i = 0; i < inout.Length; i++) inout[i] += input[i]; });
            var r = new int[1];
            world.Allreduce(new[] { 1 }, r, op);
            Assert.Equal(world.Size, r[0]);
            op.Dispose();
            Disposed("Op", () => world.Allreduce(new[] { 1 }, r, op));
            Disposed("Op", () => world.Reduce(new[] { 1 }, r, op, 0));
            Disposed("Op", () => world.Iallreduce(new[] { 1 }, r, op));
            Assert.Throws<ArgumentNullException>(() => world.Allreduce(new[] { 1 }, r, null));
            // A predefined op is a shared constant: disposing it does nothing.
            Op.Sum.Dispose();
            world.Allreduce(new[] { 2 }, r, Op.Sum);
            Assert.Equal(2 * world.Size, r[0]);
        }

        [Fact]
        public void DisposedDatatype()
        {
            var t = Datatype.Contiguous(2, Datatype.Int);
            t.Dispose();
            Disposed("Datatype", () => Datatype.Contiguous(2, t));
            Disposed("Datatype", () => Datatype.Resized(t, 0, 8));
            Disposed("Datatype", () => new DatatypeVector(new[] { Datatype.Int, t }));
            Disposed("Datatype", () => world.Send(MpiBuffer.Of(new int[4], 2, t), Mpi.ProcNull, 0));
            Assert.Throws<ArgumentNullException>(() => Datatype.Contiguous(2, null));
            var types = new DatatypeVector(new[] { Datatype.Int });
            types.Dispose();
            Disposed("DatatypeVector", () => Datatype.CreateStruct(new[] { 1 }, new long[] { 0 }, types));
            // Disposing a predefined type does nothing (a shared constant).
            Datatype.Int.Dispose();
            using var pair = Datatype.Contiguous(2, Datatype.Int);
            Assert.Equal(8, pair.Size);
        }

        [Fact]
        public void DisposedRequest()
        {
            var req = world.Irecv(new int[1], Mpi.ProcNull, 0);
            req.Wait();
            req.Dispose();
            Disposed("Request", () => new RequestVector(new[] { req }));
            var live = world.Irecv(new int[1], Mpi.ProcNull, 0);
            var set = new RequestVector(new[] { live });
            Request.WaitAll(set);
            set.Dispose();
            Disposed("RequestVector", () => Request.WaitAll(set));
            Disposed("RequestVector", () => Request.TestAny(set));
            Disposed("RequestVector", () => set.Add(live));  // the vector itself
            live.Dispose();
        }

        /// <summary>The message starts with C#'s Class.Method and names no C++ type.</summary>
        private static void CsNames(Exception e, string starts)
        {
            Assert.StartsWith(starts, e.Message);
            Assert.DoesNotContain("oompi::", e.Message);
        }

        [Fact]
        public void MessagesNameCsClassesAndMethods()
        {
            var dup = world.Dup();
            dup.Dispose();
            CsNames(Assert.Throws<ObjectDisposedException>(() => dup.Barrier()),
                "Comm.Barrier: this Comm has been disposed");
            CsNames(Assert.Throws<ObjectDisposedException>(() => _ = dup.Size),
                "Comm.Size: this Comm has been disposed");

            var win = Window.Create(world, new double[4]);
            win.Dispose();
            CsNames(Assert.Throws<ObjectDisposedException>(() => win.Put(new double[1], 0, 0)),
                "Window.Put: this Window has been disposed");
            CsNames(Assert.Throws<ObjectDisposedException>(() => win.Fence()),
                "Window.Fence: this Window has been disposed");

            string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(),
                $"oompi_closed_{Environment.ProcessId}.bin");
            try
            {
                var f = MpiFile.Open(Comm.Self(), path, Mpi.ModeCreate | Mpi.ModeRdwr);
                f.Dispose();
                CsNames(Assert.Throws<ObjectDisposedException>(() => f.WriteAt(0, new int[2])),
                    "MpiFile.WriteAt: this MpiFile has been disposed");
            }
            finally
            {
                System.IO.File.Delete(path);
            }
            // other facade messages: the leading Class.Method in C#'s names
            CsNames(Assert.ThrowsAny<ArgumentException>(() => Datatype.Contiguous(-1, Datatype.Int)),
                "Datatype.Contiguous: negative count");
        }
    }
}
