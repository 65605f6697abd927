using System.Runtime.InteropServices;

namespace Oompi.Tests
{
    /// <summary>
    /// An object message with no room for it in the managed heap (csharp.orecv_memory runs with
    /// DOTNET_GCHeapHardLimit=256 MiB): ORecv and IORecv throw OutOfMemoryException and still take
    /// the matched message, so its sender completes and the next message arrives.
    /// </summary>
    public unsafe class MemoryTests
    {
        private readonly Comm world = Comm.World();

        [Fact]
        public void ObjectMessageLargerThanTheHeap()
        {
            if (Environment.GetEnvironmentVariable("DOTNET_GCHeapHardLimit") is null) return;
            int next = (world.Rank + 1) % world.Size, prev = (world.Rank + world.Size - 1) % world.Size;
            const long n = 400L << 20;
            byte* p = (byte*)NativeMemory.AllocZeroed((nuint)n);
            try
            {
                using (var send = world.Isend(MpiBuffer.Of(p, n), next, 5))
                {
                    Assert.Throws<OutOfMemoryException>(() => world.ORecv<byte[]>(prev, 5));
                    send.Wait();  // waited forever when the matched message was left behind
                }
                using (var send = world.Isend(MpiBuffer.Of(p, n), next, 6))
                {
                    using (var recv = world.IORecv<byte[]>(prev, 6))
                        Assert.Throws<OutOfMemoryException>(() => recv.Wait());
                    send.Wait();
                }
                // Sent without blocking: at 1 rank to this process itself, and a blocking send may
                // wait until its receive is posted (MPICH 4.0's send to oneself does).
                using (var send = world.IOSend(new[] { 1, 2 }, next, 7))
                {
                    Assert.Equal(new[] { 1, 2 }, world.ORecv<int[]>(prev, 7));
                    send.Wait();
                }
            }
            finally
            {
                NativeMemory.Free(p);
            }
        }
    }
}
