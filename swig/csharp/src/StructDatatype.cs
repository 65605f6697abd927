using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;

namespace Oompi
{
    /// <summary>
    /// MPI struct datatypes of blittable C# structs, built by reflection once per type and cached:
    /// every instance field (public or not) at its real offset, primitive fields as their MPI
    /// types, enums as their underlying type, nested structs recursively, <c>fixed</c> buffers as
    /// arrays; resized to the struct's size, so arrays of T are arrays of the datatype.
    /// <c>MpiBuffer.Of(particles)</c> and <c>comm.Send(particles, ...)</c> use it by themselves.
    /// The datatypes live until MPI is finalized.
    /// </summary>
    public static class StructDatatype
    {
        private static readonly ConcurrentDictionary<Type, Datatype> Cache = new();

        /// <summary>The committed struct datatype of T.</summary>
        public static Datatype Of<T>() where T : unmanaged => Holder<T>.Value ??= For(typeof(T));

        private static class Holder<T> where T : unmanaged
        {
            internal static Datatype Value;  // the hot path: no dictionary look-up
        }

        private static Datatype For(Type t) => Cache.GetOrAdd(t, Build);

        private static Datatype Build(Type t)
        {
            // decimal, DateTime, Guid, nint...: their fields are the runtime's private business.
            if (t.IsPrimitive || t.Namespace == "System" || t.Namespace?.StartsWith("System.") == true)
                throw new ArgumentException($"oompi: {t} has no MPI datatype; use a primitive type or a struct of your own");
            var lengths = new List<int>();
            var offsets = new List<long>();
            var types = new List<Datatype>();
            object sample = Activator.CreateInstance(t);
            foreach (var f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
            {
                long offset = OffsetOf(t, f, sample);
                var fixedBuffer = f.GetCustomAttribute<FixedBufferAttribute>();
                Type ft = fixedBuffer?.ElementType ?? f.FieldType;
                Datatype ftype = MpiBuffer.KindOrNull(ft) is TypeKind k ? Datatype.Of(k)
                    : ft.IsValueType && !ft.IsPrimitive && !ft.IsPointer ? For(ft)
                    : throw new ArgumentException(
                        $"oompi: field {t.Name}.{f.Name} of type {ft} has no MPI datatype (use primitive, enum or struct fields)");
                lengths.Add(fixedBuffer?.Length ?? 1);
                offsets.Add(offset);
                types.Add(ftype);
            }
            if (lengths.Count == 0)
                throw new ArgumentException($"oompi: struct {t} has no fields to send");
            int size = (int)typeof(Unsafe).GetMethod(nameof(Unsafe.SizeOf))!.MakeGenericMethod(t).Invoke(null, null)!;
            using var ts = new DatatypeVector(types);
            using var s = Datatype.CreateStruct(lengths.ToArray(), offsets.ToArray(), ts);
            return Datatype.Resized(s, 0, size);
        }

        // The field's real offset in the managed layout (the one the array holds), by `ldflda`:
        // Marshal.OffsetOf gives the marshalled layout, which differs for bool and char fields.
        private static long OffsetOf(Type t, FieldInfo f, object sample)
        {
            var dm = new DynamicMethod("oompi_offset_" + f.Name, typeof(long), new[] { t.MakeByRefType() },
                                       typeof(StructDatatype).Module, skipVisibility: true);
            var il = dm.GetILGenerator();
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldflda, f);
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Sub);
            il.Emit(OpCodes.Conv_I8);
            il.Emit(OpCodes.Ret);
            return (long)dm.Invoke(null, new[] { sample })!;
        }
    }
}
