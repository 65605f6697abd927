import java.nio.IntBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Window;

/**
 * Seed 000, Fig. 17: every process puts its rank into element `rank` of every process's window
 * (fence synchronisation), then checks that element i of its own window holds i.
 * mpirun -np 4 java -cp oompi.jar:. OneSidedPut
 * (Debian's Open MPI 4.1: run with OMPI_MCA_osc=ucx,sm, see docs/rma.md.)
 */
public class OneSidedPut {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank();
      int size = world.getSize();
      // Window memory must be a direct buffer: MPI keeps its address for the window's life.
      IntBuffer winArea = Buffers.newIntBuffer(size), putVals = Buffers.newIntBuffer(size);
      try (Window win = Window.create(world, winArea)) {
        // Set all the target areas to be -1
        for (int i = 0; i < size; ++i) {
          winArea.put(i, -1);
          putVals.put(i, rank);
        }
        win.fence();
        // Do a put to all other processes: element i of putVals into process i at `rank`
        for (int i = 0; i < size; ++i) win.put(putVals, i, 1, i, rank);
        win.fence();
        // Check to see that we got the right values
        for (int i = 0; i < size; ++i)
          if (winArea.get(i) != i)
            throw new AssertionError("Unexpected value " + winArea.get(i) + " at " + i);
      }
      System.out.println("process " + rank + ": one-sided puts from all " + size + " processes arrived");
    }
  }
}
