import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;

/**
 * Seed 000, Fig. 8: a derived datatype sends the leading 3x3 block of an N x N matrix stored
 * as a flat array, from rank 0 to rank 1 (seed: {@code send(A, 1, blk, 1, 0)}).
 * mpirun -np 2 java -cp oompi.jar:. VectorBlock
 */
public class VectorBlock {
  static final int N = 6;

  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      double[] a = new double[N * N];  // flattened 2D matrix
      int rank = Comm.world().getRank();
      try (Datatype blk = Datatype.vector(3, 3, N, Datatype.DOUBLE)) {  // committed when made
        if (rank == 0) {
          for (int i = 0; i < N * N; i++) a[i] = i;
          Comm.world().send(Buffers.typed(a, 1, blk), 1, 0);
        } else if (rank == 1) {
          Comm.world().recv(Buffers.typed(a, 1, blk), 0, 0);
          for (int i = 0; i < N * N; i++) {
            double expected = (i / N < 3 && i % N < 3) ? i : 0;  // only the block arrived
            if (a[i] != expected) throw new AssertionError("a[" + i + "] = " + a[i]);
          }
          System.out.println("received the 3x3 block of a " + N + "x" + N + " matrix");
        }
      }
    } catch (RuntimeException | AssertionError e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
