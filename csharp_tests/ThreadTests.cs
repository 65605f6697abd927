using System.Threading;

namespace Oompi.Tests
{
    /// <summary>An object graph of the threads test: a string, arrays, a list and a cycle.</summary>
    public sealed class ThreadPayload
    {
        [Transportable] public int Iteration;
        [Transportable] public string Text;
        [Transportable] public long[] Numbers;
        [Transportable] public List<ThreadPayload> Kids = new();
        [Transportable] public ThreadPayload Back;  // the root, from each kid: a cycle
    }

    /// <summary>
    /// Several threads on one communicator under MPI_THREAD_MULTIPLE, each with its own tag:
    /// arrays (small and large), spans, ports and OSend/ORecv of [Transportable] objects,
    /// allocating enough for the GC to run (and a thread forcing collections) while arrays are
    /// pinned in blocking calls. Ranks pair up (0-1, 2-3); an unpaired rank plays both sides on
    /// two threads of its own. Run alone by csharp.threads (OOMPI_THREAD_ITERATIONS, default
    /// 3,000 round trips per thread at 1 and 2 ranks, halved at 4).
    /// </summary>
    public class ThreadTests
    {
        private const int Threads = 4;
        private const int LargeInts = 1 << 18;  // 1 MiB: the rendezvous protocol
        private readonly Comm world = Comm.World();

        /// Starts the workers and waits for them while another thread forces a compacting
        /// collection every periodMs: pinned and pooled buffers must survive objects moving.
        private static void RunWhileCollecting(List<Thread> workers, int periodMs)
        {
            using var stop = new ManualResetEventSlim();
            var collector = new Thread(() =>
            {
                while (!stop.Wait(periodMs)) GC.Collect(2, GCCollectionMode.Forced, true, true);
            });
            collector.Start();
            foreach (var w in workers) w.Start();
            foreach (var w in workers) w.Join();
            stop.Set();
            collector.Join();
        }

        private static int Iterations =>
            int.TryParse(Environment.GetEnvironmentVariable("OOMPI_THREAD_ITERATIONS"), out int n) ? n : 3_000;

        [Fact]
        public void EnvironmentIsMultiple()
        {
            using var env = new MpiEnvironment();  // MPI is already up: this one does not own it
            Assert.False(env.OwnsMpi);
            Assert.Equal(ThreadLevel.Multiple, env.Provided);
        }

        [Fact]
        public void ManyThreadsOneCommunicator()
        {
            int rank = world.Rank, size = world.Size;
            if (size == 1 && MpiEnvironment.LibraryVersion().StartsWith("MPICH"))
            {
                // MPICH 4.0 (ch4:ucx) never delivers a message to oneself that another thread
                // waits for (a C program with two threads hangs alike), though
                // MPI_THREAD_MULTIPLE requires it.
                Console.WriteLine("threads: not run at 1 rank on MPICH (no messages to oneself between threads)");
                return;
            }
            int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
            bool leader = rank <= peer;  // the side that sends first (both, for a rank alone)
            // 3,000 round trips per thread at 1 and 2 ranks; as many in all at 4 (2 cores).
            int n = Iterations * 2 / Math.Max(2, size);
            var errors = new List<Exception>();
            var workers = new List<Thread>();
            for (int t = 0; t < Threads; t++)
            {
                int tag = 100 + t;
                void Run(bool first)
                {
                    try { PingPong(world, world[peer], tag, first, n); }
                    catch (Exception e) { lock (errors) errors.Add(e); }
                }
                workers.Add(new Thread(() => Run(leader)));
                if (peer == rank) workers.Add(new Thread(() => Run(false)));
            }
            int gcBefore = GC.CollectionCount(0);
            RunWhileCollecting(workers, 5);
            if (errors.Count > 0) throw new AggregateException(errors);
            Assert.True(GC.CollectionCount(0) > gcBefore, "the GC did not run");
            if (rank == 0)
                Console.WriteLine($"threads: {workers.Count} threads x {n} round trips on rank 0, " +
                                  $"{GC.CollectionCount(0) - gcBefore} gen0 collections");
        }

        [Fact]
        public void LightRequestsOnManyThreads()
        {
            // Each thread: Irecv from itself + Isend to itself on Comm.Self (a tag of its own), on
            // the same two arrays (pins kept on them) and on new ones, while another thread forces
            // compacting collections: each thread finds its own pin pool (by its stack, or the
            // thread-static way), never another's. At the end each thread leaves a pending receive
            // to the main thread, which completes it after the thread has ended (the pin goes to
            // the main thread's pool).
            using var self = Comm.Self();
            int n = Iterations / 5;
            var errors = new List<Exception>();
            var left = new (Request r, long[] buf, int tag)[Threads];
            var workers = new List<Thread>();
            for (int t = 0; t < Threads; t++)
            {
                int tag = 200 + t, slot = t;
                workers.Add(new Thread(() =>
                {
                    try
                    {
                        var input = new long[4];
                        var output = new long[4];
                        for (int i = 0; i < n; i++)
                        {
                            bool fresh = i % 4 == 3;
                            long[] into = fresh ? new long[4] : input;
                            long[] from = fresh ? new long[] { tag, i, -i, 7 } : output;
                            if (!fresh) { output[0] = tag; output[1] = i; output[2] = -i; output[3] = 7; }
                            using Request r = self.Irecv(into, 0, tag);
                            // A compacting collection while the receive is pending (and the
                            // other threads rent and return pins): its array must stay put.
                            if (i % 64 == 0) GC.Collect(0, GCCollectionMode.Forced, true, true);
                            using Request s = self.Isend(from, 0, tag);
                            s.Wait();
                            Status st = r.Wait();
                            Check(st.Tag == tag && st.CountBytes == 32 && into[0] == tag && into[1] == i &&
                                  into[2] == -i && into[3] == 7, tag, i);
                        }
                        var last = new long[1];
                        Request pending = self.Irecv(last, 0, tag);
                        using (Request s = self.Isend(new long[] { tag * 10L }, 0, tag)) s.Wait();
                        left[slot] = (pending, last, tag);
                    }
                    catch (Exception e) { lock (errors) errors.Add(e); }
                }));
            }
            RunWhileCollecting(workers, 2);
            if (errors.Count > 0) throw new AggregateException(errors);
            GC.Collect(2, GCCollectionMode.Forced, true, true);
            foreach (var (r, buf, tag) in left)
            {
                Assert.Equal(tag, r.Wait().Tag);
                r.Dispose();
                Assert.Equal(tag * 10L, buf[0]);
            }
        }

        /// <summary>
        /// One thread's side: n round trips on its tag, cycling through the kinds of call. The
        /// leader sends first and checks what comes back (its values, plus one).
        /// </summary>
        private static void PingPong(Comm comm, Port port, int tag, bool leader, int n)
        {
            int other = port.Rank;
            // Replies on tag + 50: a rank playing both sides must not take its own message back.
            int ts = leader ? tag : tag + 50, tr = leader ? tag + 50 : tag;
            for (int i = 0; i < n; i++)
            {
                int seed = tag * 1_000_003 + i;
                switch (i % 5)
                {
                    case 0:  // a small array, a new one each time
                    {
                        if (leader)
                        {
                            comm.Send(new[] { seed, -seed, i }, other, ts);
                            var back = new int[3];
                            var s = comm.Recv(back, other, tr);
                            Check(back[0] == seed + 1 && back[1] == -seed + 1 && back[2] == i + 1 && s.Tag == tr, tag, i);
                        }
                        else
                        {
                            var got = new int[3];
                            comm.Recv(got, other, tr);
                            for (int k = 0; k < 3; k++) got[k]++;
                            comm.Send(got, other, ts);
                        }
                        break;
                    }
                    case 1:  // spans (one on the stack, one over part of an array)
                    {
                        if (leader)
                        {
                            Span<double> v = stackalloc double[4];
                            for (int k = 0; k < 4; k++) v[k] = seed + k * 0.25;
                            comm.Send((ReadOnlySpan<double>)v, other, ts);
                            var back = new double[8];
                            comm.Recv(back.AsSpan(2, 4), other, tr);
                            for (int k = 0; k < 4; k++) Check(back[2 + k] == -(seed + k * 0.25), tag, i);
                        }
                        else
                        {
                            Span<double> v = stackalloc double[4];
                            comm.Recv(v, other, tr);
                            for (int k = 0; k < 4; k++) v[k] = -v[k];
                            comm.Send((ReadOnlySpan<double>)v, other, ts);
                        }
                        break;
                    }
                    case 2:  // ports, and a large array every 50 iterations
                    {
                        int len = i % 50 == 2 ? LargeInts : 2 + i % 64;
                        if (leader)
                        {
                            var a = new int[len];
                            a[0] = seed;
                            a[len - 1] = ~seed;
                            port.Send(a, ts);
                            var back = new int[len];
                            port.Recv(back, tr);
                            Check(back[0] == seed + 2 && back[len - 1] == ~seed + 2, tag, i);
                        }
                        else
                        {
                            var a = new int[len];
                            port.Recv(a, tr);
                            a[0] += 2;
                            a[len - 1] += 2;
                            port.Send(a, ts);
                        }
                        break;
                    }
                    default:  // objects (blocking, or nonblocking with a pinned array)
                    {
                        if (leader)
                        {
                            ThreadPayload back;
                            if (i % 5 == 3)
                            {
                                comm.OSend(MakePayload(seed, i), other, ts);
                                back = comm.ORecv<ThreadPayload>(other, tr);
                            }
                            else
                            {
                                using var recv = comm.IORecv<ThreadPayload>(other, tr);
                                using (var send = comm.IOSend(MakePayload(seed, i), other, ts)) send.Wait();
                                back = recv.Wait();
                            }
                            Check(back.Iteration == i + 1 && back.Text == "p" + seed &&
                                  back.Kids.Count == i % 7 && back.Numbers.Length == i % 13, tag, i);
                            foreach (var k in back.Kids) Check(ReferenceEquals(k.Back, back) && k.Iteration == seed, tag, i);
                        }
                        else
                        {
                            var got = comm.ORecv<ThreadPayload>(other, tr);
                            got.Iteration++;
                            comm.OSend(got, other, ts);
                        }
                        break;
                    }
                }
            }
        }

        private static ThreadPayload MakePayload(int seed, int i)
        {
            var root = new ThreadPayload { Iteration = i, Text = "p" + seed, Numbers = new long[i % 13] };
            for (int k = 0; k < i % 7; k++)
                root.Kids.Add(new ThreadPayload { Iteration = seed, Text = new string('k', k), Back = root, Numbers = new long[k] });
            return root;
        }

        private static void Check(bool ok, int tag, int i)
        {
            if (!ok) throw new Exception($"tag {tag}: wrong data at iteration {i}");
        }
    }
}
