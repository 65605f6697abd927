package mpi;

/** The answer of CartComm.shift(): the ranks to receive from and to send to. */
public final class ShiftParms {
  private final int source, dest;

  ShiftParms(int source, int dest) {
    this.source = source;
    this.dest = dest;
  }

  public int getRankSource() { return source; }

  public int getRankDest() { return dest; }
}
