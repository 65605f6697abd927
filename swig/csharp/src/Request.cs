using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>
    /// Pinned GCHandles reused from one nonblocking call to the next (per thread). A handle given
    /// back keeps pinning a small array (up to <see cref="StickyElements"/> elements), so that
    /// the next call on the same array (a ping-pong's or a halo's buffer) skips re-pointing it
    /// (two GC handle-table writes, about a fifth of a light request's cost): at most
    /// <see cref="Capacity"/> such arrays per thread stay alive and pinned until the thread pins
    /// others or ends (then the pool's finalizer frees its handles: one finalizer per thread, not
    /// per request). A slot knows its array by address, not by reference: a pinned array cannot
    /// move, and while it is pinned no other object can be at its address; so neither the pool
    /// nor a request stores an object reference on the hot path (each store of one costs a GC
    /// write barrier).
    /// </summary>
    internal sealed class PinPool
    {
        private const int Capacity = 32;
        internal const int StickyElements = 8192;
        private const int Searched = 4;  // how deep Rent looks for the same array (LIFO order)
        [ThreadStatic] private static PinPool local;
        // The pool a thread used last, for any thread to try first: a thread-static look-up costs
        // ~4.5 ns here (a runtime helper and __tls_get_addr; four per Isend/Irecv pair). A thread
        // takes it only if its own stack holds the caller's frame: live threads' stacks are
        // disjoint, so only the owner passes (or, once the owner has ended, the one thread now
        // running on that memory: then no other thread can use that pool any more).
        private static PinPool recent;
        private readonly nuint stackLow, stackSize;  // the owner's stack; size 0: unknown

        private unsafe PinPool()
        {
            void* low;
            nuint size;
            if (NativeLight.Stack(&low, &size) == 0)
            {
                stackLow = (nuint)low;
                stackSize = size;
            }
        }

        /// <summary>The calling thread's pool (made on first use).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private static unsafe PinPool Mine()
        {
            PinPool p = recent;
            byte frame;
            if (p is not null && (nuint)(&frame) - p.stackLow < p.stackSize) return p;
            return MineSlow();
        }

        // Another thread's pool (or none) was the last: the thread-static way. Taking `recent`
        // over only every 64th time keeps threads that take turns from writing that shared field
        // on every call (its cache line would bounce between cores).
        [MethodImpl(MethodImplOptions.NoInlining)]
        private static PinPool MineSlow()
        {
            PinPool p = local ??= new PinPool();
            if (recent is null || ++p.misses >= 64)
            {
                p.misses = 0;
                recent = p;
            }
            return p;
        }

        private int misses;
        private struct Slot
        {
            internal GCHandle Handle;
            internal IntPtr Address;  // the data address of the array Handle still pins, or 0
        }
        private readonly Slot[] slots = new Slot[Capacity];
        private int count;

        /// <summary>The address of an array's first element (stable while it is pinned).</summary>
        internal static unsafe IntPtr AddressOf(Array array) =>
            (IntPtr)Unsafe.AsPointer(ref MemoryMarshal.GetArrayDataReference(array));

        /// <summary>
        /// A handle pinning <paramref name="array"/>; <paramref name="sticky"/>: the address to
        /// give back to Return/Complete (the handle may keep pinning it), or 0.
        /// </summary>
        internal static GCHandle Rent(Array array, out IntPtr sticky)
        {
            bool small = array.Length <= StickyElements;
            PinPool p = Mine();
            int n = p.count;
            GCHandle h;
            if (n == 0) h = GCHandle.Alloc(array, GCHandleType.Pinned);
            else
            {
                // Read before pinning: equal to a slot's address only if it is that slot's array,
                // which has stayed there since it was pinned.
                IntPtr at = AddressOf(array);
                Slot[] s = p.slots;
                for (int i = n - 1, stop = Math.Max(n - Searched, 0); i >= stop; i--)
                {
                    if (s[i].Address != at) continue;
                    GCHandle hit = s[i].Handle;  // already pins array: no handle-table write
                    s[i] = s[n - 1];
                    p.count = n - 1;
                    sticky = at;
                    return hit;
                }
                h = s[n - 1].Handle;
                p.count = n - 1;
                h.Target = array;
            }
            sticky = small ? AddressOf(array) : IntPtr.Zero;  // pinned now: it stays there
            return h;
        }

        /// <summary>Gives back a handle from Rent (its operation is complete).</summary>
        internal static void Return(GCHandle h, IntPtr sticky)
        {
            if (h.IsAllocated) Mine().Put(h, sticky);
        }

        /// <summary>
        /// Return, and the Status for d (one pool look-up for both): the thread's previous
        /// one of the same direction when equal (a loop of light requests completes with the same
        /// statuses each time, and Status is immutable), else a new one. Sends and receives keep
        /// one each: a ping-pong alternates them, and one shared entry missed every time.
        /// </summary>
        internal static Status Complete(GCHandle h, IntPtr sticky, in StatusData d, bool receive)
        {
            PinPool p = Mine();
            if (h.IsAllocated) p.Put(h, sticky);
            ref Status recent = ref receive ? ref p.recentReceive : ref p.recentSend;
            Status s = recent;
            if (s is not null && s.Is(in d)) return s;
            return recent = new Status(in d);
        }

        private Status recentSend, recentReceive;

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private void Put(GCHandle h, IntPtr sticky)
        {
            int n = count;
            if (n == Capacity)
            {
                h.Free();
                return;
            }
            if (sticky == IntPtr.Zero) h.Target = null;  // a large array: not kept pinned
            ref Slot s = ref slots[n];
            s.Handle = h;
            s.Address = sticky;
            count = n + 1;
        }

        ~PinPool()
        {
            // The thread has ended: its pooled handles (and the arrays they still pin) go.
            for (int i = 0; i < count; i++)
                if (slots[i].Handle.IsAllocated) slots[i].Handle.Free();
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
    /// object, no finalizer, no lock once complete (Dispose of a completed light request only
    /// marks it): dispose or complete every request (a request dropped while pending keeps its
    /// array pinned). Anything else (Cancel, Start, a RequestVector) first
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
        private IntPtr sticky;  // PinPool.Rent's: the address pin may keep pinning, or 0
        private Status last;

        // A light request: swigCPtr stays default (a null handle), no NativeOwner.
        private Request(long handle, GCHandle pin, IntPtr sticky, bool receive)
        {
            light = true;
            this.handle = handle;
            this.pin = pin;
            this.sticky = sticky;
            this.receive = receive;
        }

        internal static Request Light(long handle, GCHandle pin, IntPtr sticky, bool receive) =>
            new Request(handle, pin, sticky, receive);

        /// <summary>Dispose of a completed light request, the common case: no lock (nothing native to free).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        private bool DisposedLightFast()
        {
            if (!light || lightDisposed || handle != NullHandle) return false;
            if (pin.IsAllocated) Completed();  // Wait and Test gave it back already
            lightDisposed = true;
            return true;
        }

        private static ObjectDisposedException Disposed() =>
            new ObjectDisposedException("Request", "oompi: this Request has been disposed");

        private Status Finished(in StatusData d)
        {
            GCHandle p = pin;
            pin = default;
            return PinPool.Complete(p, sticky, in d, receive);
        }

        private void Completed()
        {
            GCHandle p = pin;
            pin = default;
            PinPool.Return(p, sticky);
        }

        /// <summary>Blocks until the operation completes; returns its status.</summary>
        // Small enough to be inlined into the caller's loop, as Comm.Send<T> (CommSpan.cs): the
        // runtime then sets up its P/Invoke frame once per call of the caller, not per Wait; no
        // `fixed` (a method with a pinned local is never inlined). The rest lives elsewhere.
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public Status Wait()
        {
            if (!light || lightDisposed) return WaitOther();
            StatusData d;
            long h = handle;
            int rc = NativeLight.Wait(&h, &d);
            handle = h;
            if (rc != 0) Failed();
            return last = Finished(in d);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private Status WaitOther()
        {
            if (light) throw Disposed();  // a disposed light request
            return WaitNative();
        }

        /// <summary>A light request's Wait or Test failed: the pin goes back, the exception is thrown.</summary>
        [MethodImpl(MethodImplOptions.NoInlining)]
        private void Failed()
        {
            Completed();
            throw MpiPINVOKE.SWIGPendingException.Retrieve();
        }

        /// <summary>The status if the operation has completed (completing it), null while pending.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]  // as Wait: a polling loop's P/Invoke frame
        public Status Test()
        {
            if (!light || lightDisposed) return TestOther();
            StatusData d;
            long h = handle;
            int rc = NativeLight.Test(&h, &d);
            handle = h;
            if (rc != 0) Failed();
            if (d.Valid == 0) return null;
            return last = Finished(in d);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private Status TestOther()
        {
            if (light) throw Disposed();
            return TestNative();
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
            return last;
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
                if (pending)
                {
                    pin = default;  // the native request frees it (NativeCallbacks.FreeHandle)
                }
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
            BufferDesc d = buf.PinPooled(out GCHandle pin, out IntPtr sticky);
            long h;
            int rc = NativeLight.Isend(getCPtr(this).Handle, &d, dest, tag, &h);
            GC.KeepAlive(this);  // the proxy's native object outlives the call
            if (rc != 0)
            {
                PinPool.Return(pin, sticky);
                throw MpiPINVOKE.SWIGPendingException.Retrieve();
            }
            return Request.Light(h, pin, sticky, false);
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
            BufferDesc d = buf.PinPooled(out GCHandle pin, out IntPtr sticky);
            long h;
            int rc = NativeLight.Irecv(getCPtr(this).Handle, &d, source, tag, &h);
            GC.KeepAlive(this);
            if (rc != 0)
            {
                PinPool.Return(pin, sticky);
                throw MpiPINVOKE.SWIGPendingException.Retrieve();
            }
            return Request.Light(h, pin, sticky, true);
        }
    }

    public partial class Comm
    {
        /// <summary>
        /// Isend/Irecv of a whole array of a primitive type (kind): its pooled pin, then the
        /// scalar entry point (no BufferDesc, no MpiBuffer).
        /// </summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]  // as Request.Wait
        internal unsafe Request StartArray(Array a, long count, int kind, int peer, int tag, bool receive)
        {
            GCHandle pin = PinPool.Rent(a, out IntPtr sticky);
            void* data = (void*)PinPool.AddressOf(a);  // pinned by pin
            long h;
            int rc = receive ? NativeLight.IrecvData(swigCPtr.Handle, data, count, kind, peer, tag, &h)
                             : NativeLight.IsendData(swigCPtr.Handle, data, count, kind, peer, tag, &h);
            GC.KeepAlive(this);
            if (rc != 0) StartFailed(pin, sticky);
            return Request.Light(h, pin, sticky, receive);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private static void StartFailed(GCHandle pin, IntPtr sticky)
        {
            PinPool.Return(pin, sticky);
            ThrowPending();
        }
    }

    internal static unsafe class NativeLight
    {
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_stack")]
        internal static extern int Stack(void** low, nuint* size);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_isend_data")]
        internal static extern int IsendData(IntPtr comm, void* data, long count, int kind, int dest, int tag, long* handle);
        [DllImport(MpiPINVOKE.LibraryName, EntryPoint = "oompi_cs_irecv_data")]
        internal static extern int IrecvData(IntPtr comm, void* data, long count, int kind, int source, int tag, long* handle);
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
