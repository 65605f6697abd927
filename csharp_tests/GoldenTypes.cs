namespace Oompi.Tests
{
    // The types of the golden files (tests/golden/README.md, tests/interop/golden_types.hpp).

    public struct Point
    {
        [Transportable] public double X;
        [Transportable] public double Y;
        public Point(double x, double y) { X = x; Y = y; }
    }

    /// <summary>shape as a struct: travels by value.</summary>
    public struct Shape
    {
        [Transportable] public string Name;
        [Transportable] public long Id;
        [Transportable] public bool Closed;
        [Transportable] public Point Origin;
        [Transportable] public Point[] Corners;
        [Transportable] public int[] Tags;
        [Transportable] public float Scale;
        [Transportable] public byte Layer;
        [Transportable] public short Depth;
    }

    /// <summary>shape as a class that travels by value, with Lists and properties.</summary>
    [Transportable(ByValue = true)]
    public class ShapeClass
    {
        [field: Transportable] public string Name { get; set; } = "";
        [field: Transportable] public long Id { get; set; }
        [field: Transportable] public bool Closed { get; set; }
        [field: Transportable] public Point Origin { get; set; }
        [field: Transportable] public List<Point> Corners { get; set; } = new();
        [field: Transportable] public List<int> Tags { get; set; } = new();
        [field: Transportable] public float Scale { get; set; }
        [field: Transportable] public byte Layer { get; set; }
        [field: Transportable] public short Depth { get; set; }
        public string NotSent = "default";
    }

    /// <summary>A list whose nodes hold no other reference (C++ reads it without identity tables).</summary>
    public sealed class ChainNode
    {
        [Transportable] public int[] Data = System.Array.Empty<int>();
        [Transportable] public ChainNode Next;

        public ChainNode() { }
        public ChainNode(params int[] data) { Data = data; }
    }

    /// <summary>chain_item of compact_chain.bin: a chain type (docs/wire-format.md 2.1).</summary>
    public sealed class ChainItem
    {
        [Transportable] public string Name;
        [Transportable] public long Id;
        [Transportable] public bool Flag;
        [Transportable] public double Weight;
        [Transportable] public int[] Data;
        [Transportable] public ChainItem Next;
    }

    public sealed class ListNode
    {
        [Transportable] public int[] Data = System.Array.Empty<int>();
        [Transportable] public ListNode Other;
        [Transportable] public ListNode Next;
        public ListNode Next2;  // not transported (Motor's next2)

        public ListNode() { }
        public ListNode(params int[] data) { Data = data; }
    }

    public static class Golden
    {
        public static readonly string Dir =
            System.Environment.GetEnvironmentVariable("OOMPI_GOLDEN_DIR") ?? "tests/golden";

        public static byte[] Bytes(string name) => System.IO.File.ReadAllBytes(System.IO.Path.Combine(Dir, name));

        public static Shape Shape() => new Shape
        {
            Name = "triangle", Id = -1234567890123, Closed = true, Origin = new Point(0.5, -1.25),
            Corners = new[] { new Point(0, 0), new Point(4, 0), new Point(0, 3) },
            Tags = new[] { 7, 11 }, Scale = 2.5f, Layer = 200, Depth = -300,
        };

        public static ShapeClass ShapeClass() => new ShapeClass
        {
            Name = "triangle", Id = -1234567890123, Closed = true, Origin = new Point(0.5, -1.25),
            Corners = new() { new Point(0, 0), new Point(4, 0), new Point(0, 3) },
            Tags = new() { 7, 11 }, Scale = 2.5f, Layer = 200, Depth = -300,
        };

        /// <summary>a{[1,2], other c, next b}, b{[3], other c, next c}, c{[], other null, next a}</summary>
        public static ListNode Graph(int scale = 1)
        {
            var a = new ListNode(1 * scale, 2 * scale);
            var b = new ListNode(3 * scale);
            var c = new ListNode();
            a.Other = c; a.Next = b;
            b.Other = c; b.Next = c;
            c.Next = a;
            return a;
        }

        /// <summary>Checks the golden graph's shape: data, sharing and the cycle.</summary>
        public static string CheckGraph(ListNode a, int scale = 1)
        {
            if (a?.Next is null || a.Other is null) return "a, a.Next, a.Other";
            var b = a.Next;
            var c = a.Other;
            if (!Same(a.Data, 1 * scale, 2 * scale) || !Same(b.Data, 3 * scale) || c.Data.Length != 0) return "data";
            if (!ReferenceEquals(b.Other, c) || !ReferenceEquals(b.Next, c) || !ReferenceEquals(c.Next, a) || c.Other != null)
                return "sharing or cycle lost";
            return null;
        }

        /// <summary>compact_chain.bin: 1 -> 2 -> 3 -> back to 2.</summary>
        public static ChainItem Chain()
        {
            var a = new ChainItem { Name = "first", Id = -5, Flag = true, Weight = 0.5, Data = new[] { 1, 2, 3 } };
            var b = new ChainItem { Name = "", Id = 1L << 40, Flag = false, Weight = -2.25, Data = Enumerable.Range(0, 200).ToArray() };
            var c = new ChainItem { Name = "drei \u2713", Id = 7, Flag = true, Weight = 1e300, Data = System.Array.Empty<int>() };
            a.Next = b; b.Next = c; c.Next = b;
            return a;
        }

        /// <summary>Checks every field of the golden chain and that node 3 links back to node 2.</summary>
        public static string CheckChain(ChainItem a)
        {
            var b = a?.Next;
            var c = b?.Next;
            if (c is null) return "fewer than 3 nodes";
            if (a.Name != "first" || a.Id != -5 || !a.Flag || a.Weight != 0.5 || !Same(a.Data, 1, 2, 3)) return "node 1";
            if (b.Name != "" || b.Id != 1L << 40 || b.Flag || b.Weight != -2.25 || !Same(b.Data, Enumerable.Range(0, 200).ToArray())) return "node 2";
            if (c.Name != "drei \u2713" || c.Id != 7 || !c.Flag || c.Weight != 1e300 || c.Data.Length != 0) return "node 3";
            return ReferenceEquals(c.Next, b) ? null : "node 3 does not link back to node 2";
        }

        private static bool Same(int[] a, params int[] b) => Enumerable.SequenceEqual(a, b);
    }
}
