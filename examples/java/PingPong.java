import java.nio.ByteBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;

/**
 * Ping-pong between ranks 0 and 1 (8 bytes by default), with a direct buffer and with an
 * array; prints the one-way latency. A sanity figure, not a benchmark (see bench/).
 * mpirun -np 2 java -cp oompi.jar:. PingPong [iterations] [bytes]
 */
public class PingPong {
  public static void main(String[] args) {
    int iters = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
    int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      if (world.getSize() < 2) {
        if (rank == 0) System.out.println("ping-pong needs 2 ranks; nothing to do");
        return;
      }
      ByteBuffer direct = Buffers.newByteBuffer(bytes);
      byte[] array = new byte[bytes];
      for (String kind : new String[] {"direct", "array"}) {
        Object buf = kind.equals("direct") ? direct : array;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 5; round++) {
          world.barrier();
          double t0 = Environment.wtime();
          for (int i = 0; i < iters; i++) {
            if (rank == 0) {
              world.send(buf, 1, 0);
              world.recv(buf, 1, 0);
            } else if (rank == 1) {
              world.recv(buf, 0, 0);
              world.send(buf, 0, 0);
            }
          }
          best = Math.min(best, (Environment.wtime() - t0) / iters / 2);
        }
        if (rank == 0)
          System.out.printf("java %s %d B: %.3f us one way (best of 5 x %d)%n", kind, bytes,
              best * 1e6, iters);
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
