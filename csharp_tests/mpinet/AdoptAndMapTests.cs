using System;
using System.Linq;
using System.Runtime.InteropServices;
using MPI;
using Xunit;

namespace MpiNetTests
{
    /// <summary>Communicator.Adopt of a C handle, and CartesianCommunicator/GraphCommunicator.Map.</summary>
    public class AdoptAndMapTests
    {
        static Intracommunicator W => Communicator.world;

        // The C handle of a communicator, as C code in the process would hold it. Open MPI:
        // MPI_Comm_f2c of its Fortran handle (MPI_Comm is a pointer). MPICH: MPI_Comm is an int
        // and MPI_Comm_f2c a macro that returns the Fortran handle itself.
        static IntPtr CHandleOf(Communicator c) => CHandleOf((int)Oompi.Interop.CommToFortran(c.Comm));

        static unsafe IntPtr CHandleOf(int fortran)
        {
            if (Oompi.MpiEnvironment.LibraryVersion().Contains("MPICH")) return (IntPtr)fortran;
            IntPtr f2c = NativeLibrary.GetExport(NativeLibrary.Load("libmpi.so.40"), "MPI_Comm_f2c");
            return ((delegate* unmanaged<int, IntPtr>)f2c)(fortran);
        }

        [Fact]
        public void AdoptWrapsAHandleWithoutOwningIt()
        {
            var dup = (Intracommunicator)W.Clone();
            var adopted = Intracommunicator.Adopt(CHandleOf(dup));
            Assert.Equal(Comparison.Identical, adopted.Compare(dup));
            Assert.Equal(W.Size, adopted.Size);
            Assert.Equal(W.Rank, adopted.Rank);
            Assert.Equal(W.Size * (W.Size - 1) / 2, adopted.Allreduce(adopted.Rank, Operation<int>.Add));
            Assert.IsType<Intracommunicator>(Communicator.Adopt(CHandleOf(dup)));
            adopted.Dispose();  // forgets the handle; dup still owns it
            Assert.Throws<ObjectDisposedException>(() => adopted.Rank);
            Assert.Equal(W.Size, dup.Allreduce(1, Operation<int>.Add));
            dup.Dispose();
            Assert.Throws<ArgumentException>(() => Communicator.Adopt(IntPtr.Zero));
        }

        [Fact]
        public void AdoptRefusesIntercommunicators()
        {
            if (W.Size < 2) return;
            using var local = (Intracommunicator)W.Split(W.Rank % 2, W.Rank);
            using var inter = new Intercommunicator(local, 0, W, W.Rank % 2 == 0 ? 1 : 0, 41);
            IntPtr handle = CHandleOf(inter);
            Assert.Throws<NotSupportedException>(() => Communicator.Adopt(handle));
            Assert.Equal(inter.RemoteSize, inter.Allreduce(1, Operation<int>.Add));  // untouched
        }

        [Fact]
        public void CartesianMap()
        {
            int p = W.Size;
            // A grid of all processes: everyone gets a rank of it; a grid of one: only one does.
            int r = CartesianCommunicator.Map(W, 2, new[] { p, 1 }, new[] { false, true });
            Assert.InRange(r, 0, p - 1);
            Assert.Equal(p * (p - 1) / 2, W.Allreduce(r, Operation<int>.Add));  // a permutation
            int one = CartesianCommunicator.Map(W, 1, new[] { 1 }, new[] { false });
            Assert.Equal(1, W.Allreduce(one == Oompi.Mpi.Undefined ? 0 : 1, Operation<int>.Add));
            Assert.ThrowsAny<ArgumentException>(() => CartesianCommunicator.Map(W, 1, new[] { p + 1 }, new[] { false }));
            Assert.ThrowsAny<ArgumentException>(() => CartesianCommunicator.Map(W, 1, new[] { 0 }, new[] { false }));
            Assert.ThrowsAny<ArgumentException>(() => CartesianCommunicator.Map(W, 2, new[] { 1 }, new[] { false }));
            Assert.Throws<ArgumentNullException>(() => CartesianCommunicator.Map(null, 1, new[] { 1 }, new[] { false }));
        }

        [Fact]
        public void GraphMap()
        {
            int p = W.Size;
            // A ring of all processes, then a graph of one node.
            var ring = new int[p][];
            for (int i = 0; i < p; i++) ring[i] = p == 1 ? new int[0] : new[] { (i + 1) % p, (i + p - 1) % p };
            int r = GraphCommunicator.Map(W, ring);
            Assert.Equal(p * (p - 1) / 2, W.Allreduce(r, Operation<int>.Add));
            int one = GraphCommunicator.Map(W, new[] { new int[0] });
            Assert.Equal(1, W.Allreduce(one == Oompi.Mpi.Undefined ? 0 : 1, Operation<int>.Add));
            Assert.ThrowsAny<ArgumentException>(() => GraphCommunicator.Map(W, new[] { new[] { 5 } }));
            Assert.ThrowsAny<ArgumentException>(() => GraphCommunicator.Map(W, new int[p + 1][].Select(_ => new int[0]).ToArray()));
            Assert.Throws<ArgumentNullException>(() => GraphCommunicator.Map(W, new int[][] { null }));
        }
    }
}
