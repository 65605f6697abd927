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
    /// A plain object (no native memory, no finalizer), made for every receive.
    /// </summary>
    public sealed class Status
    {
        internal Status(in StatusData d)
        {
            Source = d.Source;
            Tag = d.Tag;
            Error = d.Error;
            Cancelled = d.Cancelled != 0;
            CountBytes = d.CountBytes;
        }

        public int Source { get; }
        public int Tag { get; }
        /// <summary>The error code of the operation (Mpi.Success when it succeeded).</summary>
        public int Error { get; }
        public bool Cancelled { get; }
        /// <summary>Bytes of data in the message.</summary>
        public long CountBytes { get; }

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
