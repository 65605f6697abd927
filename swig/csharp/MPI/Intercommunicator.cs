using System;
using Oompi;

namespace MPI
{
    /// <summary>
    /// Two disjoint groups (MPI.NET's Intercommunicator over an oompi intercommunicator):
    /// point-to-point ranks name processes of the remote group.
    /// </summary>
    public partial class Intercommunicator : Communicator
    {
        internal Intercommunicator(Comm comm) : base(comm) { }

        private protected override bool TwoGroups => true;

        /// <summary>
        /// The root argument of a rooted collective at the root itself (MPI_ROOT). MPI.NET had a
        /// const; MPI's value differs between Open MPI and MPICH, hence static readonly here.
        /// </summary>
        public static readonly int Root = Mpi.Root;

        /// <summary>The root argument at the other processes of the root's group (MPI_PROC_NULL): they take no part in the data.</summary>
        public static readonly int Null = Mpi.ProcNull;

        /// <summary>
        /// Joins the local group of <paramref name="localComm"/> with a remote one (collective over
        /// both): the leaders are <paramref name="localLeader"/> here and
        /// <paramref name="remoteLeader"/> in <paramref name="bridgeComm"/>, where they talk with
        /// <paramref name="tag"/>.
        /// </summary>
        public Intercommunicator(Intracommunicator localComm, int localLeader, Intracommunicator bridgeComm, int remoteLeader, int tag)
            : base(Make(localComm, localLeader, bridgeComm, remoteLeader, tag)) { }

        private static Comm Make(Intracommunicator local, int localLeader, Intracommunicator bridge, int remoteLeader, int tag)
        {
            if (local is null) throw new ArgumentNullException(nameof(local));
            if (bridge is null) throw new ArgumentNullException(nameof(bridge));
            try { return local.comm.CreateIntercomm(localLeader, bridge.comm, remoteLeader, tag); }
            catch (MpiException e) { throw Errors.Translate(e); }
        }

        private Intercomm Inter => comm as Intercomm ?? throw new InvalidOperationException("MPI: not an oompi intercommunicator");

        /// <summary>The number of processes in the remote group.</summary>
        public int RemoteSize
        {
            get
            {
                try { return Inter.RemoteSize; }
                catch (MpiException e) { throw Translate(e); }
            }
        }

        /// <summary>The remote group.</summary>
        public Group RemoteGroup
        {
            get
            {
                try { return new Group(Inter.RemoteGroup()); }
                catch (MpiException e) { throw Translate(e); }
            }
        }

        /// <summary>The processes this one was spawned by, or null when it was not spawned.</summary>
        internal static Intercommunicator ParentOf()
        {
            try
            {
                var p = Intercomm.Parent();
                return p is null || p.IsNull() ? null : new Intercommunicator(p);
            }
            catch (MpiException e) { throw Errors.Translate(e); }
        }

        /// <summary>One intracommunicator of both groups (collective); the group passing <c>upper</c> true is ranked last.</summary>
        public Intracommunicator Merge(bool upper)
        {
            try { return new Intracommunicator(Inter.Merge(upper)); }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
