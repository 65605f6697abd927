using System;
using System.Collections.Generic;
using System.Linq;
using MPI;
using Xunit;

namespace MpiNetTests
{
    public class RequestTests
    {
        static Intracommunicator W => Communicator.world;
        static int Next => (W.Rank + 1) % W.Size;
        static int Prev => (W.Rank + W.Size - 1) % W.Size;

        [Fact]
        public void ImmediateReceiveOfValuesArraysAndObjects()
        {
            var list = new RequestList();
            ReceiveRequest ri = W.ImmediateReceive<int>(Prev, 50);
            ReceiveRequest rs = W.ImmediateReceive<string>(Prev, 51);
            var into = new double[4];
            ReceiveRequest ra = W.ImmediateReceive(Prev, 52, into);
            int seen = -1;
            ReceiveRequest rc = W.ImmediateReceive<int>(Prev, 53, v => seen = v);
            list.Add(W.ImmediateSend(W.Rank, Next, 50));
            list.Add(W.ImmediateSend("r" + W.Rank, Next, 51));
            list.Add(W.ImmediateSend(new[] { 1.0, 2.0, 3.0 }, Next, 52));
            list.Add(W.ImmediateSend(W.Rank + 100, Next, 53));
            list.Add(ri);
            list.Add(rs);
            list.Add(ra);
            list.Add(rc);
            Assert.Equal(8, list.Count);
            var done = list.WaitAll();
            Assert.Equal(8, done.Count);
            Assert.Equal(0, list.Count);
            Assert.Equal(Prev, (int)ri.GetValue());
            Assert.Equal("r" + Prev, (string)rs.GetValue());
            Assert.Same(into, ra.GetValue());
            Assert.Equal(new[] { 1.0, 2.0, 3.0, 0 }, into);
            Assert.Equal(3, ra.Wait().Count());
            Assert.Equal(Prev + 100, seen);
        }

        [Fact]
        public void TestAndWaitAnySome()
        {
            var recvs = new RequestList();
            for (int t = 0; t < 3; t++) recvs.Add(W.ImmediateReceive<long>(Prev, 60 + t));
            Assert.Null(recvs.TestAll());  // nothing sent yet
            W.Barrier();
            var sends = Enumerable.Range(0, 3).Select(t => W.ImmediateSend((long)t, Next, 60 + t)).ToList();
            var first = recvs.WaitAny();
            Assert.NotNull(first);
            Assert.Equal(2, recvs.Count);
            var some = recvs.WaitSome();
            Assert.NotEmpty(some);
            while (recvs.Count > 0) recvs.WaitAny();
            foreach (var s in sends)
            {
                Assert.NotNull(s.Wait());
                Assert.NotNull(s.Test());  // completed: the same status again
            }
            Assert.Throws<ArgumentException>(() => recvs.WaitAny());
            Assert.Throws<ArgumentException>(() => recvs.WaitSome());
            Assert.Null(recvs.TestSome());
            Assert.Empty(recvs.TestAll());
            Assert.Throws<ArgumentNullException>(() => recvs.Add(null));
        }

        [Fact]
        public void CancelAPendingReceive()
        {
            var r = W.ImmediateReceive<int>(Prev, 70);
            r.Cancel();
            var st = r.Wait();
            Assert.True(st.Cancelled);
            // An object receive that has not matched a message: it stops probing, completes as cancelled.
            var o = W.ImmediateReceive<string>(Prev, 71);
            o.Cancel();
            Assert.True(o.Test().Cancelled);
            Assert.True(o.Wait().Cancelled);
            Assert.Null(o.GetValue());
            W.Barrier();
        }

        [Fact]
        public void ObjectArrayReceivedIntoTheGivenArray()
        {
            var into = new string[3];
            var r = W.ImmediateReceive(Prev, 73, into);
            var s = W.ImmediateSend(new[] { "a", W.Rank.ToString() }, Next, 73);
            Assert.Equal(2, r.Wait().Count());
            s.Wait();
            Assert.Same(into, r.GetValue());
            Assert.Equal(new[] { "a", Prev.ToString(), null }, into);
            var small = new string[1];
            var r2 = W.ImmediateReceive(Prev, 74, small);
            var s2 = W.ImmediateSend(new[] { "a", "b" }, Next, 74);
            Assert.Throws<MessageTruncatedException>(() => r2.Wait());
            s2.Wait();
        }

        [Fact]
        public void ReceiveTruncatedInARequest()
        {
            // At 1 rank Open MPI completes a truncated Irecv from the process itself with success,
            // the truncated length and no MPI_ERR_TRUNCATE in the status: nothing to see here.
            if (W.Size == 1) return;
            var small = new int[1];
            var r = W.ImmediateReceive(Prev, 72, small);
            var s = W.ImmediateSend(new[] { 1, 2, 3 }, Next, 72);
            Assert.Throws<MessageTruncatedException>(() => r.Wait());
            s.Wait();
        }
    }
}
