using static Oompi.Tests.PeerSupport;

namespace Oompi.Tests
{
    /// <summary>
    /// The C# side of the MPMD test with tests/interop/graph_peer.cpp (rank 0, C++):
    ///
    ///     mpirun -np 1 graph_peer : -np 1 dotnet OompiTests.dll graph_peer
    ///
    /// Receives the golden shape (tag 1, by value: a C# struct) and graph (tag 2, a reference) in
    /// wire format v1, checks them, sends back the shape with id + 1 and name + "!" (tag 3), the
    /// graph with its data times 10 (tag 4) and a chain of 1000 nodes whose Other is the head
    /// (tag 5). Any mismatch aborts the job, so every rank's exit code says it.
    /// </summary>
    public static class GraphPeer
    {
        public static int Run() => RunPeer("graph_peer", Exchange);

        private static void Exchange(Comm world)
        {
            Check(world.Size == 2 && world.Rank == 1, "run as rank 1 of 2, after graph_peer");
            var shape = world.ORecv<Shape>(0, 1);
            var want = Golden.Shape();
            Check(shape.Name == want.Name && shape.Id == want.Id && shape.Closed && shape.Origin.Equals(want.Origin) &&
                  shape.Corners.SequenceEqual(want.Corners) && shape.Tags.SequenceEqual(want.Tags) &&
                  shape.Scale == want.Scale && shape.Layer == want.Layer && shape.Depth == want.Depth,
                  $"shape: got {shape.Name} {shape.Id}");
            var a = world.ORecv<ListNode>(0, 2);
            Check(Golden.CheckGraph(a) is null, "graph: " + Golden.CheckGraph(a));

            shape.Id += 1;
            shape.Name += "!";
            world.OSend(shape, 0, 3);
            foreach (var n in new[] { a, a.Next, a.Other }) n.Data = n.Data.Select(x => x * 10).ToArray();
            world.OSend(a, 0, 4);

            var head = new ListNode(0);
            head.Other = head;
            var tail = head;
            for (int i = 1; i < 1000; i++)
            {
                tail.Next = new ListNode(i) { Other = head };
                tail = tail.Next;
            }
            world.OSend(head, 0, 5);

            // 300 nodes, data [i, -i], the last linking back to node 100 (tag 6)
            var ring = new ChainNode[300];
            for (int i = 0; i < ring.Length; i++)
            {
                ring[i] = new ChainNode(i, -i);
                if (i > 0) ring[i - 1].Next = ring[i];
            }
            ring[299].Next = ring[100];
            world.OSend(ring[0], 0, 6);

            // a compact chain from C++ (tag 7): 300 nodes, data [i, 2i], closing on node 7
            var seen = new List<ChainNode>();
            for (var p = world.ORecv<ChainNode>(0, 7); p != null && seen.Count <= 300; p = p.Next) seen.Add(p);
            Check(seen.Count == 301, "compact chain: not 300 nodes and a cycle");
            for (int i = 0; i < 300; i++)
                Check(seen[i].Data.Length == 2 && seen[i].Data[0] == i && seen[i].Data[1] == 2 * i,
                      $"compact chain: data of node {i}");
            Check(ReferenceEquals(seen[300], seen[7]), "compact chain: the last node does not link back to node 7");
            Console.WriteLine("graph_peer (C#): ok");
        }
    }
}
