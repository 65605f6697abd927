using System;
using System.Runtime.ExceptionServices;
using Oompi;

namespace MPI
{
    /// <summary>
    /// MPI.NET's collectives on an intercommunicator, rooted ones here (Broadcast, Gather,
    /// GatherFlattened, Scatter, ScatterFromFlattened, Reduce): data moves between the groups.
    /// The root passes <see cref="Root"/>, the other processes of its group <see cref="Null"/>
    /// (they take no part in the data), and the processes of the other group ("leaves") pass the
    /// root's rank in the root's group. Plain data runs as MPI's own intercommunicator collective;
    /// other values are encoded one by one (<see cref="InterObjects{T}"/>).
    /// <para>Arguments only one side can check (the root's array against the remote size, the
    /// root's counts against what the leaves send) are agreed on first, so every process throws
    /// ArgumentException and none waits. A root argument that is none of Root, Null or a remote
    /// rank: ArgumentOutOfRangeException before anything is sent (all processes of a collective
    /// must pass consistent roots, as in MPI).</para>
    /// </summary>
    public partial class Intercommunicator
    {
        // --- helpers -------------------------------------------------------------------------

        private static readonly int[] NoInts = Array.Empty<int>();

        private InterRole RoleOf(int root)
        {
            if (root == Root) return InterRole.Root;
            if (root == Null) return InterRole.Idle;
            int remote = RemoteSize;
            if (root < 0 || root >= remote)
                throw new ArgumentOutOfRangeException(nameof(root), root,
                    $"MPI: the root of an intercommunicator collective is Intercommunicator.Root, Intercommunicator.Null or a rank of the remote group (size {remote})");
            return InterRole.Leaf;
        }

        private static T Fold<T>(T[] all, ReductionOperation<T> op)
        {
            if (all.Length == 0) return default;
            T acc = all[0];
            for (int i = 1; i < all.Length; i++) acc = op(acc, all[i]);
            return acc;
        }

        // --- Broadcast -----------------------------------------------------------------------

        /// <summary>
        /// The root's <paramref name="value"/> to every process of the other group; the root and
        /// the other processes of its group keep theirs.
        /// </summary>
        public void Broadcast<T>(ref T value, int root)
        {
            try
            {
                var role = RoleOf(root);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    value = InterObjects<T>.Broadcast(comm, value, role, root);
                    return;
                }
                var a = new[] { value };
                ops.Broadcast(comm, a, root);
                value = a[0];
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// The root's array to every process of the other group. Its length travels first: a
        /// leaf's array that is null or too short is replaced by one of that length (MPI.NET
        /// required it to be allocated); a longer one keeps its tail. The root's null array:
        /// ArgumentNullException at the root and the leaves.
        /// </summary>
        public void Broadcast<T>(ref T[] values, int root)
        {
            try
            {
                var role = RoleOf(root);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    values = InterObjects<T[]>.Broadcast(comm, values, role, root);
                    return;
                }
                var n = new[] { role == InterRole.Root ? values?.Length ?? -1 : 0 };
                comm.Bcast(n, root);
                T[] data;
                if (role == InterRole.Leaf) data = n[0] < 0 ? Array.Empty<T>() : values is not null && values.Length == n[0] ? values : new T[n[0]];
                else data = role == InterRole.Root && values is not null ? values : Array.Empty<T>();
                ops.Broadcast(comm, data, root);  // always, so that every process makes the same calls
                if (role != InterRole.Idle && n[0] < 0)
                    throw new ArgumentNullException(nameof(values), "MPI: Intercommunicator.Broadcast: the root's array is null");
                if (role != InterRole.Leaf || ReferenceEquals(data, values)) return;
                if (values is not null && values.Length > data.Length) Array.Copy(data, values, data.Length);
                else values = data;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Gather --------------------------------------------------------------------------

        /// <summary>Every leaf's value, in rank order, at the root (null elsewhere).</summary>
        public T[] Gather<T>(T value, int root)
        {
            T[] r = null;
            Gather(value, root, ref r);
            return root == Root ? r : null;
        }

        /// <summary>Every leaf's value into <paramref name="outValues"/> at the root (made when null or of another length).</summary>
        public void Gather<T>(T inValue, int root, ref T[] outValues)
        {
            try
            {
                var role = RoleOf(root);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    var all = InterObjects<T>.Gather(comm, inValue, role, root, RemoteSize);
                    if (role == InterRole.Root) outValues = all;
                    return;
                }
                int p = role == InterRole.Root ? RemoteSize : 0;
                var recv = role == InterRole.Root ? (outValues is not null && outValues.Length == p ? outValues : new T[p]) : Array.Empty<T>();
                ops.Gather(comm, new[] { inValue }, recv, root);
                if (role == InterRole.Root) outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>At the root: <paramref name="count"/> elements of every leaf, concatenated into <paramref name="outValues"/>.</summary>
        public void GatherFlattened<T>(int count, ref T[] outValues) => GatherFlattened(CountsOf(count, RemoteSize), ref outValues);

        /// <summary>At the root: <paramref name="count"/> elements of every leaf, concatenated.</summary>
        public T[] GatherFlattened<T>(int count)
        {
            T[] r = null;
            GatherFlattened(CountsOf(count, RemoteSize), ref r);
            return r;
        }

        /// <summary>At the root: counts[i] elements of leaf i, concatenated.</summary>
        public T[] GatherFlattened<T>(int[] counts)
        {
            T[] r = null;
            GatherFlattened(counts, ref r);
            return r;
        }

        /// <summary>At the root: counts[i] elements of leaf i, concatenated into <paramref name="outValues"/> (made when too short).</summary>
        public void GatherFlattened<T>(int[] counts, ref T[] outValues) => GatherFlattenedImpl(null, counts, Root, ref outValues);

        /// <summary>At a leaf: sends <paramref name="inValues"/> to the root (whose rank in its group is <paramref name="root"/>).</summary>
        public void GatherFlattened<T>(T[] inValues, int root)
        {
            T[] none = null;
            GatherFlattenedImpl(inValues, null, root, ref none);
        }

        /// <summary>At the other processes of the root's group: takes part, with no data.</summary>
        public void GatherFlattened<T>()
        {
            T[] none = null;
            GatherFlattenedImpl(null, null, Null, ref none);
        }

        private static int[] CountsOf(int count, int n)
        {
            var c = new int[n];
            Array.Fill(c, count);
            return c;
        }

        private void GatherFlattenedImpl<T>(T[] inValues, int[] counts, int root, ref T[] outValues)
        {
            try
            {
                var role = RoleOf(root);
                bool isRoot = role == InterRole.Root;
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    var parts = InterObjects<T[]>.Gather(comm, inValues ?? Array.Empty<T>(), role, root, RemoteSize);
                    if (!isRoot) return;
                    string badRoot = CheckCounts(counts, RemoteSize, "counts", "remote");
                    for (int i = 0; badRoot is null && i < parts.Length; i++)
                        if (parts[i].Length != counts[i]) badRoot = $"MPI: GatherFlattened: process {i} sent {parts[i].Length} elements, counts[{i}] is {counts[i]}";
                    if (badRoot is not null) throw new ArgumentException(badRoot);
                    var all = Concat(parts);
                    if (outValues is not null && outValues.Length > all.Length) Array.Copy(all, outValues, all.Length);
                    else outValues = all;
                    return;
                }
                // The root's counts go to the leaves, which compare them with what they send.
                string bad = isRoot ? CheckCounts(counts, RemoteSize, "counts", "remote") : null;
                if (role == InterRole.Leaf && inValues is null) bad = "MPI: GatherFlattened: the array is null";
                var mine = new int[1];
                comm.Scatter(isRoot ? (bad is null ? counts : new int[RemoteSize]) : NoInts, isRoot ? new int[1] : mine, root);
                if (bad is null && role == InterRole.Leaf && mine[0] != inValues.Length)
                    bad = $"MPI: GatherFlattened: this process sends {inValues.Length} elements, the root's counts say {mine[0]}";
                Agree(bad);
                if (isRoot)
                {
                    int total = Sum(counts);
                    var recv = outValues is not null && outValues.Length == total ? outValues : new T[total];
                    ops.Gatherv(comm, new T[0], recv, counts, Displacements(counts), root);
                    if (outValues is not null && outValues.Length > total) Array.Copy(recv, outValues, total);
                    else outValues = recv;
                }
                else ops.Gatherv(comm, role == InterRole.Leaf ? inValues : Array.Empty<T>(), Array.Empty<T>(), NoInts, NoInts, root);
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Scatter -------------------------------------------------------------------------

        /// <summary>At the root: values[i] to leaf i (one value per remote process).</summary>
        public void Scatter<T>(T[] values) => ScatterImpl(values, Root);

        /// <summary>At a leaf: this process's value from the root (rank <paramref name="root"/> in its group).</summary>
        public T Scatter<T>(int root) => ScatterImpl<T>(null, root);

        /// <summary>At the other processes of the root's group: takes part, with no data.</summary>
        public void Scatter<T>() => ScatterImpl<T>(null, Null);

        private T ScatterImpl<T>(T[] values, int root)
        {
            try
            {
                var role = RoleOf(root);
                string bad = null;
                if (role == InterRole.Root && (values is null || values.Length != RemoteSize))
                    bad = $"MPI: Intercommunicator.Scatter: the root needs one value per remote process ({RemoteSize}), it has {values?.Length.ToString() ?? "null"}";
                var ops = ValueOps<T>.For;
                if (ops is null) Objects<T>.Check();
                Agree(bad);
                if (ops is null) return InterObjects<T>.Scatter(comm, values, role, root);
                var one = new T[1];
                ops.Scatter(comm, role == InterRole.Root ? values : Array.Empty<T>(), one, root);
                return role == InterRole.Leaf ? one[0] : default;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>At the root: blocks of <paramref name="count"/> elements, block i to leaf i.</summary>
        public void ScatterFromFlattened<T>(T[] inValues, int count)
        {
            T[] none = null;
            ScatterFromFlattened(inValues, CountsOf(count, RemoteSize), Root, ref none);
        }

        /// <summary>At the root: counts[i] elements to leaf i.</summary>
        public void ScatterFromFlattened<T>(T[] inValues, int[] counts)
        {
            T[] none = null;
            ScatterFromFlattened(inValues, counts, Root, ref none);
        }

        /// <summary>At a leaf: this process's <paramref name="count"/> elements from the root.</summary>
        public void ScatterFromFlattened<T>(int count, int root, ref T[] outValues) =>
            ScatterFromFlattened(null, CountsOf(count, Size), root, ref outValues);

        /// <summary>At a leaf: this process's counts[Rank] elements from the root.</summary>
        public void ScatterFromFlattened<T>(int[] counts, int root, ref T[] outValues) =>
            ScatterFromFlattened(null, counts, root, ref outValues);

        /// <summary>At the other processes of the root's group: takes part, with no data.</summary>
        public void ScatterFromFlattened<T>()
        {
            T[] none = null;
            ScatterFromFlattened<T>(null, (int[])null, Null, ref none);
        }

        /// <summary>Blocks of <paramref name="count"/> elements of the root's array, block i to leaf i.</summary>
        public void ScatterFromFlattened<T>(T[] inValues, int count, int root, ref T[] outValues) =>
            ScatterFromFlattened(inValues, CountsOf(count, root == Root ? RemoteSize : Size), root, ref outValues);

        /// <summary>
        /// counts[i] elements of the root's array to leaf i. The root's counts are the ones used
        /// (they travel to the leaves); a leaf's own counts, when given, must agree with them.
        /// </summary>
        public void ScatterFromFlattened<T>(T[] inValues, int[] counts, int root, ref T[] outValues)
        {
            try
            {
                var role = RoleOf(root);
                bool isRoot = role == InterRole.Root;
                string bad = null;
                if (isRoot)
                {
                    bad = CheckCounts(counts, RemoteSize, "counts", "remote");
                    if (bad is null && (inValues is null || inValues.Length < Sum(counts)))
                        bad = $"MPI: ScatterFromFlattened: the counts add up to {Sum(counts)}, the root's array has {inValues?.Length.ToString() ?? "null"}";
                }
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    Agree(bad);
                    T[][] parts = null;
                    if (isRoot)
                    {
                        var d = Displacements(counts);
                        parts = new T[counts.Length][];
                        for (int i = 0; i < parts.Length; i++) parts[i] = inValues.AsSpan(d[i], counts[i]).ToArray();
                    }
                    var got = InterObjects<T[]>.Scatter(comm, parts, role, root);
                    if (role == InterRole.Leaf) outValues = got;
                    return;
                }
                var mine = new int[1];
                comm.Scatter(isRoot ? (bad is null ? counts : new int[RemoteSize]) : NoInts, isRoot ? new int[1] : mine, root);
                if (role == InterRole.Leaf && counts is not null && (counts.Length != Size || counts[Rank] != mine[0]))
                    bad = $"MPI: ScatterFromFlattened: this process's counts ({(counts.Length > Rank ? counts[Rank] : -1)} for it) differ from the root's ({mine[0]})";
                Agree(bad);
                if (isRoot)
                {
                    ops.Scatterv(comm, inValues, counts, Displacements(counts), new T[0], root);
                    return;
                }
                var recv = role == InterRole.Leaf ? new T[mine[0]] : Array.Empty<T>();
                ops.Scatterv(comm, Array.Empty<T>(), NoInts, NoInts, recv, root);
                if (role == InterRole.Leaf) outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Reduce --------------------------------------------------------------------------

        /// <summary>op over every leaf's value, in rank order, at the root; default(T) elsewhere.</summary>
        public T Reduce<T>(T value, ReductionOperation<T> op, int root)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var role = RoleOf(root);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T>.Check();
                    var all = InterObjects<T>.Gather(comm, value, role, root, RemoteSize);
                    return role == InterRole.Root ? Fold(all, op) : default;
                }
                var a = new ReductionArgs<T> { Ops = ops, Value = value, Root = root };
                Reduction(op, ref a, ReductionCalls<T>.ReduceOne);
                return role == InterRole.Root ? a.Result : default;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Elementwise op over every leaf's array, at the root (null elsewhere).</summary>
        public T[] Reduce<T>(T[] values, ReductionOperation<T> op, int root)
        {
            T[] r = null;
            Reduce(values, op, root, ref r);
            return root == Root ? r : null;
        }

        /// <summary>
        /// Elementwise op over every leaf's array into <paramref name="outValues"/> at the root
        /// (the leaves' length travels first, so the root need not allocate it, as MPI.NET
        /// required). The root's and idle processes' <paramref name="inValues"/> are not read
        /// (null is fine); the leaves' null arrays: ArgumentNullException at the leaves and the root's group.
        /// </summary>
        public void Reduce<T>(T[] inValues, ReductionOperation<T> op, int root, ref T[] outValues)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var role = RoleOf(root);
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    Objects<T[]>.Check();
                    var parts = InterObjects<T[]>.Gather(comm, inValues, role, root, RemoteSize);
                    if (role == InterRole.Leaf && inValues is null) throw new ArgumentNullException(nameof(inValues));
                    if (role != InterRole.Root) return;
                    foreach (var part in parts)
                        if (part is null) throw new ArgumentNullException(nameof(inValues), "MPI: Intercommunicator.Reduce: a leaf's array is null");
                    var r = Fold(parts, Elementwise(op));
                    if (outValues is not null && outValues.Length > r.Length) Array.Copy(r, outValues, r.Length);
                    else outValues = r;
                    return;
                }
                // The leaves' first process tells the root's group the length (-1: null).
                int leader = role == InterRole.Leaf ? (Rank == 0 ? Root : Null) : 0;
                var n = new[] { role == InterRole.Leaf ? inValues?.Length ?? -1 : 0 };
                comm.Bcast(n, leader);
                if (n[0] < 0 || (role == InterRole.Leaf && inValues is null))
                    throw new ArgumentNullException(nameof(inValues), "MPI: Intercommunicator.Reduce: the leaves' arrays are null");
                bool isRoot = role == InterRole.Root;
                var send = role == InterRole.Leaf ? inValues : new T[isRoot ? n[0] : 0];
                var recv = isRoot ? (outValues is not null && outValues.Length == n[0] ? outValues : new T[n[0]]) : Array.Empty<T>();
                var a = new ReductionArgs<T> { Ops = ops, Send = send, Recv = recv, Root = root };
                Reduction(op, ref a, ReductionCalls<T>.Reduce);
                if (!isRoot) return;
                if (outValues is not null && outValues.Length > recv.Length) Array.Copy(recv, outValues, recv.Length);
                else outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
