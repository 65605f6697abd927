using System;
using System.Collections.Generic;
using MPI;
using Xunit;

namespace MpiNetTests
{
    // How values that are not plain data travel (swig/csharp/MPI/Objects.cs).
    public class ObjectTests
    {
        static Intracommunicator W => Communicator.world;
        static int Next => (W.Rank + 1) % W.Size;
        static int Prev => (W.Rank + W.Size - 1) % W.Size;

        [Fact]
        public void SerializableClassTravelsByItsPublicMembers()
        {
            var a = new Particle { Name = "p" + W.Rank, Position = new[] { 1.0, W.Rank }, Charge = -W.Rank };
            a.Tags.Add(W.Rank);
            a.Partner = new Particle { Name = "partner" };
            a.Partner.Partner = a;  // a cycle survives
            var r = W.ImmediateSend(a, Next, 80);
            var b = W.Receive<Particle>(Prev, 80);
            r.Wait();
            Assert.Equal("p" + Prev, b.Name);
            Assert.Equal(new[] { 1.0, Prev }, b.Position);
            Assert.Equal(new List<int> { Prev }, b.Tags);
            Assert.Equal(-Prev, b.Charge);
            Assert.Same(b, b.Partner.Partner);
            // Collectives too.
            var all = W.Allgather(a);
            Assert.Equal(W.Size, all.Length);
            Assert.Equal("p0", all[0].Name);
            var best = W.Allreduce(a, (x, y) => x.Charge <= y.Charge ? x : y);
            Assert.Equal(-(W.Size - 1), best.Charge);
        }

        [Fact]
        public void TransportableClassTravelsOnTheWire()
        {
            var list = new Node { Value = W.Rank, Label = "head", Next = new Node { Value = 7, Label = "tail" } };
            var r = W.ImmediateSend(list, Next, 81);
            var got = W.Receive<Node>(Prev, 81);
            r.Wait();
            Assert.Equal(Prev, got.Value);
            Assert.Equal("tail", got.Next.Label);
            Assert.Null(got.Next.Next);
            Node root = W.Rank == 0 ? list : null;
            W.Broadcast(ref root, 0);
            Assert.Equal(0, root.Value);
        }

        [Fact]
        public void ContainersTravel()
        {
            var d = new Dictionary<string, int[]> { ["r"] = new[] { W.Rank } };
            var r = W.ImmediateSend(d, Next, 82);
            var got = W.Receive<Dictionary<string, int[]>>(Prev, 82);
            r.Wait();
            Assert.Equal(new[] { Prev }, got["r"]);
        }

        [Fact]
        public void TypeThatCannotTravelIsRefusedBeforeSending()
        {
            var e = Assert.Throws<ArgumentException>(() => W.Send(new Sealed(3), Next, 83));
            Assert.Contains("Sealed", e.Message);
            Assert.Throws<ArgumentException>(() => W.ImmediateSend(new Sealed(3), Next, 83));
            Assert.Throws<ArgumentException>(() => W.Send<object>(new object(), Next, 83));
            Assert.Throws<ArgumentException>(() => W.Send<Action>(() => { }, Next, 83));
            W.Barrier();
            Assert.Null(W.ImmediateProbe(Communicator.anySource, 83));  // nothing was sent
        }

        [Fact]
        public void WrongTypeOnReceiveIsASerializationError()
        {
            var r = W.ImmediateSend("not a particle", Next, 84);
            Assert.ThrowsAny<Exception>(() => W.Receive<Particle>(Prev, 84));
            r.Wait();
        }
    }
}
