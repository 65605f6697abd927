package mpi;

/** A Cartesian communicator (org.oompi.CartComm). */
public final class CartComm extends Intracomm {
  CartComm(org.oompi.Comm c) { super(c); }

  private org.oompi.CartComm cart() throws MPIException {
    org.oompi.Comm x = c();
    if (!(x instanceof org.oompi.CartComm)) throw new MPIException(MPI.ERR_TOPOLOGY, "not a Cartesian communicator");
    return (org.oompi.CartComm) x;
  }

  @Override public CartComm dup() throws MPIException {
    try { return new CartComm(typed(c().dup())); } catch (RuntimeException e) { throw err(e); }
  }

  @Override public CartComm clone() {
    try { return dup(); } catch (MPIException e) { throw new RuntimeException(e.getMessage(), e); }
  }

  /** MPI_Dims_create: the zeros of dims are filled in. */
  public static void createDims(int nnodes, int[] dims) throws MPIException {
    if (dims == null) throw new MPIException(MPI.ERR_ARG, "null dims");
    long fixed = 1;  // MPI_ERR_DIMS, as MPI: the given dimensions must divide nnodes
    for (int d : dims) {
      if (d < 0) throw new MPIException(MPI.ERR_DIMS, "createDims: negative dimension " + d);
      if (d > 0) fixed *= d;
    }
    if (nnodes <= 0 || nnodes % fixed != 0)
      throw new MPIException(MPI.ERR_DIMS, "createDims: " + nnodes + " processes do not fill dimensions "
          + java.util.Arrays.toString(dims));
    try { org.oompi.CartComm.createDims(nnodes, dims); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** Dimensions, periodicity and this process's coordinates. */
  public CartParms getTopo() throws MPIException {
    try {
      org.oompi.CartComm k = cart();
      int[] p = k.periods();
      boolean[] periods = new boolean[p.length];
      for (int i = 0; i < p.length; i++) periods[i] = p[i] != 0;
      return new CartParms(k.dims(), periods, k.coords());
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** The rank at coords. */
  public int getRank(int[] coords) throws MPIException {
    try { return cart().rankOf(coords); } catch (RuntimeException e) { throw err(e); }
  }

  public int[] getCoords(int rank) throws MPIException {
    try { return cart().coordsOf(rank); } catch (RuntimeException e) { throw err(e); }
  }

  /** MPI_Cart_shift. */
  public ShiftParms shift(int direction, int disp) throws MPIException {
    try {
      org.oompi.CartShift s = cart().shift(direction, disp);
      return new ShiftParms(s.getSource(), s.getDest());
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** MPI_Cart_sub: the dimensions kept. */
  public CartComm sub(boolean[] remainDims) throws MPIException {
    try {
      int[] r = new int[remainDims.length];
      for (int i = 0; i < r.length; i++) r[i] = remainDims[i] ? 1 : 0;
      return new CartComm(cart().sub(r));
    } catch (RuntimeException e) {
      throw err(e);
    }
  }

  /** MPI_Cart_map: this process's rank in such a grid, or MPI.UNDEFINED (outside it). */
  public int map(int[] dims, boolean[] periods) throws MPIException {
    if (dims == null || periods == null) throw new MPIException(MPI.ERR_ARG, "null dims or periods");
    int[] p = new int[periods.length];
    for (int i = 0; i < p.length; i++) p[i] = periods[i] ? 1 : 0;
    try { return c().cartMap(dims, p); } catch (RuntimeException e) { throw err(e); }
  }
}
