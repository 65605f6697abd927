using System;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>
    /// Pinned GCHandles reused from one nonblocking call to the next (per thread): re-pointing a
    /// handle costs less than allocating and freeing one.
    /// </summary>
    internal static class PinPool
    {
        private const int Capacity = 32;
        [ThreadStatic] private static GCHandle[] pool;
        [ThreadStatic] private static int count;

        internal static GCHandle Rent(object array)
        {
            if (count > 0)
            {
                GCHandle h = pool[--count];
                h.Target = array;
                return h;
            }
            return GCHandle.Alloc(array, GCHandleType.Pinned);
        }

        internal static void Return(GCHandle h)
        {
            if (!h.IsAllocated) return;
            h.Target = null;
            pool ??= new GCHandle[Capacity];
            if (count < Capacity) pool[count++] = h;
            else h.Free();
        }
    }

    /// <summary>
    /// Frees a request's native object when its proxy is collected undisposed (only requests that
    /// have one: light requests have no finalizer at all). No MPI call: the facade moves a
    /// pending operation to its reclaim list.
    /// </summary>
    internal sealed class NativeOwner
    {
        private IntPtr ptr;
        internal NativeOwner(IntPtr p) { ptr = p; }
        internal void Disarm()
        {
            ptr = IntPtr.Zero;
            GC.SuppressFinalize(this);
        }
        ~NativeOwner()
        {
            if (ptr != IntPtr.Zero) MpiPINVOKE.delete_Request(new HandleRef(null, ptr));
        }
    }

    /// <summary>
    /// The light mode of a request made by <see cref="Comm.Isend(MpiBuffer, int, int)"/> or
    /// <see cref="Comm.Irecv(MpiBuffer, int, int)"/>: the bare MPI_Request and the array's pooled
    /// pin, both held here; completion (Wait, a Test that completes) gives the pin back. No native
    /// object and no finalizer: dispose or complete every request (a request dropped while
    /// pending keeps its array pinned). Anything else (Cancel, Start, a RequestVector) first
    /// turns it into a native request (<see cref="MakeNative"/>), which then owns both.
    /// </summary>
    public unsafe partial class Request
    {
        private static readonly long NullHandle = NativeLight.RequestNull();
        private bool light;
        private bool lightDisposed;
        private bool receive;  // Dispose of a pending receive cancels it
        private long handle;
        private GCHandle pin;
        private StatusData last;

        internal static Request Light(long handle, GCHandle pin, bool receive) =>
            new Request(IntPtr.Zero, false) { light = true, handle = handle, pin = pin, receive = receive };

        private static ObjectDisposedException Disposed() =>
            new ObjectDisposedException("Request", "oompi: this Request has been disposed");

        private void Completed()
        {
            GCHandle p = pin;
            pin = default;
            PinPool.Return(p);
        }

        /// <summary>Blocks until the operation completes; returns its status.</summary>
        public Status Wait()
        {
            if (!light) return WaitNative();
            if (lightDisposed) throw Disposed();
            StatusData d;
            int rc;
            fixed (long* h = &handle) rc = NativeLight.Wait(h, &d);
            Completed();
            if (rc != 0) throw MpiPINVOKE.SWIGPendingException.Retrieve();
            last = d;
            return new Status(d);
        }

        /// <summary>The status if the operation has completed (completing it), null while pending.</summary>
        public Status Test()
        {
            if (!light) return TestNative();
            if (lightDisposed) throw Disposed();
            StatusData d;
            int rc;
            fixed (long* h = &handle) rc = NativeLight.Test(h, &d);
            if (rc != 0)
            {
                Completed();
                throw MpiPINVOKE.SWIGPendingException.Retrieve();
            }
            if (d.Valid == 0) return null;
            Completed();
            last = d;
            return new Status(d);
        }

        /// <summary>True until the operation has been completed by Wait or Test.</summary>
        public bool IsPending()
        {
            if (!light) return IsPendingNative();
            if (lightDisposed) throw Disposed();
            return handle != NullHandle;
        }

        /// <summary>False: Comm.SendInit and the other *Init calls make persistent requests.</summary>
        public bool IsPersistent()
        {
            if (!light) return IsPersistentNative();
            if (lightDisposed) throw Disposed();
            return false;
        }

        /// <summary>The status of the last completion (Wait, Test, a set function); null before.</summary>
        public Status LastStatus()
        {
            if (!light) return LastStatusNative();
            if (lightDisposed) throw Disposed();
            return last.Valid != 0 ? new Status(last) : null;
        }

        /// <summary>Asks MPI to cancel the operation (Wait still has to complete it).</summary>
        public void Cancel()
        {
            MakeNative();
            CancelNative();
        }

        /// <summary>Starts a persistent request (InvalidOperationException for any other).</summary>
        public void Start()
        {
            MakeNative();
            StartNative();
        }

        /// <summary>
        /// Turns a light request into a native one (the native request takes over the handle and
        /// the pin, freed when the operation completes), for what only native requests do.
        /// </summary>
        internal void MakeNative()
        {
            if (!light) return;
            lock (this)
            {
                if (!light) return;
                if (lightDisposed)
                {
                    light = false;  // swigCPtr stays null: a call says "disposed"
                    return;
                }
                bool pending = handle != NullHandle;
                IntPtr p = NativeLight.Adopt(handle, pending && pin.IsAllocated ? GCHandle.ToIntPtr(pin) : IntPtr.Zero,
                                             receive ? 1 : 0);
                if (MpiPINVOKE.SWIGPendingException.Pending) throw MpiPINVOKE.SWIGPendingException.Retrieve();
                if (pending) pin = default;  // the native request frees it (NativeCallbacks.FreeHandle)
                else Completed();
                handle = NullHandle;
                swigCPtr = new HandleRef(this, p);
                swigCMemOwn = true;
                owner = new NativeOwner(p);
                light = false;
            }
        }

        private void DisposeLight()
        {
            if (lightDisposed) return;
            if (handle != NullHandle)
            {
                // Still pending: through the native request (a receive is cancelled, a send
                // waited for), then its native object is freed.
                MakeNative();
                Dispose();
                return;
            }
            Completed();
            lightDisposed = true;
        }
    }

    public partial class Comm
    {
        /// <summary>
        /// Starts sending <paramref name="buf"/> (tag 0); an array stays pinned until the returned
        /// request completes (Wait, Test) or is disposed.
        /// </summary>
        public Request Isend(MpiBuffer buf, int dest) => Isend(buf, dest, 0);

        /// <summary>As <see cref="Isend(MpiBuffer, int)"/> with a tag.</summary>
        public unsafe Request Isend(MpiBuffer buf, int dest, int tag)
        {
            BufferDesc d = buf.PinPooled(out GCHandle pin);
            long h;
            int rc = NativeLight.Isend(getCPtr(this).Handle, &d, dest, tag, &h);
            GC.KeepAlive(this);  // the proxy's native object outlives the call
            if (rc != 0)
            {
                PinPool.Return(pin);
                throw MpiPINVOKE.SWIGPendingException.Retrieve();
            }
            return Request.Light(h, pin, false);
        }

        /// <summary>
        /// Starts receiving into <paramref name="buf"/> from any source with any tag (a larger
        /// message fails in Wait with MPI_ERR_TRUNCATE); an array stays pinned until the request
        /// completes or is disposed.
        /// </summary>
        public Request Irecv(MpiBuffer buf) => Irecv(buf, Mpi.AnySource, Mpi.AnyTag);

        /// <summary>As <see cref="Irecv(MpiBuffer)"/> from <paramref name="source"/>, any tag.</summary>
        public Request Irecv(MpiBuffer buf, int source) => Irecv(buf, source, Mpi.AnyTag);

        /// <summary>As <see cref="Irecv(MpiBuffer)"/> from <paramref name="source"/> with <paramref name="tag"/>.</summary>
        public unsafe Request Irecv(MpiBuffer buf, int source, int tag)
        {
            BufferDesc d = buf.PinPooled(out GCHandle pin);
            long h;
            int rc = NativeLight.Irecv(getCPtr(this).Handle, &d, source, tag, &h);
            GC.KeepAlive(this);
            if (rc != 0)
            {
                PinPool.Return(pin);
                throw MpiPINVOKE.SWIGPendingException.Retrieve();
            }
            return Request.Light(h, pin, true);
        }
    }

    internal static unsafe class NativeLight
    {
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_request_null")]
        internal static extern long RequestNull();
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_isend")]
        internal static extern int Isend(IntPtr comm, BufferDesc* buf, int dest, int tag, long* handle);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_irecv")]
        internal static extern int Irecv(IntPtr comm, BufferDesc* buf, int source, int tag, long* handle);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_wait")]
        internal static extern int Wait(long* handle, StatusData* status);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_test")]
        internal static extern int Test(long* handle, StatusData* status);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_adopt")]
        internal static extern IntPtr Adopt(long handle, IntPtr pin, int receive);
    }
}
