using System;
using System.Collections.Generic;

namespace Oompi
{
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
}
