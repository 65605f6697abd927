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

        // --- collectives ---------------------------------------------------------------------
        //
        // These follow include/oompi/object_ops.hpp message for message, so that C# ranks and C++
        // ranks (and Java's) take part in the same collective: they run on ObjectComm() (the
        // private duplicate C++ uses, never the user's communicator), {size, code} pairs of
        // uint64 travel first (Bcast / Scatter / Allgather), then the bytes in one Bcast /
        // Scatterv / Gatherv / Allgatherv. Above ObjectIntLimit bytes (C++'s object_int_limit)
        // the split collectives switch to C++'s large path: one message per rank with tag
        // TagLarge (scatter, gather), one Bcast per rank (allgather).

        private const ulong FailureArgument = 1, FailureSerialize = 2, FailureLargePath = 4;
        // Python's pickled collectives (no type= there): code Pickled | FailureArgument, and
        // PickledArgument for the pickling rank's own argument failure (docs/wire-format.md 3).
        private const ulong Pickled = 8, PickledArgument = 16;
        private const int TagLarge = 14;  // object_tag_large

        /// <summary>
        /// Above this many bytes the split collectives move slices point to point (C++'s
        /// <c>detail::object_int_limit</c>); every rank of a job must use the same value. Lowered by
        /// the tests (through reflection) to exercise that path.
        /// </summary>
        internal static long ObjectIntLimit = int.MaxValue;

        private static void RaiseFailures(string op, ulong code, Exception local)
        {
            if (local is not null) System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(local);
            if ((code & Pickled) != 0)
                throw new ArgumentException($"oompi: {op}: a Python rank pickles its objects (no type= there), which this rank cannot read: pass type= on every Python rank");
            if ((code & FailureArgument) != 0)
                throw new ArgumentException($"oompi: {op}: invalid arguments on another rank");
            if ((code & FailureSerialize) != 0)
                throw new SerializationException($"oompi: {op}: another rank could not serialize its objects (it threw there)");
        }

        /// <summary>
        /// The error of a type that cannot travel, or null. It is not thrown at once: the rank
        /// still takes part in the collective (reporting it where C++ reports a failure to
        /// serialize, otherwise receiving the bytes) and throws afterwards, so that no other rank,
        /// C++ or C#, is left waiting.
        /// </summary>
        private static Exception TypeError<T>()
        {
            try
            {
                Wire.Check<T>();
                return null;
            }
            catch (Exception e) when (e is ArgumentException || e is SerializationException)
            {
                return e;
            }
        }

        // A rank's own type error when the collective fails anyway (it says more than the
        // remote failure); null when it goes on (the rank takes part, then throws it).
        private static Exception Fatal(ulong code, Exception typeError) =>
            (code & (FailureArgument | FailureSerialize)) != 0 ? typeError : null;

        // A pickling Python root's bytes follow its code although this rank refuses them: the
        // rank takes them (or the root, on a large message, would wait for it and the next
        // collective would match them), then throws.
        private static bool PickledBytesFollow(ulong code) =>
            (code & Pickled) != 0 && (code & (FailureSerialize | PickledArgument)) == 0;

        // After the first frame of a pickling Python root's OBcast: its out-of-band buffers, one
        // Bcast each, announced by a header "OOB1", u32 n, n u64 sizes (little-endian).
        private static void DrainPickledBuffers(Comm oc, byte[] first, int root)
        {
            if (first.Length < 8 || first[0] != 'O' || first[1] != 'O' || first[2] != 'B' || first[3] != '1') return;
            ulong n = System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(first.AsSpan(4));
            if ((ulong)first.Length < 8 + 8 * n) return;
            for (int i = 0; i < (int)n; i++)
            {
                ulong size = System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(first.AsSpan(8 + 8 * i));
                oc.Bcast(new byte[Math.Min(size, (ulong)Array.MaxLength)], root);
            }
        }

        private static void ThrowIf(Exception e)
        {
            if (e is not null) System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e);
        }

        /// <summary>
        /// The root's object, on every rank (the root gets its own object back). As C++'s
        /// <c>obcast</c>: a Bcast of {size, code} from the root, then a Bcast of the bytes.
        /// </summary>
        public T OBcast<T>(T obj, int root)
        {
            Exception typeError = TypeError<T>();
            using Comm oc = ObjectComm();
            bool atRoot = Rank == root;
            var meta = new ulong[2];
            byte[] bytes = Array.Empty<byte>();
            Exception local = null;
            if (atRoot)
            {
                try
                {
                    ThrowIf(typeError);
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
            oc.Bcast(meta, root);
            bool refused = !atRoot && PickledBytesFollow(meta[1]);
            if (!refused) RaiseFailures("OBcast", meta[1], local ?? Fatal(meta[1], typeError));
            if (!atRoot)
            {
                if (meta[0] > (ulong)Array.MaxLength)
                    throw new SerializationException($"oompi: OBcast: {meta[0]} bytes exceed the largest C# byte array");
                bytes = new byte[(int)meta[0]];
            }
            oc.Bcast(bytes, root);
            if (refused)
            {
                DrainPickledBuffers(oc, bytes, root);
                RaiseFailures("OBcast", meta[1], null);
            }
            if (atRoot) return obj;
            ThrowIf(typeError);
            return Wire.ReadTop<T>(new WireReader(bytes, 0, bytes.Length));
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
            return ScatterObjects(all, counts, root, "OScatter");
        }

        /// <summary>
        /// This rank's block of the root's array: counts[i] elements for rank i, in order.
        /// <paramref name="all"/> and <paramref name="counts"/> matter at the root only.
        /// </summary>
        public T[] OScatterv<T>(T[] all, int[] counts, int root) => ScatterObjects(all, counts, root, "OScatterv");

        // As C++'s oscatterv: the root encodes one slice per rank (each an independent graph) into
        // one buffer, Scatters {slice bytes, code} to every rank, then Scatterv's the bytes (or,
        // with code FailureLargePath, sends each rank its slice with tag TagLarge).
        private T[] ScatterObjects<T>(T[] all, int[] counts, int root, string op)
        {
            Exception typeError = TypeError<T>();
            using Comm oc = ObjectComm();
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
                        $"oompi: {op}: the array must not be null, and counts must have one non-negative entry per rank ({p}) adding up to its length");
                    code = FailureArgument;
                }
                else
                {
                    try
                    {
                        ThrowIf(typeError);
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
                        if (w.Pos > ObjectIntLimit) code = FailureLargePath;
                    }
                    catch (Exception e) when (e is SerializationException || e is ArgumentException)
                    {
                        local = e;
                        code = FailureSerialize;
                    }
                }
                for (int i = 0; i < p; i++) meta[2 * i + 1] = code;
            }
            oc.Scatter(meta, mine, root);
            bool refused = !atRoot && PickledBytesFollow(mine[1]);  // take the bytes, then throw
            if (!refused) RaiseFailures(op, mine[1], local ?? Fatal(mine[1], typeError));

            byte[] recv;
            if (atRoot)
            {
                recv = new byte[offsets[root + 1] - offsets[root]];
                if ((mine[1] & FailureLargePath) == 0)
                {
                    var sizes = new int[p];
                    for (int i = 0; i < p; i++) sizes[i] = offsets[i + 1] - offsets[i];
                    oc.Scatterv(MpiBuffer.Of(w.Buf, 0, w.Pos), sizes, offsets[..p], recv, root);
                }
                else
                {
                    for (int i = 0; i < p; i++)
                        if (i != root)
                            oc.Send(new ReadOnlySpan<byte>(w.Buf, offsets[i], offsets[i + 1] - offsets[i]), i, TagLarge);
                    Array.Copy(w.Buf, offsets[root], recv, 0, recv.Length);
                }
            }
            else
            {
                if (mine[0] > (ulong)Array.MaxLength)
                {
                    if ((mine[1] & FailureLargePath) != 0) DrainLarge(oc, root);
                    else oc.Scatterv(Array.Empty<byte>(), Array.Empty<int>(), Array.Empty<int>(), Array.Empty<byte>(), root);
                    if (refused) RaiseFailures(op, mine[1], null);
                    throw new SerializationException($"oompi: {op}: a slice of {mine[0]} bytes exceeds the largest C# byte array");
                }
                recv = new byte[(int)mine[0]];
                if ((mine[1] & FailureLargePath) == 0)
                    oc.Scatterv(Array.Empty<byte>(), Array.Empty<int>(), Array.Empty<int>(), recv, root);
                else
                    oc.Recv(recv, root, TagLarge);
                if (refused) RaiseFailures(op, mine[1], null);
                ThrowIf(typeError);
            }
            var result = new List<T>();
            Wire.ReadSlice(recv, 0, recv.Length, result);
            return result.ToArray();
        }

        // Takes a large-path message that cannot land in a C# array off the queue (truncated).
        private static void DrainLarge(Comm oc, int source)
        {
            using Message m = oc.Mprobe(source, TagLarge);
            try
            {
                m.Recv(MpiBuffer.Of(Array.Empty<byte>()));
            }
            catch (MpiException)
            {
                // expected: MPI_ERR_TRUNCATE
            }
        }

        /// <summary>The concatenation, in rank order, of every rank's array, at the root (empty elsewhere).</summary>
        public T[] OGather<T>(T[] mine, int root) => GatherObjects(mine, root, false);

        /// <summary>The concatenation, in rank order, of every rank's array, on every rank.</summary>
        public T[] OAllgather<T>(T[] mine) => GatherObjects(mine, 0, true);

        // As C++'s gather_impl: every rank encodes its array as one slice, Allgathers {bytes,
        // code}, then one Gatherv / Allgatherv moves the bytes (above ObjectIntLimit in all: one
        // message per rank with tag TagLarge to the root, or one Bcast per rank).
        private T[] GatherObjects<T>(T[] mine, int root, bool all)
        {
            string op = all ? "OAllgather" : "OGather";
            Exception local = TypeError<T>();
            using Comm oc = ObjectComm();
            int p = Size, me = Rank;
            var w = new WireWriter();
            var myMeta = new ulong[2];
            if (local is not null)
            {
                myMeta[1] = FailureSerialize;
            }
            else
            {
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
            }
            var meta = new ulong[2 * p];
            oc.Allgather(myMeta, meta);
            ulong codes = 0;
            var off = new long[p + 1];
            for (int i = 0; i < p; i++)
            {
                codes |= meta[2 * i + 1];
                off[i + 1] = off[i] + (long)meta[2 * i];
            }
            RaiseFailures(op, codes, local);
            long total = off[p];
            bool receives = all || me == root;
            bool large = total > ObjectIntLimit;
            // A receiver that cannot hold everything still takes its part, then throws.
            bool fits = total <= Array.MaxLength;
            var recv = receives && fits ? new byte[total] : Array.Empty<byte>();
            if (!large)
            {
                var counts = new int[p];
                var displs = new int[p];
                for (int i = 0; i < p; i++)
                {
                    counts[i] = (int)meta[2 * i];
                    displs[i] = (int)off[i];
                }
                if (all) oc.Allgatherv(MpiBuffer.Of(w.Buf, 0, w.Pos), recv, counts, displs);
                else oc.Gatherv(MpiBuffer.Of(w.Buf, 0, w.Pos), recv, counts, displs, root);
            }
            else if (all)
            {
                for (int i = 0; i < p; i++)
                {
                    long n = off[i + 1] - off[i];
                    if (i == me)
                    {
                        if (fits) Array.Copy(w.Buf, 0, recv, off[i], n);
                        oc.Bcast(new Span<byte>(w.Buf, 0, (int)n), i);
                    }
                    else if (fits)
                    {
                        oc.Bcast(new Span<byte>(recv, (int)off[i], (int)n), i);
                    }
                    else
                    {
                        if (n > Array.MaxLength)
                            throw new SerializationException($"oompi: {op}: rank {i}'s {n} bytes exceed the largest C# byte array");
                        oc.Bcast(new byte[n], i);
                    }
                }
            }
            else if (me == root)
            {
                for (int i = 0; i < p; i++)
                {
                    long n = off[i + 1] - off[i];
                    if (i == me) { if (fits) Array.Copy(w.Buf, 0, recv, off[i], n); }
                    else if (fits) oc.Recv(new Span<byte>(recv, (int)off[i], (int)n), i, TagLarge);
                    else DrainLarge(oc, i);
                }
            }
            else
            {
                oc.Send(new ReadOnlySpan<byte>(w.Buf, 0, w.Pos), root, TagLarge);
            }
            if (!receives) return Array.Empty<T>();
            if (!fits)
                throw new SerializationException($"oompi: {op}: {total} bytes in all exceed the largest C# byte array");
            var result = new List<T>();
            for (int i = 0; i < p; i++) Wire.ReadSlice(recv, (int)off[i], (int)(off[i + 1] - off[i]), result);
            return result.ToArray();
        }
    }

    public partial class Comm
    {
        private const int TagReduce = 11, TagReduceFailed = 12, TagForward = 13;  // C++'s object_tag_*

        /// <summary>
        /// items[i] goes to rank i (one object per rank); returns what each rank sent to this one,
        /// in rank order. As C++'s <c>oalltoall</c>: every element is written on its own (an
        /// independent graph: objects shared between elements arrive as copies), the {size, code}
        /// pairs go by Alltoall, the bytes by one Alltoallv, or above <see cref="ObjectIntLimit"/>
        /// bytes on any rank by one message per pair (tag 14). A wrong length (ArgumentException)
        /// or an element that cannot be written, on any rank: every rank throws.
        /// </summary>
        public T[] OAlltoall<T>(T[] items)
        {
            Exception typeError = TypeError<T>();
            using Comm oc = ObjectComm();
            int p = Size;
            var w = new WireWriter();
            var soff = new int[p + 1];
            ulong code = 0;
            Exception local = null;
            if (items is null || items.Length != p)
            {
                local = new ArgumentException(
                    $"oompi: OAlltoall: the array needs one object per rank ({p}), not {(items is null ? "null" : items.Length.ToString())}",
                    nameof(items));
                code = FailureArgument;
            }
            else
            {
                try
                {
                    ThrowIf(typeError);
                    for (int i = 0; i < p; i++)
                    {
                        Wire.Check(items[i]);
                        w.ResetIds();
                        Wire.WriteTop(w, items[i]);
                        soff[i + 1] = w.Pos;
                    }
                }
                catch (Exception e) when (e is SerializationException || e is ArgumentException)
                {
                    local = e;
                    code = FailureSerialize;
                }
            }
            var smeta = new ulong[2 * p];
            var rmeta = new ulong[2 * p];
            for (int i = 0; i < p; i++)
            {
                smeta[2 * i] = code == 0 ? (ulong)(soff[i + 1] - soff[i]) : 0;
                smeta[2 * i + 1] = code;
            }
            oc.Alltoall(smeta, rmeta);
            ulong codes = code;
            var roff = new long[p + 1];
            for (int i = 0; i < p; i++)
            {
                codes |= rmeta[2 * i + 1];
                roff[i + 1] = roff[i] + (long)rmeta[2 * i];
            }
            RaiseFailures("OAlltoall", codes, local);

            // C++ takes the large path when any rank's bytes exceed an int; a C# rank also asks for
            // it when its bytes in all do not fit one array (then each slice gets its own).
            long limit = Math.Min(ObjectIntLimit, Array.MaxLength);
            var large = new[] { soff[p] > limit || roff[p] > limit ? 1 : 0 };
            var anyLarge = new int[1];
            oc.Allreduce(large, anyLarge, Op.Max);
            var result = new T[p];
            if (anyLarge[0] == 0)
            {
                var recv = new byte[roff[p]];
                int[] sc = new int[p], sd = new int[p], rc = new int[p], rd = new int[p];
                for (int i = 0; i < p; i++)
                {
                    sc[i] = soff[i + 1] - soff[i];
                    sd[i] = soff[i];
                    rc[i] = (int)(roff[i + 1] - roff[i]);
                    rd[i] = (int)roff[i];
                }
                oc.Alltoallv(MpiBuffer.Of(w.Buf, 0, w.Pos), sc, sd, MpiBuffer.Of(recv), rc, rd);
                for (int i = 0; i < p; i++) result[i] = Wire.ReadTop<T>(new WireReader(recv, rd[i], rc[i]));
                return result;
            }
            // The large path: every receive posted, then every send, then all completed.
            var slices = new byte[p][];
            var reqs = new List<Request>(2 * p);
            long tooLarge = -1;
            try
            {
                for (int i = 0; i < p; i++)
                {
                    long n = (long)rmeta[2 * i];
                    if (n > Array.MaxLength)
                    {
                        tooLarge = n;
                        continue;
                    }
                    slices[i] = new byte[n];
                    reqs.Add(oc.Irecv(slices[i], i, TagLarge));
                }
                for (int i = 0; i < p; i++)
                    reqs.Add(oc.Isend(new ReadOnlyMemory<byte>(w.Buf, soff[i], soff[i + 1] - soff[i]), i, TagLarge));
                for (int i = 0; i < p; i++)
                    if (slices[i] is null) DrainLarge(oc, i);
                foreach (var r in reqs) r.Wait();
            }
            finally
            {
                foreach (var r in reqs) r.Dispose();
            }
            if (tooLarge >= 0)
                throw new SerializationException($"oompi: OAlltoall: an object of {tooLarge} bytes exceeds the largest C# byte array");
            for (int i = 0; i < p; i++) result[i] = Wire.ReadTop<T>(new WireReader(slices[i], 0, slices[i].Length));
            return result;
        }

        /// <summary>
        /// op(op(op(x0, x1), x2), ...) over the ranks' objects in rank order (so op need not be
        /// commutative) at <paramref name="root"/>; default(T) elsewhere. As C++'s <c>oreduce</c>
        /// (C++ ranks take part): if op throws on a rank (or an object cannot be written or read
        /// there), that rank throws it and the root throws <see cref="SerializationException"/>;
        /// the other ranks return default(T). A null op fails the same way on its rank.
        /// </summary>
        public T OReduce<T>(T obj, Func<T, T, T> op, int root)
        {
            int p = Size, me = Rank;
            if (root < 0 || root >= p)
                throw new ArgumentOutOfRangeException(nameof(root), $"oompi: OReduce: root {root} is not a rank of this communicator (size {p})");
            using Comm oc = ObjectComm();
            var red = ReduceToZero(oc, me, p, obj, op, "OReduce");
            if (root != 0)
            {
                if (me == 0)
                {
                    WireWriter w = null;
                    if (!red.Failed)
                    {
                        try
                        {
                            w = Encode(red.Value);
                        }
                        catch (Exception e) when (e is not MpiException)  // the root hears of it
                        {
                            red.Local = e;
                            red.Failed = true;
                        }
                    }
                    if (red.Failed) oc.Send(ReadOnlySpan<byte>.Empty, root, TagReduceFailed);
                    else oc.Send(new ReadOnlySpan<byte>(w.Buf, 0, w.Pos), root, TagForward);
                }
                else if (me == root)
                {
                    using Message m = oc.Mprobe(0, Mpi.AnyTag);
                    byte[] bytes = TakeMessage(m, out string tooLarge);
                    if (m.Tag == TagReduceFailed)
                    {
                        red.Failed = true;
                    }
                    else if (red.Local is null)
                    {
                        if (tooLarge is not null) throw new SerializationException("oompi: OReduce: " + tooLarge);
                        red.Value = Wire.ReadTop<T>(new WireReader(bytes, 0, bytes.Length));
                    }
                }
            }
            ThrowIf(red.Local);
            if (me != root) return default;
            if (red.Failed) throw new SerializationException("oompi: OReduce: the reduction failed on another rank");
            return red.Value;
        }

        /// <summary>
        /// The reduction of <see cref="OReduce{T}"/>, on every rank (as C++'s <c>oallreduce</c>:
        /// rank 0 broadcasts it). If op throws on a rank, that rank throws it and every other rank
        /// throws <see cref="SerializationException"/>; nobody is left waiting.
        /// </summary>
        public T OAllreduce<T>(T obj, Func<T, T, T> op)
        {
            int p = Size, me = Rank;
            using Comm oc = ObjectComm();
            var red = ReduceToZero(oc, me, p, obj, op, "OAllreduce");
            var meta = new ulong[] { 0, red.Failed ? FailureSerialize : 0 };
            byte[] bytes = Array.Empty<byte>();
            if (me == 0 && !red.Failed)
            {
                try
                {
                    var w = Encode(red.Value);
                    bytes = w.ToArray();
                    meta[0] = (ulong)bytes.Length;
                }
                catch (Exception e) when (e is not MpiException)
                {
                    red.Local ??= e;
                    meta[1] = FailureSerialize;
                }
            }
            oc.Bcast(meta, 0);
            // A pickling Python rank 0 whose reduction succeeded broadcasts its pickle: take it first.
            bool refused = me != 0 && PickledBytesFollow(meta[1]);
            if (!refused) ThrowIf(red.Local);
            if (meta[1] != 0 && !refused) throw new SerializationException("oompi: OAllreduce: the reduction failed on another rank");
            if (me != 0)
            {
                if (meta[0] > (ulong)Array.MaxLength)
                    throw new SerializationException($"oompi: OAllreduce: a result of {meta[0]} bytes exceeds the largest C# byte array");
                bytes = new byte[meta[0]];
            }
            oc.Bcast(bytes, 0);
            if (refused) RaiseFailures("OAllreduce", meta[1], red.Local);
            if (me == 0) return red.Value;
            return Wire.ReadTop<T>(new WireReader(bytes, 0, bytes.Length));
        }

        private sealed class Reduction<T>
        {
            internal T Value;         // at rank 0: the result (unless failed)
            internal bool Has;        // Value was set
            internal bool Failed;     // this rank or one below it in the tree failed
            internal Exception Local; // this rank's own failure
        }

        private static WireWriter Encode<T>(T value)
        {
            Wire.Check(value);
            var w = new WireWriter();
            Wire.WriteTop(w, value);
            return w;
        }

        // Receives a matched message; null (and why) when it cannot land in a C# array (then it is
        // taken off the queue all the same).
        private static byte[] TakeMessage(Message m, out string tooLarge)
        {
            long n = m.CountBytes;
            tooLarge = null;
            if (n > Array.MaxLength)
            {
                tooLarge = $"a message of {n} bytes is larger than the largest C# byte array";
                try
                {
                    m.Recv(MpiBuffer.Of(Array.Empty<byte>()));
                }
                catch (MpiException)
                {
                    // expected: MPI_ERR_TRUNCATE
                }
                return null;
            }
            var bytes = new byte[n];
            m.Recv(MpiBuffer.Of(bytes));
            return bytes;
        }

        // C++'s reduce_to_zero: a binomial tree towards rank 0 that keeps rank order. At step
        // `mask` a rank that is a multiple of 2 * mask holds x[r .. r + mask) and receives
        // x[r + mask .. r + 2 * mask) from r + mask (tag 11, or an empty message with tag 12 when
        // that subtree failed), then folds it on the right: op(mine, theirs). A rank that failed
        // still receives from all its children (so none blocks) and reports upwards. MPI errors
        // propagate at once, as in C++.
        private static Reduction<T> ReduceToZero<T>(Comm oc, int me, int p, T obj, Func<T, T, T> op, string name)
        {
            var red = new Reduction<T>();
            Exception typeError = TypeError<T>();
            if (op is null)
            {
                red.Local = new ArgumentNullException(nameof(op), $"oompi: {name}: the function is null");
                red.Failed = true;
            }
            else if (typeError is not null)
            {
                red.Local = typeError;
                red.Failed = true;
            }
            T current = obj;
            for (int mask = 1; mask < p; mask <<= 1)
            {
                if ((me & mask) != 0)
                {
                    WireWriter w = null;
                    if (!red.Failed)
                    {
                        try
                        {
                            w = Encode(current);
                        }
                        catch (Exception e) when (e is not MpiException)  // tell the parent instead
                        {
                            red.Local = e;
                            red.Failed = true;
                        }
                    }
                    if (red.Failed) oc.Send(ReadOnlySpan<byte>.Empty, me - mask, TagReduceFailed);
                    else oc.Send(new ReadOnlySpan<byte>(w.Buf, 0, w.Pos), me - mask, TagReduce);
                    return red;
                }
                if (me + mask < p)
                {
                    T other = default;
                    using (Message m = oc.Mprobe(me + mask, Mpi.AnyTag))
                    {
                        byte[] bytes = TakeMessage(m, out string tooLarge);
                        if (m.Tag == TagReduceFailed)
                        {
                            red.Failed = true;
                        }
                        else if (!red.Failed)
                        {
                            try
                            {
                                if (tooLarge is not null) throw new SerializationException($"oompi: {name}: {tooLarge}");
                                other = Wire.ReadTop<T>(new WireReader(bytes, 0, bytes.Length));
                            }
                            catch (Exception e) when (e is not MpiException)
                            {
                                red.Local ??= e;
                                red.Failed = true;
                            }
                        }
                    }
                    if (!red.Failed)
                    {
                        try
                        {
                            red.Value = op(current, other);
                            red.Has = true;
                            current = red.Value;
                        }
                        catch (Exception e)  // the function threw: rethrown here after the collective
                        {
                            red.Local = e;
                            red.Failed = true;
                        }
                    }
                }
            }
            if (me == 0 && !red.Failed && !red.Has)
            {
                try
                {
                    // one rank: the result is a copy of its object, as in C++
                    var w = Encode(obj);
                    red.Value = Wire.ReadTop<T>(new WireReader(w.Buf, 0, w.Pos));
                    red.Has = true;
                }
                catch (Exception e) when (e is not MpiException)
                {
                    red.Local = e;
                    red.Failed = true;
                }
            }
            return red;
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
