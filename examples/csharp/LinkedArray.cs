using System;
using System.Linq;
using Oompi;

namespace Examples
{
    /// <summary>
    /// Seed 004 (Motor), Figs. 4-5: a linked list of LinkedArray elements travels with OSend /
    /// ORecv. Only the [Transportable] fields travel: the array and next; next2 arrives null.
    /// 4 KiB of payload spread over the list, as in the paper's benchmark. Rank 0 sends the list
    /// to every other rank (at one rank: to itself, nonblocking), and also a part of an array of
    /// lists (Fig. 4's OSend with offset and count). Every receiver checks what arrived.
    /// </summary>
    public static class LinkedArrayExample
    {
        // Fig. 5
        [Transportable]
        public class LinkedArray
        {
            [Transportable] public int[] array;
            [Transportable] public LinkedArray next;
            public LinkedArray next2;
        }

        private static LinkedArray Build(int elements, int first)
        {
            LinkedArray head = null;
            int perElement = 4096 / sizeof(int) / elements;
            for (int e = elements - 1; e >= 0; e--)
                head = new LinkedArray
                {
                    array = Enumerable.Range(first + e * perElement, perElement).ToArray(),
                    next = head,
                    next2 = head,  // not transported
                };
            return head;
        }

        private static void Check(LinkedArray head, int elements, int first)
        {
            int perElement = 4096 / sizeof(int) / elements, e = 0;
            for (var p = head; p != null; p = p.next, e++)
            {
                if (!p.array.SequenceEqual(Enumerable.Range(first + e * perElement, perElement)))
                    throw new Exception($"element {e}: wrong array");
                if (p.next2 != null) throw new Exception($"element {e}: next2 travelled");
            }
            if (e != elements) throw new Exception($"{e} elements instead of {elements}");
        }

        public static int Run()
        {
            using var session = new MpiEnvironment();
            Comm world = Comm.World();
            int rank = world.Rank, size = world.Size;
            const int elements = 16;
            try
            {
                // Fig. 4: void OSend(object obj, int dest, int tag); object ORecv(int source, int tag, Status status)
                if (rank == 0)
                {
                    var list = Build(elements, 0);
                    var lists = new[] { Build(2, 100), Build(4, 200), Build(8, 300) };
                    for (int dest = 1; dest < size; dest++)
                    {
                        world.OSend(list, dest, 1);
                        world.OSend(lists, 1, 2, dest, 2);  // lists[1..2]: offset 1, count 2
                    }
                    if (size == 1)
                    {
                        using var req = world.IOSend(list, 0, 1);
                        Check(world.ORecv<LinkedArray>(0, 1), elements, 0);
                        req.Wait();
                    }
                }
                else
                {
                    LinkedArray got = world.ORecv<LinkedArray>(0, 1, out Status status);
                    Check(got, elements, 0);
                    LinkedArray[] part = world.ORecv<LinkedArray[]>(0, 2);
                    if (part.Length != 2) throw new Exception($"{part.Length} lists instead of 2");
                    Check(part[0], 4, 200);
                    Check(part[1], 8, 300);
                    Console.WriteLine($"rank {rank}: a list of {elements} LinkedArrays ({status.CountBytes} bytes) " +
                                      "and 2 of an array of 3 lists arrived; next2 stayed behind");
                }
            }
            catch (Exception e)
            {
                Console.Error.WriteLine($"rank {rank}: linked_array FAILED: {e.Message}");
                MpiEnvironment.Abort(1);
            }
            if (rank == 0) Console.WriteLine($"linked_array: ok on {size} ranks");
            return 0;
        }
    }
}
