using System;
using System.Collections.Generic;

namespace Oompi
{
    // Object collectives that move arrays of objects or one object from a root (OBcast, OScatter(v),
    // OGather, OAllgather), with the failure protocol all object collectives share
    // (CommObjects.cs: point to point; CommObjectReductions.cs: OAlltoall, OReduce, OAllreduce).
    public partial class Comm
    {
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
}
