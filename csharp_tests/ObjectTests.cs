using System;
using System.Collections.Generic;
using System.Linq;
using Xunit;

namespace Oompi.Tests
{
    /// <summary>Object graphs in wire format v1: golden bytes, point to point, collectives, bad input.</summary>
    public partial class ObjectTests : WorldTests
    {
        // A message round the ring: the blocking `send`, then `recv`. At 1 rank it goes to this
        // process itself, and a blocking send may wait until its receive is posted (MPICH 4.0's
        // send to oneself does): there the same message goes out with `isend`.
        private T Ring<T>(Action send, Func<Request> isend, Func<T> recv)
        {
            if (Next != Rank)
            {
                send();
                return recv();
            }
            using Request sent = isend();
            T got = recv();
            sent.Wait();
            return got;
        }

        // --- golden bytes, both directions -------------------------------------------------

        [Fact]
        public void GoldenWrite()
        {
            Assert.Equal(Golden.Bytes("int_vector.bin"), Wire.Serialize(new[] { 1, -2, 3, int.MaxValue, int.MinValue }));
            Assert.Equal(Golden.Bytes("int_vector.bin"), Wire.Serialize(new List<int> { 1, -2, 3, int.MaxValue, int.MinValue }));
            Assert.Equal(Golden.Bytes("string.bin"), Wire.Serialize("h\u00e9llo, w\u00f6rld \u2713"));
            Assert.Equal(Golden.Bytes("nested_struct.bin"), Wire.Serialize(Golden.Shape()));
            Assert.Equal(Golden.Bytes("nested_struct.bin"), Wire.Serialize(Golden.ShapeClass()));
            Assert.Equal(Golden.Bytes("shared_cyclic_list.bin"), Wire.Serialize(Golden.Graph()));
            Assert.Equal(Golden.Bytes("shared_cyclic_list.bin"), Wire.Serialize<object>(Golden.Graph()));
        }

        [Fact]
        public void GoldenRead()
        {
            Assert.Equal(new[] { 1, -2, 3, int.MaxValue, int.MinValue }, Wire.Deserialize<int[]>(Golden.Bytes("int_vector.bin")));
            Assert.Equal(new List<int> { 1, -2, 3, int.MaxValue, int.MinValue }, Wire.Deserialize<List<int>>(Golden.Bytes("int_vector.bin")));
            Assert.Equal("h\u00e9llo, w\u00f6rld \u2713", Wire.Deserialize<string>(Golden.Bytes("string.bin")));
            var s = Wire.Deserialize<Shape>(Golden.Bytes("nested_struct.bin"));
            CheckShape(s, Golden.Shape());
            var sc = Wire.Deserialize<ShapeClass>(Golden.Bytes("nested_struct.bin"));
            Assert.Equal("triangle", sc.Name);
            Assert.Equal(3, sc.Corners.Count);
            Assert.Equal(new List<int> { 7, 11 }, sc.Tags);
            Assert.Equal("default", sc.NotSent);
            Assert.Null(Golden.CheckGraph(Wire.Deserialize<ListNode>(Golden.Bytes("shared_cyclic_list.bin"))));
        }

        /// <summary>
        /// Strings of every length around the inline ASCII paths (up to 32 chars, two overlapping
        /// blocks of 8 or 16 from 8 on): the bytes are exactly UTF-8's, and read back, with one
        /// character that is not ASCII (0x80, 2-, 3- and 4-byte, a lone surrogate) at the first,
        /// the middle or the last place, or none.
        /// </summary>
        [Fact]
        public void ShortStringsAreUtf8()
        {
            var utf8 = new System.Text.UTF8Encoding(false);
            foreach (string other in new[] { "", "\u007f", "\u0080", "\u00e9", "\u2713", "\U0001F600", "\ud800" })
                for (int n = 0; n <= 36; n++)
                    foreach (int at in new[] { 0, n / 2, n })
                    {
                        if (other.Length == 0 && at != 0) continue;
                        string ascii = new string(Enumerable.Range(0, n).Select(i => (char)('a' + i % 26)).ToArray());
                        string s = ascii.Insert(at, other);
                        byte[] body = utf8.GetBytes(s);
                        byte[] want = BitConverter.GetBytes((ulong)body.Length).Concat(body).ToArray();
                        Assert.Equal(want, Wire.Serialize(s));
                        Assert.Equal(utf8.GetString(body), Wire.Deserialize<string>(want));
                        // A chain type (its strings with varint sizes) and a class with a string field.
                        var item = Wire.Deserialize<ChainItem>(Wire.Serialize(new ChainItem { Name = s, Next = new ChainItem { Name = s } }));
                        Assert.Equal(utf8.GetString(body), item.Name);
                        Assert.Equal(utf8.GetString(body), item.Next.Name);
                        Assert.Equal(utf8.GetString(body), Wire.Deserialize<MarkedPoint>(Wire.Serialize(new MarkedPoint { Name = s })).Name);
                    }
            // Bytes that are not UTF-8 read as Encoding.UTF8 reads them (U+FFFD), at every length.
            for (int n = 1; n <= 36; n++)
                for (int at = 0; at < n; at++)
                {
                    byte[] body = Enumerable.Range(0, n).Select(i => i == at ? (byte)0xFF : (byte)'x').ToArray();
                    byte[] msg = BitConverter.GetBytes((ulong)n).Concat(body).ToArray();
                    Assert.Equal(utf8.GetString(body), Wire.Deserialize<string>(msg));
                }
        }

        private static void CheckShape(Shape got, Shape want)
        {
            Assert.Equal(want.Name, got.Name);
            Assert.Equal(want.Id, got.Id);
            Assert.Equal(want.Closed, got.Closed);
            Assert.Equal(want.Origin, got.Origin);
            Assert.Equal(want.Corners, got.Corners);
            Assert.Equal(want.Tags, got.Tags);
            Assert.Equal(want.Scale, got.Scale);
            Assert.Equal(want.Layer, got.Layer);
            Assert.Equal(want.Depth, got.Depth);
        }

        // --- point to point -------------------------------------------------------------------

        /// <summary>Sends obj to Next and receives a T from Prev (safe at one rank: IOSend).</summary>
        private T Exchange<T>(object obj, int tag)
        {
            using var req = world.IOSend(obj, Next, tag);
            T got = world.ORecv<T>(Prev, tag);
            req.Wait();
            return got;
        }

        [Fact]
        public void RingGraphAndShape()
        {
            Status st = null;
            var got = Ring(() => world.OSend(Golden.Graph(Rank + 1), Next, 21),
                           () => world.IOSend(Golden.Graph(Rank + 1), Next, 21),
                           () => world.ORecv<ListNode>(Prev, 21, out st));
            Assert.Null(Golden.CheckGraph(got, Prev + 1));
            Assert.Equal(Prev, st.Source);
            Assert.Equal(21, st.Tag);
            Assert.Null(got.Next2);

            var shape = Golden.Shape();
            shape.Id += Rank;
            var s = Ring(() => world[Next].OSend(shape, 22), () => world.IOSend(shape, Next, 22),
                         () => world[Prev].ORecv<Shape>(22));
            var want = Golden.Shape();
            want.Id += Prev;
            CheckShape(s, want);

            object shapeClass = Golden.ShapeClass();  // run-time type
            Assert.Equal(-1234567890123, Ring(() => world.OSend(shapeClass, Next, 23),
                                              () => world.IOSend(shapeClass, Next, 23),
                                              () => world.ORecv<ShapeClass>(Prev, 23)).Id);
        }

        [Fact]
        public void ConcurrentReceivesTakeWholeMessages()
        {
            // Two threads receive from the same source and tag at once: the matched probe gives
            // each one whole message (a probe followed by a receive could mix them up).
            const int count = 40;
            var reqs = new Request[count];
            for (int i = 0; i < count; i++) reqs[i] = world.IOSend(Chain(100 + i, true), Next, 31);
            var got = new System.Collections.Concurrent.ConcurrentBag<int>();
            Exception failure = null;
            var threads = Enumerable.Range(0, 2).Select(_ => new System.Threading.Thread(() =>
            {
                try
                {
                    for (int i = 0; i < count / 2; i++)
                    {
                        var head = world.ORecv<ListNode>(Prev, 31);
                        int n = 0;
                        for (var p = head; p != null; p = p.Next, n++)
                            if (!ReferenceEquals(p.Other, head)) throw new Exception("other is not the head");
                        got.Add(n);
                    }
                }
                catch (Exception e) { failure = e; }
            })).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => t.Join());
            foreach (var r in reqs) { r.Wait(); r.Dispose(); }
            Assert.Null(failure);
            Assert.Equal(Enumerable.Range(100, count), got.OrderBy(x => x));
        }

        [Fact]
        public void NonblockingReceive()
        {
            using var pending = world.IORecv<ListNode>(Prev, 32);
            using var numbers = world.IORecv<int[]>(Prev, 33);
            Assert.False(pending.IsCompleted);
            using (var s1 = world.IOSend(Golden.Graph(3), Next, 32))
            using (var s2 = world.IOSend(new[] { 1, 2 }, Next, 33))
            {
                while (!pending.Test()) System.Threading.Thread.Yield();
                Assert.Null(Golden.CheckGraph(pending.Wait(), 3));
                Assert.Equal(Prev, pending.Status.Source);
                Assert.Equal(32, pending.Status.Tag);
                Assert.Equal(new[] { 1, 2 }, numbers.Wait());
                s1.Wait();
                s2.Wait();
            }
            // A corrupt message: Test and Wait throw, and keep throwing.
            using var bad = world.IORecv<ListNode>(Prev, 34);
            using (var s = world.Isend(new byte[] { 7, 0, 0, 0x80 }, Next, 34))
            {
                Assert.Throws<SerializationException>(() => bad.Wait());
                Assert.Throws<SerializationException>(() => bad.Test());
                s.Wait();
            }
            Assert.Throws<ArgumentException>(() => world.IORecv<NotMarked>(Prev, 35));
        }

        /// <summary>
        /// Arrays of a class whose fields hold no references: their new elements are read
        /// without entering the reader's table until an id is looked up (WireReader.ReadFreshArray).
        /// Shared elements, nulls, references into an array from later fields and arrays, and
        /// corrupt ids inside such an array are read as before.
        /// </summary>
        [Fact]
        public void ArraysOfPlainRecordsKeepIdentity()
        {
            static Reading R(int i) => new() { Key = i * 1_000_003L, Label = new string((char)('a' + i % 26), 1 + i % 20), Values = new[] { i, i + 0.5 }, Flag = i % 2 == 0 };
            static void Same(Reading want, Reading got)
            {
                Assert.Equal(want.Key, got.Key);
                Assert.Equal(want.Label, got.Label);
                Assert.Equal(want.Values, got.Values);
                Assert.Equal(want.Flag, got.Flag);
            }
            var r = Enumerable.Range(0, 6).Select(R).ToArray();
            // Shared elements and nulls inside one array, point to point.
            var a = new[] { r[0], r[1], null, r[1], r[2], r[0], r[3] };
            var got = Ring(() => world.OSend(a, Next, 26), () => world.IOSend(a, Next, 26), () => world.ORecv<Reading[]>(Prev, 26));
            Assert.Equal(a.Length, got.Length);
            for (int i = 0; i < a.Length; i++)
                if (a[i] is null) Assert.Null(got[i]); else Same(a[i], got[i]);
            Assert.Same(got[1], got[3]);
            Assert.Same(got[0], got[5]);
            Assert.Equal(4, got.Where(x => x is not null).Distinct().Count());
            Assert.Equal(Wire.Serialize(a), Wire.Serialize(got));
            // References into the array from a field and a second array after it (the run enters
            // the table then), and from inner arrays of an array of arrays.
            var pick = new Readings { All = r[..5], Pick = r[3], Again = new[] { r[4], r[5], r[1] } };
            var p = Wire.Deserialize<Readings>(Wire.Serialize(pick));
            for (int i = 0; i < 5; i++) Same(r[i], p.All[i]);
            Assert.Same(p.All[3], p.Pick);
            Assert.Same(p.All[4], p.Again[0]);
            Assert.Same(p.All[1], p.Again[2]);
            Same(r[5], p.Again[1]);
            Assert.Equal(6, p.All.Concat(p.Again).Distinct().Count());
            var nested = Wire.Deserialize<Reading[][]>(Wire.Serialize(new[] { r[..3], new Reading[0], new[] { r[3], r[2], null, r[0], r[4] } }));
            Assert.Same(nested[0][2], nested[2][1]);
            Assert.Same(nested[0][0], nested[2][3]);
            Assert.Null(nested[2][2]);
            Same(r[4], nested[2][4]);
            // Many elements, the last few referring back across the table's growth.
            var many = Enumerable.Range(0, 20_000).Select(R).ToList();
            many.AddRange(new[] { many[0], many[19_999], many[10_000] });
            var m = Wire.Deserialize<Reading[]>(Wire.Serialize(many.ToArray()));
            Assert.Same(m[0], m[20_000]);
            Assert.Same(m[19_999], m[20_001]);
            Assert.Same(m[10_000], m[20_002]);
            Same(many[12_345], m[12_345]);
            // Corrupt ids among the elements: each record (labels of 1 char) takes
            // 4 + 8 + (8 + 1) + (8 + 16) + 1 bytes.
            byte[] bytes = Wire.Serialize(new[] { R(0), R(20), R(40) });
            const int Size = 46;
            Assert.Equal(8 + 3 * Size, bytes.Length);
            byte[] Patch(int element, uint header)
            {
                var b = (byte[])bytes.Clone();
                BitConverter.TryWriteBytes(b.AsSpan(8 + element * Size), header);
                return b;
            }
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() => Wire.Deserialize<Reading[]>(Patch(1, 0x80000003u))).Message);
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() => Wire.Deserialize<Reading[]>(Patch(0, 0x80000002u))).Message);
            Assert.Contains("not seen yet", Assert.Throws<SerializationException>(() => Wire.Deserialize<Reading[]>(Patch(1, 2u))).Message);
            // The second element a back-reference to the first, the third then new object 2;
            // with the third still numbered 3, out of sequence.
            var shortened = Patch(1, 1u)[..(8 + Size + 4)].Concat(Patch(2, 0x80000002u)[(8 + 2 * Size)..]).ToArray();
            var back = Wire.Deserialize<Reading[]>(shortened);
            Assert.Same(back[0], back[1]);
            Same(R(40), back[2]);
            shortened = Patch(1, 1u)[..(8 + Size + 4)].Concat(bytes[(8 + 2 * Size)..]).ToArray();
            Assert.Contains("out of sequence", Assert.Throws<SerializationException>(() => Wire.Deserialize<Reading[]>(shortened)).Message);
            // A reference to an element from a field of another class: refused by type.
            var mixed = Wire.Serialize(new ReadingAndNode { All = new[] { R(1) }, Node = new PlainNode { Data = new[] { 1 } } });
            BitConverter.TryWriteBytes(mixed.AsSpan(mixed.Length - 4 - 12 - 4), 1u);  // Node: back to element 1
            Assert.Contains("another type", Assert.Throws<SerializationException>(() => Wire.Deserialize<ReadingAndNode>(mixed[..^16])).Message);
        }

        /// <summary>
        /// Wire.Serialize into an IBufferWriter writes in the destination's own array when it
        /// lends one up to its end (no copy): after what it holds, growing past it, appended
        /// twice; a destination that lends memory of no array or not up to its end gets a copy
        /// and nothing outside what it gave; a failed write leaves it as it was.
        /// </summary>
        [Fact]
        public void BufferWriterOverloadWritesInPlace()
        {
            var value = Enumerable.Range(0, 20_000).Select(i => new Reading { Key = i, Label = "r" + i, Values = new double[] { i }, Flag = true }).ToArray();
            value[19_999] = value[3];
            byte[] want = Wire.Serialize(value);
            foreach (int capacity in new[] { 16, 1 << 22 })
            {
                var sink = new System.Buffers.ArrayBufferWriter<byte>(capacity);
                System.Buffers.BuffersExtensions.Write(sink, new byte[] { 1, 2, 3, 4, 5 });
                Assert.Equal(want.Length, Wire.Serialize(value, sink));
                Assert.Equal(want.Length, Wire.Serialize(value, sink));
                Assert.Equal(5 + 2 * want.Length, sink.WrittenCount);
                Assert.Equal(new byte[] { 1, 2, 3, 4, 5 }, sink.WrittenSpan[..5].ToArray());
                Assert.True(sink.WrittenSpan[5..(5 + want.Length)].SequenceEqual(want));
                Assert.True(sink.WrittenSpan[(5 + want.Length)..].SequenceEqual(want));
                var back = Wire.Deserialize<Reading[]>(sink.WrittenSpan[5..(5 + want.Length)]);
                Assert.Same(back[3], back[19_999]);
            }
            // Memory that ends before its array does: a copy, the bytes around it untouched.
            var part = new PartSink(want.Length);
            Assert.Equal(want.Length, Wire.Serialize(value, part));
            Assert.True(part.Array.AsSpan(PartSink.Before, want.Length).SequenceEqual(want));
            Assert.Equal(-1, part.Array.AsSpan(0, PartSink.Before).IndexOfAnyExcept((byte)0xEE));
            Assert.Equal(-1, part.Array.AsSpan(PartSink.Before + want.Length).IndexOfAnyExcept((byte)0xEE));
            // A failed write (a subclass where the field says its base class) advances nothing,
            // and the next write starts where the destination was.
            var into = new System.Buffers.ArrayBufferWriter<byte>(1 << 16);
            Assert.Throws<SerializationException>(() => Wire.Serialize(new Holder { Item = new Derived() }, into));
            Assert.Equal(0, into.WrittenCount);
            Wire.Serialize(value[..10], into);
            Assert.True(into.WrittenSpan.SequenceEqual(Wire.Serialize(value[..10])));
        }

        /// <summary>An IBufferWriter that lends the middle of a larger array (0xEE around it).</summary>
        private sealed class PartSink : System.Buffers.IBufferWriter<byte>
        {
            internal const int Before = 100;
            internal readonly byte[] Array;
            private int count;
            internal PartSink(int room)
            {
                Array = new byte[Before + room + 100];
                Array.AsSpan().Fill(0xEE);
            }
            public void Advance(int n) => count += n;
            public Memory<byte> GetMemory(int hint = 0) => Array.AsMemory(Before + count, Array.Length - 100 - Before - count);
            public Span<byte> GetSpan(int hint = 0) => GetMemory(hint).Span;
        }

        [Fact]
        public void NullReferences()
        {
            Assert.Null(Ring(() => world.OSend<ListNode>(null, Next, 24), () => world.IOSend<ListNode>(null, Next, 24),
                             () => world.ORecv<ListNode>(Prev, 24)));
            var n = new ListNode(5) { Other = null, Next = null };
            var got = Ring(() => world.OSend(n, Next, 25), () => world.IOSend(n, Next, 25),
                           () => world.ORecv<ListNode>(Prev, 25));
            Assert.Equal(new[] { 5 }, got.Data);
            Assert.Null(got.Other);
            Assert.Null(got.Next);
            Assert.Equal(new byte[] { 0, 0, 0, 0 }, Wire.Serialize<ListNode>(null));
            var h = new Holder();
            Assert.Null(Wire.Deserialize<Holder>(Wire.Serialize(h)).Item);
            // ProcNull: nothing is sent, nothing arrives.
            world.OSend(n, Mpi.ProcNull, 1);
            Assert.Null(world.ORecv<ListNode>(Mpi.ProcNull, 1));
        }
    }
    /// <summary>A flat record: no field holds a reference (arrays of it read as runs).</summary>
    public sealed class Reading
    {
        [Transportable] public long Key;
        [Transportable] public string Label;
        [Transportable] public double[] Values;
        [Transportable] public bool Flag;
    }

    public sealed class Readings
    {
        [Transportable] public Reading[] All;
        [Transportable] public Reading Pick;
        [Transportable] public Reading[] Again;
    }

    public sealed class ReadingAndNode
    {
        [Transportable] public Reading[] All;
        [Transportable] public PlainNode Node;
    }
}
