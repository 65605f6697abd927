using System;

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
        public void Send<T>(T[] buf, int dest, int tag = 0) where T : unmanaged => Send(MpiBuffer.Of(buf), dest, tag);

        public Status Recv<T>(T[] buf) where T : unmanaged => Recv(MpiBuffer.Of(buf));

        public Status Recv<T>(T[] buf, int source) where T : unmanaged => Recv(MpiBuffer.Of(buf), source);

        public Status Recv<T>(T[] buf, int source, int tag) where T : unmanaged => Recv(MpiBuffer.Of(buf), source, tag);

        public Status Sendrecv<T>(T[] sendbuf, int dest, int sendtag, T[] recvbuf, int source, int recvtag)
            where T : unmanaged =>
            Sendrecv(MpiBuffer.Of(sendbuf), dest, sendtag, MpiBuffer.Of(recvbuf), source, recvtag);

        public void Send<T>(ReadOnlySpan<T> buf, int dest, int tag = 0) where T : unmanaged
        {
            fixed (T* p = buf) Send(MpiBuffer.Of(p, buf.Length), dest, tag);
        }

        public void Send<T>(Span<T> buf, int dest, int tag = 0) where T : unmanaged =>
            Send((ReadOnlySpan<T>)buf, dest, tag);

        public Status Recv<T>(Span<T> buf) where T : unmanaged => Recv(buf, Mpi.AnySource, Mpi.AnyTag);

        public Status Recv<T>(Span<T> buf, int source) where T : unmanaged => Recv(buf, source, Mpi.AnyTag);

        public Status Recv<T>(Span<T> buf, int source, int tag) where T : unmanaged
        {
            fixed (T* p = buf) return Recv(MpiBuffer.Of(p, buf.Length), source, tag);
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
}
