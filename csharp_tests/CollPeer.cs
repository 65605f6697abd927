using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

namespace Oompi.Tests
{
    /// <summary>
    /// The C# side of csharp.interop_collectives (csharp_tests/interop/coll_peer_cs.cpp says
    /// what is exchanged): object collectives between a C++ rank 0 and these ranks 1 .. p - 1,
    /// on the same private communicator, with the same framing, split representation, large
    /// path and failure reports.
    ///
    ///     mpirun -np 1 csharp_coll_peer : -np N-1 dotnet OompiTests.dll coll_peer
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

        public static int Run()
        {
            using var env = new MpiEnvironment(ThreadLevel.Multiple);
            var world = Comm.World();
            try
            {
                Run(world);
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"coll_peer (C#, rank {world.Rank}): FAILED: {e}");
                Console.Error.Flush();
                MpiEnvironment.Abort(1);
            }
            if (world.Rank == world.Size - 1) Console.WriteLine("coll_peer (C#): ok");
            return 0;
        }

        private static void Check(bool ok, string what)
        {
            if (!ok) throw new Exception(what);
        }

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

        private static void ExpectThrow<E>(string what, Action f) where E : Exception
        {
            try
            {
                f();
            }
            catch (E)
            {
                return;
            }
            catch (Exception e)
            {
                throw new Exception($"{what}: expected {typeof(E).Name}, got {e}");
            }
            throw new Exception($"{what}: did not throw");
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

            // 7. bad counts at the C++ root
            ExpectThrow<ArgumentException>("oscatterv, bad counts at 0", () => world.OScatterv<ListNode>(null, null, 0));
            InStep(world, 7);
            // 8. bad counts at a C# root (they do not add up)
            ExpectThrow<ArgumentException>("oscatterv, bad counts at L",
                () => world.OScatterv(me == last ? new[] { new ListNode(1) } : null, me == last ? new int[p] : null, last));
            InStep(world, 8);
            // 9. rank L cannot serialize a null by-value ShapeClass
            var shapes = me == last ? new ShapeClass[] { null } : new[] { new ShapeClass { Name = "ok" } };
            ExpectThrow<SerializationException>("ogather, rank L cannot serialize", () => world.OGather(shapes, 0));
            InStep(world, 9);
            // 10. C++ broadcasts a shape; these ranks ask for a type that cannot travel
            ExpectThrow<ArgumentException>("obcast as a type that cannot travel", () => world.OBcast<NotTransportable>(null, 0));
            InStep(world, 10);
        }
    }
}
