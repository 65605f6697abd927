using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>
    /// Span overloads of the blocking point-to-point calls: the span is pinned with <c>fixed</c>
    /// for the duration of the call (a span cannot outlive its stack frame, so there are no
    /// nonblocking span overloads; use an array or native memory there).
    /// </summary>
    public unsafe partial class Comm
    {
        // Array overloads: with C# 14's first-class spans an array would otherwise bind to the
        // span overloads below, and a null array would silently become an empty span. These
        // are a better match for arrays and keep ArgumentNullException for null.
        // Arrays and spans of a primitive type take the fast entry points (FastPath); struct
        // element types go through MpiBuffer (their StructDatatype).
        // Small enough to be inlined into the caller's loop: the runtime then sets up its
        // P/Invoke frame once per call of the caller, not once per message (a helper call of
        // ~10 ns). The other cases live in separate methods for that reason.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Send<T>(T[] buf, int dest, int tag = 0) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            if (kind < 0 || buf is null)
            {
                SendGeneral(buf, dest, tag);
                return;
            }
            fixed (T* p = buf) SendFast(p, buf.Length, kind, dest, tag);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void SendGeneral<T>(T[] buf, int dest, int tag) where T : unmanaged =>
            Send(MpiBuffer.Of(buf), dest, tag);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private Status RecvGeneral<T>(T[] buf, int source, int tag) where T : unmanaged =>
            Recv(MpiBuffer.Of(buf), source, tag);

        public Status Recv<T>(T[] buf) where T : unmanaged => Recv(buf, Mpi.AnySource, Mpi.AnyTag);

        public Status Recv<T>(T[] buf, int source) where T : unmanaged => Recv(buf, source, Mpi.AnyTag);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public Status Recv<T>(T[] buf, int source, int tag) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            if (kind < 0 || buf is null) return RecvGeneral(buf, source, tag);
            fixed (T* p = buf) return RecvFast(p, buf.Length, kind, source, tag);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void SendFast(void* p, long count, int kind, int dest, int tag)
        {
            if (TrySendFast(p, count, kind, dest, tag) != 0) ThrowPending();
        }

        // The fast entry points as namespace MPI calls them, inlined into its own inlined
        // methods (its T is unconstrained, so it pins and picks the kind itself). Nonzero: the
        // exception is pending (TakePending).
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal int TrySendFast(void* p, long count, int kind, int dest, int tag)
        {
            int rc = FastPath.Send(swigCPtr.Handle, p, count, kind, dest, tag);
            GC.KeepAlive(this);  // the native comm lives until the call returns
            return rc;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal int TryRecvFast(void* p, long count, int kind, int source, int tag)
        {
            StatusData d;
            int rc = FastPath.Recv(swigCPtr.Handle, p, count, kind, source, tag, &d);
            GC.KeepAlive(this);
            return rc;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void ThrowPending() => throw MpiPINVOKE.SWIGPendingException.Retrieve();

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private Status RecvFast(void* p, long count, int kind, int source, int tag)
        {
            StatusData d;
            int rc = FastPath.Recv(swigCPtr.Handle, p, count, kind, source, tag, &d);
            GC.KeepAlive(this);
            if (rc != 0) ThrowPending();
            return new Status(d);
        }

        public Status Sendrecv<T>(T[] sendbuf, int dest, int sendtag, T[] recvbuf, int source, int recvtag)
            where T : unmanaged =>
            Sendrecv(MpiBuffer.Of(sendbuf), dest, sendtag, MpiBuffer.Of(recvbuf), source, recvtag);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Send<T>(ReadOnlySpan<T> buf, int dest, int tag = 0) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            fixed (T* p = buf)
            {
                if (kind >= 0) SendFast(p, buf.Length, kind, dest, tag);
                else SendGeneral(p, buf.Length, dest, tag);
            }
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void SendGeneral<T>(T* p, int length, int dest, int tag) where T : unmanaged =>
            Send(MpiBuffer.Of(p, length), dest, tag);

        [MethodImpl(MethodImplOptions.NoInlining)]
        private Status RecvGeneral<T>(T* p, int length, int source, int tag) where T : unmanaged =>
            Recv(MpiBuffer.Of(p, length), source, tag);

        public void Send<T>(Span<T> buf, int dest, int tag = 0) where T : unmanaged =>
            Send((ReadOnlySpan<T>)buf, dest, tag);

        public Status Recv<T>(Span<T> buf) where T : unmanaged => Recv(buf, Mpi.AnySource, Mpi.AnyTag);

        public Status Recv<T>(Span<T> buf, int source) where T : unmanaged => Recv(buf, source, Mpi.AnyTag);

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public Status Recv<T>(Span<T> buf, int source, int tag) where T : unmanaged
        {
            int kind = MpiBuffer.PrimitiveCode<T>();
            fixed (T* p = buf)
                return kind >= 0 ? RecvFast(p, buf.Length, kind, source, tag)
                                 : RecvGeneral(p, buf.Length, source, tag);
        }

        public Status Sendrecv<T>(ReadOnlySpan<T> sendbuf, int dest, int sendtag, Span<T> recvbuf,
                                  int source, int recvtag) where T : unmanaged
        {
            fixed (T* s = sendbuf)
            fixed (T* r = recvbuf)
                return Sendrecv(MpiBuffer.Of(s, sendbuf.Length), dest, sendtag,
                                MpiBuffer.Of(r, recvbuf.Length), source, recvtag);
        }
    }

    /// <summary>
    /// The blocking send and receive of primitive arrays and spans: plain C entry points
    /// (oompi_csharp.hpp) with blittable arguments, so the runtime calls them without a
    /// marshalling stub; nonzero means a C# exception is pending.
    /// </summary>
    internal static unsafe class FastPath
    {
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_send")]
        internal static extern int Send(IntPtr comm, void* data, long count, int kind, int dest, int tag);

        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_recv")]
        internal static extern int Recv(IntPtr comm, void* data, long count, int kind, int source, int tag,
                                        StatusData* status);

        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_allreduce")]
        internal static extern int Allreduce(IntPtr comm, void* send, long sendCount, void* recv, long recvCount,
                                             int kind, IntPtr op);
    }
}
