import java.nio.ByteBuffer;
import org.oompi.Buffers;
import org.oompi.Comm;
import org.oompi.Environment;
import org.oompi.Struct;

/**
 * Seed 000, Figs. 9 and 10: a complex number as a Struct, an array of them in a direct byte
 * buffer sent with the struct's MPI datatype from rank 0 to rank 1.
 * mpirun -np 2 java -cp oompi.jar:. ComplexNumbers
 */
public class ComplexNumbers {
  /** Fig. 9. */
  public static class Complex extends Struct {
    // This section defines the offsets of the fields.
    private final int real = addDouble(), imag = addDouble();

    // This method tells the super class how to create a data object.
    @Override protected Data newData() { return new Data(); }

    public class Data extends Struct.Data {
      // These methods read from the buffer:
      public double getReal() { return getDouble(real); }
      public double getImag() { return getDouble(imag); }
      // These methods write to the buffer:
      public void putReal(double r) { putDouble(real, r); }
      public void putImag(double i) { putDouble(imag, i); }
    }
  }

  public static void main(String[] args) {
    final int count = 10;
    try (Environment env = new Environment(); Complex type = new Complex()) {
      ByteBuffer buffer = Buffers.newByteBuffer(type.getExtent() * count);
      int rank = Comm.world().getRank();
      if (rank == 0) {  // Fig. 10
        for (int i = 0; i < count; i++) {
          Complex.Data c = type.getData(buffer, i);
          c.putReal(0);
          c.putImag(i * 0.5);
        }
        Comm.world().send(Buffers.typed(buffer, count, type.getType()), 1, 0);
      } else if (rank == 1) {
        Comm.world().recv(Buffers.typed(buffer, count, type.getType()), 0, 0);
        for (int i = 0; i < count; i++) {
          Complex.Data c = type.getData(buffer, i);
          if (c.getReal() != 0 || c.getImag() != i * 0.5) throw new AssertionError("element " + i);
        }
        System.out.println("received " + count + " complex numbers");
      }
    } catch (RuntimeException | AssertionError e) {
      e.printStackTrace();
      Environment.abort(1);
    }
  }
}
