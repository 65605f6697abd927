using System;
using System.Linq;
using System.Reflection;
using System.Threading;
using MPI;
using Xunit;

namespace MpiNetTests
{
    /// <summary>
    /// <c>MpiNetTests.dll seed002_fig3 | seed002_fig4</c> runs one of seed 002's programs;
    /// <c>MpiNetTests.dll conformance [name...] [-name...]</c> runs every [Fact] here (or those
    /// whose name holds a given part, without those holding a "-" part) under one
    /// MPI.Environment, in name order on every rank; after each test the ranks agree on its
    /// verdict (an Allreduce through namespace MPI), and a test that takes longer than
    /// OOMPI_TEST_WATCHDOG seconds (default 60) aborts the job instead of hanging it.
    /// Rank 0 prints "N passed, N failed"; exit code 1 on every rank if anything failed.
    /// </summary>
    public static class Runner
    {
        public static int Main(string[] args)
        {
            string what = args.Length > 0 ? args[0] : "conformance";
            if (what == "seed002_fig3") return Fig3.LowlevelRoundRobin.Main(args[1..]);
            if (what == "seed002_fig4")
            {
                Fig4.HighlevelRoundRobin.Main();
                return 0;
            }
            if (what == "spawn_child") return SpawnTests.Child(args[1..]);
            if (what == "environment") return EnvironmentLifecycle.Main(args[1..]);
            if (what != "conformance")
            {
                Console.Error.WriteLine($"MpiNetTests: unknown program {what}");
                return 2;
            }
            var rest = args[1..];
            using (new MPI.Environment(ref rest, Threading.Multiple))
            {
                var world = Communicator.world;
                double limit = double.TryParse(System.Environment.GetEnvironmentVariable("OOMPI_TEST_WATCHDOG"), out var l) ? l : 60;
                var tests = typeof(Runner).Assembly.GetTypes()
                    .SelectMany(t => t.GetMethods().Select(m => (t, m)))
                    .Where(x => x.m.GetCustomAttribute<FactAttribute>() is not null)
                    .Select(x => (x.t, x.m, name: $"{x.t.Name}.{x.m.Name}"))
                    // Arguments name tests to run (a part of the name); "-Name" leaves tests out.
                    .Where(x => !rest.Where(a => a.StartsWith('-')).Any(a => x.name.Contains(a[1..])))
                    .Where(x => !rest.Any(a => !a.StartsWith('-')) || rest.Any(a => !a.StartsWith('-') && x.name.Contains(a)))
                    .OrderBy(x => x.name, StringComparer.Ordinal).ToList();
                int passed = 0, failed = 0;
                foreach (var (type, method, name) in tests)
                {
                    Exception error = null;
                    using (new Timer(_ =>
                    {
                        Console.Error.WriteLine($"rank {world.Rank}: {name} still running after {limit} s: aborting the job");
                        MPI.Environment.Abort(3);
                    }, null, TimeSpan.FromSeconds(limit), Timeout.InfiniteTimeSpan))
                    {
                        try
                        {
                            object self = method.IsStatic ? null : Activator.CreateInstance(type);
                            method.Invoke(self, null);
                        }
                        catch (TargetInvocationException e) { error = e.InnerException; }
                        catch (Exception e) { error = e; }
                    }
                    if (error is not null) Console.Error.WriteLine($"rank {world.Rank}: FAILED {name}: {error}");
                    bool any = world.Allreduce(error is not null, Operation<bool>.LogicalOr);
                    if (any) failed++; else passed++;
                    if (any && error is null) Console.Error.WriteLine($"rank {world.Rank}: FAILED {name}: failed on another rank");
                }
                if (world.Rank == 0) Console.WriteLine($"{passed} passed, {failed} failed");
                return failed > 0 ? 1 : 0;
            }
        }
    }
}
