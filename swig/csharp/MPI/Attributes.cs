using System;
using System.Collections.Generic;

namespace MPI
{
    /// <summary>What a communicator's <see cref="Communicator.Clone"/> does with an attribute.</summary>
    public enum AttributeDuplication
    {
        /// <summary>The clone has no value for it.</summary>
        None,
        /// <summary>The clone shares the value (primitive values are copied, as MPI copies an integer attribute).</summary>
        Shallow,
        /// <summary>The clone gets a copy (ICloneable.Clone for classes, a copy for structs).</summary>
        Deep,
    }

    /// <summary>
    /// A key for values attached to communicators (MPI.NET's Attribute). The values are managed
    /// objects kept by the communicator object (<see cref="Communicator.Attributes"/>), copied by
    /// Clone as <see cref="Duplication"/> says: attributes are a managed-side notion here, they do
    /// not reach MPI's keyvals (MPI.NET stored an index in one).
    /// </summary>
    public abstract class Attribute
    {
        /// <summary>What Clone does with the value.</summary>
        public AttributeDuplication Duplication { get; }

        private protected Attribute(AttributeDuplication duplication) => Duplication = duplication;

        /// <summary>A new attribute for values of type T.</summary>
        public static Attribute Create<T>(AttributeDuplication duplication) => new Typed<T>(duplication);

        internal abstract Type ValueType { get; }

        private sealed class Typed<T> : Attribute
        {
            internal Typed(AttributeDuplication d) : base(d) { }
            internal override Type ValueType => typeof(T);
        }
    }

    /// <summary>The attribute values of one communicator: <c>comm.Attributes[attr] = value</c>; null when it has none.</summary>
    public sealed class AttributeSet
    {
        // The value lives in a box that a shallow copy shares (so a new value set on either
        // communicator is seen by both), except for primitives, which are copied.
        private sealed class Box
        {
            internal object Value;
        }

        private readonly Dictionary<Attribute, Box> values = new();

        /// <summary>The value of <paramref name="attribute"/>, or null.</summary>
        /// <exception cref="ArgumentException">The value is not of the attribute's type.</exception>
        public object this[Attribute attribute]
        {
            get
            {
                if (attribute is null) throw new ArgumentNullException(nameof(attribute));
                lock (values) return values.TryGetValue(attribute, out var b) ? b.Value : null;
            }
            set
            {
                if (attribute is null) throw new ArgumentNullException(nameof(attribute));
                if (value is not null && !attribute.ValueType.IsInstanceOfType(value))
                    throw new ArgumentException($"MPI: this attribute holds {attribute.ValueType}, not {value.GetType()}", nameof(value));
                lock (values)
                {
                    if (values.TryGetValue(attribute, out var b)) b.Value = value;
                    else values[attribute] = new Box { Value = value };
                }
            }
        }

        /// <summary>Removes the value of <paramref name="attribute"/> (nothing when it has none).</summary>
        public void Remove(Attribute attribute)
        {
            if (attribute is null) throw new ArgumentNullException(nameof(attribute));
            lock (values) values.Remove(attribute);
        }

        internal void CopyTo(AttributeSet clone)
        {
            lock (values)
            {
                foreach (var (attr, box) in values)
                {
                    switch (attr.Duplication)
                    {
                        case AttributeDuplication.Shallow:
                            clone.values[attr] = box.Value is null || box.Value.GetType().IsPrimitive ? new Box { Value = box.Value } : box;
                            break;
                        case AttributeDuplication.Deep:
                            // A boxed struct is copied by being read; a class copies itself.
                            clone.values[attr] = new Box { Value = box.Value is ICloneable c && !box.Value.GetType().IsValueType ? c.Clone() : box.Value };
                            break;
                    }
                }
            }
        }
    }

    public abstract partial class Communicator
    {
        private AttributeSet attributes;

        /// <summary>The attribute values attached to this communicator.</summary>
        public AttributeSet Attributes => attributes ??= new AttributeSet();

        internal void CopyAttributesTo(Communicator clone) => attributes?.CopyTo(clone.Attributes);
    }
}
