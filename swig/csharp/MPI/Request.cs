using System;
using System.Collections.Generic;
using Oompi;

namespace MPI
{
    /// <summary>
    /// A nonblocking operation (MPI.NET's Request): <see cref="Wait"/> completes it,
    /// <see cref="Test"/> completes it if it can (null otherwise), <see cref="Cancel"/> asks MPI
    /// to cancel it. Completing a request again returns the first completion's status.
    /// </summary>
    public abstract class Request
    {
        private CompletedStatus done;

        /// <summary>Blocks until the operation completes; its status.</summary>
        public CompletedStatus Wait()
        {
            if (done is not null) return done;
            try
            {
                return done = WaitCore();
            }
            catch (MpiException e)
            {
                throw Errors.Translate(e);
            }
        }

        /// <summary>The status if the operation has completed (completing it), otherwise null.</summary>
        public CompletedStatus Test()
        {
            if (done is not null) return done;
            try
            {
                return done = TestCore();
            }
            catch (MpiException e)
            {
                throw Errors.Translate(e);
            }
        }

        /// <summary>Asks MPI to cancel the operation; Wait or Test still complete it.</summary>
        public void Cancel()
        {
            if (done is not null) return;
            try
            {
                CancelCore();
            }
            catch (MpiException e)
            {
                throw Errors.Translate(e);
            }
        }

        private protected abstract CompletedStatus WaitCore();
        private protected abstract CompletedStatus TestCore();
        private protected abstract void CancelCore();
    }

    /// <summary>A nonblocking receive; <see cref="GetValue"/> is the value once it has arrived.</summary>
    public abstract class ReceiveRequest : Request
    {
        /// <summary>The received value (an array for array receives); waits for it if it has not arrived yet.</summary>
        public object GetValue()
        {
            Wait();
            return Value;
        }

        private protected abstract object Value { get; }
    }

    // An oompi request of plain data (ImmediateSend, and ImmediateReceive into an array).
    internal sealed class DataRequest : ReceiveRequest
    {
        private readonly Oompi.Request request;
        private readonly int count;
        private readonly int elementSize;
        private readonly object value;
        private readonly Action<object> action;

        internal DataRequest(Oompi.Request request, int count, int elementSize, object value = null, Action<object> action = null)
        {
            this.request = request;
            this.count = count;
            this.elementSize = elementSize;
            this.value = value;
            this.action = action;
        }

        private CompletedStatus Finish(Oompi.Status s)
        {
            request.Dispose();
            // MPI.NET documents MessageTruncatedException for a message longer than the array.
            // Open MPI's self path completes such a receive with success and the truncated length
            // in the status error only (seen at 1 rank): both are checked here.
            if (value is Array && (s.Error == Mpi.ErrTruncate || s.CountBytes > (long)count * elementSize))
                throw new MessageTruncatedException($"MPI: a message of {s.CountBytes} bytes arrived for an array of {count} elements of {elementSize} bytes");
            int n = elementSize > 0 && s.CountBytes >= 0 ? (int)(s.CountBytes / elementSize) : count;
            if (elementSize == 0) n = count;
            var st = new CompletedStatus(s, n);
            action?.Invoke(Value);
            return st;
        }

        private protected override CompletedStatus WaitCore() => Finish(request.Wait());

        private protected override CompletedStatus TestCore()
        {
            var s = request.Test();
            return s is null ? null : Finish(s);
        }

        private protected override void CancelCore() => request.Cancel();

        private protected override object Value => value is Func<object> f ? f() : value;
    }

    // A receive of a value of any other type (oompi's IORecv: probe, then receive the bytes).
    // For an array receive into a given array (`into`), the elements arrive in that array, as
    // MPI.NET's did, and GetValue returns it.
    internal sealed class ObjectReceiveRequest<T> : ReceiveRequest
    {
        private readonly ObjectRequest<T> wire;
        private readonly ObjectRequest<byte[]> json;
        private readonly Action<T> action;
        private readonly Array into;
        private readonly int source;
        private object value;
        private bool cancelled;

        internal ObjectReceiveRequest(Comm c, int source, int tag, Action<T> action, Array into = null)
        {
            if (Objects<T>.OnWire) wire = c.IORecv<T>(source, tag);
            else json = c.IORecv<byte[]>(source, tag);
            this.action = action;
            this.into = into;
            this.source = source;
        }

        private CompletedStatus Finish()
        {
            Oompi.Status s;
            T got;
            if (wire is not null)
            {
                got = wire.Wait();
                s = wire.Status;
                wire.Dispose();
            }
            else
            {
                got = Objects<T>.Decode(json.Wait());
                s = json.Status;
                json.Dispose();
            }
            int count = 1;
            value = got;
            if (into is not null && got is Array a)
            {
                if (a.Length > into.Length)
                    throw new MessageTruncatedException($"MPI: an array of {a.Length} elements arrived for an array of {into.Length}");
                Array.Copy(a, into, a.Length);
                value = into;
                count = a.Length;
            }
            action?.Invoke(got);
            return new CompletedStatus(s, count);
        }

        private protected override CompletedStatus WaitCore() =>
            cancelled ? new CompletedStatus(new Oompi.Status(new StatusData { Source = source, Tag = Mpi.AnyTag, Cancelled = 1 }), 0) : Finish();

        private protected override CompletedStatus TestCore()
        {
            if (cancelled) return WaitCore();
            bool ready = wire is not null ? wire.Test() : json.Test();
            return ready ? Finish() : null;
        }

        // Before a message matched: stop probing (the request completes as cancelled). After:
        // the message is on its way and arrives.
        private protected override void CancelCore()
        {
            if ((wire is not null ? wire.Status : json.Status) is not null) return;
            cancelled = true;
            wire?.Dispose();
            json?.Dispose();
        }

        private protected override object Value => value;
    }

    // An object send: serialized up front into a byte array the oompi request pins.
    internal sealed class ObjectSendRequest : Request
    {
        private readonly Oompi.Request request;
        internal ObjectSendRequest(Oompi.Request request) => this.request = request;
        private CompletedStatus Finish(Oompi.Status s)
        {
            request.Dispose();
            return new CompletedStatus(s, 1);
        }
        private protected override CompletedStatus WaitCore() => Finish(request.Wait());
        private protected override CompletedStatus TestCore()
        {
            var s = request.Test();
            return s is null ? null : Finish(s);
        }
        private protected override void CancelCore() => request.Cancel();
    }

    /// <summary>A list of requests completed together (MPI.NET's RequestList).</summary>
    public class RequestList
    {
        /// <summary>The requests not completed through this list yet.</summary>
        protected List<Request> requests = new();

        /// <summary>An empty list.</summary>
        public RequestList() { }

        /// <summary>Adds a request.</summary>
        /// <exception cref="ArgumentNullException">request is null.</exception>
        public void Add(Request request) => requests.Add(request ?? throw new ArgumentNullException(nameof(request)));

        /// <summary>Removes a request.</summary>
        public void Remove(Request request) => requests.Remove(request);

        /// <summary>The number of requests in the list.</summary>
        public int Count => requests.Count;

        /// <summary>Waits until one request completes, removes it from the list and returns it.</summary>
        /// <exception cref="ArgumentException">The list is empty.</exception>
        public Request WaitAny()
        {
            if (requests.Count == 0) throw new ArgumentException("MPI.RequestList.WaitAny: the request list is empty");
            while (true)
            {
                var r = TestAny();
                if (r is not null) return r;
                System.Threading.Thread.Yield();
            }
        }

        /// <summary>A completed request (removed from the list), or null when none has completed.</summary>
        public Request TestAny()
        {
            for (int i = 0; i < requests.Count; i++)
            {
                var r = requests[i];
                if (r.Test() is not null)
                {
                    requests.RemoveAt(i);
                    return r;
                }
            }
            return null;
        }

        /// <summary>Waits for every request; the list is empty afterwards. Returns the requests completed.</summary>
        public List<Request> WaitAll()
        {
            // Polled, not waited in order: an object receive advances only when tested (it
            // probes, then receives), and a send to this process may complete only once it has
            // (MPICH's self path does not buffer): waiting on the send first would never end.
            var result = new List<Request>(requests.Count);
            while (requests.Count > 0)
            {
                var some = TestSome();
                if (some is null) System.Threading.Thread.Yield();
                else result.AddRange(some);
            }
            return result;
        }

        /// <summary>All the requests (and an empty list) if every one has completed; otherwise null.</summary>
        public List<Request> TestAll()
        {
            foreach (var r in requests)
                if (r.Test() is null) return null;
            var result = requests;
            requests = new List<Request>();
            return result;
        }

        /// <summary>Waits until at least one request completes; removes and returns every completed one.</summary>
        /// <exception cref="ArgumentException">The list is empty.</exception>
        public List<Request> WaitSome()
        {
            if (requests.Count == 0) throw new ArgumentException("MPI.RequestList.WaitSome: the request list is empty");
            while (true)
            {
                var some = TestSome();
                if (some is not null) return some;
                System.Threading.Thread.Yield();
            }
        }

        /// <summary>Removes and returns every completed request; null when none has completed.</summary>
        public List<Request> TestSome()
        {
            List<Request> result = null;
            for (int i = 0; i < requests.Count; i++)
            {
                if (requests[i].Test() is null) continue;
                (result ??= new List<Request>()).Add(requests[i]);
                requests.RemoveAt(i--);
            }
            return result;
        }
    }
}
