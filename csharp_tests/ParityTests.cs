namespace Oompi.Tests
{
    /// <summary>Binding parity with the C++ core (issue 15): group rank ranges, ReduceLocal,
    /// in-place v-collectives, IreduceScatter, neighbour v-collectives; info objects, attributes,
    /// alltoallw, graphs, Idup, datatype contents; with their bad inputs.</summary>
    public class ParityTests : WorldTests
    {
        [Fact]
        public void GroupRanges()
        {
            using var g = world.GetGroup();
            using var evens = g.RangeIncl(new[] { 0, Size - 1, 2 });
            using var odds = g.RangeExcl(new[] { 0, Size - 1, 2 });
            using var backwards = g.RangeIncl(new[] { Size - 1, 0, -1 });
            Assert.Equal((Size + 1) / 2, evens.Size);
            Assert.Equal(Size / 2, odds.Size);
            Assert.Equal(new[] { Size - 1 }, backwards.TranslateRanks(new[] { 0 }, g));
            Assert.Throws<ArgumentException>(() => g.RangeIncl(new[] { 0, 1 }));
            Assert.Throws<ArgumentOutOfRangeException>(() => g.RangeIncl(new[] { 0, Size, 1 }));
            Assert.Throws<ArgumentException>(() => g.RangeIncl(new[] { 0, 0, 0 }));
        }

        [Fact]
        public void ReduceLocal()
        {
            var b = new long[] { 10, 10, 10 };
            Op.Sum.ReduceLocal(new long[] { 0, 1, 2 }, b);
            Assert.Equal(new long[] { 10, 11, 12 }, b);
            var c = new double[2];
            Op.Max.ReduceLocal(new double[] { 20, -1 }, c);
            Assert.Equal(new double[] { 20, 0 }, c);
            Assert.Throws<ArgumentException>(() => Op.Sum.ReduceLocal(new double[3], new double[4]));
            Assert.Throws<ArgumentException>(() => Op.Sum.ReduceLocal(new int[3], new double[3]));
        }

        [Fact]
        public void InPlaceVCollectives()
        {
            var counts = Enumerable.Range(1, Size).ToArray();
            var displs = counts.Select((_, r) => counts.Take(r).Sum()).ToArray();
            int total = counts.Sum();
            var expect = Enumerable.Range(0, Size).SelectMany(r => Enumerable.Repeat((double)r, r + 1)).ToArray();
            var buf = Enumerable.Repeat(-1.0, total).ToArray();
            for (int i = 0; i < counts[Rank]; i++) buf[displs[Rank] + i] = Rank;
            world.AllgathervInPlace(buf, counts, displs);
            Assert.Equal(expect, buf);

            var mine = Enumerable.Repeat((double)Rank, counts[Rank]).ToArray();
            var whole = Enumerable.Repeat(-1.0, total).ToArray();
            whole[0] = 0;
            world.GathervInPlace(Rank == 0 ? whole : mine, counts, displs, 0);
            if (Rank == 0) Assert.Equal(expect, whole);

            var blocks = Enumerable.Range(0, Size).Select(r => Rank * 100 + r).ToArray();
            world.AlltoallvInPlace(blocks, Enumerable.Repeat(1, Size).ToArray(), Enumerable.Range(0, Size).ToArray());
            Assert.Equal(Enumerable.Range(0, Size).Select(r => r * 100 + Rank).ToArray(), blocks);

            var bad = (int[])counts.Clone();
            bad[Size - 1] += 5;
            Assert.Throws<ArgumentException>(() => world.AllgathervInPlace(new double[total], bad, displs));
        }

        [Fact]
        public void IreduceScatter()
        {
            var counts = Enumerable.Range(1, Size).ToArray();
            int total = counts.Sum();
            var send = Enumerable.Range(0, total).Select(i => (double)(i + Rank)).ToArray();
            var mine = new double[counts[Rank]];
            using (var req = world.IreduceScatter(send, mine, counts, Op.Sum)) req.Wait();
            int start = counts.Take(Rank).Sum();
            for (int i = 0; i < counts[Rank]; i++)
                Assert.Equal(Enumerable.Range(0, Size).Sum(r => (double)(start + i + r)), mine[i]);
            Assert.Throws<ArgumentException>(() => world.IreduceScatter(send, new double[counts[Rank] + 1], counts, Op.Sum));
        }

        [Fact]
        public void NeighbourVCollectives()
        {
            int left = (Rank - 1 + Size) % Size, right = (Rank + 1) % Size;
            using var g = world.CreateDistGraph(new[] { left }, new[] { right });
            var got = Enumerable.Repeat(-1L, left + 2).ToArray();
            g.NeighborAllgatherv(Enumerable.Repeat((long)Rank, Rank + 1).ToArray(), got, new[] { left + 1 }, new[] { 1 });
            Assert.Equal(new[] { -1L }.Concat(Enumerable.Repeat((long)left, left + 1)).ToArray(), got);
            var into = new int[left + 1];
            g.NeighborAlltoallv(Enumerable.Repeat(Rank, Rank + 1).ToArray(), new[] { Rank + 1 }, new[] { 0 }, into,
                                new[] { left + 1 }, new[] { 0 });
            Assert.All(into, v => Assert.Equal(left, v));
            Assert.Throws<ArgumentException>(() => g.NeighborAllgatherv(new double[1], new double[1], new[] { 1, 1 }, new[] { 0, 0 }));
        }
    
        // --- second part ------------------------------------------------------------------

        [Fact]
        public void InfoObjects()
        {
            using var info = Info.Create();
            info.Set("no_locks", "true");
            info.Set("cb_nodes", "2");
            Assert.Equal(2, info.Size);
            Assert.Equal("2", info.Get("cb_nodes"));
            Assert.True(info.Contains("no_locks"));
            Assert.Contains("cb_nodes", info.Keys());
            var copy = info.Dup();
            Assert.True(info.Remove("cb_nodes"));
            Assert.False(info.Remove("cb_nodes"));
            Assert.Equal(1, info.Size);
            Assert.Equal(2, copy.Size);
            Assert.Throws<ArgumentOutOfRangeException>(() => info.Get("cb_nodes"));
            Assert.Throws<ArgumentException>(() => info.Set("", "x"));
            Assert.Throws<ArgumentException>(() => info.Set(new string('k', 1000), "x"));
            Assert.Throws<ArgumentException>(() => info.Set("k", ""));
            using (var c = world.DupWithInfo(copy))
            {
                Assert.Equal(Size, c.Size);
                c.SetInfo(info);
                using var got = c.GetInfo();
                Assert.False(got.IsNull());
                Assert.Throws<ArgumentException>(() => c.SetInfo(new Info()));
            }
            copy.Dispose();
            copy.Dispose();  // idempotent
            Assert.Throws<ObjectDisposedException>(() => copy.Get("cb_nodes"));
            Assert.Throws<ObjectDisposedException>(() => world.DupWithInfo(copy));
        }

        [Fact]
        public void Attributes()
        {
            using (var copied = Keyval.Create(true))
            using (var priv = Keyval.Create(false))
            {
                long big = (1L << 40) + Rank;
                copied.Set(world, big);
                priv.Set(world, -7);
                Assert.Equal(big, copied.Get(world));
                using (var d = world.Dup())
                {
                    Assert.Equal(big, copied.Get(d));
                    Assert.False(priv.Has(d));
                    Assert.Throws<ArgumentOutOfRangeException>(() => priv.Get(d));
                }
                copied.Set(world, 5);
                Assert.Equal(5, copied.Get(world));
                Assert.True(copied.Remove(world));
                Assert.False(copied.Remove(world));
                Assert.True(priv.Remove(world));
                copied.Dispose();
                Assert.Throws<ObjectDisposedException>(() => copied.Set(world, 1));
            }
            Assert.True(Comm.TagUb() >= 32767);
            Assert.True(Comm.Appnum() >= -1);
            Assert.True(Comm.UniverseSize() == -1 || Comm.UniverseSize() >= 1);  // slots, not ranks
            Comm.WtimeIsGlobal();
        }

        /// <summary>Alltoallw's exchange: to even peers 2 doubles, to odd peers one pair
        /// (per-peer datatypes, the same bytes); every peer receives pairs.</summary>
        private sealed class WCase
        {
            public readonly Datatype Pair = Datatype.Contiguous(2, Datatype.Double);
            public readonly double[] Send, Recv;
            public readonly DatatypeVector STypes, RTypes;
            public readonly int[] SCounts, Ones, Displs;
            private readonly int rank, size;

            public WCase(int rank, int size)
            {
                this.rank = rank;
                this.size = size;
                Send = Enumerable.Range(0, 2 * size).Select(i => (double)(i + 100 * rank)).ToArray();
                Recv = new double[2 * size];
                STypes = new DatatypeVector(Enumerable.Range(0, size).Select(r => r % 2 == 0 ? Datatype.Double : Pair).ToArray());
                RTypes = new DatatypeVector(Enumerable.Repeat(Pair, size).ToArray());
                SCounts = Enumerable.Range(0, size).Select(r => r % 2 == 0 ? 2 : 1).ToArray();
                Ones = Enumerable.Repeat(1, size).ToArray();
                Displs = Enumerable.Range(0, size).Select(r => 16 * r).ToArray();
            }

            public void Check()
            {
                for (int r = 0; r < size; r++)
                {
                    Assert.Equal(100 * r + 2 * rank, Recv[2 * r]);
                    Assert.Equal(100 * r + 2 * rank + 1, Recv[2 * r + 1]);
                }
            }
        }

        [Fact]
        public void Alltoallw()
        {
            var w = new WCase(Rank, Size);
            using var pair = w.Pair;
            var (send, recv, stypes, rtypes) = (w.Send, w.Recv, w.STypes, w.RTypes);
            var (scounts, ones, displs) = (w.SCounts, w.Ones, w.Displs);
            world.Alltoallw(send, scounts, displs, stypes, recv, ones, displs, rtypes);
            w.Check();
            var twos = Enumerable.Repeat(2, Size).ToArray();
            Assert.Throws<ArgumentException>(() => world.Alltoallw(send, scounts, displs, stypes, recv, twos, displs, rtypes));
            var fewer = new DatatypeVector(stypes.Take(Size - 1).ToArray());
            Assert.Throws<ArgumentException>(() => world.Alltoallw(send, scounts, displs, fewer, recv, ones, displs, rtypes));
        }

        [Fact]
        public void NeighbourAlltoallw()
        {
            int left = (Rank - 1 + Size) % Size, right = (Rank + 1) % Size;
            using var g = world.CreateDistGraph(new[] { left }, new[] { right });
            var into = new long[3];
            var longs = new DatatypeVector(new[] { Datatype.Long });
            g.NeighborAlltoallw(new long[] { Rank, Rank * 10L }, new[] { 2 }, new long[] { 0 }, longs,
                                into, new[] { 2 }, new long[] { 8 }, longs);
            Assert.Equal(new long[] { 0, left, left * 10L }, into);
            Assert.Throws<ArgumentException>(() => g.NeighborAlltoallw(new long[2], new[] { 2, 1 }, new long[] { 0, 0 },
                longs, into, new[] { 2 }, new long[] { 8 }, longs));
        }

        /// <summary>Ialltoallw: the arrays pinned until completion, the type disposed while
        /// pending (MPI keeps a type in use), a compacting collection meanwhile.</summary>
        [Fact]
        public void Ialltoallw()
        {
            var w = new WCase(Rank, Size);
            var (send, displs) = (w.Send, w.Displs);
            using (var req = world.Ialltoallw(send, w.SCounts, displs, w.STypes, w.Recv, w.Ones, displs, w.RTypes))
            {
                w.Pair.Dispose();
                GC.Collect(2, GCCollectionMode.Forced, true, true);
                req.Wait();
            }
            w.Check();
            var twos = Enumerable.Repeat(2, Size).ToArray();
            var doubles = new DatatypeVector(Enumerable.Repeat(Datatype.Double, Size).ToArray());
            Assert.Throws<ArgumentException>(() => world.Ialltoallw(send, twos, displs, doubles,
                new double[2 * Size - 1], twos, displs, doubles));
        }

        [Fact]
        public void IneighbourAlltoallw()
        {
            int left = (Rank - 1 + Size) % Size, right = (Rank + 1) % Size;
            using var g = world.CreateDistGraph(new[] { left }, new[] { right });
            var into = new long[3];
            var longs = new DatatypeVector(new[] { Datatype.Long });
            using (var req = g.IneighborAlltoallw(new long[] { Rank, Rank * 10L }, new[] { 2 }, new long[] { 0 },
                                                  longs, into, new[] { 2 }, new long[] { 8 }, longs))
                req.Wait();
            Assert.Equal(new long[] { 0, left, left * 10L }, into);
            Assert.Throws<ArgumentException>(() => g.IneighborAlltoallw(new long[2], new[] { 2, 1 }, new long[] { 0, 0 },
                longs, into, new[] { 2 }, new long[] { 8 }, longs));
        }

        [Fact]
        public void GraphTopology()
        {
            var index = Enumerable.Range(0, Size).Select(i => 2 * (i + 1)).ToArray();
            var edges = Enumerable.Range(0, Size).SelectMany(i => new[] { (i - 1 + Size) % Size, (i + 1) % Size }).ToArray();
            using (var g = world.CreateGraph(index, edges, false))
            {
                Assert.Equal(TopologyKind.Graph, g.Topology());
                Assert.Equal(Size, g.Nnodes());
                Assert.Equal(2 * Size, g.Nedges());
                Assert.Equal(index, g.Index());
                Assert.Equal(edges, g.Edges());
                Assert.Equal(2, g.NeighborsCount(Rank));
                var mine = new[] { (Rank - 1 + Size) % Size, (Rank + 1) % Size };
                Assert.Equal(mine, g.Neighbors());
                var got = new int[2];
                g.NeighborAllgather(new[] { Rank }, got);
                Assert.Equal(mine, got);
                Assert.Throws<ArgumentOutOfRangeException>(() => g.NeighborsCount(Size));
            }
            Assert.Throws<ArgumentOutOfRangeException>(() => world.CreateGraph(new[] { 1 }, new[] { Size }, false));
            Assert.Throws<ArgumentException>(() => world.CreateGraph(new[] { 2, 1 }, new[] { 0, 0 }, false));
        }

        [Fact]
        public void Idup()
        {
            var fut = world.Idup();
            Request.WaitAll(new RequestVector(new[] { fut.GetRequest() }));
            using (var c = fut.Get())
            {
                Assert.Equal(Size, c.Size);
                Assert.Equal(Comparison.Congruent, c.Compare(world));
                var got = new double[1];
                c.Allreduce(new double[] { 1 }, got, Op.Sum);
                Assert.Equal(Size, got[0]);
            }
            using var d = world.Idup().Get();  // Get() waits itself
            Assert.Equal(Rank, d.Rank);
        }

        [Fact]
        public void DatatypeContents()
        {
            Assert.Equal(Mpi.CombinerNamed, Datatype.Double.Combiner());
            Assert.Empty(Datatype.Double.Contents().Integers());
            var v = Datatype.Vector(3, 1, 2, Datatype.Double);
            var c = v.Contents();
            Assert.Equal(Mpi.CombinerVector, c.Combiner);
            Assert.Equal(new[] { 3, 1, 2 }, c.Integers());
            Assert.Empty(c.Addresses());
            Assert.Equal("MPI_DOUBLE", c.Types()[0].Name);
            using (var st = Datatype.CreateStruct(new[] { 1, 2 }, new long[] { 0, 8 }, new DatatypeVector(new[] { Datatype.Int, v })))
            {
                var sc = st.Contents();
                Assert.Equal(Mpi.CombinerStruct, sc.Combiner);
                Assert.Equal(new[] { 2, 1, 2 }, sc.Integers());
                Assert.Equal(new long[] { 0, 8 }, sc.Addresses());
                using var inner = sc.Types()[1];
                Assert.Equal(Mpi.CombinerVector, inner.Combiner());
                Assert.Equal(v.Size, inner.Size);
            }
            v.Dispose();
            Assert.Throws<ObjectDisposedException>(() => v.Contents());
        }
    
        [Fact]
        public void FileHints()
        {
            var pid = new long[] { Environment.ProcessId };
            world.Bcast(pid, 0);
            var p = System.IO.Path.Combine(System.IO.Path.GetTempPath(), $"oompi_csparity_{pid[0]}.bin");
            try
            {
                var hints = Info.Create();
                hints.Set("access_style", "write_once");
                using (var f = MpiFile.Open(world, p, Mpi.ModeCreate | Mpi.ModeRdwr, hints))
                {
                    using (var got = f.GetInfo())
                        Assert.True(got.Size >= 0);  // MPI may drop any hint
                    f.SetInfo(hints);
                    Assert.Throws<ArgumentException>(() => f.SetInfo(new Info()));
                }
                hints.Dispose();
                Assert.Throws<ObjectDisposedException>(() => MpiFile.Open(world, p, Mpi.ModeRdonly, hints));
            }
            finally
            {
                world.Barrier();
                if (Rank == 0) System.IO.File.Delete(p);
            }
        }
    }
}
