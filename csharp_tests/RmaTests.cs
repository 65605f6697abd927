namespace Oompi.Tests
{
    /// <summary>One-sided communication: every operation under fence, post-start-complete-wait,
    /// lock and LockAll, arrays pinned until the synchronisation, and the bad input.</summary>
    public class RmaTests : WorldTests
    {
        private int Right => Next;
        private int Left => Prev;

        [Fact]
        public void CreatePutGetFence()
        {
            var local = new double[] { -1, -1, -1, -1 };
            using (var win = Window.Create(world, local))
            {
                Assert.Equal(8, win.DispUnit);
                Assert.Equal(32, win.Size);
                Assert.Equal(Size, win.GroupSize);
                Assert.Equal(Rank, win.Rank);
                win.Fence((int)RmaMode.Noprecede);
                win.Put(new[] { Rank + 0.5, Rank + 1.5 }, Right, 1);  // pinned until the fence
                GC.Collect();
                win.Fence();
                Assert.Equal(new[] { -1, Left + 0.5, Left + 1.5, -1 }, local);
                var got = new double[2];
                win.Get(got, Left, 1);
                win.Fence();
                int ll = (Left + Size - 1) % Size;
                Assert.Equal(new[] { ll + 0.5, ll + 1.5 }, got);
                win.Put(MpiBuffer.Of(new double[] { 7, 8 }, 1, 1), Right, 3);  // a part of an array
                win.Fence();
                Assert.Equal(8.0, local[3]);
            }
        }

        [Fact]
        public void AllocateAccumulate()
        {
            using var win = Window.Allocate(world, 3, TypeKind.Int64);
            Assert.Equal(new long[] { 0, 0, 0 }, win.Memory<long>().ToArray());
            win.Fence();
            win.Accumulate(new long[] { Rank, 1, 2 }, 0, 0, Op.Sum);
            win.Fence();
            if (Rank == 0)
                Assert.Equal(new long[] { (long)Size * (Size - 1) / 2, Size, 2L * Size }, win.Memory<long>().ToArray());
            win.Fence();
            win.Accumulate(new long[] { Rank }, 0, 0, Op.Max);
            win.Fence();
            if (Rank == 0) Assert.Equal(Math.Max(Size - 1, (long)Size * (Size - 1) / 2), win.Memory<long>()[0]);
        }

        [Fact]
        public void LockFetchAndOpCompareAndSwap()
        {
            using var win = Window.Allocate(world, 2, TypeKind.Int32);
            win.Fence();
            var old = new int[1];
            using (win.Lock(0, LockType.Exclusive))
                win.FetchAndOp(new[] { 1 }, old, 0, 0, Op.Sum);
            var tickets = new int[Size];
            world.Allgather(old, tickets);
            Assert.Equal(Enumerable.Range(0, Size).ToArray(), tickets.OrderBy(t => t).ToArray());

            var res = new int[1];
            using (var e = win.Lock(0, LockType.Shared))
            {
                win.GetAccumulate(new[] { 0 }, res, 0, 0, Op.NoOp);
                e.Flush();
                Assert.Equal(Size, res[0]);  // flushed: valid before the unlock
            }
            world.Barrier();
            var swapped = new int[1];
            using (win.Lock(0))
                win.CompareAndSwap(new[] { 100 + Rank }, new[] { 0 }, swapped, 0, 1);
            var seen = new int[Size];
            world.Allgather(swapped, seen);
            Assert.Single(seen, v => v == 0);
            var fin = new int[1];
            using (win.Lock(0, LockType.Shared))
                win.Get(fin, 0, 1);
            Assert.Equal(100 + Array.IndexOf(seen, 0), fin[0]);
            win.Fence();
        }

        [Fact]
        public void LockAllFlush()
        {
            using var win = Window.Allocate(world, Size, TypeKind.Float64);
            world.Barrier();
            using (win.LockAll())
            {
                win.Put(new[] { Rank * 2.0 }, Right, Rank);
                win.Flush(Right);
                var prev = new double[1];
                win.GetAccumulate(new[] { 1.0 }, prev, Right, Rank, Op.Sum);
                win.FlushAll();
                Assert.Equal(Rank * 2.0, prev[0]);
            }
            world.Barrier();
            using (win.Lock(Rank)) { }  // see the public copy
            Assert.Equal(Left * 2.0 + 1.0, win.Memory<double>()[Left]);
        }

        [Fact]
        public void PostStartCompleteWait()
        {
            var local = new short[2];
            using var win = Window.Create(world, local);
            using var wg = world.GetGroup();
            using var to = wg.Incl(new[] { Right });
            using var from = wg.Incl(new[] { Left });
            using (win.Post(from))
            using (win.Start(to))
                win.Put(new short[] { (short)Rank, 7 }, Right, 0);
            Assert.Equal(new short[] { (short)Left, 7 }, local);
            var exposure = win.Post(from);
            var access = win.Start(to);
            var got = new short[1];
            win.Get(got, Right, 0);
            access.Dispose();
            while (!exposure.Test()) { }
            Assert.False(exposure.IsActive());
            exposure.Dispose();
            Assert.Equal(Rank, got[0]);  // right's element 0 holds its left neighbour: us
        }

        [Fact]
        public void BadInput()
        {
            var win = Window.Allocate(world, 4, TypeKind.Float64);
            win.Fence();
            Assert.Throws<ArgumentOutOfRangeException>(() => win.Put(new double[1], Size, 0));
            Assert.Throws<ArgumentOutOfRangeException>(() => win.Put(new double[2], 0, 3));
            Assert.Throws<ArgumentOutOfRangeException>(() => win.Put(new double[1], 0, -1));
            Assert.Throws<ArgumentOutOfRangeException>(() => win.Get(new double[5], 0, 0));
            Assert.Throws<ArgumentException>(() => win.Fence(64));
            using (var user = Op.Create<double>((a, b) => { }, true))
            {
                var e = Assert.Throws<ArgumentException>(() => win.Accumulate(new double[1], 0, 0, user));
                Assert.Contains("predefined", e.Message);
            }
            win.Fence();
            win.Dispose();
            Assert.Throws<ObjectDisposedException>(() => win.Put(new double[1], 0, 0));
            Assert.Throws<ObjectDisposedException>(() => win.Fence());
            win.Dispose();  // idempotent
        }

        [Fact]
        public void EpochOfDisposedWindow()
        {
            var win = Window.Allocate(world, 1, TypeKind.Int32);
            var copy = win;
            var e = win.LockAll();
            e.Dispose();
            win.Dispose();
            Assert.Throws<ObjectDisposedException>(() => copy.Flush(0));
        }

        /// <summary>RPut, RGet, RAccumulate, RGetAccumulate in a LockAll epoch: each request
        /// completes the operation locally; the arrays stay pinned until then.</summary>
        [Fact]
        public void RequestForms()
        {
            using var win = Window.Allocate(world, 2 * Size, TypeKind.Int64);
            world.Barrier();
            using (win.LockAll())
            {
                using (var r = win.Rput(new long[] { Rank + 10 }, Right, Rank))
                {
                    GC.Collect();  // the temporary array is pinned by the request
                    r.Wait();
                }
                win.Raccumulate(new long[] { 1 }, Right, Size + Rank, Op.Sum).Wait();
                win.Flush(Right);
                var got = new long[1];
                win.Rget(got, Right, Rank).Wait();
                Assert.Equal(Rank + 10, got[0]);  // complete locally: the data is here
                var old = new long[1];
                win.RgetAccumulate(new long[] { 5 }, old, Right, Size + Rank, Op.Sum).Wait();
                Assert.Equal(1, old[0]);
            }
            world.Barrier();
            win.Lock(Rank).Dispose();  // see the public copy
            Assert.Equal(Left + 10, win.Memory<long>()[Left]);
            Assert.Equal(6, win.Memory<long>()[Size + Left]);
        }

        [Fact]
        public void RequestFormsBadInput()
        {
            var win = Window.Allocate(world, 2, TypeKind.Float64);
            using (win.LockAll())
            {
                Assert.Throws<ArgumentOutOfRangeException>(() => win.Rput(new double[1], Size, 0));
                Assert.Throws<ArgumentOutOfRangeException>(() => win.Rget(new double[3], 0, 0));
                using var user = Op.Create<double>((a, b) => { }, true);
                Assert.Contains("predefined",
                    Assert.Throws<ArgumentException>(() => win.Raccumulate(new double[1], 0, 0, user)).Message);
                Assert.Throws<ArgumentException>(() => win.RgetAccumulate(new double[1], new double[1], 0, 0, user));
            }
            win.Dispose();
            Assert.Throws<ObjectDisposedException>(() => win.Rput(new double[1], 0, 0));
        }

        /// <summary>AllocateShared: every process reads the others' parts by load.</summary>
        [Fact]
        public void SharedWindow()
        {
            using (var node = world.SplitShared())
            using (var win = Window.AllocateShared(node, 2, TypeKind.Int32))
            {
                Assert.Equal(new[] { 0, 0 }, win.SharedMemory<int>(node.Rank).ToArray());
                var got = new int[1];
                // Load/store under a LockAll epoch, with sync-barrier-sync (MPI_Win_sync belongs
                // in a passive-target epoch: MPICH refuses it outside one).
                using (win.LockAll((int)RmaMode.Nocheck))
                {
                    var mine = win.SharedMemory<int>(node.Rank);
                    mine[0] = node.Rank;
                    mine[1] = 100 + node.Rank;
                    win.Sync();
                    node.Barrier();
                    win.Sync();
                    for (int r = 0; r < node.Size; ++r)
                        Assert.Equal(new[] { r, 100 + r }, win.SharedMemory<int>(r).ToArray());
                    win.Get(got, node.Size - 1, 1);
                    win.Flush(node.Size - 1);
                }
                Assert.Equal(100 + node.Size - 1, got[0]);
                Assert.Throws<ArgumentOutOfRangeException>(() => win.SharedMemory<int>(node.Size));
                node.Barrier();
            }
            using var plain = Window.Allocate(world, 1, TypeKind.Int32);
            Assert.Contains("shared", Assert.Throws<InvalidOperationException>(() => plain.SharedMemory<int>(0)).Message);
        }

        /// <summary>CreateDynamic: an attached array stays pinned until Detach; a target
        /// displacement is the target's address.</summary>
        [Fact]
        public void DynamicWindow()
        {
            using (var win = Window.CreateDynamic(world))
            {
                Assert.Equal(1, win.DispUnit);
                var local = new double[] { -1, -1, -1 };
                long addr = win.Attach(local);
                var addrs = new long[Size];
                world.Allgather(new[] { addr }, addrs);
                world.Barrier();
                GC.Collect();  // pinned while attached: the address stays valid
                using (win.Lock(Right)) win.Put(new[] { Rank + 0.25 }, Right, addrs[Right] + 8);
                world.Barrier();
                win.Lock(Rank).Dispose();
                Assert.Equal(new[] { -1, Left + 0.25, -1 }, local);
                Assert.Contains("already attached", Assert.Throws<ArgumentException>(() => win.Attach(local)).Message);
                Assert.Throws<ArgumentException>(() => win.Detach(addr + 8));
                world.Barrier();
                win.Detach(addr);
                Assert.Throws<ArgumentException>(() => win.Detach(addr));
                win.Attach(new long[1]);  // still attached at Dispose: detached then
            }
            using var plain = Window.Allocate(world, 1, TypeKind.Int32);
            Assert.Throws<InvalidOperationException>(() => plain.Attach(new int[1]));
        }
    }
}
