using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace MPI
{
    /// <summary>Information about a message: source, tag, and (for plain data) its length (oompi's Status).</summary>
    public class Status
    {
        internal readonly Oompi.Status status;

        internal Status(Oompi.Status status) => this.status = status;

        /// <summary>The rank that sent the message.</summary>
        public int Source => status.Source;

        /// <summary>The message's tag.</summary>
        public int Tag => status.Tag;

        /// <summary>Whether the operation was cancelled before it completed.</summary>
        public bool Cancelled => status.Cancelled;

        /// <summary>
        /// Elements of <paramref name="type"/> in the message when it is plain data (a primitive or
        /// a struct of them); null for any other type (a serialized message's element count is
        /// known only once it is received), as in MPI.NET.
        /// </summary>
        /// <exception cref="ArgumentNullException">type is null.</exception>
        public int? Count(Type type)
        {
            if (type is null) throw new ArgumentNullException(nameof(type));
            int? size = PlainSize(type);
            if (size is null || size == 0) return null;
            return (int)(status.CountBytes / size.Value);
        }

        private static readonly ConcurrentDictionary<Type, int?> sizes = new();

        // sizeof(T) when T holds no references (what ValueOps sends as MPI data), else null.
        internal static int? PlainSize(Type type) => sizes.GetOrAdd(type, static t =>
        {
            if (t.IsByRef || t.IsPointer || t.ContainsGenericParameters || t == typeof(void)) return null;
            var m = typeof(Status).GetMethod(nameof(SizeOf), System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
            return (int?)m.MakeGenericMethod(t).Invoke(null, null);
        });

        private static int? SizeOf<T>() =>
            RuntimeHelpers.IsReferenceOrContainsReferences<T>() ? null : Unsafe.SizeOf<T>();

        /// <inheritdoc/>
        public override string ToString() => $"MPI.Status(source={Source}, tag={Tag})";
    }

    /// <summary>The status of a completed receive, with the number of elements received.</summary>
    public class CompletedStatus : Status
    {
        /// <summary>Elements received.</summary>
        protected int count;

        internal CompletedStatus(Oompi.Status status, int count) : base(status) => this.count = count;

        /// <summary>The number of elements in the message.</summary>
        public int Count() => count;
    }
}
