using System;
using Oompi;

namespace MPI
{
    /// <summary>A set of processes, ordered by rank (MPI.NET's Group over oompi's Group).</summary>
    public class Group : IDisposable
    {
        internal readonly Oompi.Group group;

        internal Group(Oompi.Group group) => this.group = group;

        /// <summary>The group with no processes.</summary>
        public static Group empty => new(Oompi.Group.Empty());

        /// <summary>Rank of a process that is not a member (MPI_UNDEFINED).</summary>
        public static readonly int NoProcess = Mpi.Undefined;

        /// <summary>The number of members.</summary>
        public int Size => Call(() => group.Size);

        /// <summary>This process's rank in the group, or <see cref="NoProcess"/>.</summary>
        public int Rank => Call(() => group.Rank);

        /// <summary>The members with the given ranks, in that order.</summary>
        public Group IncludeOnly(int[] ranks) => Call(() => new Group(group.Incl(ranks)));

        /// <summary>All members but those with the given ranks.</summary>
        public Group Exclude(int[] ranks) => Call(() => new Group(group.Excl(ranks)));

        /// <summary>The ranks in <paramref name="other"/> of the members with <paramref name="ranks"/> here (<see cref="NoProcess"/> when not there).</summary>
        public int[] TranslateRanks(int[] ranks, Group other)
        {
            if (other is null) throw new ArgumentNullException(nameof(other));
            return Call(() => group.TranslateRanks(ranks, other.group));
        }

        /// <summary>How this group relates to <paramref name="other"/> (Identical, Similar or Unequal).</summary>
        public Comparison Compare(Group other)
        {
            if (other is null) throw new ArgumentNullException(nameof(other));
            return Call(() => (Comparison)(int)group.Compare(other.group));
        }

        /// <summary>The members of a, then those of b not in a.</summary>
        public static Group operator |(Group a, Group b) => Pair(a, b, (x, y) => x.SetUnion(y));
        /// <summary>The members of a that are in b.</summary>
        public static Group operator &(Group a, Group b) => Pair(a, b, (x, y) => x.SetIntersection(y));
        /// <summary>The members of a that are not in b.</summary>
        public static Group operator -(Group a, Group b) => Pair(a, b, (x, y) => x.SetDifference(y));

        private static Group Pair(Group a, Group b, Func<Oompi.Group, Oompi.Group, Oompi.Group> f)
        {
            if (a is null) throw new ArgumentNullException(nameof(a));
            if (b is null) throw new ArgumentNullException(nameof(b));
            return Call(() => new Group(f(a.group, b.group)));
        }

        private static R Call<R>(Func<R> f)
        {
            try { return f(); }
            catch (MpiException e) { throw Errors.Translate(e); }
        }

        /// <summary>Frees the group. Idempotent.</summary>
        public void Dispose()
        {
            group.Dispose();
            GC.SuppressFinalize(this);
        }
    }
}
