using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

namespace Oompi
{
    /// <summary>How one C# type travels.</summary>
    internal enum WireKind
    {
        Primitive, String, PackedArray, PackedList, Array, List, HashSet, Dictionary, Nullable,
        Struct, ClassRef, ClassValue,
    }

    internal sealed class TypePlan
    {
        internal Type Type;
        internal WireKind Kind;
        internal int MinSize;            // fewest bytes a value takes (>= 1)
        internal FieldInfo[] Fields;     // Struct, ClassRef, ClassValue: transported fields in order
        internal FieldInfo Tail;         // ClassRef: the last field, a reference to the same class
        internal bool Chain;             // ClassRef: a chain type (wire 1.1): a Tail and only leaves before it
        internal Type Element, Key;      // containers (Key: dictionaries, Element is the value)
    }

    /// <summary>Classification and validation of types (reflection, once per type).</summary>
    internal static class Plans
    {
        internal static readonly object Lock = new();
        private static readonly Dictionary<Type, TypePlan> plans = new();
        // The by-value types whose fields are being described, from the last reference or
        // container on: meeting one of them again means it contains itself by value.
        private static List<Type> valueChain = new();

        private static readonly List<Type> added = new();
        private static int depth;

        internal static TypePlan Describe(Type t, string where)
        {
            if (t is null) throw new ArgumentNullException(nameof(t));
            lock (Lock)
            {
                if (plans.TryGetValue(t, out var known)) return known;
                if (depth++ == 0) added.Clear();
                try
                {
                    return DescribeLocked(t, where);
                }
                catch
                {
                    foreach (var a in added) plans.Remove(a);  // a type inside was refused
                    added.Clear();
                    throw;
                }
                finally
                {
                    depth--;
                }
            }
        }

        private static void Add(Type t, TypePlan p)
        {
            plans[t] = p;
            added.Add(t);
        }

        /// <summary>Describes t behind a reference or a container (which ends a by-value chain).</summary>
        private static TypePlan DescribeBehind(Type t, string where)
        {
            var saved = valueChain;
            valueChain = new List<Type>();
            try
            {
                return DescribeLocked(t, where);
            }
            finally
            {
                valueChain = saved;
            }
        }

        private static TypePlan DescribeLocked(Type t, string where)
        {
            if (valueChain.Contains(t))
                throw Refuse(t, where, "it contains itself by value (make the class travel by reference)");
            if (plans.TryGetValue(t, out var known)) return known;
            var p = new TypePlan { Type = t };
            Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
            if (PrimitiveSize(u) is int size)
            {
                p.Kind = WireKind.Primitive;
                p.MinSize = size;
            }
            else if (t == typeof(string))
            {
                p.Kind = WireKind.String;
                p.MinSize = 8;
            }
            else if (t.IsArray)
            {
                if (t.GetArrayRank() != 1 || !t.IsSZArray)
                    throw Refuse(t, where, "multidimensional arrays have no wire form (use an array of arrays)");
                p.Element = t.GetElementType();
                p.Kind = IsPacked(p.Element) ? WireKind.PackedArray : WireKind.Array;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Element, where + "[]");
                return p;
            }
            else if (t.IsGenericType && !t.IsGenericTypeDefinition &&
                     (t.GetGenericTypeDefinition() == typeof(List<>) || t.GetGenericTypeDefinition() == typeof(HashSet<>)))
            {
                p.Element = t.GetGenericArguments()[0];
                bool list = t.GetGenericTypeDefinition() == typeof(List<>);
                p.Kind = list ? (IsPacked(p.Element) ? WireKind.PackedList : WireKind.List) : WireKind.HashSet;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Element, where + "<>");
                return p;
            }
            else if (t.IsGenericType && !t.IsGenericTypeDefinition && t.GetGenericTypeDefinition() == typeof(Dictionary<,>))
            {
                p.Key = t.GetGenericArguments()[0];
                p.Element = t.GetGenericArguments()[1];
                p.Kind = WireKind.Dictionary;
                p.MinSize = 8;
                Add(t, p);
                DescribeBehind(p.Key, where + ".Key");
                DescribeBehind(p.Element, where + ".Value");
                return p;
            }
            else if (Nullable.GetUnderlyingType(t) is Type inner)
            {
                p.Kind = WireKind.Nullable;
                p.Element = inner;
                p.MinSize = 1;
                Add(t, p);
                DescribeLocked(inner, where + "?");
                return p;
            }
            else
            {
                if (t.IsPrimitive || t.IsPointer || t.IsByRef || t.IsInterface || t.IsAbstract ||
                    typeof(Delegate).IsAssignableFrom(t) || t.IsGenericTypeDefinition ||
                    t.Namespace == "System" || t.Namespace?.StartsWith("System.") == true)
                    throw Refuse(t, where, null);
                var attr = t.GetCustomAttribute<TransportableAttribute>(false);
                var fields = TransportedFields(t);
                if (attr is null && fields.Length == 0)
                {
                    // An MPI.NET / BinaryFormatter user's [Serializable] type (nothing of oompi's
                    // marked): its instance fields, public and private, but [NonSerialized] ones.
                    if (!IsMarkedSerializable(t)) throw Refuse(t, where, null);
                    fields = SerializableFields(t);
                }
                p.Fields = fields;
                p.Kind = t.IsValueType ? WireKind.Struct : attr?.ByValue == true ? WireKind.ClassValue : WireKind.ClassRef;
                if (p.Kind == WireKind.ClassRef)
                {
                    p.MinSize = 4;
                    Add(t, p);  // before the fields: they may refer back to t
                    foreach (var f in fields) DescribeBehind(f.FieldType, $"{t.Name}.{f.Name}");
                    var last = fields.LastOrDefault();
                    if (last is not null && last.FieldType == t) p.Tail = last;
                    p.Chain = p.Tail is not null && fields.Length >= 2 && fields[..^1].All(f => IsLeaf(f.FieldType));
                    return p;
                }
                // By value: the fields' sizes add up. Registered first (its size filled in after
                // the fields), so that a reference or container inside may lead back to it.
                Add(t, p);
                valueChain.Add(t);
                try
                {
                    int min = 0;
                    foreach (var f in fields) min += DescribeLocked(f.FieldType, $"{t.Name}.{f.Name}").MinSize;
                    if (min == 0)
                        throw Refuse(t, where, "it has no [Transportable] fields, so it would take no bytes by value");
                    p.MinSize = min;
                }
                finally
                {
                    valueChain.RemoveAt(valueChain.Count - 1);
                }
                return p;
            }
            Add(t, p);
            return p;
        }

        /// <summary>
        /// True when values of t can hold no reference to a class that travels by reference
        /// (numbers, strings, packed arrays, and containers and structs of those).
        /// </summary>
        internal static bool HoldsNoReferences(Type t) => HoldsNoReferences(t, new HashSet<Type>());

        private static bool HoldsNoReferences(Type t, HashSet<Type> seen)
        {
            if (!seen.Add(t)) return true;  // met again inside itself: its other parts decide
            var p = Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                case WireKind.String:
                case WireKind.PackedArray:
                case WireKind.PackedList:
                    return true;
                case WireKind.Array:
                case WireKind.List:
                case WireKind.HashSet:
                case WireKind.Nullable:
                    return HoldsNoReferences(p.Element, seen);
                case WireKind.Dictionary:
                    return HoldsNoReferences(p.Key, seen) && HoldsNoReferences(p.Element, seen);
                case WireKind.Struct:
                    return p.Fields.All(f => HoldsNoReferences(f.FieldType, seen));
                default:
                    return false;  // ClassRef, ClassValue (which may hold one)
            }
        }

        private static ArgumentException Refuse(Type t, string where, string why)
        {
            string at = where == t.Name ? "" : $" (in {where})";
            return new ArgumentException(
                $"oompi: {t} is not transportable{at}: " +
                (why ?? "mark its fields [Transportable], or the type [Serializable] (or use numbers, strings, arrays, List, HashSet, Dictionary, Nullable)"));
        }

        internal static int? PrimitiveSize(Type t)
        {
            if (t == typeof(bool) || t == typeof(byte) || t == typeof(sbyte)) return 1;
            if (t == typeof(short) || t == typeof(ushort) || t == typeof(char)) return 2;
            if (t == typeof(int) || t == typeof(uint) || t == typeof(float)) return 4;
            if (t == typeof(long) || t == typeof(ulong) || t == typeof(double)) return 8;
            return null;
        }

        /// <summary>
        /// A field a compact chain carries (docs/wire-format.md 2.1): a number or bool (not an
        /// enum), a string, an array of numbers (not of bools). Every language decides alike, so
        /// List&lt;int&gt; (a container) is not one, although its bytes are those of an int[].
        /// </summary>
        internal static bool IsLeaf(Type t) =>
            PrimitiveSize(t) is not null || t == typeof(string) ||
            t.IsSZArray && t.GetElementType() != typeof(bool) && PrimitiveSize(t.GetElementType()) is not null;

        internal static bool IsPacked(Type t) => PrimitiveSize(t.IsEnum ? Enum.GetUnderlyingType(t) : t) is not null;

        // TypeAttributes.Serializable and FieldAttributes.NotSerialized are marked obsolete with
        // formatter-based serialization (SYSLIB0050); here they only read a user's markings.
#pragma warning disable SYSLIB0050
        /// <summary>[Serializable] on t itself (not inherited: as for BinaryFormatter).</summary>
        internal static bool IsMarkedSerializable(Type t) => (t.Attributes & TypeAttributes.Serializable) != 0;

        /// <summary>
        /// The fields BinaryFormatter wrote: every instance field (public or not, auto-property
        /// backing fields included) of t and of its base classes that are [Serializable] too,
        /// but the [NonSerialized] ones; base class fields first, each class's in declaration order.
        /// </summary>
        private static FieldInfo[] SerializableFields(Type t)
        {
            var chain = new List<Type>();
            for (var b = t; b is not null && b != typeof(object) && b != typeof(ValueType); b = b.BaseType)
                if (IsMarkedSerializable(b)) chain.Add(b);
            chain.Reverse();
            return chain.SelectMany(b => b
                    .GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                    .Where(f => (f.Attributes & FieldAttributes.NotSerialized) == 0)
                    .OrderBy(f => f.MetadataToken))
                .ToArray();
        }
#pragma warning restore SYSLIB0050

        private static FieldInfo[] TransportedFields(Type t)
        {
            var chain = new List<Type>();
            for (var b = t; b is not null && b != typeof(object) && b != typeof(ValueType); b = b.BaseType) chain.Add(b);
            chain.Reverse();
            return chain.SelectMany(b => b
                    .GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly)
                    .Where(f => f.IsDefined(typeof(TransportableAttribute), false))
                    .OrderBy(f => f.MetadataToken))
                .ToArray();
        }
    }
}
