import java.nio.file.Files;
import java.nio.file.Path;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Op;

/**
 * packaging.install's Java consumer, compiled and run with only the installed oompi.jar on the
 * class path: an allreduce and a ring sendrecv, and the JNI library it loaded must be the
 * installed one (under args[0], the prefix), not the copy inside the jar. With args[0] "jar"
 * (packaging.jar: the jar alone in an empty directory) it must be the jar's own copy instead,
 * extracted to a temporary file and deleted once loaded.
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
          .filter(l -> l.contains("/liboompi_java.so")).map(l -> l.substring(l.indexOf('/')))
          .findFirst().orElse("(not mapped)");
      boolean fromJar = args[0].equals("jar");
      boolean right = fromJar
          ? lib.matches(".*/oompi-native[^/]*/liboompi_java\\.so \\(deleted\\)")
          : Files.exists(Path.of(lib))
              && Path.of(lib).toRealPath().startsWith(Path.of(args[0]).toRealPath());
      String error = sum[0] != size * (size + 1) / 2 ? "allreduce gave " + sum[0]
          : got[0] != (rank + size - 1) % size ? "sendrecv gave " + got[0]
          : !right ? "liboompi_java.so from " + lib
          : null;
      if (error != null) {
        System.err.println("rank " + rank + ": " + error);
        Environment.abort(1);
      }
      if (rank == 0) System.out.println("java consumer: ok, " + lib);
    }
  }
}
