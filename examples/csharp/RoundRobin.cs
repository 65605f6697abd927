using System;
using Oompi;

namespace Examples
{
    /// <summary>
    /// Seed 002's "Hello, world" and round-robin programs: Fig. 3 (the low-level bindings: the
    /// user pinned the array and passed length and datatype) and Fig. 4 (MPI.NET: typed buffers
    /// and ports). Here both are the same few lines: arrays are pinned by the library, count and
    /// datatype come from the array, and ports are the communicator's indexer.
    /// </summary>
    public static class RoundRobin
    {
        public static int Run(bool lowLevel)
        {
            using var session = new MpiEnvironment();
            Comm cw = Comm.World();
            int rank = cw.Rank, size = cw.Size;
            const int messageLength = 10;
            Console.WriteLine($"Hello, I am {rank} of {size}");
            var data = new double[messageLength];
            if (rank == 0)
                for (int i = 0; i < messageLength; ++i) data[i] = i;
            if (size == 1)
            {
                // The ring of one: to itself and back in one call. A blocking send with no
                // receive posted may wait for ever (MPICH's does).
                cw.Sendrecv((double[])data.Clone(), 0, 100, data, 0, 100);
            }
            else if (lowLevel)  // Fig. 3: explicit destination, source and tag
            {
                if (rank == 0) cw.Send(MpiBuffer.Of(data, 0, messageLength), (rank + 1) % size, 100);
                cw.Recv(MpiBuffer.Of(data, 0, messageLength), (rank + size - 1) % size, 100);
                if (rank != 0) cw.Send(MpiBuffer.Of(data, 0, messageLength), (rank + 1) % size, 100);
            }
            else  // Fig. 4: ports
            {
                Port dest = cw[(rank + 1) % size];
                Port src = cw[(rank + size - 1) % size];
                if (rank == 0) dest.Send(data);
                src.Recv(data);
                if (rank != 0) dest.Send(data);
            }
            for (int i = 0; i < messageLength; ++i)
                if (data[i] != i)
                {
                    Console.Error.WriteLine($"rank {rank}: data[{i}] = {data[i]}");
                    return 1;
                }
            return 0;
        }
    }
}
