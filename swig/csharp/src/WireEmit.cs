using System;
using System.Collections.Generic;
using System.Linq;
using System.Linq.Expressions;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;

namespace Oompi
{
    /// <summary>Expression trees for reading and writing one value of a given type.</summary>
    internal static class WireEmit
    {
        private static MethodInfo M(Type owner, string name) =>
            owner.GetMethod(name, BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance) ??
            throw new MissingMethodException(owner.Name, name);

        private static readonly Dictionary<Type, string> Suffix = new()
        {
            [typeof(bool)] = "Bool", [typeof(byte)] = "U8", [typeof(sbyte)] = "I8",
            [typeof(short)] = "I16", [typeof(ushort)] = "U16", [typeof(char)] = "Char",
            [typeof(int)] = "I32", [typeof(uint)] = "U32", [typeof(long)] = "I64",
            [typeof(ulong)] = "U64", [typeof(float)] = "F32", [typeof(double)] = "F64",
        };

        internal static Expression Write(Expression w, Expression value, Type t)
        {
            var p = Plans.Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                {
                    Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
                    return Expression.Call(w, M(typeof(WireWriter), "Write" + Suffix[u]),
                                           t.IsEnum ? Expression.Convert(value, u) : value);
                }
                case WireKind.String:
                    return Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteString)), value);
                case WireKind.PackedArray:
                case WireKind.PackedList:
                {
                    Type e = p.Element.IsEnum ? Enum.GetUnderlyingType(p.Element) : p.Element;
                    if (e != p.Element)  // an array of enums is an array of their underlying type
                        value = Expression.Call(typeof(WireEmit).GetMethod(p.Kind == WireKind.PackedArray ? nameof(EnumArray) : nameof(EnumList),
                                                BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(p.Element, e), value);
                    var m = M(typeof(WireWriter), p.Kind == WireKind.PackedArray ? nameof(WireWriter.WritePacked) : nameof(WireWriter.WritePackedList));
                    return Expression.Call(w, m.MakeGenericMethod(e), value);
                }
                case WireKind.Array:
                    return Expression.Call(IsRef(p.Element)
                        ? M(typeof(WireContainers), nameof(WireContainers.WriteRefArray)).MakeGenericMethod(p.Element)
                        : M(typeof(WireContainers), nameof(WireContainers.WriteArray)).MakeGenericMethod(p.Element), w, value);
                case WireKind.List:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteList)).MakeGenericMethod(p.Element), w, value);
                case WireKind.HashSet:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteSet)).MakeGenericMethod(p.Element), w, value);
                case WireKind.Dictionary:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteDictionary)).MakeGenericMethod(p.Key, p.Element), w, value);
                case WireKind.Nullable:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.WriteNullable)).MakeGenericMethod(p.Element), w, value);
                case WireKind.Struct:
                {
                    // Inlined field by field (a struct cannot contain itself by value).
                    if (p.Fields.Length == 0) return Expression.Empty();
                    var tmp = Expression.Variable(t, "s");
                    return Expression.Block(new[] { tmp },
                        new Expression[] { Expression.Assign(tmp, value) }.Concat(
                            p.Fields.Select(f => Write(w, Expression.Field(tmp, f), f.FieldType))));
                }
                case WireKind.ClassRef:
                    return Expression.Call(RefCodec(t), M(RefCodec(t).Type, "Write"), w, value);
                case WireKind.ClassValue:
                    return Expression.Call(M(typeof(ValueClass<>).MakeGenericType(t), "Write"), w, value);
            }
            throw new InvalidOperationException(p.Kind.ToString());
        }

        internal static Expression Read(Expression r, Type t)
        {
            var p = Plans.Describe(t, t.Name);
            switch (p.Kind)
            {
                case WireKind.Primitive:
                {
                    Type u = t.IsEnum ? Enum.GetUnderlyingType(t) : t;
                    Expression e = Expression.Call(r, M(typeof(WireReader), "Read" + Suffix[u]));
                    return t.IsEnum ? Expression.Convert(e, t) : e;
                }
                case WireKind.String:
                    return Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadString)));
                case WireKind.PackedArray:
                case WireKind.PackedList:
                {
                    Type e = p.Element.IsEnum ? Enum.GetUnderlyingType(p.Element) : p.Element;
                    var m = M(typeof(WireReader), p.Kind == WireKind.PackedArray ? nameof(WireReader.ReadPacked) : nameof(WireReader.ReadPackedList));
                    Expression call = Expression.Call(r, m.MakeGenericMethod(e));
                    if (e != p.Element)
                        call = Expression.Call(typeof(WireEmit).GetMethod(p.Kind == WireKind.PackedArray ? nameof(EnumArray) : nameof(EnumList),
                                               BindingFlags.NonPublic | BindingFlags.Static)!.MakeGenericMethod(e, p.Element), call);
                    return call;
                }
                case WireKind.Array:
                    return Expression.Call(IsRef(p.Element)
                        ? M(typeof(WireContainers), nameof(WireContainers.ReadRefArray)).MakeGenericMethod(p.Element)
                        : M(typeof(WireContainers), nameof(WireContainers.ReadArray)).MakeGenericMethod(p.Element), r);
                case WireKind.List:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadList)).MakeGenericMethod(p.Element), r);
                case WireKind.HashSet:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadSet)).MakeGenericMethod(p.Element), r);
                case WireKind.Dictionary:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadDictionary)).MakeGenericMethod(p.Key, p.Element), r);
                case WireKind.Nullable:
                    return Expression.Call(M(typeof(WireContainers), nameof(WireContainers.ReadNullable)).MakeGenericMethod(p.Element), r);
                case WireKind.Struct:
                {
                    var tmp = Expression.Variable(t, "s");
                    var body = new List<Expression> { Expression.Assign(tmp, Expression.New(t)) };
                    foreach (var f in p.Fields) body.Add(AssignField(tmp, f, Read(r, f.FieldType)));
                    body.Add(tmp);
                    return Expression.Block(t, new[] { tmp }, body);
                }
                case WireKind.ClassRef:
                    return Expression.Call(RefCodec(t), M(RefCodec(t).Type, "Read"), r);
                case WireKind.ClassValue:
                    return Expression.Call(M(typeof(ValueClass<>).MakeGenericType(t), "Read"), r);
            }
            throw new InvalidOperationException(p.Kind.ToString());
        }

        /// <summary>
        /// The RefCodec of class t: its static readonly Instance, which the JIT reads as a
        /// constant once the class is initialized (done here), so the compiled code calls it
        /// directly; an Expression.Constant would be loaded from the closure's array and cast,
        /// at every reference.
        /// </summary>
        private static MemberExpression RefCodec(Type t)
        {
            var field = typeof(RefCodec<>).MakeGenericType(t).GetField(nameof(RefCodec<object>.Instance), BindingFlags.NonPublic | BindingFlags.Static)!;
            field.GetValue(null);  // runs the class constructor before any plan is compiled
            return Expression.Field(null, field);
        }

        private static bool IsRef(Type t) => Plans.Describe(t, t.Name).Kind == WireKind.ClassRef;

        /// <summary>
        /// For each field of o that refers to a class (not null): w.PrefetchRef, so that the
        /// identity map's slot of the object it refers to is being fetched while the fields
        /// before it are written (a tree's children; WireWriter.PrefetchRef).
        /// </summary>
        private static IEnumerable<Expression> PrefetchRefs(Expression w, Expression o, IEnumerable<FieldInfo> fields) =>
            fields.Where(f => !f.FieldType.IsValueType && Plans.Describe(f.FieldType, f.FieldType.Name).Kind == WireKind.ClassRef)
                  .Select(f => Expression.IfThen(Expression.NotEqual(Expression.Field(o, f), Expression.Constant(null, f.FieldType)),
                      Expression.Call(w, Internal(typeof(WireWriter), nameof(WireWriter.PrefetchRef)), Expression.Field(o, f))));

        internal static Action<WireWriter, T> FieldWriter<T>(FieldInfo[] fields)
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            Expression body = fields.Length == 0 ? Expression.Empty()
                : Expression.Block(PrefetchRefs(w, o, fields).Concat(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType))));
            return Expression.Lambda<Action<WireWriter, T>>(body, w, o).Compile();
        }

        /// <summary>
        /// RefCodec&lt;T&gt;.Read after a new id: creates the object, registers it (before its
        /// fields, which may refer back to it) and reads its fields, in one compiled delegate
        /// (no call of a constructor delegate, then of a field reader, per object). Without
        /// <paramref name="register"/> (fields that hold no references, read by
        /// WireReader.ReadFreshArray) the object is not registered.
        /// </summary>
        internal static Func<WireReader, T> NewReader<T>(FieldInfo[] fields, bool register) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Variable(typeof(T), "o");
            var first = Expression.Variable(typeof(T), "first");
            var body = new List<Expression> { register ? CreateFirst<T>(r, o, first) : Expression.Assign(o, New<T>()) };
            body.AddRange(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            body.Add(o);
            return Expression.Lambda<Func<WireReader, T>>(Expression.Block(typeof(T), new[] { o, first }, body), r).Compile();
        }

        /// <summary>o = first = a new T, registered (RefCodec&lt;T&gt;.Read's object after a new id).</summary>
        private static Expression CreateFirst<T>(ParameterExpression r, ParameterExpression o, ParameterExpression first) =>
            Expression.Block(Expression.Assign(first, New<T>()), Expression.Assign(o, first),
                Expression.Call(r, typeof(WireReader).GetMethod(nameof(WireReader.Register), BindingFlags.NonPublic | BindingFlags.Instance)!, first));

        internal static Action<WireReader, T> FieldReader<T>(FieldInfo[] fields)
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Parameter(typeof(T), "o");
            Expression body = fields.Length == 0 ? Expression.Empty()
                : Expression.Block(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            return Expression.Lambda<Action<WireReader, T>>(body, r, o).Compile();
        }

        /// <summary>
        /// The loop of Refs&lt;T&gt;.Write from an object whose new id is written: its fields but
        /// the tail, then the tail's reference header, and on while the tail is new.
        /// </summary>
        internal static Action<WireWriter, T> ChainWriter<T>(FieldInfo[] fields, FieldInfo tail, bool exact) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(PrefetchRefs(w, o, fields.Append(tail)));
            body.AddRange(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))),
                Expression.Block(Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteU32)), Expression.Constant(0u)),
                                 Expression.Break(done))));
            if (!exact) body.Add(CheckExactType<T>(next));
            body.Add(Expression.IfThen(Expression.Not(Expression.Call(w, typeof(WireWriter).GetMethod(nameof(WireWriter.WriteRefHeader),
                BindingFlags.NonPublic | BindingFlags.Instance)!, next)), Expression.Break(done)));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Action<WireWriter, T>>(Expression.Block(new[] { next }, loop), w, o).Compile();
        }

        /// <summary>
        /// ChainWriter for a top-level list whose fields hold no references: every link is
        /// numbered without the identity map (WireWriter.BeginDeferred; the ids counted in a
        /// local); false as soon as the walk meets a node again (Brent's cycle detection: a
        /// tortoise moved to the hare at powers of two).
        /// </summary>
        internal static Func<WireWriter, T, bool> ChainWriterDeferred<T>(FieldInfo[] fields, FieldInfo tail, bool exact, Func<object, object> walk) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var tortoise = Expression.Variable(typeof(T), "tortoise");
            var power = Expression.Variable(typeof(int), "power");
            var steps = Expression.Variable(typeof(int), "steps");
            var id = Expression.Variable(typeof(uint), "id");
            var done = Expression.Label(typeof(bool), "done");
            var writeU32 = M(typeof(WireWriter), nameof(WireWriter.WriteU32));
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => Write(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))),
                Expression.Block(Expression.Call(w, writeU32, Expression.Constant(0u)),
                                 Expression.Call(w, Internal(typeof(WireWriter), nameof(WireWriter.EndDeferred)), id),
                                 Expression.Break(done, Expression.Constant(true)))));
            body.Add(Expression.IfThen(Expression.ReferenceEqual(next, tortoise), Expression.Break(done, Expression.Constant(false))));
            body.Add(BrentStep(next, tortoise, power, steps));
            if (!exact) body.Add(CheckExactType<T>(next));
            body.Add(Expression.IfThen(Expression.Equal(id, Expression.Constant(0x7FFFFFFFu)),
                Expression.Throw(Expression.Call(Internal(typeof(WireWriter), nameof(WireWriter.TooManyObjects))))));
            body.Add(Expression.Call(w, writeU32, Expression.Or(Expression.PreIncrementAssign(id), Expression.Constant(WireWriter.NewBit))));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireWriter, T, bool>>(Expression.Block(typeof(bool), new[] { next, tortoise, power, steps, id },
                Expression.Assign(tortoise, o), Expression.Assign(power, Expression.Constant(1)), Expression.Assign(steps, Expression.Constant(0)),
                Expression.Assign(id, Expression.Call(w, Internal(typeof(WireWriter), nameof(WireWriter.BeginDeferred)), o, Expression.Constant(walk))),
                loop), w, o).Compile();
        }

        /// <summary>
        /// ChainReader for a list whose fields hold no references: the links are not entered in
        /// the reader's table (WireReader.BeginChain; the ids counted in a local), each node is
        /// its fields, then the next new id (a new node) or the header that ends the list.
        /// </summary>
        internal static Func<WireReader, T> ChainReaderDeferred<T>(FieldInfo[] fields, FieldInfo tail, Func<object, object> walk) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Variable(typeof(T), "o");
            var first = Expression.Variable(typeof(T), "first");
            var next = Expression.Variable(typeof(T), "next");
            var id = Expression.Variable(typeof(uint), "id");
            var raw = Expression.Variable(typeof(uint), "raw");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            body.Add(Expression.Assign(raw, Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadU32)))));
            body.Add(Expression.IfThen(
                Expression.NotEqual(raw, Expression.Or(Expression.Add(id, Expression.Constant(1u)), Expression.Constant(WireWriter.NewBit))),
                Expression.Block(
                    Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.EndChain)), id),
                    AssignField(o, tail, Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.ChainEnd)).MakeGenericMethod(typeof(T)), raw)),
                    Expression.Break(done))));
            body.Add(Expression.PreIncrementAssign(id));
            body.Add(Expression.Assign(next, New<T>()));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireReader, T>>(Expression.Block(typeof(T), new[] { o, first, next, id, raw },
                CreateFirst<T>(r, o, first),
                Expression.Assign(id, Expression.Call(r, Internal(typeof(WireReader), nameof(WireReader.BeginChain)), o, Expression.Constant(walk))),
                loop, first), r).Compile();
        }

        /// <summary>Throws Refs&lt;T&gt;.WrongType when <paramref name="next"/> is of a subclass of T (no type names on the wire).</summary>
        private static Expression CheckExactType<T>(Expression next) where T : class =>
            Expression.IfThen(
                Expression.NotEqual(Expression.Call(next, typeof(object).GetMethod(nameof(GetType))!), Expression.Constant(typeof(T))),
                Expression.Throw(Expression.Call(typeof(Refs<T>).GetMethod(nameof(Refs<T>.WrongType), BindingFlags.NonPublic | BindingFlags.Static)!, next)));

        /// <summary>Brent's cycle finding, one step: after <paramref name="power"/> steps the tortoise moves to the hare (next) and the power doubles.</summary>
        private static Expression BrentStep(Expression next, ParameterExpression tortoise, ParameterExpression power, ParameterExpression steps) =>
            Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(steps), power),
                Expression.Block(Expression.Assign(tortoise, next), Expression.LeftShiftAssign(power, Expression.Constant(1)),
                                 Expression.Assign(steps, Expression.Constant(0))));

        /// <summary>A leaf of a compact chain: a number as in 1.0; a string or array with a varint size.</summary>
        private static Expression WriteLeaf(Expression w, Expression value, Type t) =>
            t == typeof(string) ? Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteVarString)), value)
            : t.IsArray ? Expression.Call(w, M(typeof(WireWriter), nameof(WireWriter.WriteVarPacked)).MakeGenericMethod(t.GetElementType()), value)
            : Write(w, value, t);

        private static Expression ReadLeaf(Expression r, Type t) =>
            t == typeof(string) ? Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadVarString)))
            : t.IsArray ? Expression.Call(r, M(typeof(WireReader), nameof(WireReader.ReadVarPacked)).MakeGenericMethod(t.GetElementType()))
            : Read(r, t);

        /// <summary>
        /// Chains&lt;T&gt;.Plan.Write: (w, root, limit) writes the nodes' leaves from the root on, and
        /// returns their count at the limit or a null link, or minus the cycle's length when a
        /// link comes back to Brent's tortoise (moved to the hare at powers of two).
        /// </summary>
        internal static Func<WireWriter, T, int, int> CompactWriter<T>(FieldInfo[] fields, FieldInfo tail, bool exact) where T : class
        {
            var w = Expression.Parameter(typeof(WireWriter), "w");
            var o = Expression.Parameter(typeof(T), "o");
            var limit = Expression.Parameter(typeof(int), "limit");
            var next = Expression.Variable(typeof(T), "next");
            var tortoise = Expression.Variable(typeof(T), "tortoise");
            var power = Expression.Variable(typeof(int), "power");
            var steps = Expression.Variable(typeof(int), "steps");
            var count = Expression.Variable(typeof(int), "count");
            var done = Expression.Label(typeof(int), "done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => WriteLeaf(w, Expression.Field(o, f), f.FieldType)));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(count), limit), Expression.Break(done, count)));
            body.Add(Expression.Assign(next, Expression.Field(o, tail)));
            body.Add(Expression.IfThen(Expression.Equal(next, Expression.Constant(null, typeof(T))), Expression.Break(done, count)));
            body.Add(Expression.IfThen(Expression.ReferenceEqual(next, tortoise),
                Expression.Break(done, Expression.Negate(Expression.Add(steps, Expression.Constant(1))))));
            body.Add(BrentStep(next, tortoise, power, steps));
            if (!exact) body.Add(CheckExactType<T>(next));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireWriter, T, int, int>>(Expression.Block(typeof(int), new[] { next, tortoise, power, steps, count },
                Expression.Assign(tortoise, o), Expression.Assign(power, Expression.Constant(1)), loop), w, o, limit).Compile();
        }

        /// <summary>
        /// Chains&lt;T&gt;.Plan.Read: (r, n, close) makes and reads n nodes in a loop, each linked
        /// to the next, the last to node close (1-based; 0: null).
        /// </summary>
        internal static Func<WireReader, int, int, T> CompactReader<T>(FieldInfo[] fields, FieldInfo tail) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var n = Expression.Parameter(typeof(int), "n");
            var close = Expression.Parameter(typeof(int), "close");
            var first = Expression.Variable(typeof(T), "first");
            var o = Expression.Variable(typeof(T), "o");
            var next = Expression.Variable(typeof(T), "next");
            var closing = Expression.Variable(typeof(T), "closing");
            var i = Expression.Variable(typeof(int), "i");
            var done = Expression.Label("done");
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, ReadLeaf(r, f.FieldType))));
            body.Add(Expression.IfThen(Expression.Equal(Expression.PreIncrementAssign(i), n), Expression.Break(done)));
            body.Add(Expression.Assign(next, New<T>()));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            body.Add(Expression.IfThen(Expression.Equal(i, close), Expression.Assign(closing, o)));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireReader, int, int, T>>(Expression.Block(typeof(T), new[] { first, o, next, closing, i },
                Expression.Assign(first, New<T>()), Expression.Assign(o, first),
                Expression.Assign(close, Expression.Subtract(close, Expression.Constant(1))),  // the node's index from 0
                Expression.IfThen(Expression.Equal(close, Expression.Constant(0)), Expression.Assign(closing, first)),
                loop,
                AssignField(o, tail, closing),
                first), r, n, close).Compile();
        }

        private static MethodInfo Internal(Type owner, string name) =>
            owner.GetMethod(name, BindingFlags.NonPublic | BindingFlags.Public | BindingFlags.Static | BindingFlags.Instance) ??
            throw new MissingMethodException(owner.Name, name);

        /// <summary>A new T: its parameterless constructor (public or not), else every field zero.</summary>
        private static Expression New<T>()
        {
            var ctor = typeof(T).GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic, null, Type.EmptyTypes, null);
            return ctor is not null ? Expression.New(ctor) : Expression.Invoke(Expression.Constant(Constructor<T>()));
        }

        /// <summary>
        /// The loop of Refs&lt;T&gt;.Read from a new, registered object: its fields but the tail,
        /// then the tail's reference header, a new object for a new id, and on.
        /// </summary>
        internal static Func<WireReader, T> ChainReader<T>(FieldInfo[] fields, FieldInfo tail) where T : class
        {
            var r = Expression.Parameter(typeof(WireReader), "r");
            var o = Expression.Variable(typeof(T), "o");
            var first = Expression.Variable(typeof(T), "first");
            var next = Expression.Variable(typeof(T), "next");
            var isNew = Expression.Variable(typeof(bool), "isNew");
            var done = Expression.Label("done");
            Expression create = New<T>();
            var header = typeof(WireReader).GetMethod(nameof(WireReader.ReadRefHeader), BindingFlags.NonPublic | BindingFlags.Instance)!
                .MakeGenericMethod(typeof(T));
            var body = new List<Expression>();
            body.AddRange(fields.Select(f => AssignField(o, f, Read(r, f.FieldType))));
            body.Add(Expression.Assign(next, Expression.Call(r, header, isNew)));
            body.Add(Expression.IfThen(Expression.Not(isNew),
                Expression.Block(AssignField(o, tail, next), Expression.Break(done))));
            body.Add(Expression.Assign(next, create));
            body.Add(Expression.Call(r, typeof(WireReader).GetMethod(nameof(WireReader.Register), BindingFlags.NonPublic | BindingFlags.Instance)!, next));
            body.Add(AssignField(o, tail, next));
            body.Add(Expression.Assign(o, next));
            var loop = Expression.Loop(Expression.Block(body), done);
            return Expression.Lambda<Func<WireReader, T>>(Expression.Block(typeof(T), new[] { o, first, next, isNew },
                CreateFirst<T>(r, o, first), loop, first), r).Compile();
        }

        /// <summary>target.f = value, also for readonly fields (through a small IL setter).</summary>
        internal static Expression AssignField(Expression target, FieldInfo f, Expression value)
        {
            if (!f.IsInitOnly) return Expression.Assign(Expression.Field(target, f), value);
            Type owner = target.Type;
            var setterType = owner.IsValueType
                ? typeof(RefSetter<,>).MakeGenericType(owner, f.FieldType)
                : typeof(Action<,>).MakeGenericType(owner, f.FieldType);
            var dm = new DynamicMethod("oompi_set_" + f.Name, null,
                new[] { owner.IsValueType ? owner.MakeByRefType() : owner, f.FieldType }, typeof(WireEmit).Module, skipVisibility: true);
            var il = dm.GetILGenerator();
            il.Emit(OpCodes.Ldarg_0);
            il.Emit(OpCodes.Ldarg_1);
            il.Emit(OpCodes.Stfld, f);
            il.Emit(OpCodes.Ret);
            var setter = dm.CreateDelegate(setterType);
            return Expression.Invoke(Expression.Constant(setter, setterType), target, value);
        }

        internal delegate void RefSetter<S, F>(ref S target, F value);

        /// <summary>A new object for a reference or value read: the parameterless constructor
        /// (public or not) when there is one, else an object with every field zero.</summary>
        internal static Func<T> Constructor<T>()
        {
            var ctor = typeof(T).GetConstructor(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic,
                                                null, Type.EmptyTypes, null);
            if (ctor is not null) return Expression.Lambda<Func<T>>(Expression.New(ctor)).Compile();
            return () => (T)RuntimeHelpers.GetUninitializedObject(typeof(T));
        }

        private static U[] EnumArray<E, U>(E[] a) where E : unmanaged where U : unmanaged =>
            a is null ? null : System.Runtime.InteropServices.MemoryMarshal.Cast<E, U>(a).ToArray();

        private static List<U> EnumList<E, U>(List<E> a) where E : unmanaged where U : unmanaged =>
            a is null ? null : new List<U>(System.Runtime.InteropServices.MemoryMarshal.Cast<E, U>(
                System.Runtime.InteropServices.CollectionsMarshal.AsSpan(a)).ToArray());
    }
}
