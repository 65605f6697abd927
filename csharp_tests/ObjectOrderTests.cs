using System.Threading;

namespace Oompi.Tests
{
    /// <summary>
    /// Issue 25: object receives match in posting order (IORecv for the same source and tag take
    /// their messages in the order posted, whatever order they are waited on; wildcards, a
    /// blocking ORecv after pending ones, a disposed earlier one, two threads), and the wire
    /// decoder allocates by what a message can hold (a crafted nest of arrays, each level
    /// claiming every byte left, allocated with the square of its size: measured with the
    /// thread's allocated bytes). Each rank receives from its left neighbour.
    /// </summary>
    public class ObjectOrderTests : WorldTests
    {
        private int To => Next;
        private int From => Prev;
        private readonly List<Request> sends = new List<Request>();

        private void Send(string text, int tag) => sends.Add(world.IOSend($"{tag}:{text}@{Rank}", To, tag));
        private string Expected(string text, int tag) => $"{tag}:{text}@{From}";

        private void Drain()
        {
            foreach (var r in sends) { r.Wait(); r.Dispose(); }
            sends.Clear();
            world.Barrier();
        }

        [Fact]
        public void SameTagWaitedInReverse()
        {
            var reqs = new List<ObjectRequest<string>>();
            for (int i = 0; i < 4; i++) reqs.Add(world.IORecv<string>(From, 5));
            for (int i = 0; i < 4; i++) Send(i.ToString(), 5);
            var got = new string[4];
            for (int i = 3; i >= 0; i--) got[i] = reqs[i].Wait();
            for (int i = 0; i < 4; i++) Assert.Equal(Expected(i.ToString(), 5), got[i]);
            Drain();
        }

        [Fact]
        public void PollsOfTheNewestFirst()
        {
            var a = world.IORecv<string>(From, 6);
            var b = world.IORecv<string>(From, 6);
            var c = world.IORecv<string>(From, 6);
            world.Barrier();
            Assert.False(c.Test());
            world.Barrier();
            Send("a", 6);
            Send("b", 6);
            Send("c", 6);
            while (!c.Test()) Thread.SpinWait(10);
            while (!b.Test()) Thread.SpinWait(10);
            Assert.Equal(Expected("a", 6), a.Wait());
            Assert.Equal(Expected("b", 6), b.Wait());
            Assert.Equal(Expected("c", 6), c.Wait());
            Drain();
        }

        [Fact]
        public void WildcardsGoToTheOldestMatching()
        {
            var a = world.IORecv<string>(Mpi.AnySource, 7);
            var b = world.IORecv<string>(From, Mpi.AnyTag);
            var c = world.IORecv<string>(From, 7);
            var d = world.IORecv<string>(Mpi.AnySource, Mpi.AnyTag);
            Send("m1", 7);
            Send("m2", 8);
            Send("m3", 7);
            Send("m4", 9);
            Assert.Equal(Expected("m4", 9), d.Wait());
            Assert.Equal(9, d.Status.Tag);
            Assert.Equal(Expected("m3", 7), c.Wait());
            Assert.Equal(Expected("m2", 8), b.Wait());
            Assert.Equal(Expected("m1", 7), a.Wait());
            Drain();
        }

        [Fact]
        public void BlockingORecvAndDispose()
        {
            var a = world.IORecv<string>(From, 10);
            Send("first", 10);
            Send("second", 10);
            Assert.Equal(Expected("second", 10), world.ORecv<string>(From, 10));
            Assert.Equal(Expected("first", 10), a.Wait());

            var dropped = world.IORecv<string>(From, 11);
            var b = world.IORecv<string>(From, 11);
            dropped.Dispose();  // before any message came: withdrawn
            Send("x", 11);
            Send("y", 11);
            Assert.Equal(Expected("x", 11), b.Wait());
            Assert.Equal(Expected("y", 11), world.ORecv<string>(From, 11));
            Drain();
        }

        [Fact]
        public void TwoThreads()
        {
            for (int round = 0; round < 10; round++)
            {
                var a = world.IORecv<string>(From, 14);
                var b = world.IORecv<string>(From, 14);
                string ga = null, gb = null;
                var tb = new Thread(() => gb = b.Wait());
                var ta = new Thread(() => ga = a.Wait());
                tb.Start();
                ta.Start();
                Send("a" + round, 14);
                Send("b" + round, 14);
                ta.Join();
                tb.Join();
                Assert.Equal(Expected("a" + round, 14), ga);
                Assert.Equal(Expected("b" + round, 14), gb);
            }
            Drain();
        }

        /// <summary>A reference to a new object (ids in order) whose first field, an array or list
        /// of references, claims as many elements as the bytes left can hold (4 bytes each), its
        /// first element the next level.</summary>
        private static byte[] ClaimingAll(int length)
        {
            var b = new byte[length];
            uint id = 1;
            for (int at = 0; at + 12 <= length; at += 12, id++)
            {
                BitConverter.TryWriteBytes(new Span<byte>(b, at, 4), 0x80000000u | id);
                BitConverter.TryWriteBytes(new Span<byte>(b, at + 4, 8), (ulong)((length - at - 12) / 4));
            }
            return b;
        }

        private static long AllocatedBy(Action a)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            a();
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }

        [Fact]
        public void CraftedNestingAllocatesLinearly()
        {
            foreach (int length in new[] { 16384, 65536 })
            {
                byte[] m = ClaimingAll(length);
                long bytes = AllocatedBy(() => Assert.Throws<SerializationException>(() => Wire.Deserialize<NestArray>(m)));
                Assert.True(bytes <= 16L * length + (4 << 20), $"allocated {bytes} bytes for a message of {length}");
                bytes = AllocatedBy(() => Assert.Throws<SerializationException>(() => Wire.Deserialize<NestList>(m)));
                Assert.True(bytes <= 16L * length + (4 << 20), $"allocated {bytes} bytes for a message of {length} (lists)");
            }
            var n = new NestArray { Kids = new[] { new NestArray { Kids = new NestArray[0], Name = "a" }, new NestArray { Kids = new[] { new NestArray { Kids = new NestArray[0], Name = "deep" } }, Name = "b" } }, Name = "root" };
            var back = Wire.Deserialize<NestArray>(Wire.Serialize(n));
            Assert.Equal("deep", back.Kids[1].Kids[0].Name);

            byte[] crafted = ClaimingAll(65536);
            using var r = world.Isend(crafted, To, 41);
            long got = AllocatedBy(() => Assert.Throws<SerializationException>(() => world.ORecv<NestArray>(From, 41)));
            r.Wait();
            Assert.True(got <= 16L * 65536 + (4 << 20), $"allocated {got} bytes");
            world.Barrier();
        }
    }
}
