using System;
using System.Runtime.ExceptionServices;

namespace Oompi
{
    /// <summary>
    /// A receive of an object of unknown size that has not completed yet (<c>comm.IORecv&lt;T&gt;</c>),
    /// as C++'s object_future: <see cref="Test"/> advances it without blocking (first Improbe until
    /// a message matches, then Irecv into a byte array of exactly its size, pinned by the request),
    /// <see cref="Wait"/> blocks and returns the object. A corrupt message throws
    /// <see cref="SerializationException"/> from Test/Wait. Dispose while the bytes are being
    /// received waits for them (a matched message cannot be cancelled); before a message matched
    /// it just stops probing. Object receives take their messages in the order they were posted,
    /// as MPI's receives do (C++'s detail/object_match.hpp): of two IORecv for the same source and
    /// tag, the first posted gets the first message, whichever is waited on first. A receive
    /// never disposed keeps its place (as an MPI receive never waited on).
    /// </summary>
    public sealed class ObjectRequest<T> : IDisposable
    {
        private readonly Comm comm;
        private readonly int source, tag;
        private Message msg;
        private Request req;
        private byte[] buf;
        private T value;
        private ExceptionDispatchInfo error;
        private long ticket;  // the posted receive, until a message is taken (0 after)

        internal ObjectRequest(Comm comm, int source, int tag)
        {
            this.comm = comm;
            this.source = source;
            this.tag = tag;
            ticket = comm.PostObjectRecv(source, tag);
        }

        /// <summary>True once the object has arrived.</summary>
        public bool IsCompleted { get; private set; }

        /// <summary>The status of the message (null until it matched).</summary>
        public Status Status { get; private set; }

        /// <summary>Advances the receive; true once the object has arrived (and was read).</summary>
        public bool Test()
        {
            if (!IsCompleted)
            {
                if (msg is null)
                {
                    msg = comm.TestObjectRecv(ticket);
                    if (msg is null) return false;
                    ticket = 0;
                    Start();
                }
                if (!IsCompleted)
                {
                    Status st = req.Test();
                    if (st is null) return false;
                    Finish(st);
                }
            }
            error?.Throw();
            return true;
        }

        /// <summary>Blocks until the object has arrived and returns it.</summary>
        public T Wait()
        {
            if (!IsCompleted)
            {
                if (msg is null)
                {
                    msg = comm.WaitObjectRecv(ticket);
                    ticket = 0;
                    Start();
                }
                if (!IsCompleted) Finish(req.Wait());
            }
            error?.Throw();
            return value;
        }

        private void Start()
        {
            Status = msg.GetStatus();
            if (Status.Source == Mpi.ProcNull)
            {
                IsCompleted = true;  // nothing arrives from ProcNull
                return;
            }
            try
            {
                buf = Comm.ArrayFor(msg, msg.CountBytes, 0);  // (no array: the message is dropped)
            }
            catch (Exception e) when (e is SerializationException || e is OutOfMemoryException)
            {
                error = ExceptionDispatchInfo.Capture(e);
                IsCompleted = true;
                return;
            }
            req = msg.Irecv(buf);
        }

        private void Finish(Status st)
        {
            IsCompleted = true;
            Status = st;
            try
            {
                value = Wire.ReadTop<T>(new WireReader(buf, 0, buf.Length));
            }
            catch (SerializationException e)
            {
                error = ExceptionDispatchInfo.Capture(e);
            }
            buf = null;
            req.Dispose();
            req = null;
        }

        public void Dispose()
        {
            if (ticket != 0)
            {
                long t = ticket;
                ticket = 0;
                comm.CancelObjectRecv(t);  // later receives take its place
            }
            if (req is not null)
            {
                req.Wait();
                req.Dispose();
                req = null;
            }
            msg?.Dispose();
            IsCompleted = true;
        }
    }

    public partial class Comm
    {
        /// <summary>
        /// Nonblocking receive of one object message of any size from source with tag: poll
        /// <c>Test()</c> or call <c>Wait()</c> (which returns the object).
        /// </summary>
        public ObjectRequest<T> IORecv<T>(int source, int tag)
        {
            Wire.Check<T>();
            return new ObjectRequest<T>(this, source, tag);
        }
    }
}
