using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Oompi;

namespace MPI
{
    /// <summary>
    /// MPI.NET's generic methods take any T; oompi's typed calls want <c>T : unmanaged</c>. This
    /// bridges the two: for a T that holds no references (primitives and structs of them, as
    /// MPI.NET's DatatypeCache found), <see cref="For"/> is an instance of
    /// <see cref="UnmanagedOps{U}"/> made once per T, whose methods call oompi's generic
    /// overloads (fast path, MPI datatypes: StructDatatype for structs); for any other T it is
    /// null and the caller takes the object path (<see cref="Objects{T}"/>).
    /// </summary>
    internal abstract class ValueOps<T>
    {
        internal static readonly ValueOps<T> For = Make();

        private static ValueOps<T> Make()
        {
            if (RuntimeHelpers.IsReferenceOrContainsReferences<T>()) return null;
            return (ValueOps<T>)Activator.CreateInstance(typeof(UnmanagedOps<>).MakeGenericType(typeof(T)));
        }

        internal abstract int Size { get; }
        internal abstract void Send(Comm c, ref T value, int dest, int tag);
        internal abstract Oompi.Status Receive(Comm c, out T value, int source, int tag);
        internal abstract void Send(Comm c, T[] values, int dest, int tag);
        internal abstract Oompi.Status Receive(Comm c, T[] values, int source, int tag);
        internal abstract Oompi.Status ReceiveMatched(Message m, T[] values);
        internal abstract Oompi.Status SendReceive(Comm c, T[] send, int dest, int sendTag, T[] recv, int source, int recvTag);
        internal abstract Oompi.Request ImmediateSend(Comm c, T[] values, int dest, int tag);
        internal abstract Oompi.Request ImmediateReceive(Comm c, T[] values, int source, int tag);
        internal abstract void Broadcast(Comm c, T[] values, int root);
        internal abstract void Reduce(Comm c, T[] send, T[] recv, Op op, int root);
        internal abstract void Allreduce(Comm c, T[] send, T[] recv, Op op);
        /// <summary>One value's allreduce, with no arrays (the most common reduction).</summary>
        internal abstract T AllreduceOne(Comm c, T value, Op op);
        /// <summary>
        /// One value's allreduce with a delegate, in one collective: each value travels with a
        /// flag that the op sets when <paramref name="op"/> throws, so every process learns of
        /// it from the result (<paramref name="failed"/>) without a second collective to agree;
        /// <paramref name="thrown"/> is the exception where it was thrown here.
        /// </summary>
        internal abstract T AllreduceOneChecked(Comm c, T value, ReductionOperation<T> op, out bool failed, out Exception thrown);
        /// <summary>The user op of <paramref name="op"/> over [value, flag] pairs (cached per delegate).</summary>
        internal abstract Op CheckedOp(ReductionOperation<T> op);
        /// <summary>One value's reduce and scans, with no arrays (the result at the root; elsewhere undefined).</summary>
        internal abstract T ReduceOne(Comm c, T value, Op op, int root);
        internal abstract T ScanOne(Comm c, T value, Op op, bool exclusive);
        internal abstract void Scan(Comm c, T[] send, T[] recv, Op op);
        internal abstract void ExclusiveScan(Comm c, T[] send, T[] recv, Op op);
        internal abstract void ReduceScatter(Comm c, T[] send, T[] recv, int[] counts, Op op);
        internal abstract void Gather(Comm c, T[] send, T[] recv, int root);
        internal abstract void Gatherv(Comm c, T[] send, T[] recv, int[] counts, int[] displs, int root);
        internal abstract void Allgather(Comm c, T[] send, T[] recv);
        internal abstract void Allgatherv(Comm c, T[] send, T[] recv, int[] counts, int[] displs);
        internal abstract void Scatter(Comm c, T[] send, T[] recv, int root);
        internal abstract void Scatterv(Comm c, T[] send, int[] counts, int[] displs, T[] recv, int root);
        internal abstract void Alltoall(Comm c, T[] send, T[] recv);
        internal abstract void Alltoallv(Comm c, T[] send, int[] sendCounts, int[] sendDispls, T[] recv, int[] recvCounts, int[] recvDispls);
        /// <summary>
        /// An MPI user op applying <paramref name="op"/> elementwise (not commutative: MPI keeps
        /// rank order); the same Op for the same delegate (cached: callers do not dispose it).
        /// </summary>
        internal abstract Op UserOp(ReductionOperation<T> op);
    }

    /// <summary>
    /// T's oompi TypeKind as an int when T is a primitive (a number, bool, char, or an enum of
    /// one), else -1: then the layer's reductions of MPI's own ops call oompi's plain C entry
    /// point directly (<see cref="Comm.AllreduceFast"/>), as oompi's own Comm.Allreduce&lt;T&gt;
    /// does, with no ValueOps dispatch or MpiBuffer in between.
    /// </summary>
    internal static class PrimitiveKind<T>
    {
        internal static readonly int Code =
            !RuntimeHelpers.IsReferenceOrContainsReferences<T>() && MpiBuffer.KindOrNull(typeof(T)) is TypeKind k ? (int)k : -1;
    }

    /// <summary>
    /// The exception a delegate threw inside a checked user op (<see cref="ValueOps{T}.CheckedOp"/>):
    /// the op runs on the calling thread, during the MPI call; null between calls.
    /// </summary>
    internal static class CheckedOpError
    {
        [ThreadStatic] internal static Exception Pending;

        internal static Exception Take()
        {
            var e = Pending;
            if (e is not null) Pending = null;
            return e;
        }
    }

    /// <summary>A value and its failure flag, as a checked user op combines them (two Ts, no padding).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct Flagged<T>
    {
        internal T Value, Flag;

        /// <summary>Whether the flag's first byte is set (the op sets it where the delegate threw).</summary>
        internal bool IsSet => Unsafe.As<T, byte>(ref Flag) != 0;
    }

    /// <summary>The checked user op of the last delegate used with T (a loop reuses one), else ValueOps' table.</summary>
    internal static class CheckedOps<T>
    {
        private sealed record Last(ReductionOperation<T> Function, Op Op);
        private static Last last;  // read and replaced as one object

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static Op For(ReductionOperation<T> op)
        {
            var l = last;
            return l is not null && ReferenceEquals(l.Function, op) ? l.Op : Miss(op);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static Op Miss(ReductionOperation<T> op)
        {
            var made = ValueOps<T>.For.CheckedOp(op);
            last = new Last(op, made);
            return made;
        }
    }

    internal sealed class UnmanagedOps<U> : ValueOps<U> where U : unmanaged
    {
        internal override unsafe int Size => sizeof(U);

        internal override void Send(Comm c, ref U value, int dest, int tag) =>
            c.Send(MemoryMarshal.CreateReadOnlySpan(ref value, 1), dest, tag);

        internal override Oompi.Status Receive(Comm c, out U value, int source, int tag)
        {
            value = default;
            return c.Recv(MemoryMarshal.CreateSpan(ref value, 1), source, tag);
        }

        internal override void Send(Comm c, U[] values, int dest, int tag) => c.Send(values, dest, tag);
        internal override Oompi.Status Receive(Comm c, U[] values, int source, int tag) => c.Recv(values, source, tag);
        internal override unsafe Oompi.Status ReceiveMatched(Message m, U[] values)
        {
            fixed (U* p = values) return m.Recv(MpiBuffer.Of(p, values.Length));
        }
        internal override Oompi.Status SendReceive(Comm c, U[] send, int dest, int sendTag, U[] recv, int source, int recvTag) =>
            c.Sendrecv(send, dest, sendTag, recv, source, recvTag);
        internal override Oompi.Request ImmediateSend(Comm c, U[] values, int dest, int tag) => c.Isend(values, dest, tag);
        internal override Oompi.Request ImmediateReceive(Comm c, U[] values, int source, int tag) => c.Irecv(values, source, tag);
        internal override void Broadcast(Comm c, U[] values, int root) => c.Bcast(values, root);
        internal override void Reduce(Comm c, U[] send, U[] recv, Op op, int root) => c.Reduce(send, recv, op, root);
        internal override void Allreduce(Comm c, U[] send, U[] recv, Op op) => c.Allreduce(send, recv, op);
        internal override U AllreduceOne(Comm c, U value, Op op)
        {
            U result = default;
            c.Allreduce(MemoryMarshal.CreateReadOnlySpan(ref value, 1), MemoryMarshal.CreateSpan(ref result, 1), op);
            return result;
        }
        internal override U ReduceOne(Comm c, U value, Op op, int root)
        {
            U result = default;
            c.Reduce(MemoryMarshal.CreateReadOnlySpan(ref value, 1), MemoryMarshal.CreateSpan(ref result, 1), op, root);
            return result;
        }
        internal override unsafe U ScanOne(Comm c, U value, Op op, bool exclusive)
        {
            U result = default;
            var buf = MpiBuffer.Of(&result, 1);
            if (exclusive) c.Exscan(MpiBuffer.Of(&value, 1), buf, op);
            else c.Scan(MpiBuffer.Of(&value, 1), buf, op);
            return result;
        }
        internal override void Scan(Comm c, U[] send, U[] recv, Op op) => c.Scan(send, recv, op);
        internal override void ExclusiveScan(Comm c, U[] send, U[] recv, Op op) => c.Exscan(send, recv, op);
        internal override void ReduceScatter(Comm c, U[] send, U[] recv, int[] counts, Op op) =>
            c.ReduceScatter(MpiBuffer.Of(send), MpiBuffer.Of(recv), counts, op);
        internal override void Gather(Comm c, U[] send, U[] recv, int root) => c.Gather(send, recv, root);
        internal override void Gatherv(Comm c, U[] send, U[] recv, int[] counts, int[] displs, int root) =>
            c.Gatherv(send, recv, counts, displs, root);
        internal override void Allgather(Comm c, U[] send, U[] recv) => c.Allgather(send, recv);
        internal override void Allgatherv(Comm c, U[] send, U[] recv, int[] counts, int[] displs) =>
            c.Allgatherv(send, recv, counts, displs);
        internal override void Scatter(Comm c, U[] send, U[] recv, int root) => c.Scatter(send, recv, root);
        internal override void Scatterv(Comm c, U[] send, int[] counts, int[] displs, U[] recv, int root) =>
            c.Scatterv(send, counts, displs, recv, root);
        internal override void Alltoall(Comm c, U[] send, U[] recv) => c.Alltoall(send, recv);
        internal override void Alltoallv(Comm c, U[] send, int[] sendCounts, int[] sendDispls, U[] recv, int[] recvCounts, int[] recvDispls) =>
            c.Alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);

        // One MPI op per delegate, made on its first reduction and kept while the delegate lives:
        // a lambda written in a call (world.Allreduce(x, (a, b) => a + b)) is one cached
        // delegate, so MPI_Op_create/MPI_Op_free do not run on every reduction.
        private static readonly ConditionalWeakTable<ReductionOperation<U>, Op> userOps = new();

        // The value travels as two elements of U's own datatype: [value, flag], the flag a U whose
        // first byte is 1 once the delegate threw anywhere. (A struct of U and an int would need
        // an MPI struct datatype, which MPI copies several times slower than U's; MPI splits a
        // reduction only at element boundaries of long messages, never a 2-element one.)
        private static readonly ConditionalWeakTable<ReductionOperation<U>, Op> checkedOps = new();

        private static bool Flagged(U u) => MemoryMarshal.AsBytes(MemoryMarshal.CreateReadOnlySpan(ref u, 1))[0] != 0;

        private static U Flag()
        {
            U u = default;
            MemoryMarshal.AsBytes(MemoryMarshal.CreateSpan(ref u, 1))[0] = 1;
            return u;
        }

        internal override Op CheckedOp(ReductionOperation<U> op)
        {
            return checkedOps.GetValue(op, static f => Op.Create<U>((input, inOut) =>
            {
                for (int i = 0; i + 1 < inOut.Length; i += 2)
                {
                    if (Flagged(input[i + 1]) || Flagged(inOut[i + 1]))
                    {
                        inOut[i + 1] = Flag();
                        continue;
                    }
                    try { inOut[i] = f(input[i], inOut[i]); }
                    catch (Exception e)
                    {
                        inOut[i + 1] = Flag();
                        CheckedOpError.Pending ??= e;
                    }
                }
            }, commutative: false));
        }

        internal override unsafe U AllreduceOneChecked(Comm c, U value, ReductionOperation<U> op, out bool failed, out Exception thrown)
        {
            var user = CheckedOps<U>.For(op);
            int kind = MpiBuffer.PrimitiveCode<U>();
            if (kind < 0) return AllreduceOneCheckedStruct(c, value, user, out failed, out thrown);
            // A primitive U: oompi's plain C entry point, outside a try block (the runtime inlines
            // a P/Invoke there only); the op's exception is read after it, whatever happened.
            U* send = stackalloc U[2];
            U* result = stackalloc U[2];
            send[0] = value;
            int rc = c.TryAllreduceFast(send, 2, result, 2, kind, user);
            thrown = CheckedOpError.Take();
            if (rc != 0) throw Comm.TakePending();
            failed = Flagged(result[1]) || thrown is not null;
            return result[0];
        }

        // A struct U: its StructDatatype through MpiBuffer.
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static U AllreduceOneCheckedStruct(Comm c, U value, Op user, out bool failed, out Exception thrown)
        {
            Span<U> send = stackalloc U[2];
            Span<U> result = stackalloc U[2];
            send[0] = value;
            try { c.Allreduce((ReadOnlySpan<U>)send, result, user); }
            finally { thrown = CheckedOpError.Take(); }
            failed = Flagged(result[1]) || thrown is not null;
            return result[0];
        }

        internal override Op UserOp(ReductionOperation<U> op) =>
            userOps.GetValue(op, static f => Op.Create<U>((input, inOut) =>
            {
                for (int i = 0; i < inOut.Length; i++) inOut[i] = f(input[i], inOut[i]);
            }, commutative: false));
    }
}
