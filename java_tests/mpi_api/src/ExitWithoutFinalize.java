// ompi-java-test's onesided/WinName returns from main without MPI.Finalize(). Package mpi then
// finalizes MPI at exit (docs/migrating.md), so this job exits 0. With "throw" the last rank's
// main throws instead (the others return normally and finalize): the job must fail, not hang.
// With "exit" every rank calls System.exit(0) from main without finalizing: MPI is not finalized
// behind a running main (other ranks could be waiting for it), the job is aborted.
import mpi.*;

public class ExitWithoutFinalize {
  public static void main(String[] args) throws MPIException {
    MPI.Init(args);
    Intracomm world = MPI.COMM_WORLD;
    int me = world.getRank(), n = world.getSize();
    int[] sum = {me};
    world.allReduce(sum, 1, MPI.INT, MPI.SUM);
    if (sum[0] != n * (n - 1) / 2) throw new AssertionError("allReduce: " + sum[0]);
    Intracomm dup = (Intracomm) world.dup();  // left unfreed, as WinName leaves its window
    dup.setName("left to MPI_Finalize");
    String mode = args.length > 0 ? args[0] : "return";
    if (mode.equals("throw") && me == n - 1) throw new IllegalStateException("main throws on purpose");
    if (mode.equals("exit")) System.exit(0);
    if (me == 0) System.out.println("main returns without MPI.Finalize on " + n + " ranks");
  }
}
