using System;
using Oompi;

namespace Examples
{
    public static class Hello
    {
        public static int Run()
        {
            using var env = new MpiEnvironment();
            var world = Comm.World();
            Console.WriteLine($"hello from rank {world.Rank} of {world.Size} on {MpiEnvironment.ProcessorName()}");
            var total = new int[1];
            world.Allreduce(new[] { 1 }, total, Op.Sum);
            if (total[0] != world.Size)
            {
                Console.Error.WriteLine($"wrong count {total[0]}");
                MpiEnvironment.Abort(1);
            }
            return 0;
        }
    }
}
