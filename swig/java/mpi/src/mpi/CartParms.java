package mpi;

/** The answer of CartComm.getTopo(). */
public final class CartParms {
  private final int[] dims, coords;
  private final boolean[] periods;

  CartParms(int[] dims, boolean[] periods, int[] coords) {
    this.dims = dims;
    this.periods = periods;
    this.coords = coords;
  }

  public int getDimCount() { return dims.length; }

  public int getDim(int i) { return dims[i]; }

  public boolean getPeriod(int i) { return periods[i]; }

  public int getCoord(int i) { return coords[i]; }
}
