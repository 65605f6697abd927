namespace Oompi.Tests
{
    /// <summary>
    /// The base of the test classes that run over the world communicator: this rank, the number
    /// of ranks, and the ring's neighbours (Next sends to, Prev receives from; at one rank both
    /// are the rank itself). A new instance per test, as before (the runner creates one).
    /// </summary>
    public abstract class WorldTests
    {
        protected readonly Comm world = Comm.World();
        protected int Rank => world.Rank;
        protected int Size => world.Size;
        protected int Next => (Rank + 1) % Size;
        protected int Prev => (Rank + Size - 1) % Size;
    }
}
