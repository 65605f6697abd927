import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.Op;
import org.oompi.UserFunction;

/**
 * Seed 000, Figs. 12-13: a user-defined op equal to MPI.SUM on doubles, written once over
 * arrays (copies) and once over direct buffers (zero-copy views of MPI's memory).
 * mpirun -np 4 java -cp oompi.jar:. UserOp
 */
public class UserOp {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm comm = Comm.world();
      int rank = comm.getRank(), size = comm.getSize();

      UserFunction withArrays = new UserFunction() {  // Fig. 12
        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
          double[] vIn = (double[]) in, vInOut = (double[]) inOut;
          for (int i = 0; i < count; i++) vInOut[i] += vIn[i];
        }
      };
      UserFunction withBuffers = new UserFunction() {  // Fig. 13
        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
          DoubleBuffer bIn = in.asDoubleBuffer(), bInOut = inOut.asDoubleBuffer();
          for (int i = 0; i < count; i++) bInOut.put(i, bInOut.get(i) + bIn.get(i));
        }
      };
      double expect = size * (size + 1) / 2.0;
      try (Op op = new Op(withArrays, true)) {
        double[] sum = new double[1];
        comm.allreduce(new double[] {rank + 1}, sum, op);
        check("arrays", sum[0], expect, rank);
      }
      try (Op op = new Op(withBuffers, true)) {
        DoubleBuffer mine = Buffers.newDoubleBuffer(1).put(0, rank + 1);
        DoubleBuffer sum = Buffers.newDoubleBuffer(1);
        comm.allreduce(mine, sum, op);
        check("direct buffers", sum.get(0), expect, rank);
      }
    }
  }

  static void check(String how, double got, double expect, int rank) {
    if (got != expect) throw new AssertionError(how + ": " + got + " != " + expect);
    if (rank == 0) System.out.println("sum with a user op over " + how + ": " + got);
  }
}
