using System;
using System.Collections.Generic;

namespace Oompi
{
    /// <summary>Containers of anything Wire supports (called by the compiled plans).</summary>
    internal static class WireContainers
    {
        public static void WriteArray<E>(WireWriter w, E[] a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard(ref w.StackMark);
            w.WriteSize(a.Length);
            for (int i = 0; i < a.Length; i++) Codec<E>.Write(w, a[i]);
        }

        public static E[] ReadArray<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            if (n == 0) return Array.Empty<E>();
            Wire.Guard(ref r.StackMark);
            var a = new E[n];
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a[i] = Codec<E>.Read(r);
            }
            return a;
        }

        public static void WriteRefArray<E>(WireWriter w, E[] a) where E : class
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard(ref w.StackMark);
            w.WriteSize(a.Length);
            var codec = RefCodec<E>.Instance;
            const int Ahead = 8;  // the look-up of element i + Ahead is fetched while element i is written
            for (int i = 0; i < a.Length; i++)
            {
                if (i + Ahead < a.Length && a[i + Ahead] is E next) w.PrefetchRef(next);
                codec.Write(w, a[i]);
            }
        }

        public static E[] ReadRefArray<E>(WireReader r) where E : class
        {
            int n = r.ReadCount(4);
            if (n == 0) return Array.Empty<E>();
            Wire.Guard(ref r.StackMark);
            return RefCodec<E>.Instance.ReadArray(r, n);
        }

        public static void WriteList<E>(WireWriter w, List<E> a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard(ref w.StackMark);
            w.WriteSize(a.Count);
            foreach (var e in System.Runtime.InteropServices.CollectionsMarshal.AsSpan(a)) Codec<E>.Write(w, e);
        }

        public static List<E> ReadList<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            Wire.Guard(ref r.StackMark);
            var a = new List<E>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a.Add(Codec<E>.Read(r));
            }
            return a;
        }

        public static void WriteSet<E>(WireWriter w, HashSet<E> a)
        {
            if (a is null) { w.WriteU64(0); return; }
            Wire.Guard(ref w.StackMark);
            w.WriteSize(a.Count);
            foreach (var e in a) Codec<E>.Write(w, e);
        }

        public static HashSet<E> ReadSet<E>(WireReader r)
        {
            int n = r.ReadCount(Codec<E>.MinSize);
            Wire.Guard(ref r.StackMark);
            var a = new HashSet<E>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<E>.MinSize);
                a.Add(Codec<E>.Read(r));
            }
            return a;
        }

        public static void WriteDictionary<K, V>(WireWriter w, Dictionary<K, V> d)
        {
            if (d is null) { w.WriteU64(0); return; }
            Wire.Guard(ref w.StackMark);
            w.WriteSize(d.Count);
            foreach (var kv in d)
            {
                Codec<K>.Write(w, kv.Key);
                Codec<V>.Write(w, kv.Value);
            }
        }

        public static Dictionary<K, V> ReadDictionary<K, V>(WireReader r)
        {
            int n = r.ReadCount(Codec<K>.MinSize + Codec<V>.MinSize);
            Wire.Guard(ref r.StackMark);
            var d = new Dictionary<K, V>(n);
            for (int i = 0; i < n; i++)
            {
                r.Element(Codec<K>.MinSize + Codec<V>.MinSize);
                K k = Codec<K>.Read(r);
                V v = Codec<V>.Read(r);
                if (k is null) throw r.Corrupt("a null dictionary key", 0);
                if (!d.TryAdd(k, v)) throw r.Corrupt($"the dictionary key {k} appears twice", 0);
            }
            return d;
        }

        public static void WriteNullable<E>(WireWriter w, E? v) where E : struct
        {
            w.WriteBool(!v.HasValue);  // cereal's flag: true when empty
            if (v.HasValue) Codec<E>.Write(w, v.GetValueOrDefault());
        }

        public static E? ReadNullable<E>(WireReader r) where E : struct =>
            r.ReadBool() ? null : Codec<E>.Read(r);
    }
}
