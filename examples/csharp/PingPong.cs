using System;
using Oompi;

namespace Examples
{
    /// <summary>
    /// Ping-pong between ranks 0 and 1 with a byte array (pinned with `fixed` per call); prints
    /// the one-way latency. A sanity figure, not a benchmark (see bench/).
    /// </summary>
    public static class PingPong
    {
        public static int Run(string[] args)
        {
            int iters = args.Length > 0 ? int.Parse(args[0]) : 20000;
            int bytes = args.Length > 1 ? int.Parse(args[1]) : 8;
            using var env = new MpiEnvironment();
            var world = Comm.World();
            int rank = world.Rank;
            if (world.Size < 2)
            {
                Console.WriteLine("ping-pong needs 2 ranks; nothing to do");
                return 0;
            }
            var buf = new byte[bytes];
            double best = double.MaxValue;
            for (int round = 0; round < 5; round++)
            {
                world.Barrier();
                double t0 = MpiEnvironment.Wtime();
                for (int i = 0; i < iters; i++)
                {
                    if (rank == 0)
                    {
                        world.Send(buf, 1, 0);
                        world.Recv(buf, 1, 0);
                    }
                    else if (rank == 1)
                    {
                        world.Recv(buf, 0, 0);
                        world.Send(buf, 0, 0);
                    }
                }
                best = Math.Min(best, (MpiEnvironment.Wtime() - t0) / iters / 2);
            }
            if (rank == 0) Console.WriteLine($"csharp array {bytes} B: {best * 1e6:F3} us one way (best of 5 x {iters})");
            return 0;
        }
    }
}
