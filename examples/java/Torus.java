import org.oompi.CartComm;
import org.oompi.CartShift;
import org.oompi.Comm;
import org.oompi.Environment;

/**
 * Seed 000, Fig. 14: a 2-D periodic torus; every process sends its rank to its neighbour one
 * step back along dimension 0 and receives from the one ahead.
 * mpirun -np 4 java -cp oompi.jar:. Torus
 */
public class Torus {
  public static void main(String[] args) {
    try (Environment env = new Environment()) {
      int size = Comm.world().getSize();
      int[] dims = {0, 0};
      CartComm.createDims(size, dims);
      boolean[] periods = {true, true};
      try (CartComm comm = Comm.world().createCart(dims, periods, false)) {
        int me = comm.getRank();
        int[] coords = comm.coordsOf(me);
        System.out.println("I have coordinates (" + coords[0] + "," + coords[1] + ") on a grid of "
            + comm.dims()[0] + "x" + comm.dims()[1]);
        CartShift shift = comm.shift(0, -1);
        int src = shift.getSource(), dst = shift.getDest();
        int[] sbuf = {me}, rbuf = new int[1];
        comm.sendrecv(sbuf, dst, 1, rbuf, src, 1);
        System.out.println("I am process " + me + ", received " + rbuf[0]);
        if (rbuf[0] != src) throw new AssertionError("expected " + src + ", got " + rbuf[0]);
      }
    }
  }
}
