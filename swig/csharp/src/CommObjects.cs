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
    /// <item><c>OBcast</c>: a Bcast of {size, status}, then of the bytes.</item>
    /// <item><c>OScatter</c>/<c>OScatterv</c>/<c>OGather</c>/<c>OAllgather</c>: Motor's split
    /// representation, as C++ does it: each rank's slice of the array is encoded on its own (an
    /// array of T with its own ids: objects shared between slices arrive as copies) into one
    /// buffer; the {size, status} pairs travel first, then one Scatterv/Gatherv/Allgatherv.</item>
    /// </list>
    /// The collectives run on this communicator (MPI collectives never match point-to-point
    /// messages), so they pair with C# ranks; C++ runs its object collectives on a private
    /// duplicate. A failure to serialize on one rank is reported to the others, so every rank
    /// throws and none waits. A type that cannot travel: ArgumentException naming it, on every
    /// rank, before anything is sent. Corrupt or truncated input: <see cref="SerializationException"/>.
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
            using Message msg = Mprobe(source, tag);
            long n = msg.CountBytes;
            if (n > Array.MaxLength)
                throw new SerializationException($"oompi: a message of {n} bytes is larger than the largest C# byte array");
            byte[] buf = scratchBytes;
            scratchBytes = null;
            if (buf is null || buf.Length < n) buf = new byte[Math.Max(n, 4096)];
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

        // --- collectives ---------------------------------------------------------------------

        private const ulong FailureArgument = 1, FailureSerialize = 2;

        private static void RaiseFailures(string op, ulong code, Exception local)
        {
            if (local is not null) System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(local);
            if ((code & FailureArgument) != 0)
                throw new ArgumentException($"oompi: {op}: invalid arguments on another rank");
            if ((code & FailureSerialize) != 0)
                throw new SerializationException($"oompi: {op}: another rank could not serialize its objects (it threw there)");
        }

        /// <summary>The root's object, on every rank (the root gets its own object back).</summary>
        public T OBcast<T>(T obj, int root)
        {
            Wire.Check<T>();
            bool atRoot = Rank == root;
            var meta = new ulong[2];
            byte[] bytes = Array.Empty<byte>();
            Exception local = null;
            if (atRoot)
            {
                try
                {
                    var w = new WireWriter();
                    Wire.WriteTop(w, obj);
                    bytes = w.ToArray();
                    meta[0] = (ulong)bytes.Length;
                }
                catch (Exception e) when (e is SerializationException || e is ArgumentException)
                {
                    local = e;
                    meta[1] = FailureSerialize;
                }
            }
            Bcast(meta, root);
            RaiseFailures("OBcast", meta[1], local);
            if (!atRoot) bytes = new byte[checked((int)meta[0])];
            if (bytes.Length > 0) Bcast(bytes, root);
            return atRoot ? obj : Wire.ReadTop<T>(new WireReader(bytes, 0, bytes.Length));
        }

        /// <summary>
        /// This rank's block of the root's array, split as evenly as possible (the first
        /// Size % n ranks get one more). <paramref name="all"/> matters at the root only.
        /// </summary>
        public T[] OScatter<T>(T[] all, int root)
        {
            int[] counts = null;
            if (Rank == root && all is not null)
            {
                int p = Size;
                counts = new int[p];
                for (int i = 0; i < p; i++) counts[i] = all.Length / p + (i < all.Length % p ? 1 : 0);
            }
            return OScatterv(all, counts, root);
        }

        /// <summary>
        /// This rank's block of the root's array: counts[i] elements for rank i, in order.
        /// <paramref name="all"/> and <paramref name="counts"/> matter at the root only.
        /// </summary>
        public T[] OScatterv<T>(T[] all, int[] counts, int root)
        {
            Wire.Check<T>();
            int p = Size;
            bool atRoot = Rank == root;
            ulong[] meta = atRoot ? new ulong[2 * p] : Array.Empty<ulong>();
            var mine = new ulong[2];
            WireWriter w = null;
            int[] offsets = null;
            Exception local = null;
            if (atRoot)
            {
                ulong code = 0;
                long total = 0;
                if (counts is not null) foreach (int c in counts) total += c < 0 ? long.MinValue / 4 : c;
                if (all is null || counts is null || counts.Length != p || total != all.Length)
                {
                    local = new ArgumentException(
                        "oompi: OScatterv: the array must not be null, and counts must have one non-negative entry per rank adding up to its length");
                    code = FailureArgument;
                }
                else
                {
                    try
                    {
                        w = new WireWriter();
                        offsets = new int[p + 1];
                        int first = 0;
                        for (int i = 0; i < p; i++)
                        {
                            Wire.WriteSlice(w, all, first, counts[i]);
                            first += counts[i];
                            offsets[i + 1] = w.Pos;
                            meta[2 * i] = (ulong)(offsets[i + 1] - offsets[i]);
                        }
                    }
                    catch (Exception e) when (e is SerializationException || e is ArgumentException)
                    {
                        local = e;
                        code = FailureSerialize;
                    }
                }
                for (int i = 0; i < p; i++) meta[2 * i + 1] = code;
            }
            Scatter(meta, mine, root);
            RaiseFailures("OScatter", mine[1], local);

            var recv = new byte[checked((int)mine[0])];
            if (atRoot)
            {
                var sizes = new int[p];
                for (int i = 0; i < p; i++) sizes[i] = offsets[i + 1] - offsets[i];
                Scatterv(MpiBuffer.Of(w.Buf, 0, w.Pos), sizes, offsets[..p], recv, root);
            }
            else
            {
                Scatterv(Array.Empty<byte>(), Array.Empty<int>(), Array.Empty<int>(), recv, root);
            }
            var result = new List<T>();
            Wire.ReadSlice(recv, 0, recv.Length, result);
            return result.ToArray();
        }

        /// <summary>The concatenation, in rank order, of every rank's array, at the root (empty elsewhere).</summary>
        public T[] OGather<T>(T[] mine, int root) => GatherObjects(mine, root, false);

        /// <summary>The concatenation, in rank order, of every rank's array, on every rank.</summary>
        public T[] OAllgather<T>(T[] mine) => GatherObjects(mine, 0, true);

        private T[] GatherObjects<T>(T[] mine, int root, bool all)
        {
            string op = all ? "OAllgather" : "OGather";
            Wire.Check<T>();
            int p = Size, me = Rank;
            var w = new WireWriter();
            var myMeta = new ulong[2];
            Exception local = null;
            try
            {
                if (mine is null) throw new ArgumentNullException(nameof(mine), $"oompi: {op}: the array is null");
                Wire.WriteSlice(w, mine, 0, mine.Length);
                myMeta[0] = (ulong)w.Pos;
            }
            catch (Exception e) when (e is SerializationException || e is ArgumentException)
            {
                local = e;
                myMeta[1] = e is ArgumentNullException ? FailureArgument : FailureSerialize;
            }
            var meta = new ulong[2 * p];
            Allgather(myMeta, meta);
            ulong codes = 0;
            long total = 0;
            for (int i = 0; i < p; i++)
            {
                codes |= meta[2 * i + 1];
                total += (long)meta[2 * i];
            }
            RaiseFailures(op, codes, local);
            bool receives = all || me == root;
            if (total > Array.MaxLength)
                throw new SerializationException($"oompi: {op}: {total} bytes in all, more than the largest C# byte array");
            var counts = new int[p];
            var displs = new int[p];
            for (int i = 0, off = 0; i < p; i++)
            {
                counts[i] = (int)meta[2 * i];
                displs[i] = off;
                off += counts[i];
            }
            var recv = receives ? new byte[total] : Array.Empty<byte>();
            if (all) Allgatherv(MpiBuffer.Of(w.Buf, 0, w.Pos), recv, counts, displs);
            else Gatherv(MpiBuffer.Of(w.Buf, 0, w.Pos), recv, counts, displs, root);
            if (!receives) return Array.Empty<T>();
            var result = new List<T>();
            for (int i = 0; i < p; i++) Wire.ReadSlice(recv, displs[i], counts[i], result);
            return result.ToArray();
        }
    }

    public readonly partial struct Port
    {
        /// <summary>Sends an object graph to this port's rank (see <see cref="Comm.OSend{T}"/>).</summary>
        public void OSend<T>(T obj, int tag = 0) => Comm.OSend(obj, Rank, tag);

        /// <summary>Receives an object from this port's rank (any tag unless given).</summary>
        public T ORecv<T>(int tag) => Comm.ORecv<T>(Rank, tag);
        public T ORecv<T>() => Comm.ORecv<T>(Rank, Mpi.AnyTag);
    }
}
