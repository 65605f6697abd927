using System;

namespace Oompi
{
    /// <summary>
    /// OOMPI's port (MPI.NET's <c>comm[rank]</c>): a communicator and one rank in it, the source
    /// or destination of messages. <c>world[(rank + 1) % size].Send(data)</c>.
    /// </summary>
    public readonly partial struct Port
    {
        /// <summary>The communicator.</summary>
        public Comm Comm { get; }
        /// <summary>The rank of this port in <see cref="Comm"/>.</summary>
        public int Rank { get; }

        internal Port(Comm comm, int rank)
        {
            Comm = comm;
            Rank = rank;
        }

        public void Send(MpiBuffer buf, int tag = 0) => Comm.Send(buf, Rank, tag);
        public void Send<T>(T[] buf, int tag = 0) where T : unmanaged => Comm.Send(buf, Rank, tag);
        public void Send<T>(ReadOnlySpan<T> buf, int tag = 0) where T : unmanaged => Comm.Send(buf, Rank, tag);
        public void Ssend(MpiBuffer buf, int tag = 0) => Comm.Ssend(buf, Rank, tag);
        public void Bsend(MpiBuffer buf, int tag = 0) => Comm.Bsend(buf, Rank, tag);
        public void Rsend(MpiBuffer buf, int tag = 0) => Comm.Rsend(buf, Rank, tag);

        /// <summary>Receives from this port's rank (any tag unless given).</summary>
        public Status Recv(MpiBuffer buf) => Comm.Recv(buf, Rank, Mpi.AnyTag);
        public Status Recv(MpiBuffer buf, int tag) => Comm.Recv(buf, Rank, tag);
        public Status Recv<T>(T[] buf) where T : unmanaged => Comm.Recv(buf, Rank, Mpi.AnyTag);
        public Status Recv<T>(T[] buf, int tag) where T : unmanaged => Comm.Recv(buf, Rank, tag);
        public Status Recv<T>(Span<T> buf, int tag) where T : unmanaged => Comm.Recv(buf, Rank, tag);

        /// <summary>Nonblocking: the request pins an array until it completes.</summary>
        public Request Isend(MpiBuffer buf, int tag = 0) => Comm.Isend(buf, Rank, tag);
        public Request Irecv(MpiBuffer buf) => Comm.Irecv(buf, Rank, Mpi.AnyTag);
        public Request Irecv(MpiBuffer buf, int tag) => Comm.Irecv(buf, Rank, tag);

        public override string ToString() => $"Port(rank {Rank})";
    }

    public partial class Comm
    {
        /// <summary>
        /// The port of <paramref name="rank"/> (or <c>Mpi.ProcNull</c>); ArgumentOutOfRangeException
        /// outside 0..Size-1.
        /// </summary>
        public Port this[int rank]
        {
            get
            {
                if (rank != Mpi.ProcNull && (uint)rank >= (uint)Size)
                    throw new ArgumentOutOfRangeException(nameof(rank),
                        $"oompi: rank {rank} is not in a communicator of size {Size}");
                return new Port(this, rank);
            }
        }
    }
}
