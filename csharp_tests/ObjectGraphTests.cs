using System.Reflection;
using System.Text;
using System.Threading;

namespace Oompi.Tests
{
    // ObjectTests, continued: lists, deep graphs, every kind of field, classes that cannot travel, corrupt input.
    public partial class ObjectTests
    {
        private static ListNode Chain(int n, bool otherIsHead)
        {
            var head = new ListNode(0);
            if (otherIsHead) head.Other = head;
            var tail = head;
            for (int i = 1; i < n; i++)
            {
                tail.Next = new ListNode(i) { Other = otherIsHead ? head : null };
                tail = tail.Next;
            }
            return head;
        }

        [Fact]
        public void LongListsPointToPoint()
        {
            const int n = 100_000;
            var head = Exchange<ListNode>(Chain(n, true), 26);
            int count = 0;
            for (var p = head; p != null; p = p.Next, count++)
            {
                if (p.Data.Length != 1 || p.Data[0] != count) Assert.Fail($"node {count}: data");
                if (!ReferenceEquals(p.Other, head)) Assert.Fail($"node {count}: other is not the head");
            }
            Assert.Equal(n, count);
        }

        [Fact]
        public void MillionNodeListInProcess()
        {
            if (Rank != 0) return;  // one rank is enough (memory and time)
            const int n = 1_000_000;
            byte[] bytes = Wire.Serialize(Chain(n, false));
            Assert.Equal(n * (4L + 8 + 4 + 4) + 4, bytes.Length);  // id, data, other null, + final null
            var head = Wire.Deserialize<ListNode>(bytes);
            int count = 0;
            for (var p = head; p != null; p = p.Next) count++;
            Assert.Equal(n, count);
            // A cycle closing the million-node list.
            var ring = Chain(n, false);
            var last = ring;
            while (last.Next != null) last = last.Next;
            last.Next = ring;
            var back = Wire.Deserialize<ListNode>(Wire.Serialize(ring));
            var q = back;
            for (int i = 0; i < n; i++) q = q.Next;
            Assert.Same(back, q);
        }

        [Fact]
        public void DeepNestingThatIsNotATailLink()
        {
            // The link comes first, so each node nests inside the previous one: recursion, which
            // moves to a thread with a big stack when the caller's stack runs short.
            const int n = 100_000;
            HeadFirst head = null;
            for (int i = n - 1; i >= 0; i--) head = new HeadFirst { Next = head, Value = i };
            byte[] bytes = Wire.Serialize(head);
            Assert.Equal(n * 8 + 4, bytes.Length);
            var got = Exchange<HeadFirst>(head, 27);
            int count = 0;
            for (var p = got; p != null; p = p.Next, count++)
                if (p.Value != count) Assert.Fail($"node {count}");
            Assert.Equal(n, count);
        }

        // n knots: Right links them in a ring (0, 1, ..., n-1, back to 0), Left of knot i is knot
        // i / 2 (shared, written before it); made between short-lived arrays, so that the first
        // compacting collection moves them.
        private static Knot Knots(int n)
        {
            var k = new Knot[n];
            for (int i = 0; i < n; i++)
            {
                k[i] = new Knot { Id = i };
                GC.KeepAlive(new byte[40 + i % 64]);
            }
            for (int i = 0; i < n; i++)
            {
                k[i].Left = k[i / 2];
                k[i].Right = k[(i + 1) % n];
            }
            return k[0];
        }

        /// <summary>
        /// Calls <paramref name="message"/>(round) with compacting collections running on
        /// another thread: at least 8 rounds, and on until a message was written again because
        /// of one (Wire's count of rewrites; at most 200 rounds), which must have happened.
        /// </summary>
        private static void WhileCollecting(Action<int> message)
        {
            var counter = typeof(Wire).GetField("rewrites", BindingFlags.NonPublic | BindingFlags.Static)
                ?? throw new MissingFieldException("Oompi.Wire.rewrites (the count of messages written again)");
            long before = (long)counter.GetValue(null);
            int stop = 0;
            var collector = new Thread(() =>
            {
                // A collection every millisecond or so, not back to back: a message of 50,000
                // knots takes several, and a thread collecting without pause left the writer
                // almost no time on a loaded machine (MPICH's waiting rank spins on a core:
                // mpich.csharp.objects.np2 ran past its timeout).
                while (Volatile.Read(ref stop) == 0)
                {
                    GC.Collect(2, GCCollectionMode.Forced, blocking: true, compacting: true);
                    Thread.Sleep(1);
                }
            });
            collector.Start();
            int rounds = 0;
            try
            {
                for (; rounds < 8 || ((long)counter.GetValue(null) == before && rounds < 200); rounds++) message(rounds);
            }
            finally
            {
                Volatile.Write(ref stop, 1);
                collector.Join();
            }
            Assert.True((long)counter.GetValue(null) > before, $"no message of {rounds} met a collection while written");
        }

        [Fact]
        public void IdentitySurvivesCollectionsWhileWriting()
        {
            // The writer keys objects by their address while the GC moves nothing, and writes a
            // message again by identity hash when a collection came (WireWriter's IdentityMap). With
            // compacting collections running all the time on another thread, every message must
            // be the same bytes, and read back with its shared and cyclic links.
            if (Rank != 0) return;  // in process: one rank is enough
            const int n = 50_000;
            byte[] expected = Wire.Serialize(Knots(n));
            Assert.Equal(n * 12L + 4, expected.Length);  // per knot: new id, Id, Left's id; the ring's close
            WhileCollecting(rounds =>
            {
                byte[] bytes = Wire.Serialize(Knots(n));
                if (!bytes.AsSpan().SequenceEqual(expected)) Assert.Fail($"message {rounds}: other bytes than without collections");
                var got = new Knot[n];
                var p = Wire.Deserialize<Knot>(bytes);
                for (int i = 0; i < n; i++, p = p.Right) got[i] = p;
                Assert.Same(got[0], p);
                for (int i = 0; i < n; i++)
                    if (got[i].Id != i || !ReferenceEquals(got[i].Left, got[i / 2])) Assert.Fail($"message {rounds}: knot {i}");
            });
        }

        [Fact]
        public void EveryKindOfField()
        {
            var shared = new ListNode(9);
            var x = new AllKinds
            {
                B = true, I8 = sbyte.MinValue, U8 = byte.MaxValue, I16 = short.MinValue, U16 = ushort.MaxValue,
                C = '\u2713', I32 = int.MinValue, U32 = uint.MaxValue, I64 = long.MinValue, U64 = ulong.MaxValue,
                F32 = float.Epsilon, F64 = BitConverter.Int64BitsToDouble(0x7FF8_0000_0000_1234),  // NaN payload
                Hue = Hue.Blue, Colors = new[] { Hue.Red, Hue.Blue },
                Flags = new[] { true, false, true }, Doubles = new[] { double.NegativeInfinity, -0.0, 1e308 },
                Longs = new List<long> { 1, long.MaxValue }, Strings = new[] { "", "日本語", "🙂 emoji", null },
                Jagged = new[] { new[] { 1 }, Array.Empty<int>(), new[] { 2, 3 } },
                Map = new Dictionary<string, double?> { ["a"] = 1.5, ["ß"] = null },
                Set = new HashSet<int> { 3, 1, 2 }, Maybe = 7, Nothing = null,
                Nodes = new List<ListNode> { shared, shared, null }, NodeArray = new[] { shared },
                Points = new[] { new Point(1, 2) }, Text = "Grüße, мир, 世界", NotSent = 1,
            };
            var y = Exchange<AllKinds>(x, 28);
            Assert.True(y.B);
            Assert.Equal(sbyte.MinValue, y.I8);
            Assert.Equal(byte.MaxValue, y.U8);
            Assert.Equal(short.MinValue, y.I16);
            Assert.Equal(ushort.MaxValue, y.U16);
            Assert.Equal('\u2713', y.C);
            Assert.Equal(int.MinValue, y.I32);
            Assert.Equal(uint.MaxValue, y.U32);
            Assert.Equal(long.MinValue, y.I64);
            Assert.Equal(ulong.MaxValue, y.U64);
            Assert.Equal(float.Epsilon, y.F32);
            Assert.Equal(0x7FF8_0000_0000_1234, BitConverter.DoubleToInt64Bits(y.F64));
            Assert.Equal(Hue.Blue, y.Hue);
            Assert.Equal(new[] { Hue.Red, Hue.Blue }, y.Colors);
            Assert.Equal(new[] { true, false, true }, y.Flags);
            Assert.Equal(BitConverter.DoubleToInt64Bits(-0.0), BitConverter.DoubleToInt64Bits(y.Doubles[1]));
            Assert.Equal(new List<long> { 1, long.MaxValue }, y.Longs);
            Assert.Equal(new[] { "", "日本語", "🙂 emoji", "" }, y.Strings);  // null travels as ""
            Assert.Equal(new[] { 2, 3 }, y.Jagged[2]);
            Assert.Equal(1.5, y.Map["a"]);
            Assert.Null(y.Map["ß"]);
            Assert.True(y.Set.SetEquals(new[] { 1, 2, 3 }));
            Assert.Equal(7, y.Maybe);
            Assert.Null(y.Nothing);
            Assert.Same(y.Nodes[0], y.Nodes[1]);
            Assert.Same(y.Nodes[0], y.NodeArray[0]);
            Assert.Null(y.Nodes[2]);
            Assert.Equal(new[] { 9 }, y.Nodes[0].Data);
            Assert.Equal(new Point(1, 2), y.Points[0]);
            Assert.Equal("Grüße, мир, 世界", y.Text);
            Assert.Equal(42, y.NotSent);  // opt-in: the constructor's value
        }

        [Fact]
        public void ReadonlyFieldsInheritanceAndEmptyClasses()
        {
            var f = Wire.Deserialize<Fixed>(Wire.Serialize(new Fixed(7, "x")));
            Assert.Equal(7, f.A);
            Assert.Equal("x", f.B);
            var d = Wire.Deserialize<Derived>(Wire.Serialize(new Derived(99) { BaseField = 1, DerivedField = "d" }));
            Assert.Equal(1, d.BaseField);
            Assert.Equal("d", d.DerivedField);
            Assert.Equal(99, d.ReadOnlyField);
            // Base fields first: id, BaseField, DerivedField, ReadOnlyField.
            Assert.Equal(new byte[] { 1, 0, 0, 0x80, 1, 0, 0, 0 }, Wire.Serialize(new Derived(99) { BaseField = 1 }).Take(8));
            var e = Wire.Deserialize<Empty>(Wire.Serialize(new Empty { X = 9 }));
            Assert.Equal(5, e.X);
            Assert.Equal(4, Wire.Serialize(new Empty()).Length);
        }

        [Fact]
        public void ValuesThatLeadBackToThemselves()
        {
            var tree = new TreeValue { V = 1, Kids = { new TreeValue { V = 2 }, new TreeValue { V = 3, Kids = { new TreeValue { V = 4 } } } } };
            var t = Wire.Deserialize<TreeValue>(Wire.Serialize(tree));
            Assert.Equal(new[] { 2, 3 }, t.Kids.Select(k => k.V));
            Assert.Equal(4, t.Kids[1].Kids[0].V);
            var o = Wire.Deserialize<Outer>(Wire.Serialize(new Outer { X = 1, Ref = new RefHolder { Back = new Outer { X = 2 } } }));
            Assert.Equal(2, o.Ref.Back.X);
            Assert.Null(o.Ref.Back.Ref);
            var e = Assert.Throws<ArgumentException>(() => Wire.Serialize(new SelfByValue()));
            Assert.Contains("itself by value", e.Message);
        }

        [Fact]
        public void NotTransportable()
        {
            var e = Assert.Throws<ArgumentException>(() => world.OSend(new object(), Next, 1));
            Assert.Contains("System.Object", e.Message);
            e = Assert.Throws<ArgumentException>(() => world.OSend(new NotMarked(), Next, 1));
            Assert.Contains("NotMarked", e.Message);
            e = Assert.Throws<ArgumentException>(() => world.ORecv<NotMarked>(Prev, 1));
            Assert.Contains("NotMarked", e.Message);
            e = Assert.Throws<ArgumentException>(() => Wire.Serialize(new HasObjectField()));
            Assert.Contains("HasObjectField.Anything", e.Message);
            e = Assert.Throws<ArgumentException>(() => Wire.Serialize(new int[2, 2]));
            Assert.Contains("multidimensional", e.Message);
            e = Assert.Throws<ArgumentException>(() => world.OBcast(new NotMarked(), 0));
            Assert.Contains("NotMarked", e.Message);
            Assert.False(Wire.IsTransportable(typeof(List<object>), out string why));
            Assert.Contains("System.Object", why);
            Assert.True(Wire.IsTransportable(typeof(Dictionary<int, List<ListNode>>), out _));
            // A subclass where the field says the base class: the wire cannot name it.
            var s = Assert.Throws<SerializationException>(() => Wire.Serialize(new Holder { Item = new Derived() }));
            Assert.Contains("Derived", s.Message);
            // A class that travels by value cannot be null.
            Assert.Throws<SerializationException>(() => Wire.Serialize<ShapeClass>(null));
        }

        [Fact]
        public void ListLoopsKeepIdentityCheckClassesAndBuildWithoutConstructors()
        {
            // The compiled loop that follows a list's link (Refs<T>.WriteChain / ReadChain).
            var a = new OpenNode { V = 1, Next = new OpenNode { V = 2, Next = new OpenNode { V = 3 } } };
            a.Next.Next.Next = a.Next;  // back to the middle
            byte[] bytes = Revision10(a);
            // ids 1, 2, 3 new (top bit), then a reference to id 2
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(bytes, 0));
            Assert.Equal(2u, BitConverter.ToUInt32(bytes, bytes.Length - 4));
            var b = Wire.Deserialize<OpenNode>(bytes);
            Assert.Equal(new[] { 1, 2, 3 }, new[] { b.V, b.Next.V, b.Next.Next.V });
            Assert.Same(b.Next, b.Next.Next.Next);
            // A list first in a message is numbered without the identity map; a later reference
            // into it must still find its nodes.
            var l = new List<OpenNode> { b, b.Next.Next, b.Next, b };
            var c = Wire.Deserialize<List<OpenNode>>(Wire.Serialize(l));
            Assert.Same(c[0].Next.Next, c[1]);
            Assert.Same(c[0].Next, c[2]);
            Assert.Same(c[0], c[3]);
            b.Next.Next.Next = null;
            var m = Wire.Deserialize<List<OpenNode>>(Wire.Serialize(new List<OpenNode> { b, b.Next.Next }));
            Assert.Same(m[0].Next.Next, m[1]);
            Assert.Null(m[1].Next);
            a.Next.Next.Next = new OpenNodeDerived { V = 4 };
            var e = Assert.Throws<SerializationException>(() => Wire.Serialize(a));
            Assert.Contains("OpenNodeDerived", e.Message);
            FrozenNode f = null;
            for (int i = 0; i < 100; i++) f = new FrozenNode(i, f);
            var g = Wire.Deserialize<FrozenNode>(Wire.Serialize(f));
            for (int i = 99; i >= 0; i--, g = g.Next) Assert.Equal(i, g.V);
            Assert.Null(g);
        }

        /// <summary>
        /// The revision 1.0 form of a list that a message now sends as a compact chain: the same
        /// bytes as an array element (after the array's size), whose loops are those of 1.0.
        /// </summary>
        internal static byte[] Revision10<T>(T root) where T : class => Wire.Serialize(new[] { root })[8..];

        private static PlainNode PlainList(int n)
        {
            PlainNode head = null;
            for (int i = n - 1; i >= 0; i--) head = new PlainNode { Data = new[] { i, -i }, Next = head };
            return head;
        }

        private static PlainNode At(PlainNode p, int k)
        {
            while (k-- > 0) p = p.Next;
            return p;
        }

        /// <summary>Count of nodes, each checked to hold {i, -i}.</summary>
        private static int CheckPlain(PlainNode p, int max)
        {
            int i = 0;
            for (; p != null && i < max; p = p.Next, i++)
                if (p.Data.Length != 2 || p.Data[0] != i || p.Data[1] != -i) Assert.Fail($"node {i}");
            return i;
        }

        [Fact]
        public void ListLoopsWithoutIdentityTables()
        {
            // A cycle back to the head: the writer's loop meets the head again (Brent) and
            // writes the list again with the identity map; the last header names id 1.
            var ring = PlainList(5);
            At(ring, 4).Next = ring;
            byte[] bytes = Revision10(ring);
            Assert.Equal(5 * (4 + 8 + 8) + 4, bytes.Length);
            Assert.Equal(1u, BitConverter.ToUInt32(bytes, bytes.Length - 4));
            var r = Wire.Deserialize<PlainNode>(bytes);
            Assert.Equal(5, CheckPlain(r, 5));
            Assert.Same(r, At(r, 5));
            // A node referenced twice: by its predecessor's link and by a later element (the
            // writer enters the list in its map, the reader in its table, only then); null
            // between; the head again.
            var list = PlainList(6);
            var got = Wire.Deserialize<PlainNode[]>(Wire.Serialize(new[] { list, null, At(list, 3), list }));
            Assert.Equal(6, CheckPlain(got[0], 10));
            Assert.Null(got[1]);
            Assert.Same(At(got[0], 3), got[2]);
            Assert.Same(got[0], got[3]);
            // The other order: the middle's list first, then the head's, whose loop ends with a
            // reference to a node of the first (read by a list loop, not yet in the table).
            got = Wire.Deserialize<PlainNode[]>(Wire.Serialize(new[] { At(list, 3), list }));
            Assert.Equal(6, CheckPlain(got[1], 10));
            Assert.Same(got[0], At(got[1], 3));
            // The same inside one list: the tail joins the middle (a cycle that is not the head).
            At(list, 5).Next = At(list, 2);
            r = Wire.Deserialize<PlainNode>(Revision10(list));
            Assert.Equal(6, CheckPlain(r, 6));
            Assert.Same(At(r, 2), At(r, 6));
            // Null data in the middle travels as empty; a null link ends the list.
            list = PlainList(4);
            At(list, 1).Data = null;
            r = Wire.Deserialize<PlainNode>(Revision10(list));
            Assert.Empty(At(r, 1).Data);
            Assert.Equal(new[] { 2, -2 }, At(r, 2).Data);
            Assert.Null(At(r, 3).Next);
            // Corrupt: the list's second node with the id of a third (out of sequence), a
            // reference to a node not seen yet, and a a valid reference back into the list.
            bytes = Revision10(PlainList(3));
            var bad = (byte[])bytes.Clone();
            BitConverter.TryWriteBytes(bad.AsSpan(20), 0x80000003u);
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() => Wire.Deserialize<PlainNode>(bad)).Message);
            bad = (byte[])bytes.Clone();
            BitConverter.TryWriteBytes(bad.AsSpan(bad.Length - 4), 4u);
            Assert.Contains("not seen yet", Assert.Throws<SerializationException>(() => Wire.Deserialize<PlainNode>(bad)).Message);
            bad = (byte[])bytes.Clone();
            BitConverter.TryWriteBytes(bad.AsSpan(bad.Length - 4), 3u);  // the third node as its own link
            r = Wire.Deserialize<PlainNode>(bad);
            Assert.Equal(3, CheckPlain(r, 3));
            Assert.Same(At(r, 2), At(r, 3));

            // 200000 nodes (no stack per node), blocking OSend / ORecv and the nonblocking path:
            // a later reference into the list, from a list element and from a field.
            const int n = 200_000;
            var big = PlainList(n);
            var msg = new List<PlainNode> { big, At(big, n - 1), At(big, 150_000) };
            List<PlainNode> two;
            if (Size == 1)
            {
                two = Exchange<List<PlainNode>>(msg, 36);
            }
            else if (Rank % 2 == 0)  // 4 MB: the blocking sends must meet receives
            {
                world.OSend(msg, Next, 36);
                two = world.ORecv<List<PlainNode>>(Prev, 36);
            }
            else
            {
                two = world.ORecv<List<PlainNode>>(Prev, 36);
                world.OSend(msg, Next, 36);
            }
            Assert.Equal(n, CheckPlain(two[0], n + 1));
            Assert.Same(At(two[0], n - 1), two[1]);
            Assert.Same(At(two[0], 150_000), two[2]);
            var pair = Exchange<PlainPair>(new PlainPair { List = big, Mark = At(big, 150_000) }, 37);
            Assert.Equal(n, CheckPlain(pair.List, n + 1));
            Assert.Same(At(pair.List, 150_000), pair.Mark);
            At(big, n - 1).Next = big;  // a cycle closing it
            var closed = Exchange<PlainNode>(big, 38);
            Assert.Equal(n, CheckPlain(closed, n));
            Assert.Same(closed, At(closed, n));
        }

        [Fact]
        public void CorruptAndTruncatedInput()
        {
            byte[] g = Golden.Bytes("shared_cyclic_list.bin");
            for (int n = 0; n < g.Length; n++)
            {
                var ex = Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(g, 0, n));
                if (n > 0) Assert.True(ex.Message.Contains("truncated") || ex.Message.Contains("a size of"), ex.Message);
            }
            Assert.Contains("left over", Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(g.Append((byte)0).ToArray())).Message);
            Assert.Contains("not seen yet", Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(new byte[] { 5, 0, 0, 0 })).Message);
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(new byte[] { 2, 0, 0, 0x80 })).Message);
            Assert.Contains("a size of", Assert.Throws<SerializationException>(() => Wire.Deserialize<int[]>(Enumerable.Repeat((byte)0xff, 8).ToArray())).Message);
            Assert.Contains("a size of", Assert.Throws<SerializationException>(() => Wire.Deserialize<List<ListNode>>(new byte[] { 0, 0, 0, 0, 0, 0, 0, 0x10, 0 })).Message);
            Assert.Contains("a size of", Assert.Throws<SerializationException>(() => Wire.Deserialize<string>(new byte[] { 9, 0, 0, 0, 0, 0, 0, 0, 65 })).Message);
            Assert.Contains("bool", Assert.Throws<SerializationException>(() => Wire.Deserialize<bool>(new byte[] { 2 })).Message);
            Assert.Contains("bool", Assert.Throws<SerializationException>(() => Wire.Deserialize<bool[]>(new byte[] { 2, 0, 0, 0, 0, 0, 0, 0, 1, 7 })).Message);
            // Bytes of another type: a clear exception, whatever the receiver expected.
            Assert.Throws<SerializationException>(() => Wire.Deserialize<Shape>(g));
            Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(Golden.Bytes("nested_struct.bin")));
            Assert.Throws<SerializationException>(() => Wire.Deserialize<string>(Golden.Bytes("int_vector.bin")));
            // A back-reference to an object of another type: A{ B: new B(id 2), Self: ref 2 }.
            var other = new byte[] { 1, 0, 0, 0x80, 2, 0, 0, 0x80, 5, 0, 0, 0, 2, 0, 0, 0 };
            Assert.Contains("another type", Assert.Throws<SerializationException>(() => Wire.Deserialize<A>(other)).Message);
            // Random corruption of valid messages: a clear exception or a value, never anything else.
            var rng = new Random(1234 + Rank);
            byte[] big = Wire.Serialize(new AllKinds { Strings = new[] { "a" }, Map = new() { ["k"] = 1 }, Nodes = new() { Golden.Graph() } });
            for (int i = 0; i < 3000; i++)
            {
                var m = (byte[])(i % 2 == 0 ? big : g).Clone();
                for (int k = rng.Next(1, 4); k > 0; k--) m[rng.Next(m.Length)] = (byte)rng.Next(256);
                try
                {
                    if (i % 2 == 0) Wire.Deserialize<AllKinds>(m);
                    else Wire.Deserialize<ListNode>(m);
                }
                catch (SerializationException)
                {
                }
            }
            // Corrupt bytes through MPI: the receiver throws, the next message is fine.
            var corrupt = new byte[] { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
            Ring(() => world.Send(corrupt, Next, 29), () => world.Isend(corrupt, Next, 29),
                 () => Assert.Throws<SerializationException>(() => world.ORecv<int[]>(Prev, 29)));
            Assert.Equal(new[] { 1, 2 }, Ring(() => world.OSend(new[] { 1, 2 }, Next, 30),
                                              () => world.IOSend(new[] { 1, 2 }, Next, 30),
                                              () => world.ORecv<int[]>(Prev, 30)));
        }

        [Fact]
        public void SerializableClassesTravelByTheirFields()
        {
            // Every instance field (private ones, auto-property backing fields, base class
            // fields first), but [NonSerialized] ones; shared and cyclic references kept.
            var a = new SerialPoint { Secret = 7, Name = "a", Coords = new[] { 1.5, -2 }, Charge = -3, Cache = 99 };
            a.Partner = new SerialPoint { Name = "b", Partner = a };
            Assert.True(Wire.IsTransportable(typeof(SerialPoint), out _));
            var got = Ring(() => world.OSend(a, Next, 40), () => world.IOSend(a, Next, 40),
                           () => world.ORecv<SerialPoint>(Prev, 40));
            Assert.Equal(7, got.Secret);
            Assert.Equal("a", got.Name);
            Assert.Equal(new[] { 1.5, -2 }, got.Coords);
            Assert.Equal(-3, got.Charge);
            Assert.Equal(0, got.Cache);
            Assert.Equal("b", got.Partner.Name);
            Assert.Same(got, got.Partner.Partner);
            // The bytes of the same fields marked [Transportable], in the same order.
            var m = new MarkedPoint { Secret = 7, Name = "a", Coords = new[] { 1.5, -2 }, Charge = -3 };
            m.Partner = new MarkedPoint { Name = "b", Partner = m };
            Assert.Equal(Wire.Serialize(m), Wire.Serialize(a));
            // A base class not marked [Serializable] gives no fields (as BinaryFormatter's rule).
            var top = Wire.Deserialize<SerialOnTop>(Wire.Serialize(new SerialOnTop { Kept = 4, Dropped = 9 }));
            Assert.Equal(4, top.Kept);
            Assert.Equal(5, top.Dropped);
            Assert.Equal(8, Wire.Serialize(new SerialOnTop { Kept = 4 }).Length);  // header + one int
            // A field the wire cannot carry: not transportable, with the reason.
            Assert.False(Wire.IsTransportable(typeof(SerialWithObject), out string why));
            Assert.Contains("Object", why);
            Assert.Throws<ArgumentException>(() => Wire.Serialize(new SerialWithObject()));
        }

        [Fact]
        public void StringsOfEveryKindAndTheBufferWriterOverload()
        {
            // ASCII (narrowed in one pass), then text with other chars at the start, middle and
            // end, a lone surrogate (Encoding.UTF8's replacement, as before), long and short.
            var texts = new[] { "", "a", "abcdefghij", new string('x', 1000), "é", "abcé", "日本語テキスト", "ab\ud800cd",
                                "x" + new string('y', 40) + "\u00ff", "\U0001F600 emoji" };
            foreach (var t in texts)
            {
                byte[] b = Wire.Serialize(t);
                var utf8 = Encoding.UTF8.GetBytes(t);
                Assert.Equal((ulong)utf8.Length, BitConverter.ToUInt64(b, 0));
                Assert.Equal(utf8, b[8..]);
                Assert.Equal(Encoding.UTF8.GetString(utf8), Wire.Deserialize<string>(b));
            }
            // Into a caller's buffer: the same bytes, appended.
            var sink = new System.Buffers.ArrayBufferWriter<byte>();
            var list = new List<string>(texts);
            int n = Wire.Serialize(list, sink);
            Assert.Equal(Wire.Serialize(list), sink.WrittenSpan.ToArray());
            Assert.Equal(n, sink.WrittenCount);
            Wire.Serialize(7, sink);
            Assert.Equal(n + 4, sink.WrittenCount);
            Assert.Equal(list.ConvertAll(t => Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(t))),
                         Wire.Deserialize<List<string>>(sink.WrittenSpan[..n]));
            Assert.Throws<ArgumentNullException>(() => Wire.Serialize(1, null));
        }
    }
}
