using System;
using Oompi;

// The C# program of the slurm.csharp.* tests (tests/slurm/run.sh), run by the job script
// tests/slurm/jobs/csharp.sbatch: each rank prints its node and checks an allreduce. With the
// argument "fail" the last rank exits with status 3 while the others wait in a barrier that can
// never complete: the launcher must end them.
public static class SlurmJob
{
    public static int Main(string[] args)
    {
        using var env = new MpiEnvironment();
        var world = Comm.World();
        int rank = world.Rank, size = world.Size;
        Console.WriteLine($"rank {rank} of {size} on {MpiEnvironment.ProcessorName()}");
        Console.Out.Flush();
        if (args.Length > 0 && args[0] == "fail")
        {
            if (rank == size - 1)
            {
                Console.Error.WriteLine($"rank {rank}: failing on purpose");
                Environment.Exit(3);
            }
            world.Barrier();  // never completes
        }
        var sum = new int[1];
        world.Allreduce(new[] { rank + 1 }, sum, Op.Sum);
        if (sum[0] != size * (size + 1) / 2)
        {
            Console.Error.WriteLine($"rank {rank}: allreduce gave {sum[0]}");
            return 1;
        }
        Console.WriteLine($"rank {rank}: ok");
        return 0;
    }
}
