using System;
using Oompi;

// The names of seed 002 (Willcock, Lumsdaine, Robison: "Using MPI with C# and the Common
// Language Infrastructure", 2002), the paper MPI.NET grew from, so that its two round-robin
// programs run unchanged (csharp_tests/mpinet/Seed002.cs): Fig. 4's high-level MPINET names
// (Session, Communicator.World, ports by indexer, ArrayTypedBuffer) here in namespace MPI, and
// Fig. 3's low-level CLI bindings (MPI.Init, MPI.COMM_WORLD, Get_rank, Send of an IntPtr with a
// count and MPI.DOUBLE) as class MPI.Cli.MPI. Thin names over the same calls as the rest.
namespace MPI
{
    /// <summary>Fig. 4's MPI session: initialises MPI, finalises it on Dispose (an <see cref="Environment"/>).</summary>
    public sealed class Session : IDisposable
    {
        private readonly Environment env;

        /// <summary>Initialises MPI.</summary>
        public Session()
        {
            var args = Array.Empty<string>();
            env = new Environment(ref args);
        }

        /// <summary>True while MPI is initialised.</summary>
        public bool IsInitialized => Environment.Initialized && !Environment.Finalized;

        /// <summary>Ends every process of the job.</summary>
        public void Abort(Communicator comm, int errorcode) => Environment.Abort(errorcode);

        /// <summary>Finalises MPI.</summary>
        public void Dispose() => env.Dispose();
    }

    /// <summary>Fig. 4's typed buffer: a whole array, pinned by each call that uses it.</summary>
    public interface ITypedBuffer
    {
        /// <summary>The number of elements.</summary>
        int Count { get; }
    }

    /// <summary>Fig. 4's buffer over a whole array of a primitive type.</summary>
    public sealed class ArrayTypedBuffer : ITypedBuffer
    {
        internal readonly Array array;
        internal readonly Action<Comm, int, int> send;
        internal readonly Func<Comm, int, int, Oompi.Status> recv;

        private ArrayTypedBuffer(Array array, Action<Comm, int, int> send, Func<Comm, int, int, Oompi.Status> recv)
        {
            this.array = array ?? throw new ArgumentNullException(nameof(array));
            this.send = send;
            this.recv = recv;
        }

        /// <summary>A buffer of doubles.</summary>
        public ArrayTypedBuffer(double[] buf) : this(buf, (c, d, t) => c.Send(buf, d, t), (c, s, t) => c.Recv(buf, s, t)) { }
        /// <summary>A buffer of ints.</summary>
        public ArrayTypedBuffer(int[] buf) : this(buf, (c, d, t) => c.Send(buf, d, t), (c, s, t) => c.Recv(buf, s, t)) { }
        /// <summary>A buffer of floats.</summary>
        public ArrayTypedBuffer(float[] buf) : this(buf, (c, d, t) => c.Send(buf, d, t), (c, s, t) => c.Recv(buf, s, t)) { }
        /// <summary>A buffer of longs.</summary>
        public ArrayTypedBuffer(long[] buf) : this(buf, (c, d, t) => c.Send(buf, d, t), (c, s, t) => c.Recv(buf, s, t)) { }
        /// <summary>A buffer of bytes.</summary>
        public ArrayTypedBuffer(byte[] buf) : this(buf, (c, d, t) => c.Send(buf, d, t), (c, s, t) => c.Recv(buf, s, t)) { }

        /// <summary>The number of elements.</summary>
        public int Count => array.Length;
    }

    /// <summary>Fig. 4's port: a communicator and one peer's rank.</summary>
    public sealed class Port
    {
        /// <summary>The communicator.</summary>
        public readonly Communicator Comm;
        /// <summary>The peer's rank.</summary>
        public readonly int Peer;

        internal Port(Communicator comm, int peer)
        {
            Comm = comm;
            Peer = peer;
        }

        /// <summary>Sends the buffer to the peer (tag 0).</summary>
        public void Send(ITypedBuffer buf) => Send(buf, 0);

        /// <summary>Sends the buffer to the peer with a tag.</summary>
        public void Send(ITypedBuffer buf, int tag)
        {
            try { Of(buf).send(Comm.comm, Peer, tag); }
            catch (MpiException e) { throw Errors.Translate(e); }
        }

        /// <summary>Receives into the buffer from the peer (any tag).</summary>
        public void Recv(ITypedBuffer buf) => Recv(buf, Communicator.anyTag);

        /// <summary>Receives into the buffer from the peer with a tag.</summary>
        public void Recv(ITypedBuffer buf, int tag)
        {
            try { Of(buf).recv(Comm.comm, Peer, tag); }
            catch (MpiException e) { throw Errors.Translate(e); }
        }

        private static ArrayTypedBuffer Of(ITypedBuffer buf) => buf as ArrayTypedBuffer ??
            throw new ArgumentException("MPI: a Port sends and receives ArrayTypedBuffers", nameof(buf));
    }

    /// <summary>
    /// Fig. 4's <c>Communicator.World</c>, in a base class of <see cref="Communicator"/> so that C#
    /// finds it through Communicator while Visual Basic, whose names ignore case, finds
    /// MPI.NET's <see cref="Communicator.world"/> (declared on Communicator itself, it hides this
    /// one there; beside it, VB refused every <c>MPI.Communicator.world</c> as ambiguous).
    /// </summary>
    public abstract class Seed002Communicator
    {
        private protected Seed002Communicator() { }

        /// <summary>Fig. 4's name of <see cref="Communicator.world"/>.</summary>
        public static Intracommunicator World => Communicator.world;
    }

    public abstract partial class Communicator
    {

        /// <summary>Fig. 4's port to process <paramref name="rank"/> of this communicator.</summary>
        public Port this[int rank]
        {
            get
            {
                if ((rank < 0 || rank >= Size) && rank != procNull)
                    throw new ArgumentOutOfRangeException(nameof(rank), $"MPI: no process {rank} in a communicator of {Size}");
                return new Port(this, rank);
            }
        }
    }
}

namespace MPI.Cli
{
    /// <summary>Fig. 3's low-level CLI bindings (class MPI, C++-binding names), over oompi.</summary>
    public static unsafe class MPI
    {
        private static MpiEnvironment env;

        /// <summary>MPI_Init.</summary>
        public static void Init()
        {
            if (env is not null) throw new InvalidOperationException("MPI.Init: MPI is already initialised");
            env = new MpiEnvironment(ThreadLevel.Single);
        }

        /// <summary>MPI_Finalize.</summary>
        public static void Finalize()
        {
            global::MPI.Communicator.ForgetPredefined();
            env?.Dispose();
            env = null;
        }

        /// <summary>The world communicator.</summary>
        public static Comm COMM_WORLD => new(Oompi.Comm.World());

        /// <summary>MPI_STATUS_IGNORE.</summary>
        public static readonly Status STATUS_IGNORE = null;

        /// <summary>MPI_DOUBLE.</summary>
        public static readonly Datatype DOUBLE = new(8, (p, n) => MpiBuffer.Of((double*)p, n));
        /// <summary>MPI_FLOAT.</summary>
        public static readonly Datatype FLOAT = new(4, (p, n) => MpiBuffer.Of((float*)p, n));
        /// <summary>MPI_INT.</summary>
        public static readonly Datatype INT = new(4, (p, n) => MpiBuffer.Of((int*)p, n));
        /// <summary>MPI_LONG (64 bits).</summary>
        public static readonly Datatype LONG = new(8, (p, n) => MpiBuffer.Of((long*)p, n));
        /// <summary>MPI_BYTE.</summary>
        public static readonly Datatype BYTE = new(1, (p, n) => MpiBuffer.Of((byte*)p, n));
        /// <summary>MPI_CHAR.</summary>
        public static readonly Datatype CHAR = new(1, (p, n) => MpiBuffer.Of((sbyte*)p, n));

        /// <summary>A predefined datatype: how to describe count elements at an address.</summary>
        public sealed unsafe class Datatype
        {
            internal readonly int Size;
            internal readonly Func<IntPtr, long, MpiBuffer> At;
            internal Datatype(int size, Func<IntPtr, long, MpiBuffer> at)
            {
                Size = size;
                At = at;
            }
        }

        /// <summary>A status (Source, Tag, Error).</summary>
        public sealed class Status
        {
            internal Oompi.Status s;
            /// <summary>The sender's rank.</summary>
            public uint Source => (uint)s.Source;
            /// <summary>The tag.</summary>
            public uint Tag => (uint)s.Tag;
            /// <summary>The error code.</summary>
            public uint Error => (uint)s.Error;
        }

        /// <summary>A communicator with C++-binding names; buffers are pinned addresses (IntPtr).</summary>
        public sealed class Comm
        {
            private readonly Oompi.Comm c;
            internal Comm(Oompi.Comm c) => this.c = c;

            /// <summary>MPI_Comm_rank.</summary>
            public uint Get_rank() => (uint)c.Rank;
            /// <summary>MPI_Comm_size.</summary>
            public uint Get_size() => (uint)c.Size;

            /// <summary>MPI_Send of count elements of type at buf (pinned by the caller).</summary>
            public void Send(IntPtr buf, uint count, Datatype type, uint dest, int tag) =>
                c.Send(Describe(buf, count, type), checked((int)dest), tag);

            /// <summary>MPI_Recv into count elements of type at buf (pinned by the caller).</summary>
            public void Recv(IntPtr buf, uint count, Datatype type, uint source, int tag, Status status)
            {
                var s = c.Recv(Describe(buf, count, type), checked((int)source), tag);
                if (status is not null) status.s = s;
            }

            private static MpiBuffer Describe(IntPtr buf, uint count, Datatype type)
            {
                if (type is null) throw new ArgumentNullException(nameof(type));
                if (buf == IntPtr.Zero && count > 0) throw new ArgumentNullException(nameof(buf), "MPI: a null buffer");
                return type.At(buf, count);
            }
        }
    }
}
