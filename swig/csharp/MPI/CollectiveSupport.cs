using System;
using System.Runtime.ExceptionServices;
using Oompi;

namespace MPI
{
    /// <summary>The arguments of one reduction of plain data, handed to a static callback (see <see cref="Communicator.Reduction{T}"/>).</summary>
    internal struct ReductionArgs<T>
    {
        internal ValueOps<T> Ops;
        internal T[] Send, Recv;
        internal int[] Counts;
        internal T Value, Result;
        internal int Root;
    }

    /// <summary>One reduction's MPI call with the op chosen for it.</summary>
    internal delegate void ReductionCall<T>(Comm comm, Op op, ref ReductionArgs<T> a);

    /// <summary>The MPI calls of the reductions, made once per T (static: a call allocates nothing).</summary>
    internal static class ReductionCalls<T>
    {
        internal static readonly ReductionCall<T> Reduce = (Comm c, Op o, ref ReductionArgs<T> a) => a.Ops.Reduce(c, a.Send, a.Recv, o, a.Root);
        internal static readonly ReductionCall<T> ReduceOne = (Comm c, Op o, ref ReductionArgs<T> a) => a.Result = a.Ops.ReduceOne(c, a.Value, o, a.Root);
        internal static readonly ReductionCall<T> Allreduce = (Comm c, Op o, ref ReductionArgs<T> a) => a.Ops.Allreduce(c, a.Send, a.Recv, o);
        internal static readonly ReductionCall<T> AllreduceOne = (Comm c, Op o, ref ReductionArgs<T> a) => a.Result = a.Ops.AllreduceOne(c, a.Value, o);
        internal static readonly ReductionCall<T> Scan = (Comm c, Op o, ref ReductionArgs<T> a) => a.Ops.Scan(c, a.Send, a.Recv, o);
        internal static readonly ReductionCall<T> ExclusiveScan = (Comm c, Op o, ref ReductionArgs<T> a) => a.Ops.ExclusiveScan(c, a.Send, a.Recv, o);
        internal static readonly ReductionCall<T> ScanOne = (Comm c, Op o, ref ReductionArgs<T> a) => a.Result = a.Ops.ScanOne(c, a.Value, o, false);
        internal static readonly ReductionCall<T> ExclusiveScanOne = (Comm c, Op o, ref ReductionArgs<T> a) => a.Result = a.Ops.ScanOne(c, a.Value, o, true);
        internal static readonly ReductionCall<T> ReduceScatter = (Comm c, Op o, ref ReductionArgs<T> a) => a.Ops.ReduceScatter(c, a.Send, a.Recv, a.Counts, o);
    }

    // What the collectives of intra- and intercommunicators share: agreeing on a failure seen
    // by some processes only, running a reduction with MPI's own op or a delegate's, and the
    // array arithmetic of counts.
    public abstract partial class Communicator
    {
        /// <summary>
        /// An intercommunicator's Allreduce combines the other group's values only: agreeing on
        /// a flag there takes two exchanges, on an intracommunicator one.
        /// </summary>
        private protected virtual bool TwoGroups => false;

        /// <summary>Whether <paramref name="failed"/> holds on any process (of both groups); no allocation.</summary>
        private protected bool AnyFailed(bool failed)
        {
            int mine = failed ? 1 : 0, got = 0;
            comm.Allreduce(new ReadOnlySpan<int>(ref mine), new Span<int>(ref got), Oompi.Op.Max);
            if (TwoGroups)
            {
                mine |= got;  // then the remote group's view of this group's flags, and its own
                comm.Allreduce(new ReadOnlySpan<int>(ref mine), new Span<int>(ref got), Oompi.Op.Max);
            }
            return got != 0;
        }

        /// <summary>Every process learns whether any refused its arguments; all of them throw ArgumentException then.</summary>
        private protected void Agree(string error)
        {
            bool any = AnyFailed(error is not null);
            if (error is not null) throw new ArgumentException(error);
            if (any) throw new ArgumentException("MPI: the collective's arguments were refused on another process");
        }

        /// <summary>
        /// Runs <paramref name="call"/> with MPI's own op for <paramref name="op"/>, or with the
        /// delegate's user op (made once per delegate) and then agreed on, so that the delegate's
        /// exception is thrown where it ran and MPIException on every other process. The call is
        /// a static lambda and its arguments travel in <paramref name="a"/>: nothing is allocated.
        /// </summary>
        internal void Reduction<T>(ReductionOperation<T> op, ref ReductionArgs<T> a, ReductionCall<T> call)
        {
            var pre = Predefined.For(op);
            if (pre is not null)
            {
                call(comm, pre, ref a);
                return;
            }
            Exception thrown = null;
            try { call(comm, a.Ops.UserOp(op), ref a); }  // cached per delegate: not disposed here
            catch (UserFunctionException e) { thrown = e.InnerException ?? e; }
            bool any = AnyFailed(thrown is not null);
            if (thrown is not null) ExceptionDispatchInfo.Throw(thrown);
            if (any) throw new MPIException("MPI: the reduction operation threw on another process");
        }

        private protected static ReductionOperation<T[]> Elementwise<T>(ReductionOperation<T> op) => (a, b) =>
        {
            if (a is null || b is null || a.Length != b.Length)
                throw new ArgumentException($"MPI: arrays of different lengths ({a?.Length}, {b?.Length}) in an elementwise reduction");
            var r = new T[a.Length];
            for (int i = 0; i < r.Length; i++) r[i] = op(a[i], b[i]);
            return r;
        };

        private protected static T[] Fit<T>(T[] array, int n) => array is not null && array.Length >= n ? array : new T[n];

        private protected static int Sum(int[] counts)
        {
            long s = 0;
            foreach (var c in counts) s += c;
            return checked((int)s);
        }

        /// <summary>Why <paramref name="counts"/> cannot be one count per process of <paramref name="n"/> (of the <paramref name="whose"/> group), or null.</summary>
        private protected static string CheckCounts(int[] counts, int n, string name, string whose = null)
        {
            if (counts is null) return $"MPI: {name} is null";
            if (counts.Length != n)
                return $"MPI: {name} has {counts.Length} entries for {(whose is null ? "" : "the ")}{n} processes{(whose is null ? "" : $" of the {whose} group")}";
            foreach (var c in counts) if (c < 0) return $"MPI: {name} holds a negative count ({c})";
            return null;
        }

        /// <summary>The parts one after another in one array.</summary>
        private protected static T[] Concat<T>(T[][] parts)
        {
            int n = 0;
            foreach (var p in parts) n += p.Length;
            var r = new T[n];
            int at = 0;
            foreach (var p in parts)
            {
                Array.Copy(p, 0, r, at, p.Length);
                at += p.Length;
            }
            return r;
        }

        private protected static int[] Displacements(int[] counts)
        {
            var d = new int[counts.Length];
            for (int i = 1; i < d.Length; i++) d[i] = d[i - 1] + counts[i - 1];
            return d;
        }
    }
}
