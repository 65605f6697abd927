using System;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    public class TopologyTests
    {
        static Intracommunicator W => Communicator.world;

        [Fact]
        public void CartesianGrid()
        {
            int[] dims = { 0, 0 };
            CartesianCommunicator.ComputeDimensions(W.Size, 2, ref dims);
            Assert.Equal(W.Size, dims[0] * dims[1]);
            using var cc = new CartesianCommunicator(W, 2, dims, new[] { true, false }, false);
            Assert.Equal(dims, cc.Dimensions);
            Assert.Equal(new[] { true, false }, cc.Periodic);
            var me = cc.Coordinates;
            Assert.Equal(me, cc.GetCartesianCoordinates(cc.Rank));
            Assert.Equal(cc.Rank, cc.GetCartesianRank(me));
            cc.Shift(0, 1, out int source, out int dest);
            var got = new int[2];
            var r = cc.ImmediateSend(me, dest, 0);
            cc.Receive(source, 0, ref got);
            r.Wait();
            Assert.Equal((got[0] + 1) % dims[0], me[0]);
            cc.Shift(1, 1, out int s1, out int d1);
            if (me[1] == dims[1] - 1) Assert.Equal(Communicator.procNull, d1);  // not periodic
            int edges = dims[0] - 1 + 1;  // periodic along 0
            edges = edges * dims[1] + (dims[1] - 1) * dims[0];
            Assert.Equal(edges, cc.NumEdges);
            Assert.All(cc.Neighbors, n => Assert.InRange(n, 0, W.Size - 1));
            using var row = cc.Subgrid(new[] { 1, 0 });
            Assert.Single(row.Dimensions);
            Assert.Equal(dims[0], row.Size);
            Assert.Throws<ArgumentException>(() => new CartesianCommunicator(W, 2, new[] { 1 }, new[] { true, true }, false));
            Assert.ThrowsAny<ArgumentException>(() => cc.GetCartesianRank(new[] { dims[0] + 5, dims[1] + 5 }));
        }

        [Fact]
        public void Graph()
        {
            int p = W.Size;
            var edges = Enumerable.Range(0, p).Select(i => new[] { (i + 1) % p, (i + p - 1) % p }).ToArray();
            using var gc = new GraphCommunicator(W, edges, false);
            Assert.Equal(2 * p, gc.NumEdges);
            Assert.Equal(edges, gc.Edges);
            Assert.Equal(edges[gc.Rank], gc.Neighbors);
            Assert.Equal(edges[(gc.Rank + 1) % p], gc.NeighborsOf((gc.Rank + 1) % p));
            Assert.Equal(p, gc.Allreduce(1, Operation<int>.Add));
            Assert.Throws<ArgumentNullException>(() => new GraphCommunicator(W, new int[][] { null }, false));
        }

        [Fact]
        public void Attributes()
        {
            var none = MPI.Attribute.Create<int>(AttributeDuplication.None);
            var shallow = MPI.Attribute.Create<int[]>(AttributeDuplication.Shallow);
            var deep = MPI.Attribute.Create<Point>(AttributeDuplication.Deep);
            using var parent = (Intracommunicator)W.Clone();
            parent.Attributes[none] = 17;
            var shared = new[] { 1 };
            parent.Attributes[shallow] = shared;
            parent.Attributes[deep] = new Point(1, 2);
            Assert.Equal(17, (int)parent.Attributes[none]);
            using var child = (Intracommunicator)parent.Clone();
            Assert.Null(child.Attributes[none]);
            Assert.Same(shared, child.Attributes[shallow]);
            Assert.Equal(2, ((Point)child.Attributes[deep]).y);
            parent.Attributes[deep] = new Point(5, 6);
            Assert.Equal(2, ((Point)child.Attributes[deep]).y);
            parent.Attributes.Remove(shallow);
            Assert.Null(parent.Attributes[shallow]);
            Assert.Same(shared, child.Attributes[shallow]);
            Assert.Throws<ArgumentException>(() => parent.Attributes[none] = "not an int");
        }
    }
}
