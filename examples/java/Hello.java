import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;

/** mpirun -np 4 java -cp oompi.jar:. Hello */
public class Hello {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      System.out.printf("hello from rank %d of %d on %s%n", world.getRank(), world.getSize(),
          Environment.processorName());
      int[] one = {1};
      int[] total = new int[1];
      world.allreduce(one, total, Op.SUM);
      if (total[0] != world.getSize()) {
        System.err.println("wrong count: " + total[0]);
        Environment.abort(1);
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);  // never leave the other ranks waiting
    }
  }
}
