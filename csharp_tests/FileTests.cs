using System.IO;

namespace Oompi.Tests
{
    /// <summary>
    /// MPI-IO from C# (Oompi.MpiFile over the C++ core's oompi::file): explicit offsets, a view
    /// with the individual pointer, ordered writes, a subarray view, a short read at the end of
    /// the file, nonblocking calls on pinned arrays, errors, <c>using</c>. Files are disposed at
    /// the end of each test rather than by <c>using</c> around assertions: closing is collective,
    /// and a rank leaving early by a failed assertion would wait there for the others.
    /// </summary>
    public class FileTests : WorldTests
    {
        private string PathFor(string test)
        {
            var pid = new long[] { Environment.ProcessId };  // rank 0's: one name for all ranks
            world.Bcast(pid, 0);
            return System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"oompi_csio_{pid[0]}_{test}.bin");
        }

        private void Cleanup(string path)
        {
            world.Barrier();
            if (Rank == 0 && File.Exists(path)) MpiFile.Remove(path);  // System.IO.File beside MpiFile
            world.Barrier();
        }

        private void Sync(MpiFile f)  // sync-barrier-sync: other ranks' writes become visible
        {
            f.Sync();
            world.Barrier();
            f.Sync();
        }

        private static int[] Range(int n, int first)
        {
            var a = new int[n];
            for (int i = 0; i < n; i++) a[i] = first + i;
            return a;
        }

        [Fact]
        public void OffsetsPointersOrdered()
        {
            string path = PathFor("offsets");
            const int n = 4;
            var f = MpiFile.Open(world, path, Mpi.ModeCreate | Mpi.ModeRdwr);
            Assert.Equal(n * 4, f.WriteAt(Rank * n * 4L, Range(n, 100 * Rank)).CountBytes);
            Sync(f);
            Assert.Equal(Size * n * 4L, f.Size);
            int left = (Rank + Size - 1) % Size;
            var got = new int[n];
            Assert.Equal(n, f.ReadAtAll(left * n * 4L, got).GetCount(Datatype.Int));
            Assert.Equal(Range(n, 100 * left), got);
            Sync(f);
            f.SetView(Rank * n * 4L, Datatype.Int, Datatype.Int);
            f.WriteAll(Range(n, 7 * Rank));
            Assert.Equal(n, f.Position);
            Sync(f);  // OMPIO's collective write may still be writing this block on an aggregator
            f.Seek(-1, SeekFrom.Current);
            var last = new int[1];
            f.Read(last);
            Assert.Equal(7 * Rank + n - 1, last[0]);
            Sync(f);
            f.SetView(0, Datatype.Byte, Datatype.Byte);
            f.SetSize(0);
            world.Barrier();
            f.WriteOrdered(new[] { Rank, Rank });
            Sync(f);
            var all = new int[2 * Size];
            f.ReadAt(0, all);
            for (int r = 0; r < Size; r++) Assert.Equal(new[] { r, r }, all[(2 * r)..(2 * r + 2)]);
            f.Dispose();
            f.Dispose();  // idempotent
            Cleanup(path);
        }

        [Fact]
        public void SubarrayViewShortReadNonblocking()
        {
            string path = PathFor("subarray");
            int cols = 2 * Size;
            var block = Datatype.Subarray(new[] { 2, cols }, new[] { 2, 2 }, new[] { 0, 2 * Rank },
                                          Datatype.Int);
            var f = MpiFile.Open(world, path, Mpi.ModeCreate | Mpi.ModeRdwr);
            f.SetView(0, Datatype.Int, block);
            f.WriteAll(new[] { 2 * Rank, 2 * Rank + 1, cols + 2 * Rank, cols + 2 * Rank + 1 });
            Sync(f);
            f.SetView(0, Datatype.Int, Datatype.Int);
            var whole = new int[2 * cols];
            f.ReadAtAll(0, whole);
            Assert.Equal(Range(2 * cols, 0), whole);
            var tail = new int[4];  // 4 ints from the last 2: the status says 2
            Assert.Equal(2, f.ReadAtAll(2L * cols - 2, tail).GetCount(Datatype.Int));
            Assert.Equal(new[] { 2 * cols - 2, 2 * cols - 1 }, tail[..2]);
            // nonblocking: the request keeps the array pinned until it completes
            var mine = new int[2];
            using (var r = f.IreadAt(2L * Rank, mine))
                Assert.Equal(2, r.Wait().GetCount(Datatype.Int));
            Assert.Equal(new[] { 2 * Rank, 2 * Rank + 1 }, mine);
            Sync(f);
            using (var w = f.IwriteAt(2L * Rank, new[] { -Rank, -Rank })) w.Wait();
            Sync(f);
            f.ReadAt(0, whole);
            for (int r = 0; r < Size; r++) Assert.Equal(-r, whole[2 * r]);
            f.Dispose();
            block.Dispose();
            Cleanup(path);
        }

        [Fact]
        public void Errors()
        {
            string path = PathFor("errors");
            string missing = path + ".missing";
            var e = Assert.Throws<MpiException>(() => MpiFile.Open(world, missing, Mpi.ModeRdonly));
            Assert.Equal(Mpi.ErrNoSuchFile, e.ErrorClass);
            e = Assert.Throws<MpiException>(() => MpiFile.Remove(missing));
            Assert.Equal(Mpi.ErrNoSuchFile, e.ErrorClass);
            var f = MpiFile.Open(world, path, Mpi.ModeCreate | Mpi.ModeRdwr);
            Assert.ThrowsAny<ArgumentException>(() => f.WriteAt(-4, new int[1]));
            Assert.ThrowsAny<ArgumentException>(() => f.SetSize(-1));
            f.Dispose();
            Assert.Throws<ObjectDisposedException>(() => f.ReadAt(0, new int[1]));
            Assert.Throws<ObjectDisposedException>(() => f.Size);
            using (var g = MpiFile.Open(world, path, Mpi.ModeRdonly))  // closed (collectively) by using
                world.Barrier();
            e = Assert.Throws<MpiException>(
                () => MpiFile.Open(world, path, Mpi.ModeCreate | Mpi.ModeExcl | Mpi.ModeWronly));
            Assert.Equal(Mpi.ErrFileExists, e.ErrorClass);
            Cleanup(path);
        }

        /// <summary>Hints at open, GetInfo, GetView, and the split collectives (the array is
        /// pinned by the file from begin to end).</summary>
        [Fact]
        public void HintsViewSplitCollectives()
        {
            string path = PathFor("split");
            const int n = 4;
            MpiFile f;
            using (var hints = Info.Create())
            {
                hints.Set("cb_buffer_size", "1048576");
                f = MpiFile.Open(world, path, Mpi.ModeCreate | Mpi.ModeRdwr, hints);
            }
            using (var used = f.GetInfo())
                foreach (var k in used.Keys()) Assert.NotEmpty(used.Get(k));
            var v = f.GetView();
            Assert.Equal(0, v.Displacement);
            Assert.Equal("native", v.Datarep);
            f.SetView(Rank * n * 4L, Datatype.Int, Datatype.Int);
            v = f.GetView();
            Assert.Equal(Rank * n * 4L, v.Displacement);
            Assert.Equal(4, v.Etype.Size);
            f.WriteAllBegin(Range(n, 10 * Rank));  // a temporary array: pinned until the end
            GC.Collect();
            Assert.Throws<InvalidOperationException>(() => f.WriteAllBegin(new int[1]));
            Assert.Throws<InvalidOperationException>(() => f.ReadAllEnd());
            Assert.Throws<InvalidOperationException>(() => f.Dispose());
            Assert.Equal(n, f.WriteAllEnd().GetCount(Datatype.Int));
            Assert.Throws<InvalidOperationException>(() => f.WriteAllEnd());
            Sync(f);
            f.Seek(0, SeekFrom.Set);
            var back = new int[n];
            f.ReadAllBegin(back);
            Assert.Equal(n, f.ReadAllEnd().GetCount(Datatype.Int));
            Assert.Equal(Range(n, 10 * Rank), back);
            f.Dispose();
            Assert.Throws<ObjectDisposedException>(() => f.GetView());
            // hints closed on one process only: every process throws the same
            // (disposed through a second reference: `one` itself stays open, so the call
            // reaches MPI)
            var one = Info.Create();
            var refs = new InfoVector { one };
            if (Rank == 0) refs[0].Dispose();
            Assert.Throws<ObjectDisposedException>(() => MpiFile.Open(world, path, Mpi.ModeRdonly, one));
            one.Dispose();
            Cleanup(path);
        }
    }
}
