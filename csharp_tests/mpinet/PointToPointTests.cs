using System;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    // Ring exchanges (to rank+1, from rank-1): they work at 1 rank too (a process sends to itself
    // with a nonblocking send first).
    public class PointToPointTests
    {
        static Intracommunicator W => Communicator.world;
        static int Next => (W.Rank + 1) % W.Size;
        static int Prev => (W.Rank + W.Size - 1) % W.Size;

        static T Ring<T>(T value, int tag)
        {
            var r = W.ImmediateSend(value, Next, tag);
            T got = W.Receive<T>(Prev, tag);
            r.Wait();
            return got;
        }

        [Fact]
        public void ValuesOfEveryKind()
        {
            Assert.Equal(Prev * 10, Ring(W.Rank * 10, 1));
            Assert.Equal(Prev + 0.5, Ring(W.Rank + 0.5, 2));
            Assert.Equal(Prev % 2 == 0, Ring(W.Rank % 2 == 0, 3));
            Assert.Equal('a' + Prev, Ring((char)('a' + W.Rank), 4));
            var p = Ring(new Point(W.Rank, -W.Rank), 5);
            Assert.Equal(Prev, p.x);
            Assert.Equal(-Prev, p.y);
            Assert.Equal($"rank {Prev}", Ring($"rank {W.Rank}", 6));
            Assert.True(string.IsNullOrEmpty(Ring<string>(null, 7)));  // the wire sends null as ""
        }

        [Fact]
        public void BlockingSendAndReceiveForms()
        {
            if (W.Size < 2) return;  // a blocking Send to oneself may wait for its own Receive
            int tag = 10;
            if (W.Rank == 0)
            {
                W.Send(42, 1, tag);
                W.Send(new[] { 1.5, 2.5, 3.5 }, 1, tag);
                W.Send("hello", 1, tag);
                W.Send(new[] { "a", "bc" }, 1, tag);
                W.Send(new Point(3, 4), 1, tag);
            }
            else if (W.Rank == 1)
            {
                W.Receive(0, tag, out int i, out CompletedStatus s);
                Assert.Equal(42, i);
                Assert.Equal(0, s.Source);
                Assert.Equal(tag, s.Tag);
                Assert.Equal(1, s.Count());
                var d = new double[5];
                W.Receive(0, Communicator.anyTag, ref d, out s);
                Assert.Equal(3, s.Count());
                Assert.Equal(new[] { 1.5, 2.5, 3.5, 0, 0 }, d);
                Assert.Equal("hello", W.Receive<string>(Communicator.anySource, tag));
                string[] strs = null;
                W.Receive(0, tag, ref strs);
                Assert.Equal(new[] { "a", "bc" }, strs);
                Assert.Equal(4, W.Receive<Point>(0, tag).y);
            }
        }

        [Fact]
        public void NullArrayIsSizedFromTheMessage()
        {
            var r = W.ImmediateSend(Enumerable.Range(0, 7).ToArray(), Next, 20);
            int[] got = null;
            W.Receive(Prev, 20, ref got, out var s);
            r.Wait();
            Assert.Equal(Enumerable.Range(0, 7).ToArray(), got);
            Assert.Equal(7, s.Count());
        }

        [Fact]
        public void TruncationIsMessageTruncatedException()
        {
            var r = W.ImmediateSend(new long[] { 1, 2, 3, 4 }, Next, 21);
            var small = new long[2];
            var e = Assert.Throws<MessageTruncatedException>(() => W.Receive(Prev, 21, ref small));
            Assert.IsAssignableFrom<MPIException>(e);
            Assert.True(e.ErrorClass > 0);
            r.Wait();
            // A single value where an array was sent: truncated too.
            var r2 = W.ImmediateSend(new[] { 1, 2 }, Next, 22);
            Assert.Throws<MessageTruncatedException>(() => W.Receive<int>(Prev, 22));
            r2.Wait();
        }

        [Fact]
        public void BadArguments()
        {
            Assert.Throws<ArgumentNullException>(() => W.Send((int[])null, Next, 1));
            var e = Assert.ThrowsAny<ArgumentException>(() => W.Send(1, W.Size + 5, 1));
            Assert.Equal("rank", e.ParamName);
            Assert.ThrowsAny<ArgumentException>(() => W.Send(1, Next, -5));
        }

        [Fact]
        public void SendReceive()
        {
            W.SendReceive(W.Rank, Next, 30, Prev, 30, out int got);
            Assert.Equal(Prev, got);
            W.SendReceive($"s{W.Rank}", Next, 31, Prev, 31, out string s, out var st);
            Assert.Equal($"s{Prev}", s);
            Assert.Equal(Prev, st.Source);
            var outs = new int[3];
            W.SendReceive(new[] { W.Rank, 1, 2 }, Next, 32, Prev, 32, ref outs);
            Assert.Equal(new[] { Prev, 1, 2 }, outs);
            string[] so = null;
            W.SendReceive(new[] { "x", W.Rank.ToString() }, Next, 33, Prev, 33, ref so);
            Assert.Equal(new[] { "x", Prev.ToString() }, so);
        }

        [Fact]
        public void ProbeAndImmediateProbe()
        {
            Assert.Null(W.ImmediateProbe(Communicator.anySource, 4040));  // a tag nobody sends
            var r = W.ImmediateSend(new[] { 1.0, 2.0 }, Next, 40);
            var st = W.Probe(Prev, 40);
            Assert.Equal(Prev, st.Source);
            Assert.Equal(2, st.Count(typeof(double)));
            Assert.Equal(16, st.Count(typeof(byte)));
            Assert.Null(st.Count(typeof(string)));
            Status again = null;
            while (again is null) again = W.ImmediateProbe(Prev, 40);
            Assert.Equal(40, again.Tag);
            W.Receive<double>(Prev, 40, ref Unused);
            r.Wait();
        }
        static double[] Unused = new double[2];
    }
}
