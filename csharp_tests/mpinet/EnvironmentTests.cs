using System;
using MPI;
using Xunit;

namespace MpiNetTests
{
    public class EnvironmentTests
    {
        [Fact]
        public void StateAndClock()
        {
            Assert.True(MPI.Environment.Initialized);
            Assert.False(MPI.Environment.Finalized);
            Assert.Equal(Threading.Multiple, MPI.Environment.Threading);
            Assert.True(MPI.Environment.IsMainThread);  // MPI.NET's name (it was IsThreadMain here)
            Assert.False(System.Threading.Tasks.Task.Run(() => MPI.Environment.IsMainThread).Result);
            Assert.False(string.IsNullOrEmpty(MPI.Environment.ProcessorName));
            double t0 = MPI.Environment.Time;
            System.Threading.Thread.Sleep(5);
            Assert.True(MPI.Environment.Time - t0 >= 0.004);
            Assert.True(MPI.Environment.TimeResolution > 0);
            Assert.True(MPI.Environment.MaxTag >= 32767);
        }

        [Fact]
        public void NestedEnvironmentIsAccepted()
        {
            // As MPI.NET (its test programs make one inside MPIDebug.Execute's): nothing changes.
            // Not disposed here: that would finalise MPI (csharp.mpinet_api.environment checks it).
            var args = new string[0];
            var nested = new MPI.Environment(ref args, Threading.Single);
            Assert.True(MPI.Environment.Initialized);
            Assert.False(MPI.Environment.Finalized);
            Assert.Equal(Threading.Multiple, MPI.Environment.Threading);
            Communicator.world.Barrier();
            GC.KeepAlive(nested);
        }

        [Fact]
        public void WorldAndSelf()
        {
            var world = Communicator.world;
            Assert.Same(world, Communicator.world);
            Assert.Same(world, Communicator.World);
            Assert.InRange(world.Rank, 0, world.Size - 1);
            Assert.Equal(1, Communicator.self.Size);
            Assert.Equal(0, Communicator.self.Rank);
            Assert.Equal(Comparison.Identical, world.Compare(world));
            if (world.Size > 1) Assert.Equal(Comparison.Unequal, world.Compare(Communicator.self));
            world.Dispose();  // the predefined communicators stay
            Assert.True(world.Size >= 1);
            world.Barrier();
        }
    }
}
