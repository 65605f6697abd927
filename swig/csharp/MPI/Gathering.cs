using System;
using Oompi;

namespace MPI
{
    // MPI.NET's gather, scatter and all-to-all collectives.
    public partial class Intracommunicator
    {
        /// <summary>Every process's value, in rank order, at <paramref name="root"/>; null elsewhere.</summary>
        public T[] Gather<T>(T value, int root)
        {
            T[] r = null;
            Gather(value, root, ref r);
            return Rank == root ? r : null;
        }

        /// <summary>Every process's value into <paramref name="outValues"/> at the root (made when null or too short).</summary>
        public void Gather<T>(T inValue, int root, ref T[] outValues)
        {
            try
            {
                var ops = ValueOps<T>.For;
                bool isRoot = Rank == root;
                if (ops is null)
                {
                    Objects<T>.Check();
                    var all = Objects<T>.Gather(comm, inValue, root, false);
                    if (isRoot) outValues = all;
                    return;
                }
                int p = Size;
                var recv = isRoot ? Fit(outValues, p) : Array.Empty<T>();
                var into = isRoot && recv.Length != p ? new T[p] : recv;
                ops.Gather(comm, new[] { inValue }, into, root);
                if (!isRoot) return;
                if (!ReferenceEquals(into, recv)) Array.Copy(into, recv, p);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Every process's array (all of the same length), concatenated in rank order at the root.</summary>
        public T[] GatherFlattened<T>(T[] inValues, int root)
        {
            T[] r = null;
            GatherFlattened(inValues, inValues?.Length ?? 0, root, ref r);
            return Rank == root ? r : null;
        }

        /// <summary>Every process's array (all of the same length), concatenated into <paramref name="outValues"/> at the root.</summary>
        public void GatherFlattened<T>(T[] inValues, int root, ref T[] outValues) =>
            GatherFlattened(inValues, inValues?.Length ?? 0, root, ref outValues);

        /// <summary>Every process's <paramref name="count"/> elements, concatenated at the root.</summary>
        public void GatherFlattened<T>(T[] inValues, int count, int root, ref T[] outValues)
        {
            int[] counts = Rank == root ? Counts(count) : null;
            GatherFlattened(inValues, counts, root, ref outValues);
        }

        /// <summary>Process i's counts[i] elements, concatenated at the root (counts read at the root).</summary>
        public T[] GatherFlattened<T>(T[] inValues, int[] counts, int root)
        {
            T[] r = null;
            GatherFlattened(inValues, counts, root, ref r);
            return Rank == root ? r : null;
        }

        /// <summary>
        /// Process i's counts[i] elements (counts read at the root) concatenated into
        /// <paramref name="outValues"/> at the root. Counts that do not match the arrays sent:
        /// ArgumentException on every process (plain data: from the root's view of the counts).
        /// </summary>
        public void GatherFlattened<T>(T[] inValues, int[] counts, int root, ref T[] outValues)
        {
            try
            {
                bool isRoot = Rank == root;
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    var parts = Objects<T[]>.Gather(comm, inValues ?? Array.Empty<T>(), root, false);
                    if (!isRoot) return;
                    string badRoot = CheckCounts(counts, Size, "counts");
                    for (int i = 0; badRoot is null && i < parts.Length; i++)
                        if (parts[i].Length != counts[i]) badRoot = $"MPI: GatherFlattened: process {i} sent {parts[i].Length} elements, counts[{i}] is {counts[i]}";
                    if (badRoot is not null) throw new ArgumentException(badRoot);
                    outValues = Concat(parts);
                    return;
                }
                string bad = inValues is null ? "MPI: GatherFlattened: the array is null" : null;
                if (bad is null && isRoot) bad = CheckCounts(counts, Size, "counts");
                // Each process's own length against the root's count for it: the root scatters them.
                var mine = new int[1];
                if (isRoot && bad is null) comm.Scatter(counts, mine, root);
                else comm.Scatter(isRoot ? new int[Size] : Array.Empty<int>(), mine, root);
                if (bad is null && !isRoot && mine[0] != inValues.Length)
                    bad = $"MPI: GatherFlattened: this process sends {inValues.Length} elements, the root's counts say {mine[0]}";
                if (bad is null && isRoot && counts[root] != inValues.Length)
                    bad = $"MPI: GatherFlattened: the root sends {inValues.Length} elements, its counts say {counts[root]}";
                Agree(bad);
                T[] recv = isRoot ? new T[Sum(counts)] : Array.Empty<T>();
                ops.Gatherv(comm, inValues, recv, isRoot ? counts : Array.Empty<int>(), isRoot ? Displacements(counts) : Array.Empty<int>(), root);
                if (isRoot) outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        private int[] Counts(int count)
        {
            var c = new int[Size];
            Array.Fill(c, count);
            return c;
        }

        // --- Allgather -----------------------------------------------------------------------

        /// <summary>Every process's value, in rank order, on every process.</summary>
        public T[] Allgather<T>(T value)
        {
            T[] r = null;
            Allgather(value, ref r);
            return r;
        }

        /// <summary>Every process's value into <paramref name="outValues"/> (made when null or too short).</summary>
        public void Allgather<T>(T inValue, ref T[] outValues)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    outValues = Objects<T>.Gather(comm, inValue, 0, true);
                    return;
                }
                int p = Size;
                var recv = Fit(outValues, p);
                var into = recv.Length != p ? new T[p] : recv;
                ops.Allgather(comm, new[] { inValue }, into);
                if (!ReferenceEquals(into, recv)) Array.Copy(into, recv, p);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Every process's <paramref name="count"/> elements, concatenated, on every process.</summary>
        public void AllgatherFlattened<T>(T[] inValues, int count, ref T[] outValues) =>
            AllgatherFlattened(inValues, Counts(count), ref outValues);

        /// <summary>Process i's counts[i] elements, concatenated, on every process.</summary>
        public void AllgatherFlattened<T>(T[] inValues, int[] counts, ref T[] outValues)
        {
            try
            {
                string bad = inValues is null ? "MPI: AllgatherFlattened: the array is null" : CheckCounts(counts, Size, "counts");
                if (bad is null && counts[Rank] != inValues.Length)
                    bad = $"MPI: AllgatherFlattened: this process sends {inValues.Length} elements, counts[{Rank}] is {counts[Rank]}";
                Agree(bad);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    outValues = Concat(Objects<T[]>.Gather(comm, inValues, 0, true));
                    return;
                }
                var recv = new T[Sum(counts)];
                ops.Allgatherv(comm, inValues, recv, counts, Displacements(counts));
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Scatter -------------------------------------------------------------------------

        /// <summary>values[i] of the root to process i (values read at the root, one per process).</summary>
        public T Scatter<T>(T[] values, int root)
        {
            try
            {
                bool isRoot = Rank == root;
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    if (isRoot) Objects<T>.Check();
                    return Objects<T>.Scatter(comm, values, root);
                }
                string bad = null;
                if (isRoot && (values is null || values.Length != Size))
                    bad = $"MPI: Scatter: the root needs one value per process ({Size}), it has {values?.Length.ToString() ?? "null"}";
                Agree(bad);
                var one = new T[1];
                ops.Scatter(comm, isRoot ? values : Array.Empty<T>(), one, root);
                return one[0];
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Blocks of <paramref name="count"/> elements of the root's array, block i to process i.</summary>
        public void ScatterFromFlattened<T>(T[] inValues, int count, int root, ref T[] outValues) =>
            ScatterFromFlattened(inValues, Counts(count), root, ref outValues);

        /// <summary>counts[i] elements of the root's array to process i (counts known on every process).</summary>
        public void ScatterFromFlattened<T>(T[] inValues, int[] counts, int root, ref T[] outValues)
        {
            try
            {
                bool isRoot = Rank == root;
                string bad = CheckCounts(counts, Size, "counts");
                if (bad is null && isRoot && (inValues is null || inValues.Length < Sum(counts)))
                    bad = $"MPI: ScatterFromFlattened: the counts add up to {Sum(counts)}, the root's array has {inValues?.Length.ToString() ?? "null"}";
                Agree(bad);
                var ops = ValueOps<T>.For;
                int mine = counts[Rank];
                if (ops is null)
                {
                    T[][] parts = null;
                    if (isRoot)
                    {
                        var d = Displacements(counts);
                        parts = new T[counts.Length][];
                        for (int i = 0; i < parts.Length; i++) parts[i] = inValues.AsSpan(d[i], counts[i]).ToArray();
                    }
                    outValues = Objects<T[]>.Scatter(comm, parts, root);
                    return;
                }
                var recv = new T[mine];
                ops.Scatterv(comm, isRoot ? inValues : Array.Empty<T>(), counts, Displacements(counts), recv, root);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Alltoall ------------------------------------------------------------------------

        /// <summary>values[i] to process i; the result's element i came from process i.</summary>
        public T[] Alltoall<T>(T[] values)
        {
            T[] r = null;
            Alltoall(values, ref r);
            return r;
        }

        /// <summary>As <see cref="Alltoall{T}(T[])"/>, into <paramref name="outValues"/>.</summary>
        public void Alltoall<T>(T[] inValues, ref T[] outValues)
        {
            try
            {
                int p = Size;
                string bad = inValues is null || inValues.Length != p
                    ? $"MPI: Alltoall: one value per process ({p}) is needed, this process has {inValues?.Length.ToString() ?? "null"}"
                    : null;
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    if (bad is not null) throw new ArgumentException(bad);  // oompi's OAlltoall tells the others
                    outValues = Objects<T>.Alltoall(comm, inValues);
                    return;
                }
                Agree(bad);
                var recv = new T[p];
                ops.Alltoall(comm, inValues, recv);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>sendCounts[i] elements to process i, recvCounts[i] from it, blocks in rank order.</summary>
        public void AlltoallFlattened<T>(T[] inValues, int[] sendCounts, int[] recvCounts, ref T[] outValues)
        {
            try
            {
                string bad = CheckCounts(sendCounts, Size, "sendCounts") ?? CheckCounts(recvCounts, Size, "recvCounts");
                if (bad is null && (inValues is null || inValues.Length < Sum(sendCounts)))
                    bad = $"MPI: AlltoallFlattened: sendCounts add up to {Sum(sendCounts)}, the array has {inValues?.Length.ToString() ?? "null"}";
                Agree(bad);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    var d = Displacements(sendCounts);
                    var parts = new T[sendCounts.Length][];
                    for (int i = 0; i < parts.Length; i++) parts[i] = inValues.AsSpan(d[i], sendCounts[i]).ToArray();
                    var got = Objects<T[]>.Alltoall(comm, parts);
                    for (int i = 0; i < got.Length; i++)
                        if (got[i].Length != recvCounts[i])
                            throw new ArgumentException($"MPI: AlltoallFlattened: process {i} sent {got[i].Length} elements, recvCounts[{i}] is {recvCounts[i]}");
                    outValues = Concat(got);
                    return;
                }
                var recv = new T[Sum(recvCounts)];
                ops.Alltoallv(comm, inValues, sendCounts, Displacements(sendCounts), recv, recvCounts, Displacements(recvCounts));
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
