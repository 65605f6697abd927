import java.nio.file.Files;
import java.nio.file.Path;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;

/**
 * packaging.install's Java consumer, compiled and run with only the installed oompi.jar on the
 * class path: an allreduce and a ring sendrecv, and the JNI library it loaded must be the
 * installed one (under args[0], the prefix), not the copy inside the jar.
 */
public class Consumer {
  public static void main(String[] args) throws Exception {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int rank = world.getRank(), size = world.getSize();
      int[] sum = new int[1];
      world.allreduce(new int[] {rank + 1}, sum, Op.SUM);
      long[] got = new long[1];
      world.sendrecv(new long[] {rank}, (rank + 1) % size, 0, got, (rank + size - 1) % size, 0);
      String lib = Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .filter(l -> l.endsWith("/liboompi_java.so")).map(l -> l.substring(l.indexOf('/')))
          .findFirst().orElse("(not mapped)");
      String prefix = Path.of(args[0]).toRealPath().toString();
      String error = sum[0] != size * (size + 1) / 2 ? "allreduce gave " + sum[0]
          : got[0] != (rank + size - 1) % size ? "sendrecv gave " + got[0]
          : !Path.of(lib).toRealPath().startsWith(prefix) ? "liboompi_java.so from " + lib
          : null;
      if (error != null) {
        System.err.println("rank " + rank + ": " + error);
        Environment.abort(1);
      }
      if (rank == 0) System.out.println("java consumer: ok, " + lib);
    }
  }
}
