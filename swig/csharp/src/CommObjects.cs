using System;
using System.Collections.Generic;

namespace Oompi
{
    /// <summary>
    /// Object-graph transport (Motor's "O" operations) in wire format v1 (see <see cref="Wire"/>
    /// and docs/wire-format.md), written in C# over the byte operations of the facade:
    /// <list type="bullet">
    /// <item><c>OSend(obj, dest, tag)</c> / <c>ORecv&lt;T&gt;(source, tag)</c>: one MPI message of
    /// bytes per object; the receive matches it with a matched probe (<c>Mprobe</c>), sizes its
    /// buffer from the message and takes it with <c>Message.Recv</c>, so it is thread-safe and
    /// pairs with C++'s <c>osend</c>/<c>orecv</c>, Java's and Python's.</item>
    /// <item><c>OBcast</c>: a Bcast of {size, code}, then of the bytes.</item>
    /// <item><c>OScatter</c>/<c>OScatterv</c>/<c>OGather</c>/<c>OAllgather</c>: Motor's split
    /// representation, as C++ does it: each rank's slice of the array is encoded on its own (an
    /// array of T with its own ids: objects shared between slices arrive as copies) into one
    /// buffer; the {size, code} pairs travel first, then one Scatterv/Gatherv/Allgatherv.</item>
    /// <item><c>OAlltoall</c>: one object per rank, each its own graph; {size, code} pairs by
    /// Alltoall, then one Alltoallv (or C++'s large path: one message per pair).</item>
    /// <item><c>OReduce</c>/<c>OAllreduce</c>: any function, folded in rank order (it need not be
    /// commutative) on C++'s binomial tree towards rank 0 (tags 11 and 12, 13 to another root),
    /// then for OAllreduce a Bcast of {size, code} and of the bytes from rank 0.</item>
    /// </list>
    /// The collectives run on <see cref="ObjectComm"/>, the private duplicate that C++'s
    /// obcast/oscatter/ogather/oallgather use, with the same messages in the same MPI calls
    /// (include/oompi/object_ops.hpp), so C# ranks and C++ (or Java) ranks take part in the same
    /// collective, and object collectives never match the user's messages. A failure on one rank
    /// (bad arguments at the root, an object or a type that cannot be serialized) travels with
    /// the sizes, so every rank throws and none waits. A type that cannot travel:
    /// ArgumentException naming it (on ranks that only receive, after taking part in the
    /// collective). Corrupt or truncated input: <see cref="SerializationException"/>.
    /// </summary>
    public partial class Comm
    {
        [ThreadStatic] private static WireWriter scratchWriter;
        [ThreadStatic] private static byte[] scratchBytes;
        private const int KeepScratchBytes = 64 << 20;

        private static WireWriter LeaseWriter()
        {
            var w = scratchWriter ?? new WireWriter(4096);
            scratchWriter = null;  // a nested call (from another thread's callback) gets its own
            w.Reset();
            return w;
        }

        private static void ReturnWriter(WireWriter w)
        {
            if (w.Buf.Length <= KeepScratchBytes)
            {
                w.Reset();
                scratchWriter = w;
            }
        }

        /// <summary>
        /// Sends <paramref name="obj"/> (its whole transported graph; its run-time type when T is
        /// object) as one message. A class is sent as a reference (null allowed), a struct or a
        /// <c>[Transportable(ByValue = true)]</c> class as a value, like C++'s
        /// <c>osend(std::shared_ptr&lt;node&gt;)</c> and <c>osend(shape)</c>.
        /// </summary>
        public void OSend<T>(T obj, int dest, int tag = 0)
        {
            Wire.Check(obj);
            var w = LeaseWriter();
            try
            {
                Wire.WriteTop(w, obj);
                Send(new ReadOnlySpan<byte>(w.Buf, 0, w.Pos), dest, tag);
            }
            finally
            {
                ReturnWriter(w);
            }
        }

        /// <summary>
        /// Sends array[offset, offset + count) as an array of T (Motor's OSend with offset and
        /// count); the receiver takes it with <c>ORecv&lt;T[]&gt;</c> (or a List).
        /// </summary>
        public void OSend<T>(T[] array, int offset, int count, int dest, int tag)
        {
            if (array is null) throw new ArgumentNullException(nameof(array));
            if (offset < 0 || count < 0 || offset > array.Length || count > array.Length - offset)
                throw new ArgumentOutOfRangeException(nameof(offset),
                    $"oompi: offset {offset} and count {count} do not fit in an array of {array.Length} elements");
            Wire.Check<T>();
            var w = LeaseWriter();
            try
            {
                Wire.WriteSlice(w, array, offset, count);
                Send(new ReadOnlySpan<byte>(w.Buf, 0, w.Pos), dest, tag);
            }
            finally
            {
                ReturnWriter(w);
            }
        }

        /// <summary>
        /// Nonblocking send: serializes now into a byte array that the request pins and keeps
        /// until the send completes (Wait or Test it; Dispose when done).
        /// </summary>
        public Request IOSend<T>(T obj, int dest, int tag = 0)
        {
            Wire.Check(obj);
            var w = new WireWriter();
            Wire.WriteTop(w, obj);
            return Isend(w.ToArray(), dest, tag);
        }

        /// <summary>Receives one object message (any size) from source with tag.</summary>
        public T ORecv<T>(int source, int tag) => ORecv<T>(source, tag, out _);

        /// <summary>Receives one object message from source, any tag.</summary>
        public T ORecv<T>(int source) => ORecv<T>(source, Mpi.AnyTag, out _);

        /// <summary>Receives one object message from any source, any tag.</summary>
        public T ORecv<T>() => ORecv<T>(Mpi.AnySource, Mpi.AnyTag, out _);

        /// <summary>Receives one object message; <paramref name="status"/> is its status.</summary>
        public T ORecv<T>(int source, int tag, out Status status)
        {
            Wire.Check<T>();
            using Message msg = ObjectMprobe(source, tag);  // after pending IORecv (posting order)
            long n = msg.CountBytes;
            byte[] buf = scratchBytes;
            scratchBytes = null;
            if (buf is null || buf.Length < n) buf = ArrayFor(msg, n, 4096);
            try
            {
                status = msg.Recv(MpiBuffer.Of(buf, 0, (int)n));
                if (status.Source == Mpi.ProcNull) return default;
                return Wire.ReadTop<T>(new WireReader(buf, 0, (int)n));
            }
            finally
            {
                if (buf.Length <= KeepScratchBytes) scratchBytes = buf;
            }
        }

        /// <summary>
        /// A byte array of at least n (and atLeast) bytes for the matched message msg. When there
        /// is none (larger than a C# array, or out of memory) the message is received into native
        /// memory and dropped before the exception is thrown: a matched message that nobody
        /// receives is lost to every later receive, and its sender waits forever.
        /// </summary>
        internal static byte[] ArrayFor(Message msg, long n, long atLeast)
        {
            Exception error;
            try
            {
                if (n <= Array.MaxLength) return new byte[Math.Max(n, atLeast)];
                error = new SerializationException($"oompi: a message of {n} bytes is larger than the largest C# byte array");
            }
            catch (OutOfMemoryException e)
            {
                error = e;
            }
            Drop(msg, n);
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(error);
            return null;
        }

        private static unsafe void Drop(Message msg, long n)
        {
            void* p = null;
            try
            {
                p = System.Runtime.InteropServices.NativeMemory.Alloc((nuint)n);
                msg.Recv(MpiBuffer.Of((byte*)p, n));
            }
            catch (OutOfMemoryException)
            {
                // no native memory either: take the message off the queue, truncated
                try { msg.Recv(MpiBuffer.Of(Array.Empty<byte>())); }
                catch (MpiException) { }
            }
            finally
            {
                System.Runtime.InteropServices.NativeMemory.Free(p);
            }
        }
    }

    public readonly partial struct Port
    {
        /// <summary>Sends an object graph to this port's rank (see <see cref="Comm.OSend{T}(T, int, int)"/>).</summary>
        public void OSend<T>(T obj, int tag = 0) => Comm.OSend(obj, Rank, tag);

        /// <summary>Receives an object from this port's rank (any tag unless given).</summary>
        public T ORecv<T>(int tag) => Comm.ORecv<T>(Rank, tag);
        public T ORecv<T>() => Comm.ORecv<T>(Rank, Mpi.AnyTag);
    }
}
