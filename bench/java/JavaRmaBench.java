import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.oompi.BenchSupport;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Window;

/**
 * java_rma (issue 15), JSON-lines records as in docs/bench.md: put + fence and get + fence of
 * 8 B and 4 MiB between ranks 0 and 1 (every rank targets rank ^ 1). Systems: raw_c
 * (MPI_Put/MPI_Get + MPI_Win_fence in a C loop inside this JVM, through liboompi_java, on its
 * own MPI_Win_create window) and java_direct (Window.put/get of a direct ByteBuffer +
 * fence on a Window.create window). One block per system, case and bench in every round, the
 * order alternating by round; rank 0 times the blocks; ratios are taken within a round.
 *
 * Options: --rounds=N (30) --first-round=R --quick
 */
public final class JavaRmaBench {
  static final List<String> out = new ArrayList<>();

  public static void main(String[] args) {
    boolean quick = BenchArgs.opt(args, "quick", null) != null;
    int rounds = Integer.parseInt(BenchArgs.opt(args, "rounds", quick ? "2" : "30"));
    int first = Integer.parseInt(BenchArgs.opt(args, "first-round", "0"));
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      if (world.getSize() % 2 != 0) {
        if (rank == 0) System.err.println("java_rma: run with an even number of ranks");
        Environment.abort(2);
      }
      int peer = rank ^ 1;
      int big = 4 << 20;
      ByteBuffer rawMem = Buffers.newByteBuffer(big), javaMem = Buffers.newByteBuffer(big);
      ByteBuffer rawBuf = Buffers.newByteBuffer(big), javaBuf = Buffers.newByteBuffer(big);
      long rawWin = BenchSupport.rawWinCreate(rawMem);
      try (Window win = Window.create(world, javaMem)) {
        win.fence();
        if (rank == 0) {
          for (String op : new String[] {"put", "get"})
            out.add("{\"type\":\"meta\",\"bench\":\"java_rma_" + op + "\",\"title\":\"Java " + op
                + " + fence, 2 partners (issue 15)\",\"baseline\":\"raw_c\",\"systems\":[\"raw_c\",\"java_direct\"],"
                + "\"system_labels\":{\"raw_c\":\"MPI_" + (op.equals("put") ? "Put" : "Get")
                + " + MPI_Win_fence (C loop in the JVM process)\",\"java_direct\":\"win." + op
                + "(directBuffer, peer, 0); win.fence()\"},"
                + "\"case_label\":\"message size\",\"case_format\":\"bytes\","
                + "\"metrics\":{\"time_us\":{\"label\":\"time per " + op
                + " + fence\",\"unit\":\"µs\",\"better\":\"lower\",\"plot\":\"loglog\"}},"
                + "\"targets\":[{\"metric\":\"time_us\",\"case\":\"8\",\"system\":\"java_direct\",\"max_ratio\":1.2,"
                + "\"text\":\"issue 15: Java " + op + " + fence of 8 B ≤ 1.2× raw C\"},"
                + "{\"metric\":\"time_us\",\"case\":\"4194304\",\"system\":\"java_direct\",\"max_ratio\":1.2,"
                + "\"text\":\"issue 15: Java " + op + " + fence of 4 MiB ≤ 1.2× raw C\"}],"
                + "\"notes\":[\"raw C runs inside the Java process (a C loop in liboompi_java), interleaved with Java\"]}");
        }
        int[] sizes = {8, big};
        for (int r = first - 1; r < first + rounds; r++) {  // round first-1: warm-up
          for (String op : new String[] {"put", "get"}) {
            boolean put = op.equals("put");
            for (int bytes : sizes) {
              int iters = bytes <= 4096 ? (quick ? 50 : 500) : (quick ? 2 : 10);
              ByteBuffer rb = rawBuf.duplicate().clear().limit(bytes).slice();
              ByteBuffer jb = javaBuf.duplicate().clear().limit(bytes).slice();
              for (int k = 0; k < 2; k++) {
                boolean raw = ((k + r) & 1) == 0;
                world.barrier();
                double t;
                if (raw) {
                  BenchSupport.rawRmaFence(rawWin, rb, peer, 2, put);  // untimed: the epoch's start
                  t = BenchSupport.rawRmaFence(rawWin, rb, peer, iters, put);
                } else {
                  for (int i = 0; i < 2; i++) {  // untimed, as for raw_c
                    if (put) win.put(jb, peer, 0);
                    else win.get(jb, peer, 0);
                    win.fence();
                  }
                  double t0 = Environment.wtime();
                  if (put) {
                    for (int i = 0; i < iters; i++) {
                      win.put(jb, peer, 0);
                      win.fence();
                    }
                  } else {
                    for (int i = 0; i < iters; i++) {
                      win.get(jb, peer, 0);
                      win.fence();
                    }
                  }
                  t = Environment.wtime() - t0;
                }
                if (rank == 0 && r >= first)
                  out.add(String.format("{\"type\":\"sample\",\"bench\":\"java_rma_%s\",\"case\":\"%d\","
                      + "\"system\":\"%s\",\"round\":%d,\"metric\":\"time_us\",\"value\":%.6g}",
                      op, bytes, raw ? "raw_c" : "java_direct", r, t / iters * 1e6));
              }
            }
          }
        }
      }
      BenchSupport.rawWinFree(rawWin);
      world.barrier();
      if (rank == 0) for (String s : out) System.out.println(s);
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
