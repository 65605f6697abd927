using System.Reflection;
using static Oompi.Tests.PeerSupport;

namespace Oompi.Tests
{
    /// <summary>
    /// Rank 0 of python.interop_csharp (python_tests/csharp_peer_python.py is ranks 1 .. p - 1):
    /// a C# rank and Python ranks in one job, no C++ rank. Typed obcasts both ways (InStep), then
    /// the steps A-H of python_tests/pickled_steps.py, where the Python ranks pickle (no type=)
    /// with 1 MiB of data: this rank refuses each one while taking part in every message the
    /// Python ranks send, so that nobody waits and the next collective matches.
    ///
    ///     mpirun -np 1 dotnet OompiTests.dll python_peer : -np N-1 python3 csharp_peer_python.py
    ///
    /// Any mismatch aborts the job.
    /// </summary>
    public static class PythonPeer
    {
        public static int Run() => RunPeer("python_peer", Run);

        // Prints what the C# rank refused, beside the Python ranks' output.
        private static void ExpectThrow<E>(string what, Action f) where E : Exception
        {
            var e = PeerSupport.ExpectThrow<E>(what, f);
            Console.WriteLine($"rank 0, {what}: {e.GetType().Name}: {e.Message}");
        }

        // A typed obcast from 0 and one from L (python_tests/pickled_steps.py's in_step).
        private static void InStep(Comm world, int n)
        {
            var x = world.OBcast(new ListNode(1000 + n), 0);
            Check(x.Data.SequenceEqual(new[] { 1000 + n }), $"in step after {n} (from 0)");
            var y = world.OBcast<ListNode>(null, world.Size - 1);
            Check(y is not null && y.Data.SequenceEqual(new[] { 2000 + n }), $"in step after {n} (from L)");
        }

        private static readonly FieldInfo Limit =
            typeof(Comm).GetField("ObjectIntLimit", BindingFlags.Static | BindingFlags.NonPublic);

        private static void Run(Comm world)
        {
            int p = world.Size, last = p - 1, n = 1;
            Check(p >= 2 && world.Rank == 0, "run as rank 0, before the Python ranks");
            Check(Limit is not null, "Comm.ObjectIntLimit");
            InStep(world, 0);
            // A. obcast from L (a pickle with an out-of-band buffer)
            ExpectThrow<ArgumentException>("A. pickled obcast from L", () => world.OBcast<ListNode>(null, last));
            InStep(world, n++);
            // B. oscatter from L (Scatterv), C. on the large path
            foreach (long limit in new long[] { int.MaxValue, 64 })
            {
                Limit.SetValue(null, limit);
                try
                {
                    ExpectThrow<ArgumentException>("B/C. pickled oscatter from L", () => world.OScatter<ListNode>(null, last));
                }
                finally
                {
                    Limit.SetValue(null, (long)int.MaxValue);
                }
                InStep(world, n++);
            }
            // D. obcast from here to pickling ranks: this rank succeeds, they throw
            var big = new ListNode(new int[1 << 18]);
            world.OBcast(big, 0);
            InStep(world, n++);
            Limit.SetValue(null, 64L);  // E .. G on the large path
            try
            {
                // E. oscatter from here
                var kept = world.OScatter(Enumerable.Repeat(big, p).ToArray(), 0);
                Check(kept.Length == 1 && kept[0].Data.Length == 1 << 18, "E. oscatter: rank 0's slice");
                InStep(world, n++);
                // F. oallgather, G. oalltoall
                ExpectThrow<ArgumentException>("F. oallgather, Python pickles", () => world.OAllgather(new[] { big }));
                InStep(world, n++);
                ExpectThrow<ArgumentException>("G. oalltoall, Python pickles",
                    () => world.OAlltoall(Enumerable.Repeat(big, p).ToArray()));
            }
            finally
            {
                Limit.SetValue(null, (long)int.MaxValue);
            }
            InStep(world, n++);
            // H. oallreduce: this rank cannot read the pickles it receives
            ExpectThrow<SerializationException>("H. oallreduce, Python pickles",
                () => world.OAllreduce(new string('h', 1 << 20), (x, y) => x + y));
            InStep(world, n++);
            Console.WriteLine("python_peer (C#): ok");
        }
    }
}
