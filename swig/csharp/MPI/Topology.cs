using System;
using System.Collections.Generic;
using Oompi;

namespace MPI
{
    /// <summary>An intracommunicator with a process topology: its neighbours and edges.</summary>
    public abstract class TopologicalCommunicator : Intracommunicator
    {
        private protected TopologicalCommunicator(Comm comm) : base(comm) { }

        /// <summary>The neighbours of this process.</summary>
        public abstract int[] Neighbors { get; }

        /// <summary>The number of edges of the topology.</summary>
        public abstract int NumEdges { get; }

        /// <summary>The neighbours of process <paramref name="rank"/>.</summary>
        public abstract int[] NeighborsOf(int rank);

        private protected static R Call<R>(Func<R> f)
        {
            try { return f(); }
            catch (MpiException e) { throw Errors.Translate(e); }
        }
    }

    /// <summary>
    /// Processes on a grid (MPI.NET's CartesianCommunicator over oompi's CartComm). A process
    /// left out of a grid smaller than the communicator holds a null communicator: its calls
    /// throw ObjectDisposedException.
    /// </summary>
    public class CartesianCommunicator : TopologicalCommunicator
    {
        private CartComm Cart => (CartComm)comm;

        internal CartesianCommunicator(CartComm comm) : base(comm) { }

        /// <summary>
        /// A grid of <paramref name="dims"/> processes over <paramref name="oldComm"/> (collective):
        /// dimension i wraps around when periods[i]; <paramref name="reorder"/> lets MPI renumber.
        /// </summary>
        public CartesianCommunicator(Intracommunicator oldComm, int ndims, int[] dims, bool[] periods, bool reorder)
            : base(Make(oldComm, ndims, dims, periods, reorder)) { }

        private static CartComm Make(Intracommunicator old, int ndims, int[] dims, bool[] periods, bool reorder)
        {
            if (old is null) throw new ArgumentNullException(nameof(old));
            if (dims is null) throw new ArgumentNullException(nameof(dims));
            if (periods is null) throw new ArgumentNullException(nameof(periods));
            if (dims.Length != ndims || periods.Length != ndims)
                throw new ArgumentException($"MPI: {ndims} dimensions, {dims.Length} sizes and {periods.Length} periods");
            return Call(() => old.comm.CreateCart(dims, Array.ConvertAll(periods, p => p ? 1 : 0), reorder));
        }

        /// <summary>
        /// The rank this process would have in a grid of <paramref name="dims"/> over
        /// <paramref name="oldcomm"/> (MPI_Cart_map; local): <c>Mpi.Undefined</c> (MPI_UNDEFINED)
        /// when the grid leaves it out. Bad dimensions: ArgumentException.
        /// </summary>
        public static int Map(Intracommunicator oldcomm, int ndims, int[] dims, bool[] periods)
        {
            if (oldcomm is null) throw new ArgumentNullException(nameof(oldcomm));
            if (dims is null) throw new ArgumentNullException(nameof(dims));
            if (periods is null) throw new ArgumentNullException(nameof(periods));
            if (dims.Length != ndims || periods.Length != ndims)
                throw new ArgumentException($"MPI: {ndims} dimensions, {dims.Length} sizes and {periods.Length} periods");
            return Call(() => oldcomm.comm.CartMap(dims, Array.ConvertAll(periods, p => p ? 1 : 0)));
        }

        /// <summary>Fills the zero entries of <paramref name="dims"/> with a balanced split of <paramref name="nnodes"/> processes (MPI_Dims_create).</summary>
        public static void ComputeDimensions(int nnodes, int ndims, ref int[] dims)
        {
            if (dims is null) dims = new int[ndims];
            if (dims.Length != ndims) throw new ArgumentException($"MPI: {ndims} dimensions, {dims.Length} sizes", nameof(dims));
            var d = dims;
            dims = Call(() => CartComm.DimsCreate(nnodes, d));
        }

        /// <summary>The size of each dimension.</summary>
        public int[] Dimensions => Call(() => Cart.Dims());
        /// <summary>Whether each dimension wraps around.</summary>
        public bool[] Periodic => Call(() => Array.ConvertAll(Cart.Periods(), p => p != 0));
        /// <summary>This process's coordinates.</summary>
        public int[] Coordinates => Call(() => Cart.Coords());
        /// <summary>The coordinates of process <paramref name="rank"/>.</summary>
        public int[] GetCartesianCoordinates(int rank) => Call(() => Cart.CoordsOf(rank));
        /// <summary>The rank at <paramref name="coords"/>.</summary>
        public int GetCartesianRank(int[] coords) => Call(() => Cart.RankOf(coords));

        /// <summary>The processes <paramref name="disp"/> steps back and forth along <paramref name="direction"/> (MPI_Cart_shift).</summary>
        public void Shift(int direction, int disp, out int source, out int dest)
        {
            using var s = Call(() => Cart.Shift(direction, disp));
            source = s.Source;
            dest = s.Dest;
        }

        /// <summary>The sub-grids keeping the dimensions where remainDims[i] is nonzero (collective).</summary>
        public CartesianCommunicator Subgrid(int[] remainDims) => Call(() => new CartesianCommunicator(Cart.Sub(remainDims)));

        /// <summary>The grid's edges: along each dimension, between neighbours (and around, when periodic).</summary>
        public override int NumEdges
        {
            get
            {
                var dims = Dimensions;
                var periods = Periodic;
                long edges = dims[0] - 1 + (periods[0] ? 1 : 0), nodes = dims[0];
                for (int i = 1; i < dims.Length; i++)
                {
                    long slice = (dims[i] - 1 + (periods[i] ? 1 : 0)) * nodes;
                    nodes *= dims[i];
                    edges = edges * dims[i] + slice;
                }
                return (int)edges;
            }
        }

        /// <summary>This process's neighbours on the grid.</summary>
        public override int[] Neighbors => NeighborsOf(Rank);

        /// <summary>The grid neighbours of process <paramref name="rank"/> (a wrap-around counts only in dimensions longer than 2).</summary>
        public override int[] NeighborsOf(int rank)
        {
            var dims = Dimensions;
            var periods = Periodic;
            var at = GetCartesianCoordinates(rank);
            var result = new List<int>();
            for (int i = 0; i < dims.Length; i++)
            {
                foreach (int step in new[] { -1, 1 })
                {
                    var c = (int[])at.Clone();
                    c[i] += step;
                    if (c[i] < 0 || c[i] >= dims[i])
                    {
                        if (!periods[i] || dims[i] <= 2) continue;
                        c[i] = (c[i] + dims[i]) % dims[i];
                    }
                    result.Add(GetCartesianRank(c));
                }
            }
            return result.ToArray();
        }
    }

    /// <summary>Processes on a graph (MPI.NET's GraphCommunicator over oompi's GraphComm): edges[i] are node i's neighbours.</summary>
    public class GraphCommunicator : TopologicalCommunicator
    {
        private GraphComm Graph => (GraphComm)comm;

        internal GraphCommunicator(GraphComm comm) : base(comm) { }

        /// <summary>The graph whose node i has the neighbours edges[i] (collective; every process passes the whole graph).</summary>
        public GraphCommunicator(Intracommunicator oldComm, int[][] edges, bool reorder) : base(Make(oldComm, edges, reorder)) { }

        private static GraphComm Make(Intracommunicator old, int[][] edges, bool reorder)
        {
            if (old is null) throw new ArgumentNullException(nameof(old));
            var (index, flat) = Flatten(edges);
            return Call(() => old.comm.CreateGraph(index, flat, reorder));
        }

        // MPI's index/edges form of edges[i] = node i's neighbours.
        private static (int[] index, int[] flat) Flatten(int[][] edges)
        {
            if (edges is null) throw new ArgumentNullException(nameof(edges));
            var index = new int[edges.Length];
            var flat = new List<int>();
            for (int i = 0; i < edges.Length; i++)
            {
                flat.AddRange(edges[i] ?? throw new ArgumentNullException(nameof(edges), $"MPI: edges[{i}] is null"));
                index[i] = flat.Count;
            }
            return (index, flat.ToArray());
        }

        /// <summary>
        /// The rank this process would have in the graph <paramref name="edges"/> over
        /// <paramref name="oldcomm"/> (MPI_Graph_map; local): <c>Mpi.Undefined</c> when the
        /// graph leaves it out. A bad graph: ArgumentException.
        /// </summary>
        public static int Map(Intracommunicator oldcomm, int[][] edges)
        {
            if (oldcomm is null) throw new ArgumentNullException(nameof(oldcomm));
            var (index, flat) = Flatten(edges);
            return Call(() => oldcomm.comm.GraphMap(index, flat));
        }

        /// <summary>Every node's neighbours.</summary>
        public int[][] Edges
        {
            get
            {
                var index = Call(() => Graph.Index());
                var flat = Call(() => Graph.Edges());
                var result = new int[index.Length][];
                for (int i = 0, from = 0; i < index.Length; from = index[i++])
                    result[i] = flat[from..index[i]];
                return result;
            }
        }

        /// <summary>The number of edges (each listed adjacency counts once).</summary>
        public override int NumEdges => Call(() => Graph.Nedges());

        /// <summary>This process's neighbours.</summary>
        public override int[] Neighbors => NeighborsOf(Rank);

        /// <summary>The neighbours of process <paramref name="rank"/>.</summary>
        public override int[] NeighborsOf(int rank) => Call(() => Graph.Neighbors(rank));
    }
}
