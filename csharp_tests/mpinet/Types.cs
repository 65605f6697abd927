using System;
using System.Collections.Generic;
using Oompi;

namespace MpiNetTests
{
    // A plain struct (MPI.NET: sent as an MPI datatype) with the operators Operation<T> uses.
    public struct Point
    {
        public int x;
        public int y;
        public Point(int x, int y) { this.x = x; this.y = y; }
        public static Point Plus(Point a, Point b) => new(a.x + b.x, a.y + b.y);
        public static Point operator +(Point a, Point b) => Plus(a, b);
        public static bool operator <(Point a, Point b) => a.x < b.x || (a.x == b.x && a.y < b.y);
        public static bool operator >(Point a, Point b) => b < a;
    }

    // An MPI.NET user's class: [Serializable], public fields and a property, a reference to
    // another object, a list. Not [Transportable]: it travels as JSON of its public members.
    [Serializable]
    public class Particle
    {
        public string Name;
        public double[] Position;
        public List<int> Tags = new();
        public Particle Partner;
        public int Charge { get; set; }
    }

    // A class oompi's wire takes ([Transportable] fields).
    public class Node
    {
        [Transportable] public int Value;
        [Transportable] public string Label;
        [Transportable] public Node Next;
    }

    // A type nothing can rebuild: no parameterless constructor, no settable members.
    public class Sealed
    {
        private readonly int secret;
        public Sealed(int secret) { this.secret = secret; }
        public int Twice() => 2 * secret;
    }
}
