using System;
using Oompi;

namespace MPI
{
    /// <summary>The thread support MPI provides (MPI.NET's names for MPI_THREAD_*).</summary>
    public enum Threading
    {
        /// <summary>One thread only (MPI_THREAD_SINGLE).</summary>
        Single = 0,
        /// <summary>Only the thread that initialised MPI calls it (MPI_THREAD_FUNNELED).</summary>
        Funneled = 1,
        /// <summary>Any thread, one at a time (MPI_THREAD_SERIALIZED).</summary>
        Serialized = 2,
        /// <summary>Any thread, concurrently (MPI_THREAD_MULTIPLE).</summary>
        Multiple = 3,
    }

    /// <summary>
    /// MPI.NET's environment: <c>using (new MPI.Environment(ref args)) { ... }</c> initialises MPI
    /// (an <see cref="MpiEnvironment"/> underneath) and finalises it on Dispose. As in MPI.NET,
    /// an Environment made while MPI is initialised does nothing (MPI.NET's test programs nest
    /// one inside another), the Dispose of any of them finalises MPI (later ones do nothing),
    /// and a new one after that throws <see cref="ObjectDisposedException"/> (MPI cannot start
    /// again). The static members (<see cref="Time"/>, <see cref="ProcessorName"/>, ...) are oompi's.
    /// </summary>
    public class Environment : IDisposable
    {
        // The MpiEnvironment that initialised MPI for namespace MPI (null when MPI was initialised
        // by oompi's own MpiEnvironment: its owner finalises it).
        private static MpiEnvironment env;
        private static Threading provided;
        private static readonly int mainThread = System.Environment.CurrentManagedThreadId;

        /// <summary>Initialises MPI at <see cref="Threading.Serialized"/> (MPI.NET's default).</summary>
        public Environment(ref string[] args) : this(ref args, Threading.Serialized) { }

        /// <summary>Initialises MPI with the thread level <paramref name="threading"/> (or less: see <see cref="Threading"/>).</summary>
        public Environment(ref string[] args, Threading threading)
        {
            if (Finalized)
                throw new ObjectDisposedException(nameof(Environment), "MPI.Environment: MPI has been finalized; it cannot be initialised again in this process");
            if (Initialized) return;  // nested, or MPI initialised by oompi's MpiEnvironment: as MPI.NET, nothing to do
            env = new MpiEnvironment((ThreadLevel)(int)threading);
            provided = (Threading)(int)env.Provided;
            mainThreadId = System.Environment.CurrentManagedThreadId;
        }

        private static int mainThreadId = mainThread;

        /// <summary>
        /// Finalises MPI, as MPI.NET did from any Environment (later calls, and calls after MPI
        /// was finalised, do nothing). MPI initialised by oompi's own <see cref="MpiEnvironment"/>
        /// is left to it.
        /// </summary>
        public void Dispose()
        {
            GC.SuppressFinalize(this);
            var e = env;
            if (e is null) return;
            env = null;
            Communicator.ForgetPredefined();
            e.Dispose();
        }

        /// <summary>True once MPI has been initialised (by anyone).</summary>
        public static bool Initialized => MpiEnvironment.Initialized();

        /// <summary>True once MPI has been finalised.</summary>
        public static bool Finalized => MpiEnvironment.Finalized();

        /// <summary>The thread level MPI provides.</summary>
        public static Threading Threading => env is not null ? provided : Threading.Single;

        /// <summary>Whether the calling thread initialised MPI (MPI.NET's name; MPI_Is_thread_main).</summary>
        public static bool IsMainThread => System.Environment.CurrentManagedThreadId == mainThreadId;

        /// <summary>The name of this processor (MPI_Get_processor_name).</summary>
        public static string ProcessorName => MpiEnvironment.ProcessorName();

        /// <summary>Seconds since some time in the past (MPI_Wtime).</summary>
        public static double Time => MpiEnvironment.Wtime();

        /// <summary>The resolution of <see cref="Time"/> in seconds (MPI_Wtick).</summary>
        public static double TimeResolution => MpiEnvironment.Wtick();

        /// <summary>Whether <see cref="Time"/> is synchronised across processes.</summary>
        public static bool IsTimeGlobal => Comm.WtimeIsGlobal();

        /// <summary>The largest message tag (MPI_TAG_UB).</summary>
        public static int MaxTag => Comm.TagUb();

        /// <summary>
        /// Initialises MPI, runs <paramref name="action"/> with the world communicator and, when
        /// <paramref name="cleanupEnvironment"/>, finalises MPI; then an exception from the action
        /// is printed and ends the job (MPI_Abort), as MPI.NET documents (a rank that left would
        /// hang the others). Without cleanup, the exception reaches the caller and MPI stays up.
        /// </summary>
        public static void Run(Action<Intracommunicator> action, bool cleanupEnvironment = true)
        {
            string[] args = null;
            Run(ref args, action, cleanupEnvironment);
        }

        /// <summary>As <see cref="Run(Action{Intracommunicator}, bool)"/>, with the program's arguments.</summary>
        public static void Run(ref string[] args, Action<Intracommunicator> action, bool cleanupEnvironment = true) =>
            Run(ref args, Threading.Serialized, action, cleanupEnvironment);

        /// <summary>As <see cref="Run(Action{Intracommunicator}, bool)"/>, with arguments and a thread level.</summary>
        public static void Run(ref string[] args, Threading threading, Action<Intracommunicator> action, bool cleanupEnvironment = true)
        {
            if (action is null) throw new ArgumentNullException(nameof(action));
            var e = new Environment(ref args, threading);
            if (!cleanupEnvironment)
            {
                action(Communicator.world);
                return;
            }
            try
            {
                action(Communicator.world);
            }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"MPI.Environment.Run: {ex}");
                Console.Error.Flush();
                Abort(1);
            }
            e.Dispose();
        }

        /// <summary>Ends every process of the job (MPI_Abort on the world communicator).</summary>
        public static void Abort(int errorCode) => MpiEnvironment.Abort(errorCode);
    }
}
