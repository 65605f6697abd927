namespace Oompi.Tests
{
    /// <summary>A tree through a list of children (nesting through a container).</summary>
    public sealed class NestList
    {
        [Transportable] public List<NestList> Kids;
        [Transportable] public int V;
    }

    /// <summary>A tree through an array of children.</summary>
    public sealed class NestArray
    {
        [Transportable] public NestArray[] Kids;
        [Transportable] public string Name;
    }

    /// <summary>Nesting through dictionary values and nullable structs.</summary>
    public sealed class NestMap
    {
        [Transportable] public Dictionary<int, NestMap> Map;
        [Transportable] public Point? At;
    }

    /// <summary>
    /// Deep and corrupt input for the C# wire decoder (and encoder): graphs nested 10^5 to 10^7
    /// deep through a reference that is not the last field, through lists, arrays and
    /// dictionaries, must round-trip or raise SerializationException (never overflow the stack);
    /// 10^5+ deterministic mutations of valid messages of several types must decode or raise
    /// SerializationException (nothing else, no OutOfMemoryException from a size field); and
    /// corrupt bytes received from another rank raise cleanly and leave the communicator usable.
    /// Run by csharp.wire_fuzz (the deep and fuzz parts on rank 0 only: memory and time).
    /// </summary>
    public class WireFuzzTests
    {
        private readonly Comm world = Comm.World();

        // --- deep input ---------------------------------------------------------------------

        /// <summary>Round trip, or SerializationException from the encoder or the decoder.</summary>
        private static T RoundTripOrRefuse<T>(T value, Func<T, bool> check) where T : class
        {
            byte[] bytes;
            try
            {
                bytes = Wire.Serialize(value);
            }
            catch (SerializationException e)
            {
                Assert.Contains("deep", e.Message);
                return null;
            }
            try
            {
                T back = Wire.Deserialize<T>(bytes);
                Assert.True(check(back));
                return back;
            }
            catch (SerializationException e)
            {
                Assert.Contains("deep", e.Message);
                return null;
            }
        }

        /// <summary>The decoder alone, on bytes written by hand: a value or SerializationException.</summary>
        private static void DecodeOrRefuse<T>(byte[] bytes)
        {
            try
            {
                Wire.Deserialize<T>(bytes);
            }
            catch (SerializationException e)
            {
                Assert.Contains("deep", e.Message);
            }
        }

        private static HeadFirst HeadFirstChain(int n)
        {
            HeadFirst head = null;
            for (int i = n - 1; i >= 0; i--) head = new HeadFirst { Next = head, Value = i };
            return head;
        }

        private static int Length(HeadFirst p)
        {
            int n = 0;
            for (; p != null; p = p.Next) n++;
            return n;
        }

        [Fact]
        public void DeepChainThroughAFirstField()
        {
            if (world.Rank != 0) return;
            Assert.NotNull(RoundTripOrRefuse(HeadFirstChain(100_000), h => Length(h) == 100_000));
            RoundTripOrRefuse(HeadFirstChain(300_000), h => Length(h) == 300_000);
            // 10^6 nodes written by hand: every header first, then a null, then the values.
            const int n = 1_000_000;
            var bytes = new byte[n * 8L + 4];
            for (int i = 0; i < n; i++) BitConverter.TryWriteBytes(bytes.AsSpan(i * 4), (uint)(i + 1) | 0x80000000u);
            DecodeOrRefuse<HeadFirst>(bytes);
        }

        [Fact]
        public void DeepNestingThroughContainers()
        {
            if (world.Rank != 0) return;
            const int n = 200_000;
            NestList l = null;
            NestArray a = null;
            NestMap m = null;
            for (int i = 0; i < n; i++)
            {
                l = new NestList { V = i, Kids = l is null ? new List<NestList>() : new List<NestList> { l } };
                a = new NestArray { Name = "n", Kids = a is null ? null : new[] { a } };
                m = new NestMap { At = new Point(i, 0), Map = m is null ? null : new Dictionary<int, NestMap> { [i] = m } };
            }
            RoundTripOrRefuse(l, x => x.V == n - 1);
            RoundTripOrRefuse(a, x => x.Name == "n" && x.Kids.Length == 1);
            RoundTripOrRefuse(m, x => x.At.Value.X == n - 1);

            // 10^6 levels of NestList by hand: id, size 1, ..., size 0, then the values.
            const int deep = 1_000_000;
            var bytes = new byte[deep * 16L];
            var s = bytes.AsSpan();
            for (int i = 0; i < deep; i++)
            {
                BitConverter.TryWriteBytes(s.Slice(i * 12), (uint)(i + 1) | 0x80000000u);
                BitConverter.TryWriteBytes(s.Slice(i * 12 + 4), i == deep - 1 ? 0UL : 1UL);
            }
            DecodeOrRefuse<NestList>(bytes);
            // By-value trees (no ids) nested 2 * 10^5 deep: TreeValue { V, Kids: [ ... ] }.
            const int values = 200_000;
            var tv = new byte[values * 12L];
            for (int i = 0; i < values; i++)
                BitConverter.TryWriteBytes(tv.AsSpan(i * 12 + 4), i == values - 1 ? 0UL : 1UL);
            DecodeOrRefuse<TreeValue>(tv);
        }

        // --- fuzzing ------------------------------------------------------------------------

        /// <summary>splitmix64: the same mutations on every run and every machine.</summary>
        private struct Rng
        {
            private ulong s;
            public Rng(ulong seed) => s = seed;
            public ulong Next()
            {
                ulong z = s += 0x9E3779B97F4A7C15UL;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                return z ^ (z >> 31);
            }
            public int Below(int n) => (int)(Next() % (ulong)n);
        }

        private static readonly ulong[] HugeSizes =
        {
            ulong.MaxValue, 0x8000_0000_0000_0000UL, 1UL << 40, 1UL << 32, 0xFFFF_FFFFUL, 0x7FFF_FFFFUL,
            0x7FFF_FFC7UL, 1UL << 31, 1UL << 30, 1UL << 20,
        };

        private static readonly uint[] BogusIds =
        {
            0xFFFF_FFFFu, 0x8000_0000u, 0x8000_0001u, 0x8000_0002u, 0x8000_00FFu, 0xFFFF_FFFEu, 1, 2, 3, 255, 0x7FFF_FFFFu,
        };

        private static byte[] Mutate(byte[] valid, ref Rng rng)
        {
            int len = valid.Length;
            switch (rng.Below(8))
            {
                case 0:  // bit flips
                {
                    var m = (byte[])valid.Clone();
                    for (int k = 1 + rng.Below(3); k > 0; k--) m[rng.Below(len)] ^= (byte)(1 << rng.Below(8));
                    return m;
                }
                case 1:  // truncation
                    return valid.AsSpan(0, rng.Below(len)).ToArray();
                case 2:  // a huge size field anywhere (sizes are 8 bytes)
                {
                    var m = (byte[])valid.Clone();
                    if (len >= 8) BitConverter.TryWriteBytes(m.AsSpan(rng.Below(len - 7)), HugeSizes[rng.Below(HugeSizes.Length)]);
                    return m;
                }
                case 3:  // a bogus reference id anywhere
                {
                    var m = (byte[])valid.Clone();
                    if (len >= 4) BitConverter.TryWriteBytes(m.AsSpan(rng.Below(len - 3)), BogusIds[rng.Below(BogusIds.Length)]);
                    return m;
                }
                case 4:  // random bytes
                {
                    var m = (byte[])valid.Clone();
                    for (int k = 1 + rng.Below(4); k > 0; k--) m[rng.Below(len)] = (byte)rng.Next();
                    return m;
                }
                case 5:  // a byte removed
                {
                    int at = rng.Below(len);
                    return valid.Take(at).Concat(valid.Skip(at + 1)).ToArray();
                }
                case 6:  // a byte inserted
                {
                    int at = rng.Below(len + 1);
                    return valid.Take(at).Append((byte)rng.Next()).Concat(valid.Skip(at)).ToArray();
                }
                default:  // a range copied over another (repeats structure: ids, sizes)
                {
                    var m = (byte[])valid.Clone();
                    int from = rng.Below(len), to = rng.Below(len), n = Math.Min(1 + rng.Below(16), Math.Min(len - from, len - to));
                    valid.AsSpan(from, n).CopyTo(m.AsSpan(to));
                    return m;
                }
            }
        }

        /// <summary>The golden chain with a null name and data, a 130-byte name, and a longer cycle.</summary>
        private static ChainItem ChainVariant()
        {
            var head = Golden.Chain();
            head.Name = null;
            head.Next.Next.Name = new string('x', 130);
            head.Next.Next.Next = new ChainItem { Id = 4, Data = null, Next = head };
            return head;
        }

        private static (string name, byte[] bytes, Func<byte[], object> decode)[] Corpus()
        {
            var shared = new ListNode(9, 8);
            var kinds = new AllKinds
            {
                B = true, I32 = -5, U64 = ulong.MaxValue, F64 = 1.5, Hue = Hue.Blue, Colors = new[] { Hue.Red },
                Flags = new[] { true, false }, Doubles = new[] { 1.0, 2.0 }, Longs = new List<long> { 1, 2, 3 },
                Strings = new[] { "", "日本語", "x" }, Jagged = new[] { new[] { 1 }, Array.Empty<int>() },
                Map = new Dictionary<string, double?> { ["a"] = 1.5, ["b"] = null }, Set = new HashSet<int> { 1, 2 },
                Maybe = 7, Nodes = new List<ListNode> { shared, shared, null }, NodeArray = new[] { shared },
                Points = new[] { new Point(1, 2) }, Text = "Grüße",
            };
            var tree = new TreeValue { V = 1, Kids = { new TreeValue { V = 2 }, new TreeValue { V = 3, Kids = { new TreeValue { V = 4 } } } } };
            var nest = new NestMap { At = new Point(1, 1), Map = new() { [1] = new NestMap(), [2] = new NestMap { At = new Point(2, 2) } } };
            PlainNode plain = null;
            for (int i = 0; i < 12; i++) plain = new PlainNode { Data = Enumerable.Range(0, i % 3).ToArray(), Next = plain };
            var arr = new NestArray { Name = "root", Kids = new[] { new NestArray { Name = "a" }, null, new NestArray { Name = "b", Kids = Array.Empty<NestArray>() } } };
            return new (string, byte[], Func<byte[], object>)[]
            {
                ("ListNode (shared, cyclic)", Wire.Serialize(Golden.Graph(3)), b => Wire.Deserialize<ListNode>(b)),
                ("AllKinds", Wire.Serialize(kinds), b => Wire.Deserialize<AllKinds>(b)),
                ("TreeValue (by value)", Wire.Serialize(tree), b => Wire.Deserialize<TreeValue>(b)),
                ("NestMap", Wire.Serialize(nest), b => Wire.Deserialize<NestMap>(b)),
                ("NestArray", Wire.Serialize(arr), b => Wire.Deserialize<NestArray>(b)),
                ("HeadFirst x20", Wire.Serialize(HeadFirstChain(20)), b => Wire.Deserialize<HeadFirst>(b)),
                ("PlainNode x12 (compact chain)", Wire.Serialize(plain), b => Wire.Deserialize<PlainNode>(b)),
                ("PlainNode x12 (revision 1.0: list loops without tables)", ObjectTests.Revision10(plain), b => Wire.Deserialize<PlainNode>(b)),
                ("ChainItem (golden compact chain)", Golden.Bytes("compact_chain.bin"), b => Wire.Deserialize<ChainItem>(b)),
                ("ChainItem (compact chain: cycle, long string, null leaves)", Wire.Serialize(ChainVariant()), b => Wire.Deserialize<ChainItem>(b)),
                ("PlainNode[] (references into lists)", Wire.Serialize(new[] { plain.Next.Next, null, plain, plain.Next }),
                    b => Wire.Deserialize<PlainNode[]>(b)),
                ("List<ListNode>", Wire.Serialize(new List<ListNode> { shared, Golden.Graph(1), shared }), b => Wire.Deserialize<List<ListNode>>(b)),
                ("Shape", Wire.Serialize(Golden.Shape()), b => Wire.Deserialize<Shape>(b)),
                ("Dictionary<string, List<int[]>>", Wire.Serialize(new Dictionary<string, List<int[]>> { ["x"] = new() { new[] { 1, 2 }, null } }),
                    b => Wire.Deserialize<Dictionary<string, List<int[]>>>(b)),
            };
        }

        [Fact]
        public void MutatedMessages()
        {
            if (world.Rank != 0) return;
            const int perType = 12_000;
            var corpus = Corpus();
            var rng = new Rng(20260514);
            int decoded = 0, refused = 0;
            var bad = new List<string>();
            foreach (var (name, valid, decode) in corpus)
            {
                decode(valid);  // the valid message itself decodes
                for (int i = 0; i < perType; i++)
                {
                    byte[] m = Mutate(valid, ref rng);
                    try
                    {
                        decode(m);
                        decoded++;
                    }
                    catch (SerializationException)
                    {
                        refused++;
                    }
                    catch (Exception e)
                    {
                        if (bad.Count < 10) bad.Add($"{name}, mutation {i} ({Convert.ToHexString(m)}): {e.GetType().Name}: {e.Message}\n{e.StackTrace}");
                        else bad.Add(null);
                    }
                }
            }
            Console.WriteLine($"wire_fuzz: {decoded + refused + bad.Count} mutated messages of {corpus.Length} types: " +
                              $"{decoded} decoded, {refused} refused (SerializationException), {bad.Count} other");
            Assert.True(decoded + refused + bad.Count >= 100_000);
            Assert.True(bad.Count == 0, $"{bad.Count} mutations escaped with another exception:\n" + string.Join("\n", bad.Where(b => b != null)));
        }

        [Fact]
        public void CorruptMessagesFromAnotherRank()
        {
            int rank = world.Rank, size = world.Size;
            int next = (rank + 1) % size, prev = (rank + size - 1) % size;
            var rng = new Rng(77);
            byte[] valid = Wire.Serialize(Golden.Graph(2));
            var huge = (byte[])valid.Clone();
            BitConverter.TryWriteBytes(huge.AsSpan(4), ulong.MaxValue);  // the first node's data size
            var messages = new List<byte[]> { huge, valid.AsSpan(0, valid.Length - 1).ToArray(), new byte[] { 7, 0, 0, 0x80 } };
            for (int i = 0; i < 20; i++) messages.Add(Mutate(valid, ref rng));
            foreach (var m in messages)
            {
                using var req = world.Isend(m, next, 40);
                try
                {
                    world.ORecv<ListNode>(prev, 40);
                }
                catch (SerializationException)
                {
                }
                req.Wait();
                // The communicator goes on: the next message is a valid one.
                // Sent without blocking: at 1 rank to this process itself, and a blocking send
                // may wait until its receive is posted (MPICH 4.0's send to oneself does).
                using var sent = world.IOSend(Golden.Graph(rank + 1), next, 41);
                Assert.Null(Golden.CheckGraph(world.ORecv<ListNode>(prev, 41), prev + 1));
                sent.Wait();
            }
            Assert.Throws<SerializationException>(() =>
            {
                using var req = world.Isend(huge, next, 42);
                try { world.ORecv<ListNode>(prev, 42); }
                finally { req.Wait(); }
            });
        }
    }
}
