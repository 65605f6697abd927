using System;
using System.Linq.Expressions;
using System.Runtime.CompilerServices;
using Oompi;

namespace MPI
{
    /// <summary>
    /// MPI.NET's reduction operations on T: for primitive numbers the C# operators; for other
    /// types T's overloaded operator (op_Addition, op_LessThan, ...; string's Add concatenates).
    /// Passed to a reduction on plain numbers, Add, Multiply, Min, Max, LogicalAnd, LogicalOr,
    /// BitwiseAnd, BitwiseOr and ExclusiveOr run as MPI's own operations (MPI_SUM ...), in the
    /// MPI library; any other delegate runs as a user operation (or, for values that are not
    /// plain data, on oompi's object reductions).
    /// A T without the operator: reading the property throws ArgumentException, as in MPI.NET.
    /// </summary>
    public class Operation<T> : IDisposable
    {
        private static ReductionOperation<T> min, max, add, multiply, logicalAnd, logicalOr, bitwiseAnd, bitwiseOr, exclusiveOr;

        /// <summary>The smaller of two values (by &lt;).</summary>
        public static ReductionOperation<T> Min { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => min ?? (min = Choose(true)); }
        /// <summary>The larger of two values (by &lt;).</summary>
        public static ReductionOperation<T> Max { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => max ?? (max = Choose(false)); }
        /// <summary>x + y (string: concatenation).</summary>
        public static ReductionOperation<T> Add { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => add ?? (add = MakeAdd()); }
        /// <summary>x * y.</summary>
        public static ReductionOperation<T> Multiply { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => multiply ?? (multiply = Build(Expression.Multiply, "op_Multiply")); }
        /// <summary>Logical and (bool: &amp;&amp;; integers: nonzero both, as C's &amp;&amp;).</summary>
        public static ReductionOperation<T> LogicalAnd { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => logicalAnd ?? (logicalAnd = Logical(true)); }
        /// <summary>Logical or (bool: ||; integers: nonzero either).</summary>
        public static ReductionOperation<T> LogicalOr { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => logicalOr ?? (logicalOr = Logical(false)); }
        /// <summary>x &amp; y.</summary>
        public static ReductionOperation<T> BitwiseAnd { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => bitwiseAnd ?? (bitwiseAnd = Build(Expression.And, "op_BitwiseAnd")); }
        /// <summary>x | y.</summary>
        public static ReductionOperation<T> BitwiseOr { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => bitwiseOr ?? (bitwiseOr = Build(Expression.Or, "op_BitwiseOr")); }
        /// <summary>x ^ y.</summary>
        public static ReductionOperation<T> ExclusiveOr { [MethodImpl(MethodImplOptions.AggressiveInlining)] get => exclusiveOr ?? (exclusiveOr = Build(Expression.ExclusiveOr, "op_ExclusiveOr")); }

        // The getters read a field and nothing else, so they inline into a reduction's call
        // site (this runs on every reduction: a getter that also built would not).
        private static ReductionOperation<T> MakeAdd() => typeof(T) == typeof(string)
            ? (ReductionOperation<T>)(object)(ReductionOperation<string>)string.Concat
            : Build(Expression.Add, "op_Addition");

        private static ReductionOperation<T> Build(Func<Expression, Expression, BinaryExpression> make, string name)
        {
            var x = Expression.Parameter(typeof(T), "x");
            var y = Expression.Parameter(typeof(T), "y");
            try
            {
                Expression body;
                if (typeof(T) == typeof(byte) || typeof(T) == typeof(sbyte) || typeof(T) == typeof(short) ||
                    typeof(T) == typeof(ushort) || typeof(T) == typeof(char))
                    // C# computes on these in int (as the IL of MPI.NET's delegates did): wrap around.
                    body = Expression.Convert(make(Expression.Convert(x, typeof(int)), Expression.Convert(y, typeof(int))), typeof(T));
                else
                    body = make(x, y);
                return Expression.Lambda<ReductionOperation<T>>(body, x, y).Compile();
            }
            catch (InvalidOperationException e)
            {
                throw new ArgumentException($"MPI: type {typeof(T)} has no operator for Operation<{typeof(T).Name}> ({name})", e);
            }
        }

        private static ReductionOperation<T> Choose(bool smaller)
        {
            var x = Expression.Parameter(typeof(T), "x");
            var y = Expression.Parameter(typeof(T), "y");
            try
            {
                var less = Expression.LessThan(x, y);
                var body = smaller ? Expression.Condition(less, x, y) : Expression.Condition(less, y, x);
                return Expression.Lambda<ReductionOperation<T>>(body, x, y).Compile();
            }
            catch (InvalidOperationException e)
            {
                throw new ArgumentException($"MPI: type {typeof(T)} does not have a < operator", e);
            }
        }

        private static ReductionOperation<T> Logical(bool and)
        {
            if (typeof(T) == typeof(bool))
                return and ? (ReductionOperation<T>)(object)(ReductionOperation<bool>)((a, b) => a && b)
                           : (ReductionOperation<T>)(object)(ReductionOperation<bool>)((a, b) => a || b);
            if (Predefined.IsInteger(typeof(T)))
            {
                // C's && and || on integers: 1 or 0, as MPI_LAND / MPI_LOR compute them.
                var x = Expression.Parameter(typeof(T), "x");
                var y = Expression.Parameter(typeof(T), "y");
                var zero = Expression.Default(typeof(T));
                var nx = Expression.NotEqual(x, zero);
                var ny = Expression.NotEqual(y, zero);
                var test = and ? Expression.AndAlso(nx, ny) : Expression.OrElse(nx, ny);
                var body = Expression.Condition(test, Expression.Convert(Expression.Constant(1), typeof(T)), zero);
                return Expression.Lambda<ReductionOperation<T>>(body, x, y).Compile();
            }
            return Build(and ? Expression.And : Expression.Or, and ? "op_LogicalAnd" : "op_LogicalOr");
        }

        private readonly ReductionOperation<T> op;

        /// <summary>An operation object for <paramref name="op"/> (MPI.NET's low-level form).</summary>
        public Operation(ReductionOperation<T> op) => this.op = op ?? throw new ArgumentNullException(nameof(op));

        /// <summary>The delegate (MPI.NET: the raw MPI_Op, for its MPI.Unsafe calls, which are not ported).</summary>
        public ReductionOperation<T> Op => op;

        /// <summary>
        /// Nothing to free (MPI.NET freed the MPI_Op it made here; this layer makes one per
        /// delegate on first use and keeps it with the delegate): kept so that MPI.NET's
        /// <c>using (var op = new Operation&lt;T&gt;(f))</c> compiles.
        /// </summary>
        public void Dispose() { }
    }

    /// <summary>Which of MPI's own operations a delegate of <see cref="Operation{T}"/> is, for T.</summary>
    internal static class Predefined
    {
        internal static bool IsInteger(Type t) =>
            t == typeof(short) || t == typeof(ushort) || t == typeof(int) || t == typeof(uint) ||
            t == typeof(long) || t == typeof(ulong) || t == typeof(sbyte) || t == typeof(byte);

        private static bool IsFloat(Type t) => t == typeof(float) || t == typeof(double);

        /// <summary>MPI's own op for <paramref name="op"/> on T, or null (then a user op runs it).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static Op For<T>(ReductionOperation<T> op)
        {
            // A few reference comparisons against a table made once per T (this runs on every
            // reduction: the Type comparisons that build the table would cost more than the call).
            var table = Table<T>.Entries;
            for (int i = 0; i < table.Length; i++)
                if (ReferenceEquals(table[i].Delegate, op)) return table[i].Op;
            return null;
        }

        private static class Table<T>
        {
            internal static readonly (ReductionOperation<T> Delegate, Op Op)[] Entries = Build();

            private static (ReductionOperation<T>, Op)[] Build()
            {
                Type t = typeof(T);
                bool integer = IsInteger(t), number = integer || IsFloat(t);
                var list = new System.Collections.Generic.List<(ReductionOperation<T>, Op)>();
                void Add(Func<ReductionOperation<T>> get, Op op)
                {
                    try { list.Add((get(), op)); }
                    catch (ArgumentException) { /* T lacks the operator: no such delegate */ }
                }
                if (number)
                {
                    Add(() => Operation<T>.Add, Oompi.Op.Sum);
                    Add(() => Operation<T>.Multiply, Oompi.Op.Prod);
                    Add(() => Operation<T>.Min, Oompi.Op.Min);
                    Add(() => Operation<T>.Max, Oompi.Op.Max);
                }
                if (integer || t == typeof(bool))
                {
                    Add(() => Operation<T>.LogicalAnd, Oompi.Op.LAnd);
                    Add(() => Operation<T>.LogicalOr, Oompi.Op.LOr);
                }
                if (integer)
                {
                    Add(() => Operation<T>.BitwiseAnd, Oompi.Op.BAnd);
                    Add(() => Operation<T>.BitwiseOr, Oompi.Op.BOr);
                    Add(() => Operation<T>.ExclusiveOr, Oompi.Op.BXor);
                }
                return list.ToArray();
            }
        }
    }
}
