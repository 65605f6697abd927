import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.MPI;
import org.oompi.Status;

/**
 * Seed 000, Fig. 5: rank 0 sends five doubles to rank 1, which receives from any source and
 * reads count and source from the Status (two ranks or more).
 * mpirun -np 2 java -cp oompi.jar:. PointToPoint
 */
public class PointToPoint {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm comm = Comm.world();
      int me = comm.getRank();
      double[] data = new double[5];
      if (me == 0) {
        for (int i = 0; i < data.length; i++) data[i] = i * 1.5;
        comm.send(data, 1, 1);
      } else if (me == 1) {
        Status status = comm.recv(data, MPI.ANY_SOURCE, 1);
        long count = status.getCount(Datatype.DOUBLE);
        int src = status.getSource();
        System.out.println("Received " + count + " values from " + src);
        if (count != 5 || src != 0) Environment.abort(1);
        for (int i = 0; i < data.length; i++) if (data[i] != i * 1.5) Environment.abort(1);
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
