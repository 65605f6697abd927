using System;
using Oompi;

namespace Examples
{
    /// <summary>
    /// A token goes round the ring, each rank adding its rank; then every rank passes an array to
    /// its right neighbour with nonblocking calls (the arrays are pinned by the requests).
    /// </summary>
    public static class Ring
    {
        public static int Run()
        {
            using var env = new MpiEnvironment();
            var world = Comm.World();
            int rank = world.Rank, size = world.Size;
            int next = (rank + 1) % size, prev = (rank + size - 1) % size;

            var token = new long[1];
            if (rank == 0)
            {
                // Send and receive in one call: on one rank the token goes to rank 0 itself, and
                // a blocking send with no receive posted may wait for ever (MPICH's does).
                var back = new long[1];
                world.Sendrecv(token, next, 0, back, prev, 0);
                long expected = (long)size * (size - 1) / 2;
                Console.WriteLine($"token came back with {back[0]} (expected {expected})");
                if (back[0] != expected) MpiEnvironment.Abort(1);
            }
            else
            {
                world.Recv(token, prev, 0);
                token[0] += rank;
                world.Send(token, next, 0);
            }

            var output = new[] { rank, rank + 0.1, rank + 0.2 };
            var input = new double[3];
            using (Request r = world.Irecv(input, prev, 1))
            using (Request s = world.Isend(output, next, 1))
            {
                r.Wait();
                s.Wait();
            }
            for (int i = 0; i < 3; i++)
            {
                if (input[i] != prev + i / 10.0)
                {
                    Console.Error.WriteLine($"rank {rank}: wrong value {input[i]} at {i}");
                    MpiEnvironment.Abort(1);
                }
            }
            return 0;
        }
    }
}
