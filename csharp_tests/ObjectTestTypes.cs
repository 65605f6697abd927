
namespace Oompi.Tests
{
    public enum Hue : byte { Red = 1, Green = 2, Blue = 200 }

    public class AllKinds
    {
        [Transportable] public bool B;
        [Transportable] public sbyte I8;
        [Transportable] public byte U8;
        [Transportable] public short I16;
        [Transportable] public ushort U16;
        [Transportable] public char C;
        [Transportable] public int I32;
        [Transportable] public uint U32;
        [Transportable] public long I64;
        [Transportable] public ulong U64;
        [Transportable] public float F32;
        [Transportable] public double F64;
        [Transportable] public Hue Hue;
        [Transportable] public Hue[] Colors;
        [Transportable] public bool[] Flags;
        [Transportable] public double[] Doubles;
        [Transportable] public List<long> Longs;
        [Transportable] public string[] Strings;
        [Transportable] public int[][] Jagged;
        [Transportable] public Dictionary<string, double?> Map;
        [Transportable] public HashSet<int> Set;
        [Transportable] public int? Maybe;
        [Transportable] public int? Nothing;
        [Transportable] public List<ListNode> Nodes;
        [Transportable] public ListNode[] NodeArray;
        [Transportable] public Point[] Points;
        [Transportable] public string Text;
        public int NotSent = 42;
    }

    public readonly struct Fixed
    {
        [Transportable] public readonly int A;
        [Transportable] public readonly string B;
        public Fixed(int a, string b) { A = a; B = b; }
    }

    public class Base
    {
        [Transportable] public int BaseField;
    }

    public class Derived : Base
    {
        [Transportable] public string DerivedField;
        [Transportable] public readonly long ReadOnlyField;
        public Derived() { }
        public Derived(long r) { ReadOnlyField = r; }
    }

    public class Holder
    {
        [Transportable] public Base Item;
    }

    public class NotMarked
    {
        public int X;
    }

    public class HasObjectField
    {
        [Transportable] public object Anything;
    }

    /// <summary>A list whose link is not the last field: nested, not looped.</summary>
    public class HeadFirst
    {
        [Transportable] public HeadFirst Next;
        [Transportable] public int Value;
    }

    public class A
    {
        [Transportable] public B B;
        [Transportable] public A Self;
    }

    public class B
    {
        [Transportable] public int X;
    }

    [Transportable]
    public class Empty
    {
        public int X = 5;
    }

    [Transportable(ByValue = true)]
    public class TreeValue
    {
        [Transportable] public int V;
        [Transportable] public List<TreeValue> Kids = new();
    }

    [Transportable(ByValue = true)]
    public class Outer
    {
        [Transportable] public RefHolder Ref;
        [Transportable] public int X;
    }

    public class RefHolder
    {
        [Transportable] public Outer Back;  // a by-value Outer inside a referenced Inner
    }

    [Transportable(ByValue = true)]
    public class SelfByValue
    {
        [Transportable] public SelfByValue Me;
    }

    /// <summary>A list class that is not sealed: the compiled list loop checks every link's class.</summary>
    public class OpenNode
    {
        [Transportable] public int V;
        [Transportable] public OpenNode Next;
    }

    public sealed class OpenNodeDerived : OpenNode
    {
    }

    /// <summary>No parameterless constructor and a readonly link: the read loop makes and links it anyway.</summary>
    public sealed class FrozenNode
    {
        public FrozenNode(int v, FrozenNode next)
        {
            V = v;
            Next = next;
        }

        [Transportable] public readonly int V;
        [Transportable] public readonly FrozenNode Next;
    }

    /// <summary>
    /// The bench's list node: numbers and the link, no other reference, so the list loops write
    /// and read it without the writer's identity map and the reader's table.
    /// </summary>
    public sealed class PlainNode
    {
        [Transportable] public int[] Data;
        [Transportable] public PlainNode Next;
    }

    /// <summary>A list and a reference into it, after it (nested: the list is not the first object).</summary>
    public sealed class PlainPair
    {
        [Transportable] public PlainNode List;
        [Transportable] public PlainNode Mark;
    }

    /// <summary>A node with a reference written by recursion (Left) and a tail link (Right).</summary>
    public sealed class Knot
    {
        [Transportable] public int Id;
        [Transportable] public Knot Left;
        [Transportable] public Knot Right;
    }

    /// <summary>An MPI.NET user's class: [Serializable], nothing of oompi's marked.</summary>
    [Serializable]
    public class SerialBase
    {
        private int secret;
        public int Secret { get => secret; set => secret = value; }
    }

    [Serializable]
    public sealed class SerialPoint : SerialBase
    {
        public string Name;
        private double[] coords;
        public int Charge { get; set; }
        [NonSerialized] public int Cache;
        public SerialPoint Partner;
        public double[] Coords { get => coords; set => coords = value; }
    }

    /// <summary>The same fields in the same order, marked [Transportable]: the same bytes.</summary>
    public sealed class MarkedPoint
    {
        [Transportable] public int Secret;
        [Transportable] public string Name;
        [Transportable] public double[] Coords;
        [Transportable] public int Charge;
        [Transportable] public MarkedPoint Partner;
    }

    public class NotSerialBase
    {
        public int Dropped = 5;
    }

    [Serializable]
    public sealed class SerialOnTop : NotSerialBase
    {
        public int Kept;
    }

    [Serializable]
    public sealed class SerialWithObject
    {
        public object Anything;
    }
}
