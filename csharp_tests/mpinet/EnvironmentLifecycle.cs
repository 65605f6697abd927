using System;
using MPI;

namespace MpiNetTests
{
    /// <summary>
    /// <c>MpiNetTests.dll environment</c>: MPI.NET's Environment life cycle, which its own
    /// EnvironmentDisposalTest, EnvironmentDisposalThrowsTest and MPIDebug.Execute rely on (an
    /// Environment inside another, <c>Run(..., cleanupEnvironment: false)</c> twice, the first
    /// Dispose finalising MPI, a new Environment afterwards refused). It finalises MPI, so it
    /// runs in a process of its own, not among the conformance tests. Exit code 0 when every
    /// check held on this rank; each failed check is printed.
    /// </summary>
    public static class EnvironmentLifecycle
    {
        private static int failures;

        private static void Check(bool ok, string what)
        {
            if (ok) return;
            failures++;
            Console.Error.WriteLine($"environment: FAILED {what}");
        }

        private static void CheckThrows<E>(Action a, string what) where E : Exception
        {
            try { a(); }
            catch (E) { return; }
            catch (Exception e) { Check(false, $"{what}: {e.GetType().Name} instead of {typeof(E).Name}"); return; }
            Check(false, $"{what}: nothing thrown");
        }

        public static int Main(string[] args)
        {
            Check(!MPI.Environment.Initialized, "MPI not initialised before the first Environment");
            using (var outer = new MPI.Environment(ref args, Threading.Multiple))
            {
                var provided = MPI.Environment.Threading;
                int size = Communicator.world.Size;
                // Nested: accepted, changes nothing, MPI stays up when the action returns.
                var nested = new MPI.Environment(ref args, Threading.Single);
                Check(MPI.Environment.Threading == provided, "a nested Environment keeps the thread level");
                int ran = 0;
                MPI.Environment.Run(ref args, comm => ran += comm.Allreduce(1, Operation<int>.Add), false);
                MPI.Environment.Run(ref args, comm => ran += comm.Allreduce(1, Operation<int>.Add), false);
                Check(ran == 2 * size, $"Run without cleanup runs the action on the world ({ran})");
                Check(!MPI.Environment.Finalized && Communicator.world is not null, "Run without cleanup leaves MPI up");
                // An exception from the action without cleanup reaches the caller; MPI stays up.
                CheckThrows<FormatException>(() => MPI.Environment.Run(ref args, _ => throw new FormatException("x"), false),
                    "Run without cleanup passes the action's exception on");
                Communicator.world.Barrier();
                // A communicator kept past MPI_Finalize: its calls throw, none reaches MPI (which
                // aborts the job after MPI_Finalize; an object receive's matched probe did).
                Intracommunicator kept = Communicator.world;
                int peer = (kept.Rank + 1) % size;
                // With cleanup: the action runs, then MPI is finalised (by a nested Environment).
                MPI.Environment.Run(ref args, comm => ran = comm.Allreduce(comm.Rank, Operation<int>.Max), true);
                Check(ran == size - 1, "Run with cleanup runs the action");
                Check(MPI.Environment.Finalized, "Run with cleanup finalises MPI");
                Check(Communicator.world is null && Communicator.self is null, "no world after MPI_Finalize");
                CheckThrows<InvalidOperationException>(() => kept.Receive<string>(peer, 1), "Receive<string> after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Send("after", peer, 1), "Send<string> after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Receive<int>(peer, 1), "Receive<int> after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Send(new double[1 << 17], peer, 1), "Send(double[]) after finalize");
                CheckThrows<InvalidOperationException>(() => kept.ImmediateReceive<string>(peer, 1), "ImmediateReceive<string> after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Probe(peer, 1), "Probe after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Barrier(), "Barrier after finalize");
                CheckThrows<InvalidOperationException>(() => kept.Allreduce(1, Operation<int>.Add), "Allreduce after finalize");
                // MPI cannot start again: ObjectDisposedException, an InvalidOperationException as MPI.NET's tests catch.
                CheckThrows<ObjectDisposedException>(() => new MPI.Environment(ref args), "a new Environment after finalize");
                bool actionRan = false;
                CheckThrows<InvalidOperationException>(() => MPI.Environment.Run(ref args, _ => actionRan = true, true),
                    "Run after finalize");
                Check(!actionRan, "Run after finalize does not run the action");
                nested.Dispose();  // both do nothing now
                outer.Dispose();
            }
            Check(MPI.Environment.Finalized, "still finalized");
            if (failures == 0) Console.WriteLine("environment: all checks passed");
            return failures == 0 ? 0 : 1;
        }
    }
}
