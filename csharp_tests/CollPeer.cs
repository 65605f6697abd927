using System.Reflection;
using static Oompi.Tests.PeerSupport;

namespace Oompi.Tests
{
    /// <summary>
    /// The C# side of csharp.interop_collectives (tests/interop/coll_peer.cpp says what is
    /// exchanged, step by step): object collectives between a C++ rank 0 and these ranks
    /// 1 .. p - 1, on the same private communicator, with the same framing, split
    /// representation, reduction tree, large path and failure reports.
    ///
    ///     mpirun -np 1 coll_peer --large-path : -np N-1 dotnet OompiTests.dll coll_peer
    ///
    /// Any mismatch aborts the job, so every rank's exit code says it.
    /// </summary>
    public static class CollPeer
    {
        /// <summary>A type with no [Transportable] field: it cannot travel.</summary>
        public sealed class NotTransportable
        {
            public int X;
        }

        /// <summary>The exception of the picky reduction function (steps 14 and 15).</summary>
        public sealed class PickyException : Exception
        {
            public PickyException(string m) : base(m) { }
        }

        // x_r of step 8 and its fold Cat(a, b) = {a.Data ++ b.Data, Other = itself, Next = b}
        private static ListNode Leaf(int r)
        {
            var x = new ListNode(r);
            x.Other = x;
            return x;
        }

        private static ListNode Cat(ListNode a, ListNode b)
        {
            var c = new ListNode(a.Data.Concat(b.Data).ToArray()) { Next = b };
            c.Other = c;
            return c;
        }

        private static void CheckReduced(ListNode got, int p, string what)
        {
            Check(got is not null && got.Data.SequenceEqual(Enumerable.Range(0, p)), $"{what}: data in rank order");
            Check(ReferenceEquals(got.Other, got), $"{what}: Other is the node itself");
            Check(got.Next is not null && got.Next.Data[^1] == p - 1 && ReferenceEquals(got.Next.Other, got.Next),
                  $"{what}: Next is the last right operand");
        }

        public static int Run() => RunPeer("coll_peer", Run);

        private static void CheckGathered(ListNode[] all, int p, string what)
        {
            int k = 0;
            for (int r = 0; r < p; r++)
                for (int i = 0; i < r + 2; i++, k++)
                {
                    Check(k < all.Length && all[k].Data.SequenceEqual(new[] { 100 * r + i }), $"{what}: element {k}");
                    Check(all[k].Other is not null && ReferenceEquals(all[k].Other, all[k - i].Other) &&
                          all[k].Other.Data[0] == -r, $"{what}: sharing within a slice");
                }
            Check(k == all.Length, $"{what}: size {all.Length}");
            Check(!ReferenceEquals(all[0].Other, all[2].Other), $"{what}: slices share nothing");
        }

        private static void InStep(Comm world, int n)
        {
            var x = world.OBcast<ListNode>(null, 0);
            Check(x is not null && x.Data.SequenceEqual(new[] { 1000 + n }), $"in step after {n} (from 0)");
            var mine = new ListNode(2000 + n);
            var y = world.OBcast(world.Rank == world.Size - 1 ? mine : null, world.Size - 1);
            Check(y is not null && y.Data.SequenceEqual(new[] { 2000 + n }), $"in step after {n} (from L)");
        }

        private static void Round(Comm world, string pass)
        {
            int p = world.Size, me = world.Rank, last = p - 1;

            // 1. obcast from 0: the golden graph
            var a = world.OBcast<ListNode>(null, 0);
            Check(Golden.CheckGraph(a) is null, pass + "obcast: " + Golden.CheckGraph(a));

            // 2. obcast from L: a chain of 100
            ListNode head = null;
            if (me == last)
            {
                head = new ListNode(0);
                head.Other = head;
                var tail = head;
                for (int i = 1; i < 100; i++)
                {
                    tail.Next = new ListNode(i) { Other = head };
                    tail = tail.Next;
                }
            }
            var got = world.OBcast(head, last);
            if (me == last) Check(ReferenceEquals(got, head), pass + "obcast at the root returns its object");
            int n = 0;
            for (var q = got; q is not null; q = q.Next, n++)
                Check(q.Data.SequenceEqual(new[] { n }) && ReferenceEquals(q.Other, got), $"{pass}chain node {n}");
            Check(n == 100, $"{pass}chain length {n}");

            // 3. oscatter from 0: 2 of 2p + 1
            var mine = world.OScatter<ListNode>(null, 0);
            int first = 3 + 2 * (me - 1);
            Check(mine.Length == 2 && mine[0].Data[0] == 10 + first && mine[1].Data[0] == 11 + first,
                  $"{pass}oscatter: slice of {mine.Length}");
            Check(ReferenceEquals(mine[0].Other, mine[1].Other) && mine[0].Other.Data[0] == -1, pass + "oscatter: sharing");

            // 4. ogather to 0 and to L, 5. oallgather: r + 2 nodes sharing one Other
            var own = new ListNode(-me);
            var contrib = Enumerable.Range(0, me + 2).Select(i => new ListNode(100 * me + i) { Other = own }).ToArray();
            Check(world.OGather(contrib, 0).Length == 0, pass + "ogather to 0: empty off the root");
            var atLast = world.OGather(contrib, last);
            if (me == last) CheckGathered(atLast, p, pass + "ogather to L");
            else Check(atLast.Length == 0, pass + "ogather to L: empty off the root");
            CheckGathered(world.OAllgather(contrib), p, pass + "oallgather");

            // 6. oscatterv from L, counts[i] = i + 1 (0 for L)
            ListNode[] all = null;
            int[] counts = null;
            if (me == last)
            {
                counts = Enumerable.Range(0, p).Select(i => i == last ? 0 : i + 1).ToArray();
                all = Enumerable.Range(0, counts.Sum()).Select(k => new ListNode(77 + k)).ToArray();
            }
            var back = world.OScatterv(all, counts, last);
            if (me == last)
            {
                Check(back.Length == 0, pass + "oscatterv: nothing for the root");
            }
            else
            {
                int start = me * (me + 1) / 2;
                Check(back.Length == me + 1 && back.Select(x => x.Data[0]).SequenceEqual(Enumerable.Range(77 + start, me + 1)),
                      $"{pass}oscatterv: slice of {back.Length}");
            }

            // 7. oalltoall: a cycle per pair, then strings
            var outgoing = new ListNode[p];
            for (int i = 0; i < p; i++)
            {
                var x = new ListNode(me, i);
                var y = new ListNode(i, me) { Next = x, Other = x };
                x.Next = y;
                x.Other = x;
                outgoing[i] = x;
            }
            var incoming = world.OAlltoall(outgoing);
            Check(incoming.Length == p, pass + "oalltoall: size");
            for (int r = 0; r < p; r++)
            {
                var x = incoming[r];
                string what = $"{pass}oalltoall: from rank {r}";
                Check(x is not null && x.Data.SequenceEqual(new[] { r, me }) && ReferenceEquals(x.Other, x), what + ": first node");
                Check(x.Next is not null && x.Next.Data.SequenceEqual(new[] { me, r }) && ReferenceEquals(x.Next.Next, x) &&
                      ReferenceEquals(x.Next.Other, x), what + ": cycle and sharing");
            }
            var heard = world.OAlltoall(Enumerable.Range(0, p).Select(i => $"{me}>{i}").ToArray());
            Check(heard.SequenceEqual(Enumerable.Range(0, p).Select(r => $"{r}>{me}")), pass + "oalltoall of strings");

            // 8. OReduce / OAllreduce in rank order
            string want = string.Concat(Enumerable.Range(0, p).Select(r => $"{r};"));
            Func<string, string, string> concat = (x, y) => x + y;
            Check(world.OReduce($"{me};", concat, 0) is null, pass + "oreduce of strings to 0: null off the root");
            var atL = world.OReduce($"{me};", concat, last);
            Check(me == last ? atL == want : atL is null, $"{pass}oreduce of strings to L: {atL}");
            Check(world.OAllreduce($"{me};", concat) == want, pass + "oallreduce of strings");
            Check(world.OReduce(Leaf(me), Cat, 0) is null, pass + "oreduce of nodes to 0: null off the root");
            var reduced = world.OReduce(Leaf(me), Cat, last);
            if (me == last) CheckReduced(reduced, p, pass + "oreduce of nodes to L");
            else Check(reduced is null, pass + "oreduce of nodes to L: null off the root");
            CheckReduced(world.OAllreduce(Leaf(me), Cat), p, pass + "oallreduce of nodes");
        }

        private static void Run(Comm world)
        {
            int p = world.Size, me = world.Rank, last = p - 1;
            Check(p >= 2 && me >= 1, "run as ranks 1 .. p - 1, after the C++ rank");

            Round(world, "");
            var limit = typeof(Comm).GetField("ObjectIntLimit", BindingFlags.Static | BindingFlags.NonPublic);
            Check(limit is not null, "Comm.ObjectIntLimit");
            limit.SetValue(null, 64L);  // C++ lowers object_int_limit to 64 too
            Round(world, "large path: ");
            limit.SetValue(null, (long)int.MaxValue);

            // 9. bad counts at the C++ root
            ExpectThrow<ArgumentException>("oscatterv, bad counts at 0", () => world.OScatterv<ListNode>(null, null, 0));
            InStep(world, 9);
            // 10. bad counts at a C# root (they do not add up)
            ExpectThrow<ArgumentException>("oscatterv, bad counts at L",
                () => world.OScatterv(me == last ? new[] { new ListNode(1) } : null, me == last ? new int[p] : null, last));
            InStep(world, 10);
            // 11. rank L cannot serialize a null by-value ShapeClass
            var shapes = me == last ? new ShapeClass[] { null } : new[] { new ShapeClass { Name = "ok" } };
            ExpectThrow<SerializationException>("ogather, rank L cannot serialize", () => world.OGather(shapes, 0));
            InStep(world, 11);
            // 12. C++ broadcasts a shape; these ranks ask for a type that cannot travel
            ExpectThrow<ArgumentException>("obcast as a type that cannot travel", () => world.OBcast<NotTransportable>(null, 0));
            InStep(world, 12);
            // 13. OAlltoall, one object too many at L
            ExpectThrow<ArgumentException>("oalltoall, wrong length at L",
                () => world.OAlltoall(Enumerable.Repeat("x", me == last ? p + 1 : p).ToArray()));
            InStep(world, 13);
            // 14. OAllreduce, the function throws on rank T = L & (L - 1) when L's data comes in
            int thrower = last & (last - 1);
            Func<ListNode, ListNode, ListNode> picky = (x, y) =>
                y.Data[^1] == last ? throw new PickyException("picky: rank L's data") : Cat(x, y);
            if (me == thrower) ExpectThrow<PickyException>("oallreduce, the function throws here", () => world.OAllreduce(Leaf(me), picky));
            else ExpectThrow<SerializationException>("oallreduce, the function throws on T", () => world.OAllreduce(Leaf(me), picky));
            InStep(world, 14);
            // 15. OReduce to L, the same: T throws its own, L a SerializationException, the others null
            if (me == thrower) ExpectThrow<PickyException>("oreduce to L, the function throws here", () => world.OReduce(Leaf(me), picky, last));
            else if (me == last) ExpectThrow<SerializationException>("oreduce to L, the function throws on T", () => world.OReduce(Leaf(me), picky, last));
            else Check(world.OReduce(Leaf(me), picky, last) is null, "oreduce to L: null off the root");
            InStep(world, 15);
            if (me == last) Console.WriteLine("coll_peer (C#): ok");
        }
    }
}
