namespace Oompi.Tests
{
    /// <summary>A chain type whose node takes one byte (the 10^6-node lists).</summary>
    public sealed class TinyNode
    {
        [Transportable] public byte V;
        [Transportable] public TinyNode Next;
    }

    /// <summary>A chain type with leaves of every kind but int[] (ChainItem's).</summary>
    public sealed class LeafNode
    {
        [Transportable] public bool B;
        [Transportable] public char C;
        [Transportable] public ushort U16;
        [Transportable] public float F32;
        [Transportable] public string S;
        [Transportable] public byte[] Bytes;
        [Transportable] public double[] D;
        [Transportable] public LeafNode Next;
    }

    // Not chain types: an enum, a List (a container), an array of bools, nothing but the link.
    public sealed class HueNode
    {
        [Transportable] public Hue Hue;
        [Transportable] public HueNode Next;
    }

    public sealed class ListIntNode
    {
        [Transportable] public List<int> Data;
        [Transportable] public ListIntNode Next;
    }

    public sealed class BoolsNode
    {
        [Transportable] public bool[] Flags;
        [Transportable] public BoolsNode Next;
    }

    public sealed class OnlyLink
    {
        [Transportable] public OnlyLink Next;
    }

    /// <summary>Compact chains (wire revision 1.1, docs/wire-format.md 2.1): golden bytes, shapes, ranks, bad input.</summary>
    public class ChainTests : WorldTests
    {
        private static byte[] Header(uint n, uint close) =>
            BitConverter.GetBytes(0x80000000u).Concat(BitConverter.GetBytes(n)).Concat(BitConverter.GetBytes(close)).ToArray();

        private static byte[] Compact(uint n, uint close, params byte[] nodes) => Header(n, close).Concat(nodes).ToArray();

        /// <summary>len nodes, V = i + seed, the last linked to node close (1-based; 0: null).</summary>
        private static TinyNode Tiny(int len, int close, int seed = 0)
        {
            var nodes = new TinyNode[len];
            for (int i = len - 1; i >= 0; i--) nodes[i] = new TinyNode { V = (byte)(i + seed), Next = i + 1 < len ? nodes[i + 1] : null };
            if (close > 0) nodes[len - 1].Next = nodes[close - 1];
            return nodes[0];
        }

        private static void CheckTiny(TinyNode head, int len, int close, int seed = 0)
        {
            var nodes = new TinyNode[len];
            var p = head;
            for (int i = 0; i < len; i++, p = p.Next)
            {
                Assert.NotNull(p);
                Assert.Equal((byte)(i + seed), p.V);
                nodes[i] = p;
            }
            if (close == 0) Assert.Null(p);
            else Assert.Same(nodes[close - 1], p);
        }

        private static readonly (int len, int close)[] Shapes =
        {
            (1, 0), (1, 1), (2, 0), (5, 1), (3, 2), (10, 8), (1000, 1), (1001, 1001),
        };

        [Fact]
        public void GoldenCompactChain()
        {
            byte[] g = Golden.Bytes("compact_chain.bin");
            Assert.Null(Golden.CheckChain(Wire.Deserialize<ChainItem>(g)));
            Assert.Equal(g, Wire.Serialize(Golden.Chain()));
            // The same graph in the revision 1.0 form (940 bytes, section 2.1) still reads.
            byte[] v10 = ObjectTests.Revision10(Golden.Chain());
            Assert.Equal(940, v10.Length);
            Assert.Null(Golden.CheckChain(Wire.Deserialize<ChainItem>(v10)));
        }

        [Fact]
        public void ShapesLeavesAndSizes()
        {
            Assert.Equal(new byte[4], Wire.Serialize<TinyNode>(null));
            Assert.Null(Wire.Deserialize<TinyNode>(new byte[4]));
            foreach (var (len, close) in Shapes)
            {
                // (1001, 1001): a node linking to itself after 1000 others (Brent's pass wraps
                // round it many times before it is measured; nothing of that may stay).
                byte[] b = Wire.Serialize(Tiny(len, close));
                Assert.Equal(Header((uint)len, (uint)close), b[..12]);
                Assert.Equal(12 + len, b.Length);
                CheckTiny(Wire.Deserialize<TinyNode>(b), len, close);
                CheckTiny(Wire.Deserialize<TinyNode>(ObjectTests.Revision10(Tiny(len, close))), len, close);
            }

            // Null and empty strings and arrays travel as size 0 (as in 1.0), read as "" and
            // empty; sizes of 203 and 20000 take two- and three-byte varints.
            string longName = new string('\u00e9', 100) + "\u2713";
            var items = new ChainItem
            {
                Next = new ChainItem { Name = "", Data = Array.Empty<int>(), Next = new ChainItem { Name = longName, Data = Enumerable.Range(0, 20000).ToArray() } },
            };
            byte[] bytes = Wire.Serialize(items);
            Assert.Equal(12 + 2 * (1 + 8 + 1 + 8 + 1) + (2 + 203 + 8 + 1 + 8 + 3 + 80000), bytes.Length);
            Assert.Equal(new byte[] { 203 & 0x7F | 0x80, 1 }, bytes[(12 + 38)..(12 + 40)]);
            Assert.Equal(new byte[] { 20000 & 0x7F | 0x80, (20000 >> 7) & 0x7F | 0x80, 20000 >> 14 }, bytes[(12 + 38 + 2 + 203 + 17)..(12 + 38 + 2 + 203 + 20)]);
            var back = Wire.Deserialize<ChainItem>(bytes);
            Assert.Equal("", back.Name);
            Assert.Empty(back.Data);
            Assert.Equal("", back.Next.Name);
            Assert.Empty(back.Next.Data);
            Assert.Equal(longName, back.Next.Next.Name);
            Assert.Equal(Enumerable.Range(0, 20000), back.Next.Next.Data);
            Assert.Null(back.Next.Next.Next);

            var leaves = new LeafNode
            {
                B = true, C = '\u263a', U16 = 65535, F32 = float.NaN, S = "s", Bytes = new byte[130], D = new[] { -0.0, double.Epsilon },
                Next = new LeafNode { S = null, Bytes = null, D = null },
            };
            leaves.Next.Next = leaves.Next;
            bytes = Wire.Serialize(leaves);
            Assert.Equal(Header(2, 2), bytes[..12]);
            var l = Wire.Deserialize<LeafNode>(bytes);
            Assert.True(l.B && l.C == '\u263a' && l.U16 == 65535 && float.IsNaN(l.F32) && l.S == "s");
            Assert.Equal(new byte[130], l.Bytes);
            Assert.Equal(new[] { -0.0, double.Epsilon }, l.D);
            Assert.True(double.IsNegative(l.D[0]));
            Assert.Same(l.Next, l.Next.Next);
            Assert.True(l.Next.S == "" && l.Next.Bytes.Length == 0 && l.Next.D.Length == 0);

            // Not chain types: the revision 1.0 form (new object 1 first).
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(new HueNode { Next = new HueNode() })));
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(new ListIntNode { Data = new() { 1 } })));
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(new BoolsNode())));
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(new OnlyLink())));
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(Golden.Graph())));
            // Only a message's value is a compact chain: not an array element, nor a field.
            Assert.Equal(0x80000001u, BitConverter.ToUInt32(Wire.Serialize(new[] { Tiny(3, 0) }), 8));
            Assert.Equal(0x80000002u, BitConverter.ToUInt32(Wire.Serialize(new PlainPair { List = new PlainNode() }), 4));
            // A class that is not sealed: every node is checked to be exactly of its class.
            Assert.Equal(Header(1, 0), Wire.Serialize(new OpenNode { V = 1 })[..12]);
            Assert.Contains("OpenNodeDerived", Assert.Throws<SerializationException>(() => Wire.Serialize<OpenNode>(new OpenNodeDerived())).Message);

            // 10^6 nodes: one loop each way, no stack per node.
            const int million = 1_000_000;
            var big = Tiny(million, million / 2);
            bytes = Wire.Serialize(big);
            Assert.Equal(12 + million, bytes.Length);
            CheckTiny(Wire.Deserialize<TinyNode>(bytes), million, million / 2);
        }

        /// <summary>Sends obj to Next and receives a T from Prev (safe at one rank: IOSend).</summary>
        private T Exchange<T>(T obj, int tag)
        {
            using var req = world.IOSend(obj, Next, tag);
            T got = world.ORecv<T>(Prev, tag);
            req.Wait();
            return got;
        }

        [Fact]
        public void BetweenRanks()
        {
            Assert.Null(Exchange<TinyNode>(null, 50));
            foreach (var (len, close) in Shapes) CheckTiny(Exchange(Tiny(len, close, Rank), 51), len, close, Prev);
            CheckTiny(Exchange(Tiny(1_000_000, 0, Rank), 52), 1_000_000, 0, Prev);
            Assert.Null(Golden.CheckChain(Exchange(Golden.Chain(), 53)));
            // Blocking OSend round the ring (at one rank to itself: IOSend), and a broadcast.
            if (world.Size > 1)
            {
                if (Rank % 2 == 0)
                {
                    world.OSend(Tiny(7, 3, Rank), Next, 54);
                    CheckTiny(world.ORecv<TinyNode>(Prev, 54), 7, 3, Prev);
                }
                else
                {
                    var got = world.ORecv<TinyNode>(Prev, 54);
                    world.OSend(Tiny(7, 3, Rank), Next, 54);
                    CheckTiny(got, 7, 3, Prev);
                }
            }
            Assert.Null(Golden.CheckChain(world.OBcast(Rank == 0 ? Golden.Chain() : null, 0)));
            // A compact chain where the receiver expects a type that is not a chain type.
            using (var req = world.IOSend(Tiny(3, 0), Next, 55))
            {
                var e = Assert.Throws<SerializationException>(() => world.ORecv<ListNode>(Prev, 55));
                Assert.Contains("not a chain type", e.Message);
                req.Wait();
            }
            CheckTiny(Exchange(Tiny(2, 2, Rank), 56), 2, 2, Prev);  // the communicator goes on
        }

        [Fact]
        public void BadInput()
        {
            byte[] g = Golden.Bytes("compact_chain.bin");
            for (int n = 0; n < g.Length; n++)
            {
                var ex = Assert.Throws<SerializationException>(() => Wire.Deserialize<ChainItem>(g, 0, n));
                Assert.True(ex.Message.Contains("truncated") || ex.Message.Contains("a size of") || ex.Message.Contains("nodes with only"), ex.Message);
            }
            Assert.Contains("left over", Assert.Throws<SerializationException>(() => Wire.Deserialize<ChainItem>(g.Append((byte)0).ToArray())).Message);
            var flag = (byte[])g.Clone();
            Assert.Equal(1, flag[12 + 6 + 8]);  // node 1's flag
            flag[12 + 6 + 8] = 2;
            Assert.Contains("bool", Assert.Throws<SerializationException>(() => Wire.Deserialize<ChainItem>(flag)).Message);

            // PlainNode: int[] Data, then the link.
            void Refused(string what, byte[] bytes) =>
                Assert.Contains(what, Assert.Throws<SerializationException>(() => Wire.Deserialize<PlainNode>(bytes)).Message);
            Assert.Equal(new[] { 5 }, Wire.Deserialize<PlainNode>(Compact(1, 0, 1, 5, 0, 0, 0)).Data);
            Refused("0 nodes", Compact(0, 0, 0));
            Refused("2 nodes with only 1", Compact(2, 0, 0));
            Refused("4294967295 nodes", Compact(uint.MaxValue, 0, 0));
            Refused("closing on node 2", Compact(1, 2, 0));
            Refused("shortest form", Compact(1, 0, 0x81, 0x00, 5, 0, 0, 0));
            Refused("longer than 10 bytes", Compact(1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01));
            Refused("above 2^64 - 1", Compact(1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02));
            Refused("a size of 18446744073709551615", Compact(1, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01));
            Refused("a size of 2147483648", Compact(1, 0, 0x80, 0x80, 0x80, 0x80, 0x08));
            Refused("a size of 2 with only 4", Compact(1, 0, 2, 5, 0, 0, 0));
            Refused("truncated", Compact(1, 0, 0x80));
            Refused("left over", Compact(1, 0, 0, 0));
            // A compact chain for types that are not chain types, and inside a message (a
            // field, an array element): refused as the revision 1.0 reader refuses new object 0.
            byte[] tiny = Wire.Serialize(Tiny(2, 1));
            Assert.Contains("not a chain type", Assert.Throws<SerializationException>(() => Wire.Deserialize<ListNode>(tiny)).Message);
            Assert.Contains("not a chain type", Assert.Throws<SerializationException>(() => Wire.Deserialize<HueNode>(tiny)).Message);
            Assert.Contains("not a chain type", Assert.Throws<SerializationException>(() => Wire.Deserialize<ListIntNode>(tiny)).Message);
            Assert.Contains("not a chain type", Assert.Throws<SerializationException>(() => Wire.Deserialize<OnlyLink>(tiny)).Message);
            Assert.Contains("not a chain type", Assert.Throws<SerializationException>(() => Wire.Deserialize<HeadFirst>(tiny)).Message);
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() =>
                Wire.Deserialize<PlainNode[]>(BitConverter.GetBytes(1UL).Concat(Compact(1, 0, 0)).ToArray())).Message);
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() =>
                Wire.Deserialize<PlainPair>(BitConverter.GetBytes(0x80000001u).Concat(Compact(1, 0, 0)).Concat(new byte[4]).ToArray())).Message);
        }
    }
}
