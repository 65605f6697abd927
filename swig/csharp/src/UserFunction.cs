using System;
using System.Runtime.CompilerServices;

namespace Oompi
{
    /// <summary>A reduction over spans: <c>inOut[i] = input[i] op inOut[i]</c>.</summary>
    public delegate void Reduction<T>(ReadOnlySpan<T> input, Span<T> inOut) where T : unmanaged;

    /// <summary>The collective's exception when a user function threw: the function's own
    /// exception is the InnerException.</summary>
    public sealed class UserFunctionException : Exception
    {
        public UserFunctionException(string message, Exception inner) : base(message, inner) { }
    }

    /// <summary>
    /// A user-defined reduction over MPI's own memory, for any datatype (derived types, pairs):
    /// override <see cref="Invoke"/>, which sees <c>count</c> elements of <c>type</c> as bytes
    /// (<c>count * extent</c> of them). For elements of one unmanaged type use
    /// <see cref="UserFunction{T}"/> or <c>Op.Create&lt;T&gt;(delegate)</c>.
    /// The spans are valid only during the call. An exception thrown there never reaches native
    /// frames (on CoreCLR that kills the process): it is caught here, MPI makes no further calls
    /// for that operation, and the collective throws <see cref="UserFunctionException"/> with it
    /// as InnerException, on the ranks where it was thrown.
    /// </summary>
    public abstract unsafe class UserFunction : NativeUserFunction
    {
        [ThreadStatic] private static Exception failure;

        protected UserFunction() { }

        /// <summary>inOut = input op inOut, elementwise, for count elements of type.</summary>
        protected abstract void Invoke(ReadOnlySpan<byte> input, Span<byte> inOut, int count, Datatype type);

        public sealed override void Call(long inAddress, long inoutAddress, int count, long extent, Datatype type)
        {
            try
            {
                Dispatch((void*)inAddress, (void*)inoutAddress, count, extent, type);
            }
            catch (Exception e)
            {
                failure = e;  // the collective runs on this thread: its exception takes it
                try { Fail(e.Message); } catch { /* never leave through native frames */ }
            }
        }

        private protected virtual void Dispatch(void* input, void* inOut, int count, long extent, Datatype type)
        {
            long bytes = count * extent;
            if (bytes > int.MaxValue)
                throw new NotSupportedException($"oompi: a user function sees at most 2 GiB per call ({bytes} bytes here)");
            Invoke(new ReadOnlySpan<byte>(input, (int)bytes), new Span<byte>(inOut, (int)bytes), count, type);
        }

        /// <summary>The exception of the last failed call on this thread (and forgets it).</summary>
        internal static Exception TakeFailure()
        {
            var e = failure;
            failure = null;
            return e;
        }
    }

    /// <summary>
    /// A user-defined reduction on elements of one unmanaged type T (a primitive or a blittable
    /// struct): override <see cref="Invoke(ReadOnlySpan{T}, Span{T})"/>. MPI's memory is seen
    /// in place, no copy. Calls with a datatype whose extent is not sizeof(T) fail with
    /// ArgumentException (as InnerException of the collective's exception).
    /// </summary>
    public abstract unsafe class UserFunction<T> : UserFunction where T : unmanaged
    {
        /// <summary>inOut[i] = input[i] op inOut[i].</summary>
        protected abstract void Invoke(ReadOnlySpan<T> input, Span<T> inOut);

        protected sealed override void Invoke(ReadOnlySpan<byte> input, Span<byte> inOut, int count, Datatype type) =>
            throw new InvalidOperationException("oompi: not called");

        private protected sealed override void Dispatch(void* input, void* inOut, int count, long extent, Datatype type)
        {
            if (extent != sizeof(T))
                throw new ArgumentException(
                    $"oompi: a UserFunction<{typeof(T).Name}> was called on elements of {extent} bytes ({type.Name}), not {sizeof(T)}");
            Invoke(new ReadOnlySpan<T>(input, count), new Span<T>(inOut, count));
        }
    }

    internal sealed class DelegateFunction<T> : UserFunction<T> where T : unmanaged
    {
        private readonly Reduction<T> reduce;
        internal DelegateFunction(Reduction<T> reduce) { this.reduce = reduce; }
        protected override void Invoke(ReadOnlySpan<T> input, Span<T> inOut) => reduce(input, inOut);
    }
}
