import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;

/**
 * The Java program of the slurm.java.* tests (tests/slurm/run.sh), run by the job script
 * tests/slurm/jobs/java.sbatch: each rank prints its node and checks an allreduce. With the
 * argument "fail" the last rank exits with status 3 while the others wait in a barrier that can
 * never complete: the launcher must end them.
 */
public class SlurmJob {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank(), size = world.getSize();
      System.out.printf("rank %d of %d on %s%n", rank, size, Environment.processorName());
      System.out.flush();
      if (args.length > 0 && args[0].equals("fail")) {
        if (rank == size - 1) {
          System.err.println("rank " + rank + ": failing on purpose");
          Runtime.getRuntime().halt(3);
        }
        world.barrier();  // never completes
      }
      int[] sum = new int[1];
      world.allreduce(new int[] {rank + 1}, sum, Op.SUM);
      if (sum[0] != size * (size + 1) / 2) {
        System.err.println("rank " + rank + ": allreduce gave " + sum[0]);
        Environment.abort(1);
      }
      System.out.println("rank " + rank + ": ok");
    }
  }
}
