using System;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using Oompi;

namespace MPI
{
    /// <summary>
    /// How a value that is not plain data (<see cref="ValueOps{T}"/>) travels. MPI.NET serialized
    /// such values with BinaryFormatter, which .NET 9 removed; here:
    /// <list type="number">
    /// <item>every type oompi's object wire takes (strings, arrays, List/HashSet/Dictionary,
    /// Nullable, [Transportable] classes and structs, and containers of those) travels in wire
    /// format v1 (<c>comm.OSend</c>/<c>ORecv</c>/<c>OBcast</c> ...): the same bytes C++, Java and
    /// Python read;</item>
    /// <item>any other type (an MPI.NET user's <c>[Serializable]</c> class) travels as the UTF-8
    /// JSON of its public fields and properties (System.Text.Json from the shared framework, with
    /// fields included and object references preserved, so shared and cyclic references survive),
    /// carried as a byte[] on the same wire. Private state is not sent; a type JSON cannot
    /// rebuild (no public parameterless or [JsonConstructor] constructor, a delegate, a pointer)
    /// is refused with ArgumentException on the sending side, before anything is sent.</item>
    /// </list>
    /// Both sides decide from T alone, so sender and receiver must name the same T (MPI.NET with
    /// BinaryFormatter also sent the run-time type; here a derived object is sent as T's fields).
    /// </summary>
    internal static class Objects<T>
    {
        /// <summary>True when T travels on oompi's wire as itself; false: as JSON bytes.</summary>
        internal static readonly bool OnWire = Wire.IsTransportable(typeof(T), out _);

        private static readonly JsonSerializerOptions Json = new()
        {
            IncludeFields = true,
            ReferenceHandler = ReferenceHandler.Preserve,
            MaxDepth = 4096,
            TypeInfoResolver = new DefaultJsonTypeInfoResolver(),
        };

        // Why T cannot travel (null when it can), found once.
        private static readonly string refusal = FindRefusal();

        private static string FindRefusal()
        {
            if (OnWire) return null;
            Type t = typeof(T);
            if (t == typeof(object) || t.IsInterface || t.IsAbstract || typeof(Delegate).IsAssignableFrom(t) || t.IsPointer)
                return $"name a concrete type, not {t}";
            try
            {
                var info = Json.GetTypeInfo(t);
                if (info.Kind == JsonTypeInfoKind.Object && info.Properties.Count == 0)
                    return "it has no public fields or properties, so nothing of it would arrive";
                if (info.Kind == JsonTypeInfoKind.Object && info.CreateObject is null && !HasPublicConstructor(t))
                    return "it has no public constructor to rebuild it with";
                return null;
            }
            catch (Exception e) when (e is NotSupportedException or InvalidOperationException or ArgumentException)
            {
                return e.Message;
            }
        }

        private static bool HasPublicConstructor(Type t) => t.IsValueType || t.GetConstructors().Length > 0;

        /// <summary>T's JSON bytes; ArgumentException naming T when JSON cannot write or rebuild it.</summary>
        internal static byte[] Encode(T value)
        {
            Check();
            try
            {
                return JsonSerializer.SerializeToUtf8Bytes(value, Json);
            }
            catch (Exception e) when (e is NotSupportedException or InvalidOperationException or JsonException)
            {
                throw Refuse(e);
            }
        }

        internal static T Decode(byte[] bytes)
        {
            try
            {
                return JsonSerializer.Deserialize<T>(bytes, Json);
            }
            catch (Exception e) when (e is NotSupportedException or InvalidOperationException)
            {
                throw Refuse(e);
            }
            catch (JsonException e)
            {
                throw new Oompi.SerializationException($"MPI: a message did not hold a {typeof(T)} (its JSON is corrupt or of another type)", e);
            }
        }

        private static ArgumentException Refuse(Exception e) => new(
            $"MPI: {typeof(T)} cannot travel: it is neither plain data, nor transportable on oompi's wire " +
            $"(mark its fields [Transportable]), nor rebuildable from the JSON of its public members " +
            $"(a public parameterless constructor and public fields or settable properties): {e.Message}", e);

        // The checks a sender makes before it sends (so that no receiver waits for nothing).
        internal static void Check()
        {
            if (refusal is not null) throw Refuse(new NotSupportedException(refusal));
        }

        internal static void Send(Comm c, T value, int dest, int tag)
        {
            if (OnWire) c.OSend(value, dest, tag);
            else c.OSend(Encode(value), dest, tag);
        }

        internal static T Receive(Comm c, int source, int tag, out Oompi.Status status) =>
            OnWire ? c.ORecv<T>(source, tag, out status) : Decode(c.ORecv<byte[]>(source, tag, out status));

        internal static Oompi.Request ImmediateSend(Comm c, T value, int dest, int tag) =>
            OnWire ? c.IOSend(value, dest, tag) : c.IOSend(Encode(value), dest, tag);

        internal static T Broadcast(Comm c, T value, int root, bool isRoot)
        {
            if (OnWire) return c.OBcast(value, root);
            byte[] b = c.OBcast(isRoot ? Encode(value) : null, root);
            return isRoot ? value : Decode(b);
        }

        internal static T[] Gather(Comm c, T value, int root, bool all)
        {
            if (OnWire) return all ? c.OAllgather(new[] { value }) : c.OGather(new[] { value }, root);
            byte[][] got = all ? c.OAllgather(new[] { Encode(value) }) : c.OGather(new[] { Encode(value) }, root);
            return got is null ? null : Array.ConvertAll(got, Decode);
        }

        internal static T Scatter(Comm c, T[] values, int root)
        {
            if (OnWire) return c.OScatter(values, root)[0];
            byte[][] enc = values is null ? null : Array.ConvertAll(values, Encode);
            return Decode(c.OScatter(enc, root)[0]);
        }

        internal static T[] Alltoall(Comm c, T[] values)
        {
            if (OnWire) return c.OAlltoall(values);
            return Array.ConvertAll(c.OAlltoall(values is null ? null : Array.ConvertAll(values, Encode)), Decode);
        }

        internal static T Reduce(Comm c, T value, ReductionOperation<T> op, int root, bool all)
        {
            if (OnWire)
            {
                Func<T, T, T> f = (a, b) => op(a, b);
                return all ? c.OAllreduce(value, f) : c.OReduce(value, f, root);
            }
            Func<byte[], byte[], byte[]> g = (a, b) => Encode(op(Decode(a), Decode(b)));
            byte[] r = all ? c.OAllreduce(Encode(value), g) : c.OReduce(Encode(value), g, root);
            return r is null ? default : Decode(r);
        }
    }
}
