import java.nio.DoubleBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Request;

/**
 * A token goes round the ring, each rank adding its rank; then every rank passes a direct
 * buffer to its right neighbour with nonblocking calls. mpirun -np 4 java -cp oompi.jar:. Ring
 */
public class Ring {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank(), size = world.getSize();
      int next = (rank + 1) % size, prev = (rank + size - 1) % size;

      long[] token = {0};
      if (rank == 0) {
        // Send and receive in one call: on one rank the token goes to rank 0 itself, and a
        // blocking send with no receive posted may wait for ever (MPICH's does).
        long[] back = {0};
        world.sendrecv(token, next, 0, back, prev, 0);
        long expected = (long) size * (size - 1) / 2;
        System.out.printf("token came back with %d (expected %d)%n", back[0], expected);
        if (back[0] != expected) Environment.abort(1);
      } else {
        world.recv(token, prev, 0);
        token[0] += rank;
        world.send(token, next, 0);
      }

      DoubleBuffer out = Buffers.newDoubleBuffer(3), in = Buffers.newDoubleBuffer(3);
      for (int i = 0; i < 3; i++) out.put(i, rank + i / 10.0);
      Request r = world.irecv(in, prev, 1);
      Request s = world.isend(out, next, 1);
      r.waitFor();
      s.waitFor();
      for (int i = 0; i < 3; i++) {
        if (in.get(i) != prev + i / 10.0) {
          System.err.printf("rank %d: wrong value %f at %d%n", rank, in.get(i), i);
          Environment.abort(1);
        }
      }
    } catch (RuntimeException e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
