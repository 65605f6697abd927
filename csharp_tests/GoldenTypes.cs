using System.Collections.Generic;

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

        private static bool Same(int[] a, params int[] b) => System.Linq.Enumerable.SequenceEqual(a, b);
    }
}
