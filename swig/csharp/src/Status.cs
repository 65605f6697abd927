using System;
using System.Runtime.InteropServices;

namespace Oompi
{
    /// <summary>What the native side returns for a status (by value).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct StatusData
    {
        public int Source, Tag, Error, Cancelled;
        public long CountBytes;
        public int Valid;
    }

    /// <summary>
    /// The status of a completed receive or probe: source, tag, error and size of the message.
    /// A plain immutable object (no native memory, no finalizer); equal statuses completed one
    /// after another on a thread may be the same object (PinPool.Complete).
    /// </summary>
    public sealed class Status
    {
        private readonly StatusData data;

        [System.Runtime.CompilerServices.MethodImpl(System.Runtime.CompilerServices.MethodImplOptions.AggressiveInlining)]
        internal bool Is(in StatusData d) =>
            data.Source == d.Source && data.Tag == d.Tag && data.Error == d.Error &&
            data.Cancelled == d.Cancelled && data.CountBytes == d.CountBytes;

        internal Status(in StatusData d) => data = d;

        public int Source => data.Source;
        public int Tag => data.Tag;
        /// <summary>The error code of the operation (Mpi.Success when it succeeded).</summary>
        public int Error => data.Error;
        public bool Cancelled => data.Cancelled != 0;
        /// <summary>Bytes of data in the message.</summary>
        public long CountBytes => data.CountBytes;

        /// <summary>Whole elements of <paramref name="type"/> in the message.</summary>
        /// <exception cref="ArithmeticException">The message is not a whole number of them.</exception>
        public long GetCount(Datatype type)
        {
            long size = type.Size;
            if (size == 0) return 0;
            if (CountBytes % size != 0)
                throw new ArithmeticException($"Status.GetCount: the message ({CountBytes} bytes) is not a whole number of elements of {size} bytes");
            return CountBytes / size;
        }

        public override string ToString() =>
            $"Status(source={Source}, tag={Tag}, error={Error}, bytes={CountBytes}{(Cancelled ? ", cancelled" : "")})";
    }
}
