using System;
using Oompi;

// The NuGet consumer test: built against the Oompi package only (its native library comes
// from the package's runtimes/linux-x64/native/), run under mpirun at 1, 2 and 4 ranks.
public static class Program
{
    public static int Main()
    {
        using var env = new MpiEnvironment();
        var world = Comm.World();
        var sum = new int[1];
        world.Allreduce(new[] { world.Rank + 1 }, sum, Op.Sum);
        int n = world.Size;
        bool ok = sum[0] == n * (n + 1) / 2;
        var next = new double[1];
        world.Sendrecv(new[] { (double)world.Rank }, (world.Rank + 1) % n, 0, next, (world.Rank + n - 1) % n, 0);
        ok &= next[0] == (world.Rank + n - 1) % n;
        var all = new int[1];
        world.Allreduce(new[] { ok ? 0 : 1 }, all, Op.Max);
        if (world.Rank == 0) Console.WriteLine(all[0] == 0 ? "nuget consumer: ok" : "nuget consumer: FAILED");
        return all[0];
    }
}
