package org.oompi.tests;

import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Intercomm;
import org.oompi.Op;

/** The child's side of java.dynamic (DynamicTest): started by comm.spawn, never by JUnit. */
public final class DynamicChildJava {
  private DynamicChildJava() {}

  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      Intercomm parent = Intercomm.parent();
      if (parent.isNull()) {
        System.err.println("DynamicChildJava: no parent");
        System.exit(2);
      }
      // Report (rank, size, argument count, 1 when the working directory is /tmp: the "wdir"
      // hint of spawnMultiple), then a collective over parents and children merged (children
      // last).
      int inTmp = new java.io.File("").getAbsolutePath().equals("/tmp") ? 1 : 0;
      parent.send(new int[] {world.getRank(), world.getSize(), args.length, inTmp}, 0, 0);
      Comm merged = parent.merge(true);
      long[] total = new long[1];
      merged.allreduce(new long[] {merged.getRank()}, total, Op.SUM);
      parent.send(total, 0, 1);
      merged.disconnect();
      parent.disconnect();
    }
  }
}
