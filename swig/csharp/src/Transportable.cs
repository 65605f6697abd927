using System;

namespace Oompi
{
    /// <summary>
    /// Motor's opt-in marking for object-graph transport (<c>comm.OSend</c>/<c>ORecv</c>/
    /// <c>OBcast</c>/<c>OScatter</c>/<c>OGather</c>) in wire format v1 (docs/wire-format.md), the
    /// bytes C++, Java and Python exchange.
    /// <para>On a field: the field travels (every other field arrives with the value the
    /// parameterless constructor gives it). Fields travel in declaration order, base class
    /// fields first. Auto-properties: <c>[field: Transportable] public int X { get; set; }</c>.</para>
    /// <para>On a class or struct: the type is transportable even if none of its fields is marked.
    /// A class travels by reference (an id: shared and cyclic references survive; null is
    /// allowed); a struct travels by value (its fields, nothing else). <see cref="ByValue"/> on
    /// a class makes its instances travel as values too (like a C++ struct member: no id, null
    /// refused, no sharing).</para>
    /// </summary>
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Class | AttributeTargets.Struct,
                    Inherited = false, AllowMultiple = false)]
    public sealed class TransportableAttribute : Attribute
    {
        /// <summary>On a class: instances travel by value (as a struct would), not by reference.</summary>
        public bool ByValue { get; set; }
    }

    /// <summary>
    /// A serialized object graph could not be read (truncated, corrupt, or of another type than
    /// the receiver expects), or a graph could not be written (too large, too deep, an object of
    /// a subclass the wire format cannot name).
    /// </summary>
    public class SerializationException : Exception
    {
        public SerializationException(string message) : base(message) { }
        public SerializationException(string message, Exception inner) : base(message, inner) { }
    }
}
