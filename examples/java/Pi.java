import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;

/**
 * Seed 000, Fig. 2: pi by numerical integration of 4 / (1 + x^2) over [0, 1], the intervals
 * dealt round-robin to the ranks and the partial sums reduced to rank 0.
 * mpirun -np 4 java -cp oompi.jar:. Pi
 */
public class Pi {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank(), size = world.getSize(), nint = 100;  // intervals
      double h = 1.0 / nint, sum = 0.0;
      for (int i = rank + 1; i <= nint; i += size) {
        double x = h * (i - 0.5);
        sum += 4.0 / (1.0 + x * x);
      }
      double[] sBuf = {h * sum}, rBuf = new double[1];
      world.reduce(sBuf, rBuf, Op.SUM, 0);  // count and datatype come from the arrays
      if (rank == 0) {
        System.out.println("PI: " + rBuf[0]);
        // The midpoint rule with 100 intervals is within 1e-5 of pi.
        if (Math.abs(rBuf[0] - Math.PI) > 1e-5) Environment.abort(1);
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);  // never leave the other ranks waiting
    }
  }
}
