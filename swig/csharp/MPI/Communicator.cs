using System;
using System.Reflection;
using System.Runtime.CompilerServices;
using Oompi;

namespace MPI
{
    /// <summary>
    /// A combination of values into one (MPI.NET's reduction delegate): must be associative;
    /// need not be commutative (reductions combine in rank order).
    /// </summary>
    public delegate T ReductionOperation<T>(T x, T y);

    /// <summary>The result of comparing two communicators or groups.</summary>
    public enum Comparison
    {
        /// <summary>The same communicator (or the same members in the same order).</summary>
        Identical,
        /// <summary>Different communicators with the same members in the same order.</summary>
        Congruent,
        /// <summary>The same members in another order.</summary>
        Similar,
        /// <summary>Different members.</summary>
        Unequal,
    }

    /// <summary>
    /// MPI.NET's communicator over an oompi <see cref="Comm"/>: point-to-point communication of
    /// values of any type (see <see cref="ValueOps{T}"/> and <see cref="Objects{T}"/> for how they
    /// travel), communicator management, and the collectives' common part (Barrier).
    /// Errors: oompi's MpiException arrives as the exception MPI.NET names for its error class.
    /// </summary>
    public abstract partial class Communicator : Seed002Communicator, IDisposable, ICloneable
    {
        // MPI's own values (they differ between Open MPI and MPICH), hence readonly, not const.
        /// <summary>Receive from any source (MPI_ANY_SOURCE).</summary>
        public static readonly int anySource = Mpi.AnySource;
        /// <summary>Receive with any tag (MPI_ANY_TAG).</summary>
        public static readonly int anyTag = Mpi.AnyTag;
        /// <summary>The null process (MPI_PROC_NULL): communication with it completes at once.</summary>
        public static readonly int procNull = Mpi.ProcNull;

        internal readonly Comm comm;
        private readonly bool predefined;

        private protected Communicator(Comm comm, bool predefined = false)
        {
            this.comm = comm;
            this.predefined = predefined;
        }

        /// <summary>The oompi communicator underneath (for mixing both APIs in one program).</summary>
        public Comm Comm => comm;

        private static Intracommunicator worldInstance, selfInstance;

        /// <summary>All the processes of the job; null before MPI is initialised or after it is finalised.</summary>
        public static Intracommunicator world
        {
            get
            {
                var w = worldInstance;
                if (w is not null) return w;
                if (!MpiEnvironment.Initialized() || MpiEnvironment.Finalized()) return null;
                return worldInstance = new Intracommunicator(Comm.World(), true);
            }
        }

        /// <summary>This process alone; null before MPI is initialised or after it is finalised.</summary>
        public static Intracommunicator self
        {
            get
            {
                var s = selfInstance;
                if (s is not null) return s;
                if (!MpiEnvironment.Initialized() || MpiEnvironment.Finalized()) return null;
                return selfInstance = new Intracommunicator(Comm.Self(), true);
            }
        }

        internal static void ForgetPredefined()
        {
            worldInstance = null;
            selfInstance = null;
        }

        /// <summary>The communicator of the right class for an oompi communicator (null for a null one).</summary>
        internal static Communicator Adopt(Comm c)
        {
            if (c is null || c.IsNull()) return null;
            if (c is Intercomm) return new Intercommunicator(c);
            if (c is CartComm cart) return new CartesianCommunicator(cart);
            if (c is GraphComm graph) return new GraphCommunicator(graph);
            if (c.IsInter()) return new Intercommunicator(c);
            return new Intracommunicator(c);
        }

        /// <summary>
        /// A communicator made by other code in this process (a C library, P/Invoke), given by
        /// its C handle (MPI_Comm: a pointer on Open MPI, an int on MPICH, widened): an
        /// <see cref="Intracommunicator"/> (topology information is not carried over). Unlike
        /// MPI.NET, the handle stays its maker's: Dispose forgets it, its maker frees it.
        /// Intercommunicator handles: NotSupportedException (oompi's facade adopts them as plain
        /// communicators, without their remote group). A handle that is not a communicator is
        /// undefined behaviour in MPI, as in MPI.NET; zero: ArgumentException.
        /// </summary>
        public static Communicator Adopt(IntPtr comm)
        {
            if (comm == IntPtr.Zero) throw new ArgumentException("MPI: Adopt: a zero communicator handle", nameof(comm));
            Comm c;
            try
            {
                unsafe
                {
                    IntPtr handle = comm;  // an MPI_Comm variable (little-endian: MPICH's int is its low half)
                    c = Interop.CommFromAddress((long)(IntPtr)(&handle));
                }
            }
            catch (MpiException e) { throw Translate(e); }
            if (c.IsInter())
            {
                c.Dispose();
                throw new NotSupportedException("MPI: Adopt of an intercommunicator handle is not supported (oompi adopts it without its remote group)");
            }
            return new Intracommunicator(c);
        }

        internal static Exception Translate(MpiException e) => Errors.Translate(e);

        /// <summary>The exception an oompi entry point left pending, in MPI.NET's terms.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private protected static void ThrowPending()
        {
            var e = Comm.TakePending();
            throw e is MpiException m ? Translate(m) : e;
        }

        /// <summary>The number of processes.</summary>
        public int Size
        {
            get
            {
                try { return comm.Size; }
                catch (MpiException e) { throw Translate(e); }
            }
        }

        /// <summary>
        /// The processes that spawned this job (null when it was not spawned): on every
        /// communicator, as MPI.NET has it (Communicator.Parent).
        /// </summary>
        public Intercommunicator Parent => Intercommunicator.ParentOf();

        /// <summary>The rank of this process.</summary>
        public int Rank
        {
            get
            {
                try { return comm.Rank; }
                catch (MpiException e) { throw Translate(e); }
            }
        }

        /// <summary>The group of this communicator's processes.</summary>
        public Group Group
        {
            get
            {
                try { return new Group(comm.GetGroup()); }
                catch (MpiException e) { throw Translate(e); }
            }
        }

        /// <summary>How this communicator relates to <paramref name="other"/>.</summary>
        public Comparison Compare(Communicator other)
        {
            if (other is null) throw new ArgumentNullException(nameof(other));
            try { return (Comparison)(int)comm.Compare(other.comm); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// A communicator of the members of <paramref name="group"/> (a subgroup of this one's;
        /// collective); null on processes not in it.
        /// </summary>
        public Communicator Create(Group group)
        {
            if (group is null) throw new ArgumentNullException(nameof(group));
            try { return Adopt(comm.Create(group.group)); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>A duplicate: the same processes, a separate communication space (collective).</summary>
        public object Clone()
        {
            try
            {
                var clone = Adopt(comm.Dup());
                CopyAttributesTo(clone);
                return clone;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// One communicator per color (collective): the processes with the same color, ranked by
        /// key (ties by rank here). A negative color is refused (ArgumentException), as in MPI.NET.
        /// </summary>
        public Communicator Split(int color, int key)
        {
            if (color < 0) throw new ArgumentException("MPI: the color of Communicator.Split must be non-negative", nameof(color));
            try { return Adopt(comm.Split(color, key)); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Ends every process of the job (MPI_Abort).</summary>
        public void Abort(int errorcode) => MpiEnvironment.Abort(errorcode);

        /// <summary>Frees the communicator (world and self stay). Idempotent.</summary>
        public virtual void Dispose()
        {
            // Dispose(bool) of the generated proxies is virtual (swig/csharp/csharp_handles.i):
            // an Intercomm's or CartComm's Dispose closes the handle and forgets both pointers.
            if (!predefined) comm.Dispose();
            GC.SuppressFinalize(this);
        }

        /// <summary>Waits until every process has entered the barrier.</summary>
        public void Barrier()
        {
            try { comm.Barrier(); }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
