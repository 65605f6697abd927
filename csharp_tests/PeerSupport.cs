namespace Oompi.Tests
{
    /// <summary>
    /// What the C# ranks of the MPMD tests share (GraphPeer, CollPeer, PythonPeer): a run in
    /// which any exception aborts the whole job, since the other language's ranks may be waiting
    /// in a call this rank will never make (the job's exit code is the verdict), and the checks
    /// that throw.
    /// </summary>
    internal static class PeerSupport
    {
        /// <summary>Runs <paramref name="body"/> on the world communicator under MPI; returns 0, or
        /// aborts the job with exit code 1 when it throws.</summary>
        public static int RunPeer(string name, Action<Comm> body)
        {
            using var env = new MpiEnvironment(ThreadLevel.Multiple);
            var world = Comm.World();
            try
            {
                body(world);
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"{name} (C#, rank {world.Rank}): FAILED: {e}");
                Console.Error.Flush();
                MpiEnvironment.Abort(1);
            }
            return 0;
        }

        public static void Check(bool ok, string what)
        {
            if (!ok) throw new Exception(what);
        }

        /// <summary>Runs <paramref name="f"/>, which must throw an E; returns what it threw.</summary>
        public static E ExpectThrow<E>(string what, Action f) where E : Exception
        {
            try
            {
                f();
            }
            catch (E e)
            {
                return e;
            }
            catch (Exception e)
            {
                throw new Exception($"{what}: expected {typeof(E).Name}, got {e}");
            }
            throw new Exception($"{what}: did not throw");
        }
    }
}
