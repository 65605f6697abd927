import org.oompi.Comm;
import org.oompi.Datatype;
import org.oompi.Environment;
import org.oompi.File;
import org.oompi.MPI;
import org.oompi.MPIException;

/**
 * Seed 000, Fig. 4 and Fig. 16: opening a file that is not there raises an MPIException with
 * MPI's error class; then every process loads its fragment of a binary file of ints through a
 * file view (a displacement in bytes, etype and filetype MPI.INT, "native" representation).
 * The file is written first, collectively, so that the example needs nothing beside it.
 * mpirun -np 4 java -cp oompi.jar:. FileView [path]
 */
public class FileView {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      Comm world = Comm.world();
      int myrank = world.getRank();
      int numprocs = world.getSize();
      String filename = args.length > 0 ? args[0]
          : System.getProperty("java.io.tmpdir") + "/oompi_fileview_" + pidOfRankZero(world) + ".bin";

      // Fig. 4: exception handling.
      try {
        File file = File.open(Comm.self(), filename + ".missing", MPI.MODE_RDONLY);
        file.close();
        throw new AssertionError("opened a file that does not exist");
      } catch (MPIException ex) {
        if (myrank == 0) {
          System.err.println("Error Message: " + ex.getMessage());
          System.err.println(" Error Class: " + ex.getErrorClass());
        }
        if (ex.getErrorClass() != MPI.ERR_NO_SUCH_FILE)
          throw new AssertionError("error class " + ex.getErrorClass() + ", not MPI_ERR_NO_SUCH_FILE");
      }

      // The file: 8 ints per process, value i at position i, each process writing its block.
      int per = 8;
      int[] mine = new int[per];
      for (int i = 0; i < per; i++) mine[i] = myrank * per + i;
      try (File out = File.open(world, filename, MPI.MODE_CREATE | MPI.MODE_WRONLY)) {
        out.writeAtAll((long) myrank * per * 4, mine);
      }

      // Fig. 16: each process reads its share of the ints through a view.
      File thefile = File.open(Comm.self(), filename, MPI.MODE_RDONLY);
      long filesize = thefile.getSize() / 4;  // number of ints in the file
      int bufsize = (int) (filesize / numprocs);  // local number of ints to read
      int[] buf = new int[bufsize];
      thefile.setView((long) myrank * bufsize * 4, Datatype.INT, Datatype.INT, "native");
      long got = thefile.read(buf).getCount(Datatype.INT);
      thefile.close();

      if (got != bufsize) throw new AssertionError("read " + got + " ints, not " + bufsize);
      for (int i = 0; i < bufsize; i++)
        if (buf[i] != myrank * bufsize + i)
          throw new AssertionError("int " + i + " is " + buf[i] + ", not " + (myrank * bufsize + i));
      world.barrier();
      if (myrank == 0) File.remove(filename);
      System.out.println("process " + myrank + ": read ints " + buf[0] + ".." + buf[bufsize - 1]);
    }
  }

  private static long pidOfRankZero(Comm world) {
    long[] pid = {ProcessHandle.current().pid()};
    world.bcast(pid, 0);
    return pid[0];
  }
}
