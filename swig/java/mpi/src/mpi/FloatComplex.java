package mpi;

import java.nio.FloatBuffer;

/**
 * A complex number of MPI.FLOAT_COMPLEX inside a float[] or FloatBuffer (real and imaginary parts side by
 * side): {@code FloatComplex.get(buffer, i)} views the i-th one; reads and writes go to the buffer.
 */
public final class FloatComplex {
  private final FloatBuffer buffer;

  private FloatComplex(FloatBuffer buffer) { this.buffer = buffer; }

  public static FloatComplex get(FloatBuffer buffer) { return get(buffer, 0); }

  public static FloatComplex get(FloatBuffer buffer, int index) {
    return new FloatComplex(buffer.duplicate().clear().position(2 * index).limit(2 * index + 2).slice());
  }

  public static FloatComplex get(float[] array) { return get(array, 0); }

  public static FloatComplex get(float[] array, int index) { return get(FloatBuffer.wrap(array), index); }

  public float getReal() { return buffer.get(0); }

  public float getImag() { return buffer.get(1); }

  public void putReal(float real) { buffer.put(0, real); }

  public void putImag(float imag) { buffer.put(1, imag); }

  /** The two-element view of this number. */
  public FloatBuffer getBuffer() { return buffer; }
}
