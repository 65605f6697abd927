using System.Threading;

namespace Oompi.Tests
{
    /// <summary>Dynamic processes from C#: a C# parent spawns C# children (this assembly run as
    /// <c>OompiTests.dll dynamic_child</c>, DynamicChild below).</summary>
    public class DynamicTests : WorldTests
    {
        // Open MPI 4.1 with Debian's external PMIx 4 sometimes never finishes starting a spawned
        // process (openpmix/openpmix#2735; raw C too): a spawn that has not returned after 40 s
        // aborts the job with exit code 75, on which CTest runs it again (RETRY_EXIT_CODE).
        private static long spawnSince;
        private static readonly Thread Watchdog = StartWatchdog();

        private static Thread StartWatchdog()
        {
            var t = new Thread(() =>
            {
                while (true)
                {
                    Thread.Sleep(200);
                    long since = Interlocked.Read(ref spawnSince);
                    if (since != 0 && Environment.TickCount64 - since > 40_000)
                    {
                        Console.Error.WriteLine("MPI_Comm_spawn has not returned after 40 s: the MPI library's " +
                            "launcher hung (openpmix/openpmix#2735); aborting so that the job is run again");
                        MpiEnvironment.Abort(75);
                    }
                }
            }) { IsBackground = true };
            t.Start();
            return t;
        }

        private static bool CanSpawn()
        {
            if (!MpiEnvironment.LibraryVersion().Contains("MPICH")) return true;
            Console.WriteLine("DynamicTests: skipped: Debian's MPICH 4.0 (ch4:ucx, hydra) cannot spawn (docs/dynamic.md)");
            return false;
        }

        private Intercomm SpawnChildren(int n)
        {
            GC.KeepAlive(Watchdog);
            var args = new StringVector(new[] { typeof(Runner).Assembly.Location, "dynamic_child" });
            Interlocked.Exchange(ref spawnSince, Environment.TickCount64);
            try
            {
                return world.Spawn(Environment.ProcessPath!, args, n, 0);
            }
            finally
            {
                Interlocked.Exchange(ref spawnSince, 0);
            }
        }

        [Fact]
        public void CSharpParentSpawnsCSharpChildren()
        {
            if (!CanSpawn()) return;
            Assert.True(Intercomm.Parent().IsNull());
            using var children = SpawnChildren(2);
            Assert.Equal(2, children.RemoteSize);
            if (Rank == 0)
                for (int c = 0; c < 2; c++)
                {
                    var got = new int[3];
                    children.Recv(got, c, 0);
                    Assert.Equal(new[] { c, 2, InTmp }, got);
                }
            FinishChildren(children);
        }

        private static int InTmp => System.IO.Directory.GetCurrentDirectory() == "/tmp" ? 1 : 0;

        private void FinishChildren(Intercomm children)
        {
            int kids = children.RemoteSize;
            var merged = children.Merge(false);
            Assert.Equal(Size + kids, merged.Size);
            long n = merged.Size;
            var total = new long[1];
            merged.Allreduce(new long[] { merged.Rank }, total, Op.Sum);
            Assert.Equal(n * (n - 1) / 2, total[0]);
            merged.Disconnect();
            children.Disconnect();
            Assert.True(children.IsNull());
            Assert.Throws<ObjectDisposedException>(() => children.Send(new int[1], 0, 0));
        }

        /// <summary>SpawnMultiple: two commands in one new world, their own counts and hints
        /// (the first runs in /tmp: "wdir").</summary>
        [Fact]
        public void SpawnMultiple()
        {
            if (!CanSpawn()) return;
            GC.KeepAlive(Watchdog);
            string dotnet = Environment.ProcessPath!, dll = typeof(Runner).Assembly.Location;
            var args = new StringVectorVector();
            args.Add(new StringVector(new[] { dll, "dynamic_child" }));
            args.Add(new StringVector(new[] { dll, "dynamic_child" }));
            using var inTmp = Info.Create();
            inTmp.Set("wdir", "/tmp");
            var hints = new InfoVector();
            hints.Add(inTmp);
            hints.Add(new Info());
            Interlocked.Exchange(ref spawnSince, Environment.TickCount64);
            Intercomm children;
            try
            {
                children = world.SpawnMultiple(new StringVector(new[] { dotnet, dotnet }), args,
                                               new[] { 1, 2 }, hints, 0);
            }
            finally
            {
                Interlocked.Exchange(ref spawnSince, 0);
            }
            using (children)
            {
                Assert.Equal(3, children.RemoteSize);
                if (Rank == 0)
                {
                    var got = new int[3];
                    children.Recv(got, 0, 0);
                    Assert.Equal(new[] { 0, 3, 1 }, got);
                    for (int c = 1; c < 3; c++)
                    {
                        children.Recv(got, c, 0);
                        Assert.Equal(new[] { c, 3, InTmp }, got);
                    }
                }
                FinishChildren(children);
            }
        }

        [Fact]
        public void BadSpawnMultipleInput()
        {
            if (!CanSpawn()) return;
            var two = new StringVector(new[] { "dotnet", "dotnet" });
            var none = new StringVectorVector();
            var noHints = new InfoVector();
            var e = Assert.Throws<ArgumentException>(() => world.SpawnMultiple(two, none, new[] { 1 }, noHints, 0));
            Assert.Contains(Rank == 0 ? "maxprocs" : "at the root", e.Message);
            var closed = Info.Create();
            var closedHints = new InfoVector();
            closedHints.Add(closed);  // the vector's copy shares the handle, disposed below
            closedHints.Add(new Info());
            closed.Dispose();
            Assert.Throws<ArgumentException>(() => world.SpawnMultiple(two, none, new[] { 1, 1 }, closedHints, 0));
            Assert.Throws<ArgumentException>(() => world.SpawnMultiple(new StringVector(), none, new int[0], noHints, 0));
            Assert.Throws<ArgumentException>(() => world.SpawnMultiple(two, none, new[] { 1, 0 }, noHints, 0));
            Assert.Throws<ArgumentException>(() => world.SpawnMultiple(
                new StringVector(new[] { "/nonexistent/oompi-no-program" }), none, new[] { 1 }, noHints, 0));
            Assert.Throws<ArgumentOutOfRangeException>(() => world.SpawnMultiple(two, none, new[] { 1, 1 }, noHints, Size));
            var total = new int[1];
            world.Allreduce(new[] { 1 }, total, Op.Sum);
            Assert.Equal(Size, total[0]);
        }

        [Fact]
        public void BadInputAndMisuse()
        {
            if (!CanSpawn()) return;
            Assert.Throws<ArgumentException>(() => world.Spawn("/nonexistent/oompi-no-program", new StringVector(), 1, 0));
            Assert.Throws<ArgumentOutOfRangeException>(() => world.Spawn("dotnet", new StringVector(), 1, Size));
            var e = Assert.Throws<MpiException>(() => MpiEnvironment.LookupName("oompi-never-published"));
            Assert.Equal(Mpi.ErrName, e.ErrorClass);
            Assert.Throws<ArgumentException>(() => world.Accept("", 0));
            var total = new int[1];
            world.Allreduce(new[] { 1 }, total, Op.Sum);
            Assert.Equal(Size, total[0]);
        }
    }

    /// <summary>The child's side of DynamicTests.</summary>
    public static class DynamicChild
    {
        public static int Run()
        {
            using var env = new MpiEnvironment(ThreadLevel.Multiple);
            var world = Comm.World();
            var parent = Intercomm.Parent();
            if (parent.IsNull())
            {
                Console.Error.WriteLine("dynamic_child: no parent");
                return 2;
            }
            // rank, size, 1 when the working directory is /tmp (SpawnMultiple's "wdir" hint)
            int inTmp = System.IO.Directory.GetCurrentDirectory() == "/tmp" ? 1 : 0;
            parent.Send(new[] { world.Rank, world.Size, inTmp }, 0, 0);
            var merged = parent.Merge(true);
            var total = new long[1];
            merged.Allreduce(new long[] { merged.Rank }, total, Op.Sum);
            merged.Disconnect();
            parent.Disconnect();
            return 0;
        }
    }
}
