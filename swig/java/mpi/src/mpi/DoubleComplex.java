package mpi;

import java.nio.DoubleBuffer;

/**
 * A complex number of MPI.DOUBLE_COMPLEX inside a double[] or DoubleBuffer (real and imaginary parts side by
 * side): {@code DoubleComplex.get(buffer, i)} views the i-th one; reads and writes go to the buffer.
 */
public final class DoubleComplex {
  private final DoubleBuffer buffer;

  private DoubleComplex(DoubleBuffer buffer) { this.buffer = buffer; }

  public static DoubleComplex get(DoubleBuffer buffer) { return get(buffer, 0); }

  public static DoubleComplex get(DoubleBuffer buffer, int index) {
    return new DoubleComplex(buffer.duplicate().clear().position(2 * index).limit(2 * index + 2).slice());
  }

  public static DoubleComplex get(double[] array) { return get(array, 0); }

  public static DoubleComplex get(double[] array, int index) { return get(DoubleBuffer.wrap(array), index); }

  public double getReal() { return buffer.get(0); }

  public double getImag() { return buffer.get(1); }

  public void putReal(double real) { buffer.put(0, real); }

  public void putImag(double imag) { buffer.put(1, imag); }

  /** The two-element view of this number. */
  public DoubleBuffer getBuffer() { return buffer; }
}
