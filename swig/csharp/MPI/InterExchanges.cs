using System;
using Oompi;

namespace MPI
{
    /// <summary>
    /// MPI.NET's collectives on an intercommunicator in which both groups send and receive
    /// (Allgather, AllgatherFlattened, Allreduce, Alltoall, AlltoallFlattened, ReduceScatter):
    /// each process receives what the other group sent, in the remote ranks' order.
    /// </summary>
    public partial class Intercommunicator
    {
        // --- Allgather -----------------------------------------------------------------------

        /// <summary>Every remote process's value, in rank order.</summary>
        public T[] Allgather<T>(T value)
        {
            T[] r = null;
            Allgather(value, ref r);
            return r;
        }

        /// <summary>Every remote process's value into <paramref name="outValues"/> (made when null or of another length).</summary>
        public void Allgather<T>(T inValue, ref T[] outValues)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    outValues = InterObjects<T>.Allgather(comm, inValue, RemoteSize);
                    return;
                }
                int p = RemoteSize;
                var recv = outValues is not null && outValues.Length == p ? outValues : new T[p];
                ops.Allgather(comm, new[] { inValue }, recv);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Every remote process's <paramref name="count"/> elements, concatenated.</summary>
        public void AllgatherFlattened<T>(T[] inValues, int count, ref T[] outValues) =>
            AllgatherFlattened(inValues, CountsOf(count, RemoteSize), ref outValues);

        /// <summary>
        /// Remote process i's counts[i] elements, concatenated (counts: one per remote process).
        /// Counts that differ from what the remote processes send: ArgumentException everywhere.
        /// </summary>
        public void AllgatherFlattened<T>(T[] inValues, int[] counts, ref T[] outValues)
        {
            try
            {
                int p = RemoteSize;
                string bad = inValues is null ? "MPI: AllgatherFlattened: the array is null" : CheckCounts(counts, p, "counts", "remote");
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    Agree(bad);
                    var parts = InterObjects<T[]>.Allgather(comm, inValues, p);
                    for (int i = 0; i < parts.Length; i++)
                        if (parts[i].Length != counts[i])
                            throw new ArgumentException($"MPI: AllgatherFlattened: remote process {i} sent {parts[i].Length} elements, counts[{i}] is {counts[i]}");
                    outValues = Concat(parts);
                    return;
                }
                // Each process's length to the other group, which compares it with its counts.
                var lengths = new int[p];
                comm.Allgather(new[] { inValues?.Length ?? 0 }, lengths);
                for (int i = 0; bad is null && i < p; i++)
                    if (lengths[i] != counts[i]) bad = $"MPI: AllgatherFlattened: remote process {i} sends {lengths[i]} elements, counts[{i}] is {counts[i]}";
                Agree(bad);
                int total = Sum(counts);
                var recv = outValues is not null && outValues.Length == total ? outValues : new T[total];
                ops.Allgatherv(comm, inValues, recv, counts, Displacements(counts));
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Allreduce -----------------------------------------------------------------------

        /// <summary>op over every remote process's value, in rank order.</summary>
        public T Allreduce<T>(T value, ReductionOperation<T> op)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    return Fold(InterObjects<T>.Allgather(comm, value, RemoteSize), op);
                }
                var pre = Predefined.For(op);
                if (pre is not null) return ops.AllreduceOne(comm, value, pre);
                // A delegate: agreed on afterwards (Reduction), so that every process of both
                // groups throws when it threw anywhere (a flag in the data would reach one group only).
                var a = new ReductionArgs<T> { Ops = ops, Value = value };
                Reduction(op, ref a, ReductionCalls<T>.AllreduceOne);
                return a.Result;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Elementwise op over every remote process's array.</summary>
        public T[] Allreduce<T>(T[] values, ReductionOperation<T> op)
        {
            T[] r = null;
            Allreduce(values, op, ref r);
            return r;
        }

        /// <summary>
        /// Elementwise op over every remote process's array into <paramref name="outValues"/>
        /// (made when null or too short). Both groups send arrays of one length (as in MPI).
        /// </summary>
        public void Allreduce<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    var r = Fold(InterObjects<T[]>.Allgather(comm, inValues, RemoteSize), Elementwise(op));
                    if (outValues is not null && outValues.Length > r.Length) Array.Copy(r, outValues, r.Length);
                    else outValues = r;
                    return;
                }
                int n = inValues.Length;
                var recv = outValues is not null && outValues.Length == n ? outValues : new T[n];
                var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = recv };
                Reduction(op, ref a, ReductionCalls<T>.Allreduce);
                if (outValues is not null && outValues.Length > n) Array.Copy(recv, outValues, n);
                else outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Alltoall ------------------------------------------------------------------------

        /// <summary>values[i] to remote process i; element j of the result came from remote process j.</summary>
        public T[] Alltoall<T>(T[] values)
        {
            T[] r = null;
            Alltoall(values, ref r);
            return r;
        }

        /// <summary>As <see cref="Alltoall{T}(T[])"/>, into <paramref name="outValues"/>. An array that is not one value per remote process: ArgumentException everywhere.</summary>
        public void Alltoall<T>(T[] inValues, ref T[] outValues)
        {
            try
            {
                int p = RemoteSize;
                string bad = inValues is null || inValues.Length != p
                    ? $"MPI: Intercommunicator.Alltoall: one value per remote process ({p}) is needed, this process has {inValues?.Length.ToString() ?? "null"}"
                    : null;
                var ops = ValueOps<T>.For;
                if (ops is null) Objects<T>.Check();
                Agree(bad);
                if (ops is null)
                {
                    outValues = InterObjects<T>.Alltoall(comm, inValues);
                    return;
                }
                var recv = outValues is not null && outValues.Length == p ? outValues : new T[p];
                ops.Alltoall(comm, inValues, recv);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// sendCounts[i] elements to remote process i, recvCounts[i] from it (both one per remote
        /// process). Counts that do not match the other side's: ArgumentException everywhere.
        /// </summary>
        public void AlltoallFlattened<T>(T[] inValues, int[] sendCounts, int[] recvCounts, ref T[] outValues)
        {
            try
            {
                int p = RemoteSize;
                string bad = CheckCounts(sendCounts, p, "sendCounts", "remote") ?? CheckCounts(recvCounts, p, "recvCounts", "remote");
                if (bad is null && (inValues is null || inValues.Length < Sum(sendCounts)))
                    bad = $"MPI: AlltoallFlattened: sendCounts add up to {Sum(sendCounts)}, the array has {inValues?.Length.ToString() ?? "null"}";
                // What each remote process will send here, against recvCounts.
                var coming = new int[p];
                comm.Alltoall(bad is null ? sendCounts : new int[p], coming);
                for (int i = 0; bad is null && i < p; i++)
                    if (coming[i] != recvCounts[i]) bad = $"MPI: AlltoallFlattened: remote process {i} sends {coming[i]} elements, recvCounts[{i}] is {recvCounts[i]}";
                var ops = ValueOps<T>.For;
                if (ops is null) Objects<T[]>.Check();
                Agree(bad);
                if (ops is null)
                {
                    var d = Displacements(sendCounts);
                    var parts = new T[p][];
                    for (int i = 0; i < p; i++) parts[i] = inValues.AsSpan(d[i], sendCounts[i]).ToArray();
                    outValues = Concat(InterObjects<T[]>.Alltoall(comm, parts));
                    return;
                }
                int total = Sum(recvCounts);
                var recv = outValues is not null && outValues.Length == total ? outValues : new T[total];
                ops.Alltoallv(comm, inValues, sendCounts, Displacements(sendCounts), recv, recvCounts, Displacements(recvCounts));
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- ReduceScatter -------------------------------------------------------------------

        /// <summary>
        /// Elementwise op over the remote group's arrays; process i of this group gets counts[i]
        /// elements of the result (counts: one per process of this group, adding up to the
        /// arrays' length, which both groups share).
        /// </summary>
        public T[] ReduceScatter<T>(T[] values, ReductionOperation<T> op, int[] counts)
        {
            T[] r = null;
            ReduceScatter(values, op, counts, ref r);
            return r;
        }

        /// <summary>As <see cref="ReduceScatter{T}(T[], ReductionOperation{T}, int[])"/>, into <paramref name="outValues"/>.</summary>
        /// <remarks>
        /// Runs as an Allreduce of the whole arrays and a local slice (oompi's facade offers no
        /// intercommunicator MPI_Reduce_scatter): the same result, more data on the wire.
        /// </remarks>
        public void ReduceScatter<T>(T[] inValues, ReductionOperation<T> op, int[] counts, ref T[] outValues)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                string bad = inValues is null ? "MPI: ReduceScatter: the array is null" : CheckCounts(counts, Size, "counts", "local");
                if (bad is null && Sum(counts) != inValues.Length)
                    bad = $"MPI: ReduceScatter: the counts add up to {Sum(counts)}, the array has {inValues.Length} elements";
                // The arrays of both groups must be of one length.
                var remote = new int[RemoteSize];
                comm.Allgather(new[] { inValues?.Length ?? -1 }, remote);
                for (int i = 0; bad is null && i < remote.Length; i++)
                    if (remote[i] != inValues.Length) bad = $"MPI: ReduceScatter: remote process {i} reduces {remote[i]} elements, this one {inValues.Length}";
                var ops = ValueOps<T>.For;
                if (ops is null) Objects<T[]>.Check();
                Agree(bad);
                T[] all;
                if (ops is null) all = Fold(InterObjects<T[]>.Allgather(comm, inValues, RemoteSize), Elementwise(op));
                else
                {
                    all = new T[inValues.Length];
                    var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = all };
                    Reduction(op, ref a, ReductionCalls<T>.Allreduce);
                }
                int mine = counts[Rank];
                var r = outValues is not null && outValues.Length == mine ? outValues : new T[mine];
                Array.Copy(all, Displacements(counts)[Rank], r, 0, mine);
                outValues = r;
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
