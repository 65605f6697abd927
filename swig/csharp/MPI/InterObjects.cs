using System;
using Oompi;

namespace MPI
{
    /// <summary>What a process is in a rooted collective on an intercommunicator (from its root argument).</summary>
    internal enum InterRole
    {
        /// <summary>The root (it passed <see cref="Intercommunicator.Root"/>).</summary>
        Root,
        /// <summary>Another process of the root's group (it passed <see cref="Intercommunicator.Null"/>): no data.</summary>
        Idle,
        /// <summary>A process of the other group (it passed the root's rank in the root's group).</summary>
        Leaf,
    }

    /// <summary>
    /// Values that are not plain data on an intercommunicator. oompi's object collectives
    /// (OBcast, OGather, ...) run on intracommunicators, so here each value is encoded alone
    /// (<see cref="Objects{T}"/>'s choice: oompi's wire, or JSON for other classes) and the bytes
    /// travel through MPI's own intercommunicator collectives: the byte counts first, then the
    /// bytes (Gatherv, Scatterv, Allgatherv, Alltoallv). A value its sender cannot encode goes
    /// as the count -1, so its receivers throw instead of waiting.
    /// </summary>
    internal static class InterObjects<T>
    {
        private static readonly int[] NoInts = Array.Empty<int>();
        private static readonly byte[] NoBytes = Array.Empty<byte>();

        private static byte[] Encode(T value) => Objects<T>.OnWire ? Wire.Serialize(value) : Objects<T>.Encode(value);

        private static T Decode(byte[] data, int offset, int count) =>
            Objects<T>.OnWire ? Wire.Deserialize<T>(data, offset, count) : Objects<T>.Decode(data.AsSpan(offset, count).ToArray());

        // The encoding of value, or null (with the reason in error) when it cannot be encoded.
        private static byte[] TryEncode(T value, ref Exception error)
        {
            try { return Encode(value); }
            catch (ArgumentException e)
            {
                error ??= e;
                return null;
            }
        }

        private static Exception RefusedElsewhere(string what) =>
            new ArgumentException($"MPI: Intercommunicator.{what}: a {typeof(T)} could not be encoded on the sending process");

        // Concatenates the encodings of values: lengths[i] bytes of values[i] (-1: could not encode).
        private static byte[] Pack(T[] values, out int[] lengths, out int[] displs, ref Exception error)
        {
            var parts = new byte[values.Length][];
            lengths = new int[values.Length];
            displs = new int[values.Length];
            long total = 0;
            for (int i = 0; i < values.Length; i++)
            {
                parts[i] = TryEncode(values[i], ref error);
                displs[i] = (int)total;
                lengths[i] = parts[i]?.Length ?? -1;
                total += parts[i]?.Length ?? 0;
            }
            if (total > int.MaxValue) throw new ArgumentException("MPI: more than 2 GiB of encoded values in one intercommunicator collective");
            if (error is not null)
            {
                Array.Fill(lengths, -1);
                Array.Clear(displs);
                return NoBytes;
            }
            var all = new byte[total];
            for (int i = 0; i < parts.Length; i++) Buffer.BlockCopy(parts[i], 0, all, displs[i], parts[i].Length);
            return all;
        }

        // The values in data at the lengths (a -1 among them: refused on the sender).
        private static T[] Unpack(byte[] data, int[] lengths, string what)
        {
            foreach (var n in lengths) if (n < 0) throw RefusedElsewhere(what);
            var r = new T[lengths.Length];
            int at = 0;
            for (int i = 0; i < r.Length; i++)
            {
                r[i] = Decode(data, at, lengths[i]);
                at += lengths[i];
            }
            return r;
        }

        private static int[] Displacements(int[] lengths)
        {
            var d = new int[lengths.Length];
            for (int i = 1; i < d.Length; i++) d[i] = d[i - 1] + Math.Max(0, lengths[i - 1]);
            return d;
        }

        private static int Total(int[] lengths)
        {
            long t = 0;
            foreach (var n in lengths) t += Math.Max(0, n);
            return checked((int)t);
        }

        /// <summary>The root's value on the leaves; the root and idle processes keep theirs.</summary>
        internal static T Broadcast(Comm c, T value, InterRole role, int root)
        {
            var n = new int[1];
            Exception error = null;
            byte[] bytes = role == InterRole.Root ? TryEncode(value, ref error) : null;
            if (role == InterRole.Root) n[0] = bytes?.Length ?? -1;
            c.Bcast(n, root);
            // Always a second broadcast, so that every process makes the same calls.
            if (role == InterRole.Leaf) bytes = new byte[Math.Max(0, n[0])];
            c.Bcast(bytes ?? NoBytes, root);
            if (error is not null) throw error;
            if (role != InterRole.Leaf) return value;
            if (n[0] < 0) throw RefusedElsewhere("Broadcast");
            return Decode(bytes, 0, bytes.Length);
        }

        /// <summary>Every leaf's value, in rank order, at the root; null elsewhere.</summary>
        internal static T[] Gather(Comm c, T value, InterRole role, int root, int remoteSize)
        {
            Exception error = null;
            byte[] bytes = role == InterRole.Leaf ? TryEncode(value, ref error) : NoBytes;
            var mine = new[] { bytes?.Length ?? -1 };
            var lengths = role == InterRole.Root ? new int[remoteSize] : NoInts;
            c.Gather(mine, lengths, root);
            var all = role == InterRole.Root ? new byte[Total(lengths)] : NoBytes;
            var counts = role == InterRole.Root ? Array.ConvertAll(lengths, x => Math.Max(0, x)) : NoInts;
            c.Gatherv(bytes ?? NoBytes, all, counts, role == InterRole.Root ? Displacements(lengths) : NoInts, root);
            if (error is not null) throw error;
            return role == InterRole.Root ? Unpack(all, lengths, "Gather") : null;
        }

        /// <summary>values[i] of the root to leaf i; default(T) at the root and idle processes.</summary>
        internal static T Scatter(Comm c, T[] values, InterRole role, int root)
        {
            Exception error = null;
            byte[] all = NoBytes;
            int[] lengths = NoInts, displs = NoInts;
            if (role == InterRole.Root) all = Pack(values, out lengths, out displs, ref error);
            var mine = new int[1];
            c.Scatter(lengths, role == InterRole.Root ? new int[1] : mine, root);
            var bytes = role == InterRole.Leaf ? new byte[Math.Max(0, mine[0])] : NoBytes;
            c.Scatterv(all, role == InterRole.Root ? Array.ConvertAll(lengths, x => Math.Max(0, x)) : NoInts, displs, bytes, root);
            if (error is not null) throw error;
            if (role != InterRole.Leaf) return default;
            if (mine[0] < 0) throw RefusedElsewhere("Scatter");
            return Decode(bytes, 0, bytes.Length);
        }

        /// <summary>Every remote process's value, in rank order.</summary>
        internal static T[] Allgather(Comm c, T value, int remoteSize)
        {
            Exception error = null;
            byte[] bytes = TryEncode(value, ref error);
            var lengths = new int[remoteSize];
            c.Allgather(new[] { bytes?.Length ?? -1 }, lengths);
            var all = new byte[Total(lengths)];
            c.Allgatherv(bytes ?? NoBytes, all, Array.ConvertAll(lengths, x => Math.Max(0, x)), Displacements(lengths));
            if (error is not null) throw error;
            return Unpack(all, lengths, "Allgather");
        }

        /// <summary>values[i] to remote process i; element j of the result came from remote process j.</summary>
        internal static T[] Alltoall(Comm c, T[] values)
        {
            Exception error = null;
            var all = Pack(values, out var sendLengths, out var sendDispls, ref error);
            var recvLengths = new int[sendLengths.Length];
            c.Alltoall(sendLengths, recvLengths);
            var recv = new byte[Total(recvLengths)];
            c.Alltoallv(all, Array.ConvertAll(sendLengths, x => Math.Max(0, x)), sendDispls,
                        recv, Array.ConvertAll(recvLengths, x => Math.Max(0, x)), Displacements(recvLengths));
            if (error is not null) throw error;
            return Unpack(recv, recvLengths, "Alltoall");
        }
    }
}
