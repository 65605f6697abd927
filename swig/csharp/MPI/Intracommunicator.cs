using System;
using System.Runtime.CompilerServices;
using System.Runtime.ExceptionServices;
using System.Runtime.InteropServices;
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
        /// A .NET program named as MPI.NET's programs on Windows named it (its .exe, '\' between
        /// directories) or by its .dll is started as <c>dotnet program.dll argv...</c>.
        /// </summary>
        public Intercommunicator Spawn(string command, string[] argv, int maxprocs, int root)
        {
            try
            {
                (command, argv) = DotnetCommand(command, argv ?? Array.Empty<string>());
                using var args = new StringVector(argv);
                return new Intercommunicator(comm.Spawn(command, args, maxprocs, root));
            }
            catch (MpiException e) { throw Translate(e); }
        }

        // MPI.NET ran on .NET Framework, where a program is an .exe that Windows starts; on .NET
        // it is an assembly that the dotnet host runs (the .exe does not exist). A command naming
        // an existing .dll, or an .exe that does not exist beside a .dll that does, becomes
        // `dotnet <full path of the .dll> argv...`; off Windows '\' in it separates directories.
        private static (string, string[]) DotnetCommand(string command, string[] argv)
        {
            if (string.IsNullOrEmpty(command)) return (command, argv);
            string path = System.IO.Path.DirectorySeparatorChar == '\\' ? command : command.Replace('\\', '/');
            string dll = null;
            if (path.EndsWith(".dll", StringComparison.OrdinalIgnoreCase) && System.IO.File.Exists(path)) dll = path;
            else if (path.EndsWith(".exe", StringComparison.OrdinalIgnoreCase) && !System.IO.File.Exists(path)
                     && System.IO.File.Exists(System.IO.Path.ChangeExtension(path, ".dll")))
                dll = System.IO.Path.ChangeExtension(path, ".dll");
            if (dll is null) return (command, argv);
            string host = System.Environment.ProcessPath;
            if (host is null || System.IO.Path.GetFileNameWithoutExtension(host) != "dotnet") host = "dotnet";  // an apphost
            var all = new string[argv.Length + 1];
            all[0] = System.IO.Path.GetFullPath(dll);
            argv.CopyTo(all, 1);
            return (host, all);
        }

        /// <summary>An intracommunicator made by other code, by its C handle (see <see cref="Communicator.Adopt(IntPtr)"/>).</summary>
        public static new Intracommunicator Adopt(IntPtr comm) => (Intracommunicator)Communicator.Adopt(comm);

        // --- helpers -------------------------------------------------------------------------

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
                var pre = Predefined.For(op);
                if (pre is not null)
                {
                    T r = ops.ReduceOne(comm, value, pre, root);
                    return Rank == root ? r : default;
                }
                // A delegate: one Allreduce carrying the failure flag in the data (as Allreduce
                // does) tells every process whether it threw, where a Reduce would need a second
                // collective to agree; MPI's Reduce would refuse a root out of range, so this does.
                if ((uint)root >= (uint)Size)
                    throw new ArgumentOutOfRangeException(nameof(root), root, $"MPI: Reduce: root {root} is not a process of this communicator (size {Size})");
                T result = ops.AllreduceOneChecked(comm, value, op, out bool failed, out Exception thrown);
                if (thrown is not null) ExceptionDispatchInfo.Throw(thrown);
                if (failed) throw new MPIException("MPI: the reduction operation threw on another process");
                return Rank == root ? result : default;
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
                var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = into, Root = root };
                Reduction(op, ref a, ReductionCalls<T>.Reduce);
                if (!isRoot) return;
                if (!ReferenceEquals(into, recv)) Array.Copy(into, recv, into.Length);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>op over every process's value, in rank order, on every process.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]  // into the caller's loop, as oompi's own Allreduce<T>
        public unsafe T Allreduce<T>(T value, ReductionOperation<T> op)
        {
            if (op is null) throw new ArgumentNullException(nameof(op));
            // The common case, a number with MPI's own op: oompi's plain C entry point, as its
            // own Comm.Allreduce<T> calls it (no try block here: the runtime inlines a P/Invoke
            // outside one only). The value is a primitive on the stack: no GC reference in it.
            int kind = PrimitiveKind<T>.Code;
            if (kind < 0) return AllreduceAny(value, op);
            if (Predefined.For(op) is Op pre)
            {
                T result = default;
                if (comm.TryAllreduceFast(Unsafe.AsPointer(ref value), 1, Unsafe.AsPointer(ref result), 1, kind, pre) != 0)
                    ThrowPending();
                return result;
            }
            // A delegate: one collective of [value, flag] pairs with its user op (made once per
            // delegate), which sets the flag where the delegate throws; the flag reaches every
            // process in the result, so only then is there more to read.
            var pair = new Flagged<T> { Value = value };
            var sum = default(Flagged<T>);
            int rc = comm.TryAllreduceFast(Unsafe.AsPointer(ref pair), 2, Unsafe.AsPointer(ref sum), 2, kind, CheckedOps<T>.For(op));
            if (rc != 0 || sum.IsSet) ThrowFailed(rc);
            return sum.Value;
        }

        /// <summary>A delegate's reduction failed: its exception here, MPIException elsewhere; or MPI's error.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ThrowFailed(int rc)
        {
            var thrown = CheckedOpError.Take();
            if (rc != 0) ThrowPending();
            if (thrown is not null) ExceptionDispatchInfo.Throw(thrown);
            throw new MPIException("MPI: the reduction operation threw on another process");
        }

        // Any other value or op (kept out of the common case's method: its locals would be
        // zeroed on every call).
        [MethodImpl(MethodImplOptions.NoInlining)]
        private T AllreduceAny<T>(T value, ReductionOperation<T> op)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is null) return Objects<T>.Reduce(comm, value, op, 0, true);
                var pre = Predefined.For(op);
                if (pre is not null) return ops.AllreduceOne(comm, value, pre);
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
        [MethodImpl(MethodImplOptions.AggressiveInlining)]  // into the caller's loop, as oompi's own Allreduce<T>
        public unsafe void Allreduce<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            if (op is null) throw new ArgumentNullException(nameof(op));
            int kind = PrimitiveKind<T>.Code;
            if (kind >= 0 && Predefined.For(op) is Op pre)
            {
                // The common case: as for a value, oompi's entry point on the pinned arrays.
                int n = inValues.Length;
                var given = outValues;
                var recv = given is not null && given.Length == n ? given : new T[n];
                int rc;
                fixed (byte* s = &Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(inValues)))
                fixed (byte* r = &Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(recv)))
                    rc = comm.TryAllreduceFast(s, n, r, n, kind, pre);
                if (rc != 0) ThrowPending();
                if (given is not null && given.Length > n) Array.Copy(recv, given, n);
                else outValues = recv;
                return;
            }
            AllreduceAny(inValues, op, ref outValues);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void AllreduceAny<T>(T[] inValues, ReductionOperation<T> op, ref T[] outValues)
        {
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
                if (pre is not null) ops.Allreduce(comm, inValues, recv, pre);
                else
                {
                    var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = recv };
                    Reduction(op, ref a, ReductionCalls<T>.Allreduce);
                }
                if (outValues is not null && outValues.Length > n)
                {
                    Array.Copy(recv, outValues, n);
                    return;
                }
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }

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
                var a = new ReductionArgs<T> { Ops = ops, Value = value };
                Reduction(op, ref a, exclusive ? ReductionCalls<T>.ExclusiveScanOne : ReductionCalls<T>.ScanOne);
                return exclusive && Rank == 0 ? default : a.Result;
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
                var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = recv };
                Reduction(op, ref a, exclusive ? ReductionCalls<T>.ExclusiveScan : ReductionCalls<T>.Scan);
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
                string bad = inValues is null ? "MPI: ReduceScatter: the array is null" : CheckCounts(counts, Size, "counts");
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
                var a = new ReductionArgs<T> { Ops = ops, Send = inValues, Recv = recv, Counts = counts };
                Reduction(op, ref a, ReductionCalls<T>.ReduceScatter);
                outValues = recv;
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
