using System;
using System.IO;
using System.Linq;
using Oompi;

// packaging.install's C# consumer, built against the installed Oompi .nupkg only (offline): an
// allreduce and a ring sendrecv, and the native library it loaded must come from the package
// (under args[0], the consumer's own directory), not from the build tree.
public static class Program
{
    public static int Main(string[] args)
    {
        using var env = new MpiEnvironment();
        var world = Comm.World();
        int rank = world.Rank, n = world.Size;
        var sum = new int[1];
        world.Allreduce(new[] { rank + 1 }, sum, Op.Sum);
        var got = new long[1];
        world.Sendrecv(new long[] { rank }, (rank + 1) % n, 0, got, (rank + n - 1) % n, 0);
        string lib = File.ReadLines("/proc/self/maps").Where(l => l.EndsWith("/liboompi_csharp.so"))
            .Select(l => l.Substring(l.IndexOf('/'))).FirstOrDefault() ?? "(not mapped)";
        string error = sum[0] != n * (n + 1) / 2 ? $"allreduce gave {sum[0]}"
            : got[0] != (rank + n - 1) % n ? $"sendrecv gave {got[0]}"
            : !lib.StartsWith(Path.GetFullPath(args[0])) ? $"liboompi_csharp.so from {lib}"
            : null;
        if (error != null)
        {
            Console.Error.WriteLine($"rank {rank}: {error}");
            MpiEnvironment.Abort(1);
        }
        if (rank == 0) Console.WriteLine($"csharp consumer: ok, {lib}");
        return 0;
    }
}
