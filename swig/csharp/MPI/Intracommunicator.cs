using System;
using System.Runtime.ExceptionServices;
using Oompi;

namespace MPI
{
    /// <summary>
    /// MPI.NET's intracommunicator: the collectives, for values of any type. Plain data runs as
    /// MPI's own collective on T's datatype (with MPI's own operation for
    /// <see cref="Operation{T}"/>'s delegates on numbers, a user operation otherwise); other values
    /// run as oompi's object collectives (OBcast, OGather, OAllreduce, ...).
    /// <para>Arguments that only some processes could check (a root's array of the wrong length,
    /// counts that do not add up) are agreed on first, so every process throws
    /// ArgumentException and none waits. Counts that differ between processes in a reduction
    /// are not checked (as in MPI, that would cost a collective per call).</para>
    /// <para>A reduction delegate that throws: its exception on the processes where it was
    /// thrown; <see cref="MPIException"/> on the others (plain data); for other values, oompi's
    /// object reductions report it (SerializationException on the processes that wait for it).</para>
    /// </summary>
    public partial class Intracommunicator : Communicator
    {
        internal Intracommunicator(Comm comm, bool predefined = false) : base(comm, predefined) { }

        /// <summary>
        /// Starts <paramref name="maxprocs"/> processes running <paramref name="command"/> with
        /// <paramref name="argv"/> (collective; read at <paramref name="root"/>): the
        /// intercommunicator to them. A program the root cannot start: ArgumentException everywhere.
        /// </summary>
        public Intercommunicator Spawn(string command, string[] argv, int maxprocs, int root)
        {
            try
            {
                using var args = new StringVector(argv ?? Array.Empty<string>());
                return new Intercommunicator(comm.Spawn(command, args, maxprocs, root));
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>An intracommunicator made by other code, by its C handle (see <see cref="Communicator.Adopt(IntPtr)"/>).</summary>
        public static new Intracommunicator Adopt(IntPtr comm) => (Intracommunicator)Communicator.Adopt(comm);

        /// <summary>The processes that spawned this job (null when it was not spawned).</summary>
        public Intercommunicator Parent => Intercommunicator.ParentOf();

        // --- helpers -------------------------------------------------------------------------

        private void Agree(string error)
        {
            var flag = new[] { error is null ? 0 : 1 };
            var any = new int[1];
            comm.Allreduce(flag, any, Oompi.Op.Max);
            if (error is not null) throw new ArgumentException(error);
            if (any[0] != 0) throw new ArgumentException("MPI: the collective's arguments were refused on another process");
        }

        private void Reduction<T>(ValueOps<T> ops, ReductionOperation<T> op, Action<Oompi.Op> run)
        {
            var pre = Predefined.For(op);
            if (pre is not null)
            {
                run(pre);
                return;
            }
            Exception thrown = null;
            var user = ops.UserOp(op);  // cached per delegate: not disposed here
            try { run(user); }
            catch (UserFunctionException e) { thrown = e.InnerException ?? e; }
            var flag = new[] { thrown is null ? 0 : 1 };
            var any = new int[1];
            comm.Allreduce(flag, any, Oompi.Op.Max);
            if (thrown is not null) ExceptionDispatchInfo.Throw(thrown);
            if (any[0] != 0) throw new MPIException("MPI: the reduction operation threw on another process");
        }

        private static ReductionOperation<T[]> Elementwise<T>(ReductionOperation<T> op) => (a, b) =>
        {
            if (a is null || b is null || a.Length != b.Length)
                throw new ArgumentException($"MPI: arrays of different lengths ({a?.Length}, {b?.Length}) in an elementwise reduction");
            var r = new T[a.Length];
            for (int i = 0; i < r.Length; i++) r[i] = op(a[i], b[i]);
            return r;
        };

        private static T[] Fit<T>(T[] array, int n) => array is not null && array.Length >= n ? array : new T[n];

        private static int Sum(int[] counts)
        {
            long s = 0;
            foreach (var c in counts) s += c;
            return (int)s;
        }

        private static int[] Displacements(int[] counts)
        {
            var d = new int[counts.Length];
            for (int i = 1; i < d.Length; i++) d[i] = d[i - 1] + counts[i - 1];
            return d;
        }

        private string CheckCounts(int[] counts, string name)
        {
            if (counts is null) return $"MPI: {name} is null";
            if (counts.Length != Size) return $"MPI: {name} has {counts.Length} entries for {Size} processes";
            foreach (var c in counts) if (c < 0) return $"MPI: {name} holds a negative count ({c})";
            return null;
        }

        // --- Broadcast -----------------------------------------------------------------------

        /// <summary>Broadcasts <paramref name="value"/> from <paramref name="root"/> to every process.</summary>
        public void Broadcast<T>(ref T value, int root)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    var a = new[] { value };
                    ops.Broadcast(comm, a, root);
                    value = a[0];
                }
                else
                {
                    bool isRoot = Rank == root;
                    if (isRoot) Objects<T>.Check();
                    value = Objects<T>.Broadcast(comm, value, root, isRoot);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// Broadcasts an array from <paramref name="root"/>. Plain data: the root's length travels
        /// first; an array elsewhere that is null or too short is replaced by one of that length
        /// (MPI.NET required it to be allocated), a longer one keeps its tail.
        /// </summary>
        public void Broadcast<T>(ref T[] values, int root)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    bool isRoot = Rank == root;
                    values = Objects<T[]>.Broadcast(comm, values, root, isRoot);
                    return;
                }
                var n = new[] { Rank == root ? (values?.Length ?? -1) : 0 };
                comm.Bcast(n, root);
                if (n[0] < 0) throw new ArgumentNullException(nameof(values), $"MPI: Broadcast: the root's array is null (on process {root})");
                if (Rank != root) values = Fit(values, n[0]);
                if (values.Length == n[0]) ops.Broadcast(comm, values, root);
                else
                {
                    var part = new T[n[0]];
                    ops.Broadcast(comm, part, root);
                    Array.Copy(part, values, part.Length);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // --- Reduce, Allreduce ---------------------------------------------------------------

        /// <summary>op over every process's value, in rank order, at <paramref name="root"/>; default(T) elsewhere.</summary>
        public T Reduce<T>(T value, ReductionOperation<T> op, int root)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null) return Objects<T>.Reduce(comm, value, op, root, false);
                var send = new[] { value };
                var recv = new T[1];
                Reduction(ops, op, o => ops.Reduce(comm, send, recv, o, root));
                return Rank == root ? recv[0] : default;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Elementwise op over every process's array at <paramref name="root"/> (null elsewhere).</summary>
        public T[] Reduce<T>(T[] values, ReductionOperation<T> op, int root)
        {
            T[] result = null;
            Reduce(values, op, root, ref result);
            return result;
        }

        /// <summary>Elementwise op over every process's array into <paramref name="outValues"/> at the root (made or replaced when too short).</summary>
        public void Reduce<T>(T[] inValues, ReductionOperation<T> op, int root, ref T[] outValues)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    var r = Objects<T[]>.Reduce(comm, inValues, Elementwise(op), root, false);
                    if (Rank == root) outValues = r;
                    return;
                }
                bool isRoot = Rank == root;
                var recv = isRoot ? Fit(outValues, inValues.Length) : Array.Empty<T>();
                var into = isRoot && recv.Length != inValues.Length ? new T[inValues.Length] : recv;
                Reduction(ops, op, o => ops.Reduce(comm, inValues, into, o, root));
                if (!isRoot) return;
                if (!ReferenceEquals(into, recv)) Array.Copy(into, recv, into.Length);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>op over every process's value, in rank order, on every process.</summary>
        public T Allreduce<T>(T value, ReductionOperation<T> op)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null) return Objects<T>.Reduce(comm, value, op, 0, true);
                var pre = Predefined.For(op);
                if (pre is not null) return ops.AllreduceOne(comm, value, pre);  // the common case, straight
                T result = ops.AllreduceOneChecked(comm, value, op, out bool failed, out Exception thrown);
                if (thrown is not null) ExceptionDispatchInfo.Throw(thrown);
                if (failed) throw new MPIException("MPI: the reduction operation threw on another process");
                return result;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Elementwise op over every process's array, on every process.</summary>
        public T[] Allreduce<T>(T[] values, ReductionOperation<T> op)
        {
            T[] result = null;
            Allreduce(values, op, ref result);
            return result;
        }

        /// <summary>Elementwise op over every process's array into <paramref name="outValues"/> (made when null or too short).</summary>
        public void Allreduce<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    outValues = Objects<T[]>.Reduce(comm, inValues, Elementwise(op), 0, true);
                    return;
                }
                int n = inValues.Length;
                var recv = outValues is not null && outValues.Length == n ? outValues : new T[n];
                var pre = Predefined.For(op);
                if (pre is not null) ops.Allreduce(comm, inValues, recv, pre);  // the common case, straight
                else AllreduceWithDelegate(ops, op, inValues, recv);
                if (outValues is not null && outValues.Length > n)
                {
                    Array.Copy(recv, outValues, n);
                    return;
                }
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // A method of its own: the closure it makes would otherwise be allocated on every call of
        // the caller, also when MPI's own op runs (C# makes a closure where its captures begin).
        private void AllreduceWithDelegate<T>(ValueOps<T> ops, ReductionOperation<T> op, T[] inValues, T[] recv) =>
            Reduction(ops, op, o => ops.Allreduce(comm, inValues, recv, o));

        // --- Scan, ExclusiveScan -------------------------------------------------------------

        /// <summary>op over the values of processes 0..Rank (inclusive).</summary>
        public T Scan<T>(T value, ReductionOperation<T> op) => ScanOne(value, op, false);

        /// <summary>op over the values of processes 0..Rank-1; default(T) on process 0.</summary>
        public T ExclusiveScan<T>(T value, ReductionOperation<T> op) => ScanOne(value, op, true);

        /// <summary>Elementwise inclusive scan of arrays.</summary>
        public T[] Scan<T>(T[] values, ReductionOperation<T> op)
        {
            T[] r = null;
            ScanArray(values, op, ref r, false);
            return r;
        }

        /// <summary>Elementwise inclusive scan into <paramref name="outValues"/>.</summary>
        public void Scan<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues) => ScanArray(inValues, op, ref outValues, false);

        /// <summary>Elementwise exclusive scan of arrays (process 0: null, as MPI.NET documents).</summary>
        public T[] ExclusiveScan<T>(T[] values, ReductionOperation<T> op)
        {
            T[] r = null;
            ScanArray(values, op, ref r, true);
            return r;
        }

        /// <summary>Elementwise exclusive scan into <paramref name="outValues"/> (null on process 0).</summary>
        public void ExclusiveScan<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues) => ScanArray(inValues, op, ref outValues, true);

        private T ScanOne<T>(T value, ReductionOperation<T> op, bool exclusive)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null) return FoldPrefix(Objects<T>.Gather(comm, value, 0, true), op, exclusive);
                var send = new[] { value };
                var recv = new T[1];
                if (exclusive) Reduction(ops, op, o => ops.ExclusiveScan(comm, send, recv, o));
                else Reduction(ops, op, o => ops.Scan(comm, send, recv, o));
                return exclusive && Rank == 0 ? default : recv[0];
            }
            catch (MpiException e) { throw Translate(e); }
        }

        private void ScanArray<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues, bool exclusive)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null)
                {
                    outValues = FoldPrefix(Objects<T[]>.Gather(comm, inValues, 0, true), Elementwise(op), exclusive);
                    if (!exclusive) outValues ??= new T[inValues.Length];
                    return;
                }
                var recv = new T[inValues.Length];
                if (exclusive) Reduction(ops, op, o => ops.ExclusiveScan(comm, inValues, recv, o));
                else Reduction(ops, op, o => ops.Scan(comm, inValues, recv, o));
                outValues = exclusive && Rank == 0 ? null : recv;  // MPI.NET: process 0 receives a null array
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // Values that are not plain data: every process's value (oompi's OAllgather), folded here.
        private T FoldPrefix<T>(T[] all, ReductionOperation<T> op, bool exclusive)
        {
            int upTo = exclusive ? Rank - 1 : Rank;
            if (upTo < 0) return default;
            T acc = all[0];
            for (int i = 1; i <= upTo; i++) acc = op(acc, all[i]);
            return acc;
        }

        // --- ReduceScatter -------------------------------------------------------------------

        /// <summary>Elementwise op over every process's array, then process i gets counts[i] elements of the result.</summary>
        public T[] ReduceScatter<T>(T[] values, ReductionOperation<T> op, int[] counts)
        {
            T[] r = null;
            ReduceScatter(values, op, counts, ref r);
            return r;
        }

        /// <summary>As <see cref="ReduceScatter{T}(T[], ReductionOperation{T}, int[])"/>, into <paramref name="outValues"/>.</summary>
        public void ReduceScatter<T>(T[] inValues, ReductionOperation<T> op, int[] counts, ref T[] outValues)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            try
            {
                string bad = inValues is null ? "MPI: ReduceScatter: the array is null" : CheckCounts(counts, "counts");
                if (bad is null && Sum(counts) != inValues.Length)
                    bad = $"MPI: ReduceScatter: the counts add up to {Sum(counts)}, the array has {inValues.Length} elements";
                Agree(bad);
                var ops = ValueOps<T>.For;
                int mine = counts[Rank];
                if (ops is null)
                {
                    var all = Objects<T[]>.Reduce(comm, inValues, Elementwise(op), 0, true);
                    outValues = new T[mine];
                    Array.Copy(all, Displacements(counts)[Rank], outValues, 0, mine);
                    return;
                }
                var recv = new T[mine];
                Reduction(ops, op, o => ops.ReduceScatter(comm, inValues, recv, counts, o));
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
