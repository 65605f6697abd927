import java.nio.IntBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Request;

/**
 * Seed 000, Fig. 6: a nonblocking allgather over direct buffers (nonblocking calls take
 * direct buffers: MPI keeps their address until the request completes).
 * mpirun -np 4 java -cp oompi.jar:. DirectBuffers
 */
public class DirectBuffers {
  static final int MAXLEN = 1000;

  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      int myself = Comm.world().getRank(), tasks = Comm.world().getSize();
      IntBuffer in = Buffers.newIntBuffer(MAXLEN * tasks), out = Buffers.newIntBuffer(MAXLEN);
      for (int i = 0; i < MAXLEN; i++) out.put(i, myself);  // fill the buffer with the rank
      try (Request request = Comm.world().iallgather(out, in)) {
        // do other work here
        request.waitFor();
      }
      for (int i = 0; i < tasks; i++)
        for (int k = 0; k < MAXLEN; k++)
          if (in.get(k + i * MAXLEN) != i) throw new AssertionError("Unexpected value");
      if (myself == 0) System.out.println("allgather of " + tasks + " x " + MAXLEN + " ints: ok");
    } catch (RuntimeException | AssertionError e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
