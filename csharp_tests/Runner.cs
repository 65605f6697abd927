using System.Reflection;

namespace Oompi.Tests
{
    /// <summary>
    /// Runs every [Fact] of this assembly under mpirun: MPI is initialised once, every rank
    /// runs the same tests in the same (name) order, and after each test the ranks agree on its
    /// verdict (TestSupport.Agree): a failure on any rank fails the test on every rank, and a
    /// failed rank whose peers are stuck in a collective it skipped aborts the job after
    /// OOMPI_TEST_GRACE seconds (default 10). Exit code 1 on every rank if anything failed.
    /// Optional arguments: substrings of the test names to run; "-substring" leaves tests out.
    /// <c>OompiTests.dll graph_peer</c> runs the C# side of the MPMD test with
    /// tests/interop/graph_peer.cpp instead (GraphPeer.cs), <c>OompiTests.dll coll_peer</c> that of
    /// csharp.interop_collectives with tests/interop/coll_peer.cpp (CollPeer.cs),
    /// <c>OompiTests.dll python_peer</c> rank 0 of python.interop_csharp (PythonPeer.cs),
    /// <c>OompiTests.dll dynamic_child</c> a process spawned by DynamicTests.
    /// </summary>
    public static class Runner
    {
        public static int Main(string[] args)
        {
            if (args.Length > 0 && args[0] == "graph_peer") return GraphPeer.Run();
            if (args.Length > 0 && args[0] == "coll_peer") return CollPeer.Run();
            if (args.Length > 0 && args[0] == "python_peer") return PythonPeer.Run();
            if (args.Length > 0 && args[0] == "dynamic_child") return DynamicChild.Run();
            using var env = new MpiEnvironment(ThreadLevel.Multiple);
            int rank = Comm.World().Rank;
            double grace = double.TryParse(Environment.GetEnvironmentVariable("OOMPI_TEST_GRACE"),
                out var g) ? g : 10.0;

            var tests = typeof(Runner).Assembly.GetTypes()
                .SelectMany(t => t.GetMethods().Select(m => (type: t, method: m)))
                .Where(x => x.method.GetCustomAttribute<FactAttribute>() is { Skip: null })
                .Select(x => (x.type, x.method, name: $"{x.type.Name}.{x.method.Name}"))
                .Where(x => !args.Any(a => a.StartsWith('-') && x.name.Contains(a[1..])))
                .Where(x => !args.Any(a => !a.StartsWith('-')) ||
                            args.Any(a => !a.StartsWith('-') && x.name.Contains(a)))
                .OrderBy(x => x.name, StringComparer.Ordinal)
                .ToList();

            bool verbose = Environment.GetEnvironmentVariable("OOMPI_TEST_VERBOSE") == "1";
            int passed = 0, failed = 0;
            foreach (var (type, method, name) in tests)
            {
                if (verbose) Console.Error.WriteLine($"rank {rank}: {name}");
                Exception error = Run(type, method);
                // Printed before agreeing: a rank whose peers hang aborts the job in Agree.
                if (error != null) Console.Error.WriteLine($"rank {rank}: FAILED {name}: {error}");
                bool failedAnywhere = TestSupport.Agree(error != null, grace, name);
                if (error != null)
                {
                    failed++;
                }
                else if (failedAnywhere)
                {
                    failed++;
                    Console.Error.WriteLine($"rank {rank}: FAILED {name}: failed on another rank");
                }
                else
                {
                    passed++;
                }
            }
            bool anyFailed = TestSupport.Agree(failed > 0, grace, "test run");
            if (rank == 0)
            {
                Console.WriteLine($"{passed} passed, {failed} failed");
            }
            return anyFailed ? 1 : 0;
        }

        private static Exception Run(Type type, MethodInfo method)
        {
            object instance = null;
            try
            {
                instance = method.IsStatic ? null : Activator.CreateInstance(type);
                method.Invoke(instance, null);
                return null;
            }
            catch (TargetInvocationException e)
            {
                return e.InnerException ?? e;
            }
            catch (Exception e)
            {
                return e;
            }
            finally
            {
                (instance as IDisposable)?.Dispose();
            }
        }
    }
}
