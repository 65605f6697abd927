using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Oompi;

namespace MPI
{
    // MPI.NET's point-to-point operations. Plain data (ValueOps) is one MPI message of T's
    // datatype; any other value is one message of oompi's object wire (Objects<T>).
    public abstract partial class Communicator
    {
        /// <summary>Sends <paramref name="value"/> to <paramref name="dest"/> with <paramref name="tag"/>.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]  // into the caller's loop, as oompi's own Send<T>
        public unsafe void Send<T>(T value, int dest, int tag)
        {
            // A number: oompi's plain C entry point, inlined with its P/Invoke (which the runtime
            // inlines outside a try block only); the value is a primitive on the stack.
            int kind = PrimitiveKind<T>.Code;
            if (kind < 0) SendAny(value, dest, tag);
            else if (comm.TrySendFast(Unsafe.AsPointer(ref value), 1, kind, dest, tag) != 0) ThrowPending();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void SendAny<T>(T value, int dest, int tag)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null) ops.Send(comm, ref value, dest, tag);
                else
                {
                    Objects<T>.Check();
                    Objects<T>.Send(comm, value, dest, tag);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Sends the array <paramref name="values"/> (received with <c>Receive(source, tag, ref T[])</c>).</summary>
        /// <exception cref="ArgumentNullException">values is null.</exception>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public unsafe void Send<T>(T[] values, int dest, int tag)
        {
            int kind = PrimitiveKind<T>.Code;
            if (kind < 0 || values is null)
            {
                SendAny(values, dest, tag);
                return;
            }
            fixed (byte* p = &Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(values)))
                if (comm.TrySendFast(p, values.Length, kind, dest, tag) != 0) ThrowPending();
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void SendAny<T>(T[] values, int dest, int tag)
        {
            if (values is null) throw new ArgumentNullException(nameof(values));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null) ops.Send(comm, values, dest, tag);
                else
                {
                    Objects<T[]>.Check();
                    Objects<T[]>.Send(comm, values, dest, tag);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Receives a value from <paramref name="source"/> (or <see cref="anySource"/>) with <paramref name="tag"/> (or <see cref="anyTag"/>).</summary>
        public T Receive<T>(int source, int tag)
        {
            Receive(source, tag, out T value);
            return value;
        }

        /// <summary>Receives a value.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public unsafe void Receive<T>(int source, int tag, out T value)
        {
            int kind = PrimitiveKind<T>.Code;
            if (kind >= 0)
            {
                T v = default;  // a local: value may be a field of an object the GC moves
                if (comm.TryRecvFast(Unsafe.AsPointer(ref v), 1, kind, source, tag) != 0) ThrowPending();
                value = v;
                return;
            }
            ReceiveAny(source, tag, out value);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ReceiveAny<T>(int source, int tag, out T value)
        {
            var ops = ValueOps<T>.For;
            if (ops is null)
            {
                Receive(source, tag, out value, out _);
                return;
            }
            try { ops.Receive(comm, out value, source, tag); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// Receives a value and its status. Plain data: a message longer than one T throws
        /// <see cref="MessageTruncatedException"/>.
        /// </summary>
        public void Receive<T>(int source, int tag, out T value, out CompletedStatus status)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    var s = ops.Receive(comm, out value, source, tag);
                    status = new CompletedStatus(s, (int)(s.CountBytes / ops.Size));
                }
                else
                {
                    value = Objects<T>.Receive(comm, source, tag, out var s);
                    status = new CompletedStatus(s, 1);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Receives an array.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public unsafe void Receive<T>(int source, int tag, ref T[] values)
        {
            // The common case without a status to build: numbers into an array given.
            int kind = PrimitiveKind<T>.Code;
            T[] a = values;
            if (kind >= 0 && a is not null)
            {
                fixed (byte* p = &Unsafe.As<T, byte>(ref MemoryMarshal.GetArrayDataReference(a)))
                    if (comm.TryRecvFast(p, a.Length, kind, source, tag) != 0) ThrowPending();
                return;
            }
            ReceiveAny(source, tag, ref values);
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        private void ReceiveAny<T>(int source, int tag, ref T[] values)
        {
            var ops = ValueOps<T>.For;
            if (ops is null || values is null)
            {
                Receive(source, tag, ref values, out _);
                return;
            }
            try { ops.Receive(comm, values, source, tag); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// Receives an array. Plain data: into <paramref name="values"/>, which must be long
        /// enough (a longer message throws <see cref="MessageTruncatedException"/>; a shorter one
        /// fills the first <c>status.Count()</c> elements); when values is null, an array of the
        /// message's length is made. Other types: values is replaced by the array received.
        /// </summary>
        public void Receive<T>(int source, int tag, ref T[] values, out CompletedStatus status)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    if (values is null)
                    {
                        // MPI.NET would pin a null array; here the message's own length, from a
                        // matched probe so that no other message can take its place.
                        using var m = comm.Mprobe(source, tag);
                        if (m.CountBytes % ops.Size != 0)
                            throw new MessageTruncatedException($"MPI: a message of {m.CountBytes} bytes is not a whole number of {typeof(T)} ({ops.Size} bytes)");
                        values = new T[m.CountBytes / ops.Size];
                        var ms = ops.ReceiveMatched(m, values);
                        status = new CompletedStatus(ms, values.Length);
                        return;
                    }
                    var s = ops.Receive(comm, values, source, tag);
                    status = new CompletedStatus(s, (int)(s.CountBytes / ops.Size));
                }
                else
                {
                    values = Objects<T[]>.Receive(comm, source, tag, out var s);
                    status = new CompletedStatus(s, values?.Length ?? 0);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Sends and receives one value with the same peer and tag.</summary>
        public void SendReceive<T>(T inValue, int dest, int tag, out T outValue) =>
            SendReceive(inValue, dest, tag, dest, tag, out outValue, out _);

        /// <summary>Sends a value to dest and receives one from source.</summary>
        public void SendReceive<T>(T inValue, int dest, int sendTag, int source, int recvTag, out T outValue) =>
            SendReceive(inValue, dest, sendTag, source, recvTag, out outValue, out _);

        /// <summary>Sends a value to dest and receives one from source, with the receive's status.</summary>
        public void SendReceive<T>(T inValue, int dest, int sendTag, int source, int recvTag, out T outValue, out CompletedStatus status)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    var send = new[] { inValue };
                    var recv = new T[1];
                    var s = ops.SendReceive(comm, send, dest, sendTag, recv, source, recvTag);
                    outValue = recv[0];
                    status = new CompletedStatus(s, (int)(s.CountBytes / ops.Size));
                }
                else
                {
                    Objects<T>.Check();
                    // Nonblocking send, blocking receive: no deadlock when both sides call it.
                    using var r = Objects<T>.ImmediateSend(comm, inValue, dest, sendTag);
                    outValue = Objects<T>.Receive(comm, source, recvTag, out var s);
                    r.Wait();
                    status = new CompletedStatus(s, 1);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Sends and receives arrays with the same peer and tag.</summary>
        public void SendReceive<T>(T[] inValues, int dest, int tag, ref T[] outValues) =>
            SendReceive(inValues, dest, tag, dest, tag, ref outValues, out _);

        /// <summary>Sends an array to dest and receives one from source.</summary>
        public void SendReceive<T>(T[] inValues, int dest, int sendTag, int source, int recvTag, ref T[] outValues) =>
            SendReceive(inValues, dest, sendTag, source, recvTag, ref outValues, out _);

        /// <summary>
        /// Sends an array to dest and receives one from source. Plain data: outValues must be long
        /// enough (as for <c>Receive(..., ref T[])</c>); other types: it is replaced.
        /// </summary>
        public void SendReceive<T>(T[] inValues, int dest, int sendTag, int source, int recvTag, ref T[] outValues, out CompletedStatus status)
        {
            if (inValues is null) throw new ArgumentNullException(nameof(inValues));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    if (outValues is null) throw new ArgumentNullException(nameof(outValues), "MPI: SendReceive of plain data needs an array to receive into");
                    var s = ops.SendReceive(comm, inValues, dest, sendTag, outValues, source, recvTag);
                    status = new CompletedStatus(s, (int)(s.CountBytes / ops.Size));
                }
                else
                {
                    Objects<T[]>.Check();
                    using var r = Objects<T[]>.ImmediateSend(comm, inValues, dest, sendTag);
                    outValues = Objects<T[]>.Receive(comm, source, recvTag, out var s);
                    r.Wait();
                    status = new CompletedStatus(s, outValues?.Length ?? 0);
                }
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Starts sending a value; the request completes when the value has been sent.</summary>
        public Request ImmediateSend<T>(T value, int dest, int tag)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null) return new DataRequest(ops.ImmediateSend(comm, new[] { value }, dest, tag), 1, ops.Size);
                Objects<T>.Check();
                return new ObjectSendRequest(Objects<T>.ImmediateSend(comm, value, dest, tag));
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Starts sending an array; plain data must not change until the request completes.</summary>
        public Request ImmediateSend<T>(T[] values, int dest, int tag)
        {
            if (values is null) throw new ArgumentNullException(nameof(values));
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null) return new DataRequest(ops.ImmediateSend(comm, values, dest, tag), values.Length, ops.Size);
                Objects<T[]>.Check();
                return new ObjectSendRequest(Objects<T[]>.ImmediateSend(comm, values, dest, tag));
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Starts receiving a value; <see cref="ReceiveRequest.GetValue"/> returns it.</summary>
        public ReceiveRequest ImmediateReceive<T>(int source, int tag) => ImmediateReceive<T>(source, tag, (Action<T>)null);

        /// <summary>Starts receiving a value; <paramref name="action"/> is called with it when it completes.</summary>
        public ReceiveRequest ImmediateReceive<T>(int source, int tag, Action<T> action)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    var box = new T[1];
                    Func<object> get = () => box[0];
                    return new DataRequest(ops.ImmediateReceive(comm, box, source, tag), 1, ops.Size, get,
                                           action is null ? null : v => action((T)v));
                }
                return new ObjectReceiveRequest<T>(comm, source, tag, action);
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>
        /// Starts receiving an array into <paramref name="values"/> (plain data: it must be long
        /// enough, and not be touched until the request completes); GetValue returns the array.
        /// Other types: the elements received are copied into values (when given; a longer array
        /// arriving throws MessageTruncatedException from Wait), and GetValue returns values.
        /// </summary>
        public ReceiveRequest ImmediateReceive<T>(int source, int tag, T[] values)
        {
            try
            {
                var ops = ValueOps<T>.For;
                if (ops is not null)
                {
                    if (values is null) throw new ArgumentNullException(nameof(values));
                    return new DataRequest(ops.ImmediateReceive(comm, values, source, tag), values.Length, ops.Size, values);
                }
                return new ObjectReceiveRequest<T[]>(comm, source, tag, null, values);
            }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>Waits for a matching message without receiving it.</summary>
        public Status Probe(int source, int tag)
        {
            try { return new Status(comm.Probe(source, tag)); }
            catch (MpiException e) { throw Translate(e); }
        }

        /// <summary>The status of a matching message if one has arrived, otherwise null.</summary>
        public Status ImmediateProbe(int source, int tag)
        {
            try
            {
                var s = comm.Iprobe(source, tag);
                return s is null ? null : new Status(s);
            }
            catch (MpiException e) { throw Translate(e); }
        }
    }
}
