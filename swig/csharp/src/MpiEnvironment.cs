using System;

namespace Oompi
{
    public partial class MpiEnvironment
    {
        // An exception nobody catches would end this rank while the others wait in their next
        // collective (and CoreCLR does not run `using` blocks' Dispose for it): abort the job.
        static MpiEnvironment()
        {
            AppDomain.CurrentDomain.UnhandledException += (_, e) =>
            {
                if (Initialized() && !Finalized())
                {
                    Console.Error.WriteLine($"oompi: unhandled exception, aborting the MPI job: {e.ExceptionObject}");
                    Console.Error.Flush();
                    Abort(1);
                }
            };
        }
    }
}
