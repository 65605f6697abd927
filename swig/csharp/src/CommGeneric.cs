using System;

namespace Oompi
{
    /// <summary>
    /// Generic overloads of the collectives and nonblocking calls: arrays, spans and Memory of
    /// any unmanaged T (primitives and blittable structs, whose datatype StructDatatype builds),
    /// pinned automatically (<c>fixed</c> for blocking calls, a handle owned by the request for
    /// nonblocking ones). Arrays of primitives also convert to MpiBuffer implicitly.
    /// </summary>
    public unsafe partial class Comm
    {
        private static MpiBuffer B<T>(T[] a) where T : unmanaged => MpiBuffer.Of(a);

        // --- blocking collectives over arrays -----------------------------------------------
        public void Bcast<T>(T[] buf, int root) where T : unmanaged => Bcast(B(buf), root);
        public void Reduce<T>(T[] sendbuf, T[] recvbuf, Op operation, int root) where T : unmanaged =>
            Reduce(B(sendbuf), B(recvbuf), operation, root);
        public void ReduceInPlace<T>(T[] buf, Op operation, int root) where T : unmanaged =>
            ReduceInPlace(B(buf), operation, root);
        // Primitive arrays and spans: the plain C entry point (FastPath.Allreduce), inlined into
        // the caller as Send<T> is; the general case (structs, null arrays) apart.
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        public void Allreduce<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            if (kind < 0 || sendbuf is null || recvbuf is null)
            {
                AllreduceGeneral(sendbuf, recvbuf, operation);
                return;
            }
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                AllreduceFast(s, sendbuf.Length, r, recvbuf.Length, kind, operation);
        }

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        private void AllreduceGeneral<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged =>
            Allreduce(B(sendbuf), B(recvbuf), operation);

        /// <summary>Allreduce of pinned primitives of TypeKind <paramref name="kind"/> (namespace MPI calls it too).</summary>
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        internal void AllreduceFast(void* send, long sendCount, void* recv, long recvCount, int kind, Op operation)
        {
            if (TryAllreduceFast(send, sendCount, recv, recvCount, kind, operation) != 0) ThrowPending();
        }

        /// <summary>As AllreduceFast; nonzero: the exception is pending (<see cref="TakePending"/>).</summary>
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        internal int TryAllreduceFast(void* send, long sendCount, void* recv, long recvCount, int kind, Op operation)
        {
            int rc = FastPath.Allreduce(swigCPtr.Handle, send, sendCount, recv, recvCount, kind,
                                        HandleArg.Live(Op.getCPtr(operation), operation, nameof(operation)).Handle);
            GC.KeepAlive(this);  // the native comm and op live until the call returns
            GC.KeepAlive(operation);
            return rc;
        }

        /// <summary>The exception a fast entry point left pending.</summary>
        internal static Exception TakePending() => MpiPINVOKE.SWIGPendingException.Retrieve();
        public void AllreduceInPlace<T>(T[] buf, Op operation) where T : unmanaged =>
            AllreduceInPlace(B(buf), operation);
        public void Gather<T>(T[] sendbuf, T[] recvbuf, int root) where T : unmanaged =>
            Gather(B(sendbuf), B(recvbuf), root);
        public void Gatherv<T>(T[] sendbuf, T[] recvbuf, int[] counts, int[] displs, int root) where T : unmanaged =>
            Gatherv(B(sendbuf), B(recvbuf), counts, displs, root);
        public void Scatter<T>(T[] sendbuf, T[] recvbuf, int root) where T : unmanaged =>
            Scatter(B(sendbuf), B(recvbuf), root);
        public void Scatterv<T>(T[] sendbuf, int[] counts, int[] displs, T[] recvbuf, int root) where T : unmanaged =>
            Scatterv(B(sendbuf), counts, displs, B(recvbuf), root);
        public void Allgather<T>(T[] sendbuf, T[] recvbuf) where T : unmanaged => Allgather(B(sendbuf), B(recvbuf));
        public void Allgatherv<T>(T[] sendbuf, T[] recvbuf, int[] counts, int[] displs) where T : unmanaged =>
            Allgatherv(B(sendbuf), B(recvbuf), counts, displs);
        public void Alltoall<T>(T[] sendbuf, T[] recvbuf) where T : unmanaged => Alltoall(B(sendbuf), B(recvbuf));
        public void Alltoallv<T>(T[] sendbuf, int[] sendcounts, int[] senddispls, T[] recvbuf, int[] recvcounts,
                                 int[] recvdispls) where T : unmanaged =>
            Alltoallv(B(sendbuf), sendcounts, senddispls, B(recvbuf), recvcounts, recvdispls);
        public void ReduceScatterBlock<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged =>
            ReduceScatterBlock(B(sendbuf), B(recvbuf), operation);
        public void Scan<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged =>
            Scan(B(sendbuf), B(recvbuf), operation);
        public void Exscan<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged =>
            Exscan(B(sendbuf), B(recvbuf), operation);

        // --- blocking collectives over spans (pinned for the call) ---------------------------
        public void Bcast<T>(Span<T> buf, int root) where T : unmanaged
        {
            fixed (T* p = buf) Bcast(MpiBuffer.Of(p, buf.Length), root);
        }
        public void Reduce<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf, Op operation, int root) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Reduce(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length), operation, root);
        }
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        public void Allreduce<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf, Op operation) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
            {
                if (kind >= 0) AllreduceFast(s, sendbuf.Length, r, recvbuf.Length, kind, operation);
                else AllreduceGeneral(s, sendbuf.Length, r, recvbuf.Length, operation);
            }
        }

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.NoInlining)]
        private void AllreduceGeneral<T>(T* s, int sendCount, T* r, int recvCount, Op operation) where T : unmanaged =>
            Allreduce(MpiBuffer.Of(s, sendCount), MpiBuffer.Of(r, recvCount), operation);
        public void AllreduceInPlace<T>(Span<T> buf, Op operation) where T : unmanaged
        {
            fixed (T* p = buf) AllreduceInPlace(MpiBuffer.Of(p, buf.Length), operation);
        }
        public void Gather<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf, int root) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Gather(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length), root);
        }
        public void Scatter<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf, int root) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Scatter(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length), root);
        }
        public void Allgather<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Allgather(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length));
        }
        public void Alltoall<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Alltoall(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length));
        }
        public void Scan<T>(ReadOnlySpan<T> sendbuf, Span<T> recvbuf, Op operation) where T : unmanaged
        {
            fixed (T* s = sendbuf) fixed (T* r = recvbuf)
                Scan(MpiBuffer.Of(s, sendbuf.Length), MpiBuffer.Of(r, recvbuf.Length), operation);
        }

        // --- nonblocking over arrays and Memory: the request owns the pin -------------------
        // Arrays of a primitive type: straight to the light request (StartArray), no MpiBuffer.
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        public Request Isend<T>(T[] buf, int dest, int tag = 0) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            if (kind < 0 || buf is null) return Isend(B(buf), dest, tag);
            return StartArray(buf, buf.Length, kind, dest, tag, false);
        }
        public Request Isend<T>(ReadOnlyMemory<T> buf, int dest, int tag = 0) where T : unmanaged =>
            Isend(MpiBuffer.Of(buf), dest, tag);
        public Request Issend<T>(T[] buf, int dest, int tag = 0) where T : unmanaged => Issend(B(buf), dest, tag);
        public Request Irecv<T>(T[] buf) where T : unmanaged => Irecv(buf, Mpi.AnySource, Mpi.AnyTag);
        public Request Irecv<T>(T[] buf, int source) where T : unmanaged => Irecv(buf, source, Mpi.AnyTag);
        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        public Request Irecv<T>(T[] buf, int source, int tag) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            if (kind < 0 || buf is null) return Irecv(B(buf), source, tag);
            return StartArray(buf, buf.Length, kind, source, tag, true);
        }
        public Request Irecv<T>(Memory<T> buf) where T : unmanaged => Irecv(MpiBuffer.Of(buf), Mpi.AnySource, Mpi.AnyTag);
        public Request Irecv<T>(Memory<T> buf, int source) where T : unmanaged => Irecv(MpiBuffer.Of(buf), source, Mpi.AnyTag);
        public Request Irecv<T>(Memory<T> buf, int source, int tag) where T : unmanaged =>
            Irecv(MpiBuffer.Of(buf), source, tag);
        public Request Ibcast<T>(T[] buf, int root) where T : unmanaged => Ibcast(B(buf), root);
        public Request Ibcast<T>(Memory<T> buf, int root) where T : unmanaged => Ibcast(MpiBuffer.Of(buf), root);
        public Request Iallreduce<T>(T[] sendbuf, T[] recvbuf, Op operation) where T : unmanaged =>
            Iallreduce(B(sendbuf), B(recvbuf), operation);
        public Request Iallreduce<T>(ReadOnlyMemory<T> sendbuf, Memory<T> recvbuf, Op operation) where T : unmanaged =>
            Iallreduce(MpiBuffer.Of(sendbuf), MpiBuffer.Of(recvbuf), operation);
        public Request Igather<T>(T[] sendbuf, T[] recvbuf, int root) where T : unmanaged =>
            Igather(B(sendbuf), B(recvbuf), root);
        public Request Iscatter<T>(T[] sendbuf, T[] recvbuf, int root) where T : unmanaged =>
            Iscatter(B(sendbuf), B(recvbuf), root);
        public Request Iallgather<T>(T[] sendbuf, T[] recvbuf) where T : unmanaged =>
            Iallgather(B(sendbuf), B(recvbuf));
        public Request Ialltoall<T>(T[] sendbuf, T[] recvbuf) where T : unmanaged =>
            Ialltoall(B(sendbuf), B(recvbuf));
    }
}
