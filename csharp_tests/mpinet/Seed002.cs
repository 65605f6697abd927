// Seed 002's two round-robin programs (Willcock, Lumsdaine, Robison 2002), word for word, run
// against namespace MPI (swig/csharp/MPI/Seed002.cs holds the paper's names). The wrapping is
// the least that makes them compile: the usings they assume, and the names they were written
// against — Fig. 3's class MPI of the CLI bindings, Fig. 4's namespace MPINET, the paper's name
// of what became MPI.NET — bound to ours.
using System;
using System.Runtime.InteropServices;

namespace MpiNetTests.Fig3
{
    using MPI = global::MPI.Cli.MPI;

    // --- Figure 3: CLI bindings C# example program (verbatim) ---
class LowlevelRoundRobin {
    public static int Main(string[] args) {
        MPI.Init();
        MPI.Comm cw = MPI.COMM_WORLD;
        uint rank = cw.Get_rank();
        uint size = cw.Get_size();
        uint messageLength = 10;
        Console.WriteLine("Hello, I am {0} of {1}",
            rank, size);
        double[] data = new double[messageLength];
        GCHandle dataHandle = GCHandle.Alloc(data,
            GCHandleType.Pinned);
        IntPtr dataPtr =
            dataHandle.AddrOfPinnedObject();
        if (rank == 0)
            for (int i = 0; i < messageLength; ++i)
                data[i] = i;
        if (rank == 0)
            cw.Send(dataPtr, messageLength, MPI.
                DOUBLE, (rank+1) % size, 100);
        cw.Recv(dataPtr, messageLength, MPI.
            DOUBLE, (rank+size-1) % size,
            100, MPI.STATUS_IGNORE);
        if (rank != 0)
            cw.Send(dataPtr, messageLength, MPI.
                DOUBLE, (rank+1) % size, 100);
        dataHandle.Free();
        MPI.Finalize();
        return 0;
    }
}
}

namespace MpiNetTests.Fig4
{
    using MPINET = global::MPI;

    // --- Figure 4: MPI.NET C# example program (verbatim) ---
class HighlevelRoundRobin {
    public static void Main() {
        using (MPINET.Session session =
            new MPINET.Session()) {
            MPINET.Communicator cw =
                MPINET.Communicator.World;
            int rank = cw.Rank;
            int size = cw.Size;
            uint messageLength = 10;
            Console.WriteLine("Hello, I am {0}/{1}",
                rank, size);
            double[] data =
                new double[messageLength];
            MPINET.ArrayTypedBuffer dataBuffer =
                new MPINET.ArrayTypedBuffer(data);
            if (rank == 0)
                for (int i = 0; i < messageLength; ++i)
                    data[i] = i;
            MPINET.Port dest = cw[(rank+1) % size];
            MPINET.Port src = cw[(rank+size-1)%size];
            if (rank == 0)
                dest.Send(dataBuffer);
            src.Recv(dataBuffer);
            if (rank != 0)
                dest.Send(dataBuffer);
        } // End of MPI session
    } // End of Main
} // End of HighlevelRoundRobin
}
