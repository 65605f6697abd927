import java.nio.ByteBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.Op;

/**
 * Seed 000, Fig. 11 (MPI standard example 5.17): each rank has 30 doubles; a MAXLOC reduction
 * over (value, rank) pairs finds, for each position, the largest value and the rank owning it.
 * mpirun -np 4 java -cp oompi.jar:. MaxLoc
 */
public class MaxLoc {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm comm = Comm.world();
      int rank = comm.getRank(), size = comm.getSize(), root = 0;
      double[] ain = new double[30], aout = new double[30];
      int[] ind = new int[30];
      for (int i = 0; i < 30; i++) ain[i] = Math.sin(rank * 30 + i);  // each rank's values

      // {double value; int index} records, as C lays them out (16 bytes).
      final int ext = (int) Datatype.DOUBLE_INT.getExtent();
      ByteBuffer in = Buffers.newByteBuffer(30 * ext), out = Buffers.newByteBuffer(30 * ext);
      for (int i = 0; i < 30; i++) {
        in.putDouble(i * ext, ain[i]);
        in.putInt(i * ext + 8, rank);
      }
      comm.reduce(Buffers.typed(in, 30, Datatype.DOUBLE_INT), Buffers.typed(out, 30, Datatype.DOUBLE_INT),
                  Op.MAXLOC, root);
      // At this point, the answer resides on process root.
      if (rank == root) {
        for (int i = 0; i < 30; i++) {  // read ranks out
          aout[i] = out.getDouble(i * ext);
          ind[i] = out.getInt(i * ext + 8);
          int best = 0;
          for (int r = 1; r < size; r++) if (Math.sin(r * 30 + i) > Math.sin(best * 30 + i)) best = r;
          if (ind[i] != best || aout[i] != Math.sin(best * 30 + i))
            throw new AssertionError("position " + i + ": " + aout[i] + " at rank " + ind[i]);
        }
        System.out.println("maxloc of 30 values over " + size + " ranks: ok");
      }
    } catch (RuntimeException | AssertionError e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
