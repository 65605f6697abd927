using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Reflection;
using System.Text;
using Xunit;

namespace Oompi.Tests
{
    /// <summary>
    /// A binary tree node whose last field is not a link (no tail loop: every child is a
    /// nested call), for the writer's optimistic numbering (IdentityMap.Optimistic).
    /// </summary>
    public sealed class Branch
    {
        [Transportable] public int Id;
        [Transportable] public Branch Left;
        [Transportable] public Branch Right;
        [Transportable] public string Name;
    }

    // ObjectTests, continued: trees numbered without look-ups (verified in batches at 64, 128,
    // ... 4,096 objects, then every 4,096, and at the end), shared and cyclic links met early,
    // late and across the batch edges, the GC moving objects meanwhile, corrupt ids in trees.
    public partial class ObjectTests
    {
        /// <summary>A complete binary tree of n Branches numbered breadth first (so preorder is not allocation order).</summary>
        private static Branch[] Tree(int n)
        {
            var b = new Branch[n];
            for (int i = 0; i < n; i++) b[i] = new Branch { Id = i, Name = "b" + i };
            for (int i = 0; i < n; i++)
            {
                if (2 * i + 1 < n) b[i].Left = b[2 * i + 1];
                if (2 * i + 2 < n) b[i].Right = b[2 * i + 2];
            }
            return b;
        }

        /// <summary>
        /// The bytes docs/wire-format.md gives a Branch graph, written here with a dictionary by
        /// reference (ids in order of first appearance, preorder), independent of Oompi's writer.
        /// </summary>
        private static byte[] BranchBytes(Branch root)
        {
            var ids = new Dictionary<Branch, uint>(ReferenceEqualityComparer.Instance);
            var o = new List<byte>();
            void U32(uint v) { Span<byte> s = stackalloc byte[4]; BinaryPrimitives.WriteUInt32LittleEndian(s, v); o.AddRange(s.ToArray()); }
            void U64(ulong v) { Span<byte> s = stackalloc byte[8]; BinaryPrimitives.WriteUInt64LittleEndian(s, v); o.AddRange(s.ToArray()); }
            // An explicit stack (a deep tree would overflow a recursive walk): fields left to write.
            var todo = new Stack<object>();
            todo.Push(root);
            while (todo.Count > 0)
            {
                switch (todo.Pop())
                {
                    case string s:
                        byte[] u = Encoding.UTF8.GetBytes(s);
                        U64((ulong)u.Length);
                        o.AddRange(u);
                        break;
                    case int id:
                        U32((uint)id);
                        break;
                    case null:
                        U32(0);
                        break;
                    case Branch b when ids.TryGetValue(b, out uint seen):
                        U32(seen);
                        break;
                    case Branch b:
                        uint fresh = (uint)ids.Count + 1;
                        ids.Add(b, fresh);
                        U32(fresh | 0x80000000u);
                        U32((uint)b.Id);
                        todo.Push(b.Name ?? "");
                        todo.Push(b.Right);
                        todo.Push(b.Left);
                        break;
                }
            }
            return o.ToArray();
        }

        private static long SharedRewrites() =>
            (long)(typeof(Wire).GetField("sharedRewrites", BindingFlags.NonPublic | BindingFlags.Static)
                   ?? throw new MissingFieldException("Oompi.Wire.sharedRewrites")).GetValue(null);

        /// <summary>Every Branch reachable from root, in preorder, once each.</summary>
        private static List<Branch> Reachable(Branch root)
        {
            var seen = new HashSet<Branch>(ReferenceEqualityComparer.Instance);
            var order = new List<Branch>();
            var todo = new Stack<Branch>();
            todo.Push(root);
            while (todo.Count > 0)
            {
                var b = todo.Pop();
                if (b is null || !seen.Add(b)) continue;
                order.Add(b);
                todo.Push(b.Right);
                todo.Push(b.Left);
            }
            return order;
        }

        /// <summary>got has sent's shape: the same ids, names and links, shared where sent's are.</summary>
        private static void SameGraph(Branch sent, Branch got)
        {
            var a = Reachable(sent);
            var b = Reachable(got);
            Assert.Equal(a.Count, b.Count);
            var index = new Dictionary<Branch, int>(ReferenceEqualityComparer.Instance);
            for (int i = 0; i < a.Count; i++) index[a[i]] = i;
            var indexGot = new Dictionary<Branch, int>(ReferenceEqualityComparer.Instance);
            for (int i = 0; i < b.Count; i++) indexGot[b[i]] = i;
            for (int i = 0; i < a.Count; i++)
            {
                if (a[i].Id != b[i].Id || a[i].Name != b[i].Name) Assert.Fail($"node {i}: fields");
                int l = a[i].Left is null ? -1 : index[a[i].Left], lg = b[i].Left is null ? -1 : indexGot[b[i].Left];
                int r = a[i].Right is null ? -1 : index[a[i].Right], rg = b[i].Right is null ? -1 : indexGot[b[i].Right];
                if (l != lg || r != rg) Assert.Fail($"node {i}: links {l},{r} came back as {lg},{rg}");
            }
        }

        /// <summary>The graphs of the tests: trees, and trees with a shared or cyclic link added.</summary>
        private static IEnumerable<(string what, Branch root)> TreeCases()
        {
            foreach (int n in new[] { 1, 63, 64, 65, 128, 129, 4096, 4097, 8193, 20000 })
                yield return ($"tree {n}", Tree(n)[0]);
            foreach (int n in new[] { 70, 4097, 20000 })
            {
                var t = Tree(n);
                t[n - 1].Left = t[0];
                yield return ($"{n}: the last node back to the root (a late cycle)", t[0]);
                t = Tree(n);
                t[n - 1].Right = t[n / 3];
                yield return ($"{n}: the last node to node {n / 3} (a late back-reference)", t[0]);
                t = Tree(n);
                t[n - 2].Left = t[n - 1];
                yield return ($"{n}: node {n - 1} shared by its parent and node {n - 2} (a DAG)", t[0]);
                t = Tree(n);
                t[2].Right = t[1];
                yield return ($"{n}: the root's left subtree shared (a DAG of {n} nodes written once)", t[0]);
                t = Tree(n);
                if (n > 3) t[3].Left = t[0];
                yield return ($"{n}: a cycle through the first node, early", t[0]);
            }
            // Objects met in the order they were allocated (keys ascending until the link back):
            // a path of Left links, and a tree just read (preorder is its allocation order).
            var path = new Branch[5000];
            for (int i = 0; i < path.Length; i++) path[i] = new Branch { Id = i, Name = "p" + i };
            for (int i = 0; i + 1 < path.Length; i++) path[i].Left = path[i + 1];
            yield return ("a path in allocation order", path[0]);
            path[^1].Right = path[2500];
            yield return ("a path in allocation order, its last node back to its middle", path[0]);
            var read = Wire.Deserialize<Branch>(Wire.Serialize(Tree(4097)[0]));
            yield return ("a tree just read", read);
            var readNodes = Reachable(read);
            readNodes[^1].Left = readNodes[4000];
            yield return ("a tree just read, its last node to node 4000 of its preorder", read);
            var self = new Branch { Id = 7, Name = "self" };
            self.Left = self;
            self.Right = self;
            yield return ("a node that is its own children", self);
        }

        [Fact]
        public void TreesAndSharedGraphsKeepTheirBytes()
        {
            // Optimistic attempts (after a tree), attempts with look-ups (after a shared graph):
            // every message the bytes of the format, read back with its shared and cyclic links.
            long before = SharedRewrites();
            int shared = 0;
            var small = Tree(5)[0];
            foreach (var (what, root) in TreeCases())
            {
                byte[] expected = BranchBytes(root);
                Wire.Serialize(small);  // a tree: the next message is written optimistically
                for (int k = 0; k < 2; k++)  // after a tree, then after this case
                {
                    byte[] bytes = Wire.Serialize(root);
                    if (!bytes.AsSpan().SequenceEqual(expected)) Assert.Fail($"{what}: other bytes than the format's (message {k})");
                    SameGraph(root, Wire.Deserialize<Branch>(bytes));
                }
                if (Reachable(root).Count != CountWithRepeats(root)) shared++;
            }
            Assert.True(shared >= 15, $"{shared} cases are shared");
            // Each shared case after a tree was written optimistically first, then again.
            Assert.True(SharedRewrites() - before >= shared, $"{SharedRewrites() - before} optimistic attempts written again, {shared} shared cases");
        }

        /// <summary>Nodes met walking every link (a node met twice counts twice; a cycle stops at its second visit).</summary>
        private static int CountWithRepeats(Branch root)
        {
            int count = 0;
            var onPath = new HashSet<Branch>(ReferenceEqualityComparer.Instance);
            var todo = new Stack<(Branch b, bool leave)>();
            todo.Push((root, false));
            while (todo.Count > 0 && count < 1_000_000)
            {
                var (b, leave) = todo.Pop();
                if (leave) { onPath.Remove(b); continue; }
                if (b is null) continue;
                count++;
                if (!onPath.Add(b)) continue;
                todo.Push((b, true));
                todo.Push((b.Right, false));
                todo.Push((b.Left, false));
            }
            return count;
        }

        [Fact]
        public void TreesAndSharedGraphsPointToPoint()
        {
            int tag = 40;
            foreach (var (what, root) in TreeCases())
            {
                var got = Exchange<Branch>(root, tag);
                try
                {
                    SameGraph(root, got);
                }
                catch (Exception e)
                {
                    throw new Exception($"{what}: {e.Message}", e);
                }
            }
        }

        [Fact]
        public void DeepCycleFoundOnTheBigStack()
        {
            // A path of Left links too deep for this thread's stack, closed back to its first
            // node: the optimistic attempt moves to the big stack, meets the first node again,
            // and the message is written again with look-ups (on the big stack too).
            if (Rank != 0) return;  // in process: one rank is enough
            const int n = 200_000;
            var nodes = new Branch[n];
            for (int i = 0; i < n; i++) nodes[i] = new Branch { Id = i };
            for (int i = 0; i + 1 < n; i++) nodes[i].Left = nodes[i + 1];
            Wire.Serialize(Tree(3)[0]);  // the next attempt is optimistic
            byte[] open = Wire.Serialize(nodes[0]);
            Assert.Equal(n * (4L + 4 + 4 + 8) + 4, open.Length);  // per node: id, Id, Right null, Name ""; the last Left null
            nodes[n - 1].Left = nodes[0];
            Wire.Serialize(Tree(3)[0]);
            long before = SharedRewrites();
            byte[] closed = Wire.Serialize(nodes[0]);
            Assert.Equal(before + 1, SharedRewrites());
            // The same bytes but the last Left (after n headers and Ids): null, then id 1.
            Assert.Equal(open.Length, closed.Length);
            Assert.Equal(0u, BinaryPrimitives.ReadUInt32LittleEndian(open.AsSpan(8 * n)));
            Assert.Equal(1u, BinaryPrimitives.ReadUInt32LittleEndian(closed.AsSpan(8 * n)));
            Assert.True(closed.AsSpan(0, 8 * n).SequenceEqual(open.AsSpan(0, 8 * n)), "the path's bytes");
            Assert.True(closed.AsSpan(8 * n + 4).SequenceEqual(open.AsSpan(8 * n + 4)), "the bytes after the path");
            var p = Wire.Deserialize<Branch>(closed);
            var first = p;
            for (int i = 0; i < n; i++, p = p.Left)
                if (p.Id != i) Assert.Fail($"node {i}");
            Assert.Same(first, p);
        }

        [Fact]
        public void TreeBytesSurviveCollectionsWhileWriting()
        {
            // Keys read while writing optimistically hold only while the GC moves nothing: with
            // compacting collections on another thread, every message is the format's bytes
            // (written again by identity hash when a collection came).
            if (Rank != 0) return;
            const int n = 30_000;
            var t = Tree(n);
            t[n - 1].Left = t[n / 2];  // one late back-reference: a missed look-up would unfold it
            byte[] expected = BranchBytes(t[0]);
            var tree = Tree(n);
            byte[] expectedTree = BranchBytes(tree[0]);
            WhileCollecting(rounds =>
            {
                byte[] a = Wire.Serialize(tree[0]);  // optimistic (the message before was a tree)
                if (!a.AsSpan().SequenceEqual(expectedTree)) Assert.Fail($"message {rounds}: the tree's bytes differ");
                byte[] b = Wire.Serialize(t[0]);     // optimistic, then with look-ups
                if (!b.AsSpan().SequenceEqual(expected)) Assert.Fail($"message {rounds}: the shared graph's bytes differ");
                Wire.Serialize(tree[0]);             // with look-ups: back to optimistic after it
            });
        }

        [Fact]
        public void CorruptIdsInTrees()
        {
            // The reader of a tree: an id that is neither the next new one nor one read before
            // is refused, wherever it comes (the first node, a child, the last leaf).
            byte[] good = BranchBytes(Tree(200)[0]);
            SameGraph(Tree(200)[0], Wire.Deserialize<Branch>(good));
            // Offsets of the first three nodes' ids (preorder: 0, 1, 3): each node's header, Id, then its Left.
            var cases = new List<(string what, int at, uint id)>
            {
                ("the root's id not 1", 0, 2u | 0x80000000u),
                ("the root a back-reference", 0, 1u),
                ("a child's new id skipping one", 8, 3u | 0x80000000u),
                ("a child's new id repeating the root's", 8, 1u | 0x80000000u),
                ("a child back to an id not read yet", 8, 5u),
                ("a grandchild back to an id far ahead", 16, 0x7FFFFFFFu),
                ("a new id of 0", 8, 0x80000000u),
            };
            foreach (var (what, at, id) in cases)
            {
                byte[] bad = (byte[])good.Clone();
                BinaryPrimitives.WriteUInt32LittleEndian(bad.AsSpan(at), id);
                try
                {
                    Wire.Deserialize<Branch>(bad);
                    Assert.Fail($"{what}: read");
                }
                catch (SerializationException)
                {
                }
            }
            // The first leaf (node 127, eighth in preorder down the Left links: header and Id
            // at 56 and 60, Left and Right at 64 and 68): its Right to the root is a valid
            // back-reference; to id 9 (not read yet), corrupt.
            byte[] late = (byte[])good.Clone();
            Assert.Equal(0u, BinaryPrimitives.ReadUInt32LittleEndian(late.AsSpan(68)));
            Assert.Equal(8u | 0x80000000u, BinaryPrimitives.ReadUInt32LittleEndian(late.AsSpan(56)));
            BinaryPrimitives.WriteUInt32LittleEndian(late.AsSpan(68), 1u);
            var g = Wire.Deserialize<Branch>(late);
            Assert.Equal(200, Reachable(g).Count);
            var leaf = g;
            for (int i = 0; i < 7; i++) leaf = leaf.Left;
            Assert.Equal(127, leaf.Id);
            Assert.Same(g, leaf.Right);
            BinaryPrimitives.WriteUInt32LittleEndian(late.AsSpan(68), 9u);
            Assert.Throws<SerializationException>(() => Wire.Deserialize<Branch>(late));
        }
    }
}
