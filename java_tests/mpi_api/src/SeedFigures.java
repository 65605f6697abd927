// Seed 000's figures 4-17 (the fragments), each word for word inside a method of its own; what
// a fragment leaves undeclared (data, MAXLEN, N, count, buf, ...) is declared just before it,
// and checks of the results follow it. Where a figure does not compile as printed, the fix is
// marked "FIX" (Fig. 16 and the spawn fragment declare an int where they mean an int[]).
// Run at 1, 2 or 4 ranks: a failed check throws, the JVM exits with MPI not finalized and
// oompi aborts the whole job (no rank hangs).
import mpi.*;
import java.nio.*;
import static mpi.MPI.slice;

public class SeedFigures {
  static int checks;

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError("check failed: " + what);
    checks++;
  }

  // Fig. 4: exception handling. The file exists (rank 0 made it), so no exception is thrown.
  static void fig4() throws MPIException {
    try
    {
    File file = new File(MPI.COMM_SELF, "filename", MPI.MODE_RDONLY);
    file.close();  // added: the figure never closes it
    }
    catch(MPIException ex)
    {
    System.err.println("Error Message: "+ ex.getMessage());
    System.err.println(" Error Class: "+ ex.getErrorClass());
    ex.printStackTrace();
    System.exit(-1);
    }
    checks++;
  }

  // Fig. 5: point-to-point between ranks 0 and 1.
  static void fig5() throws MPIException {
    double[] data = new double[5];
    if (MPI.COMM_WORLD.getRank() == 0) for (int i = 0; i < 5; i++) data[i] = i + 0.5;
    Comm comm = MPI.COMM_WORLD;
    int me = comm.getRank();
    if(me == 0) {
    comm.send(data, 5, MPI.DOUBLE, 1, 1);
    } else if(me == 1) {
    Status status = comm.recv(data, 5, MPI.DOUBLE, MPI.ANY_SOURCE, 1);
    int count = status.getCount(MPI.DOUBLE);
    int src = status.getSource();
    System.out.println("Received "+ count +" values from "+ src);
    check(count == 5 && src == 0 && data[4] == 4.5, "fig5 received 5 doubles from 0");
    }
  }

  // Fig. 6: direct buffers with a nonblocking allgather.
  static void fig6() throws MPIException {
    final int MAXLEN = 10;
    int myself = MPI.COMM_WORLD.getRank();
    int tasks = MPI.COMM_WORLD.getSize();
    IntBuffer in = MPI.newIntBuffer(MAXLEN * tasks),
    out = MPI.newIntBuffer(MAXLEN);
    for(int i = 0; i < MAXLEN; i++)
    out.put(i, myself);
    // fill the buffer with the rank
    Request request = MPI.COMM_WORLD.iAllGather(out, MAXLEN, MPI.INT, in, MAXLEN, MPI.INT);
    // do other work here
    request.waitFor();
    request.free();
    for(int i = 0; i < tasks; i++) {
    for(int k = 0; k < MAXLEN; k++) {
    if(in.get(k + i * MAXLEN) != i)
    throw new AssertionError("Unexpected value");
    }
    }
    checks++;
  }

  // Fig. 7: slicing an array (rank 0 sends numbers[offset..offset+count) to rank 1).
  static void fig7() throws MPIException {
    final int SIZE = 20;
    int offset = 5, count = 10;
    if (MPI.COMM_WORLD.getSize() < 2) return;
    int numbers[] = new int[SIZE];
    for (int i = 0; i < SIZE; i++) numbers[i] = i;
    if (MPI.COMM_WORLD.getRank() == 0) {
    MPI.COMM_WORLD.send(slice(numbers, offset), count, MPI.INT, 1, 0);
    } else if (MPI.COMM_WORLD.getRank() == 1) {
      int[] got = new int[SIZE];
      MPI.COMM_WORLD.recv(slice(got, 3), count, MPI.INT, 0, 0);  // into an offset too
      for (int i = 0; i < SIZE; i++)
        check(got[i] == (i >= 3 && i < 3 + count ? i - 3 + offset : 0), "fig7 element " + i);
    }
  }

  // Fig. 8: a vector datatype sends the 3x3 leading block of an NxN matrix.
  static void fig8() throws MPIException {
    final int N = 5;
    double A[] = new double[N*N]; // flattened 2D matrix
    if (MPI.COMM_WORLD.getRank() == 0) for (int i = 0; i < N * N; i++) A[i] = i;
    Datatype blk = Datatype.createVector(3, 3, N, MPI.DOUBLE);
    blk.commit();
    int rank = MPI.COMM_WORLD.getRank();
    if (MPI.COMM_WORLD.getSize() >= 2) {
    if(rank == 0) {
    MPI.COMM_WORLD.send(A, 1, blk, 1, 0);
    } else if (rank==1) {
    MPI.COMM_WORLD.recv(A, 1, blk, 0, 0);
    }
    }
    blk.free();
    if (rank == 1)
      for (int i = 0; i < N * N; i++)
        check(A[i] == (i % N < 3 && i / N < 3 ? i : 0), "fig8 element " + i);
  }

  // Figs. 9-10: the Complex struct (Complex.java is Fig. 9), sent from 0 to 1.
  static void fig10() throws MPIException {
    int count = 6;
    if (MPI.COMM_WORLD.getSize() < 2) return;
    if (MPI.COMM_WORLD.getRank() == 0) {
    Complex type = new Complex();
    ByteBuffer buffer = MPI.newByteBuffer(type.getExtent() * count);
    for(int i = 0; i < count; i++) {
    Complex.Data c = type.getData(buffer, i);
    c.putReal(0);
    c.putImag(i * 0.5);
    }
    MPI.COMM_WORLD.send(buffer, count, type.getType(), 1, 0);
    } else if (MPI.COMM_WORLD.getRank() == 1) {
      Complex type = new Complex();
      ByteBuffer buffer = MPI.newByteBuffer(type.getExtent() * count);
      MPI.COMM_WORLD.recv(buffer, count, type.getType(), 0, 0);
      for (int i = 0; i < count; i++) {
        Complex.Data c = type.getData(buffer, i);
        check(c.getReal() == 0 && c.getImag() == i * 0.5, "fig10 record " + i);
      }
    }
  }

  // Fig. 11: MAXLOC over DOUBLE_INT pairs.
  static void fig11() throws MPIException {
    Comm comm = MPI.COMM_WORLD;
    int root = 0;
    // Each process has an array of 30 double: ain
    double[] ain = new double[30];
    double[] aout = new double[30];
    int[] ind = new int[30];
    int rank = comm.getRank();
    for (int i = 0; i < 30; i++) ain[i] = (i + rank) % comm.getSize() * 10.0 + i;
    ByteBuffer in = MPI.newByteBuffer(30 * MPI.DOUBLE_INT.getExtent()),
    out = MPI.newByteBuffer(30 * MPI.DOUBLE_INT.getExtent());
    for(int i = 0; i < 30; i++) {
    DoubleInt.Data d = MPI.doubleInt.getData(in, i);
    d.putValue(ain[i]);
    d.putIndex(rank);
    }
    comm.reduce(in, out, 30, MPI.DOUBLE_INT, MPI.MAXLOC, root);
    // At this point, the answer resides on process root.
    if(rank == root) {
    // Read ranks out
    for(int i = 0; i < 30; i++) {
    DoubleInt.Data d = MPI.doubleInt.getData(out, i);
    aout[i] = d.getValue();
    ind[i] = d.getIndex();
    }
      int n = comm.getSize();
      for (int i = 0; i < 30; i++) {
        int best = ((n - 1 - i) % n + n) % n;  // the rank whose (i + rank) % n is n - 1
        check(aout[i] == (n - 1) * 10.0 + i && ind[i] == best, "fig11 pair " + i);
      }
    }
  }

  // Fig. 12: a user op over arrays (a sum of doubles).
  static void fig12() throws MPIException {
    UserFunction uf = new UserFunction()
    {@Override public void call(Object in, Object inOut, int count, Datatype type)
    {
    double[] vIn
    = (double[])in,
    vInOut = (double[])inOut;
    for(int i = 0; i < count; i++)
    vInOut[i] += vIn[i];
    }};
    Op op = new Op(uf, true);
    sumWith(op, "fig12");
  }

  // Fig. 13: the same user op over direct buffers.
  static void fig13() throws MPIException {
    UserFunction uf = new UserFunction()
    {@Override public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type)
    {
    DoubleBuffer bIn
    = in.asDoubleBuffer(),
    bInOut = inOut.asDoubleBuffer();
    for(int i = 0; i < count; i++)
    bInOut.put(i, bInOut.get(i) + bIn.get(i));
    }};
    Op op = new Op(uf, true);
    sumWith(op, "fig13");
  }

  static void sumWith(Op op, String fig) throws MPIException {
    int n = MPI.COMM_WORLD.getSize(), me = MPI.COMM_WORLD.getRank();
    double[] a = {me, 2 * me, 1}, r = new double[3];
    MPI.COMM_WORLD.allReduce(a, r, 3, MPI.DOUBLE, op);
    double s = n * (n - 1) / 2.0;
    check(r[0] == s && r[1] == 2 * s && r[2] == n, fig + " allReduce of arrays");
    DoubleBuffer b = MPI.newDoubleBuffer(3);
    b.put(0, me).put(1, 1).put(2, -me);
    MPI.COMM_WORLD.allReduce(b, 3, MPI.DOUBLE, op);  // in place, direct buffer
    check(b.get(0) == s && b.get(1) == n && b.get(2) == -s, fig + " allReduce in place");
    op.free();
  }

  // Fig. 14: a 2-D torus; each process sends its rank to its left neighbour.
  static void fig14() throws MPIException {
    int size = MPI.COMM_WORLD.getSize() ;
    int dims[] = { 0, 0 };
    CartComm.createDims(size, dims);
    boolean periods[] = { true, true };
    CartComm comm = ((Intracomm)MPI.COMM_WORLD).createCart(dims, periods, false);
    int me = comm.getRank();
    int coords[] = comm.getCoords(me);
    CartParms topoParams = comm.getTopo();
    System.out.println("I have coordinates ("+ coords[0] +","+ coords[1]
    +") on a grid of "+ topoParams.getDim(0) +"x"+ topoParams.getDim(1));
    ShiftParms shiftParams = comm.shift(0, -1);
    int src = shiftParams.getRankSource();
    int dst = shiftParams.getRankDest();
    int sbuf[] = { me };
    int rbuf[] = new int[1];
    comm.sendRecv(sbuf, 1, MPI.INT, dst, 1, rbuf, 1, MPI.INT, src, 1);
    System.out.println("I am process "+ me +", received "+ rbuf[0]);
    check(rbuf[0] == src && dims[0] * dims[1] == size, "fig14 received the right neighbour's rank");
    comm.free();
  }

  // Fig. 16: each process reads its part of a file of ints (written by rank 0 first).
  static void fig16(String filename) throws MPIException {
    int myrank = MPI.COMM_WORLD.getRank();
    int numprocs = MPI.COMM_WORLD.getSize();
    File thefile = new File(MPI.COMM_SELF, filename, MPI.MODE_RDONLY);
    long filesize = thefile.getSize() / 4;
    // num of ints in file
    int bufsize = (int)(filesize / numprocs); // local num of ints to read
    int buf[] = new int[bufsize];  // FIX: the figure has "int buf = new int[bufsize];"
    thefile.setView(myrank * buf.length, MPI.INT, MPI.INT, "native");
    thefile.read(buf, bufsize, MPI.INT);
    thefile.close();
    // The figure's displacement is in bytes (myrank * buf.length), so rank r starts at int
    // r * bufsize / 4 of the file, whose ints are 0, 1, 2, ...
    for (int i = 0; i < bufsize; i++)
      check(buf[i] == myrank * bufsize / 4 + i, "fig16 int " + i);
  }

  // Fig. 17: one-sided puts to every process within fences.
  static void fig17() throws MPIException {
    int rank = MPI.COMM_WORLD.getRank();
    int size = MPI.COMM_WORLD.getSize();
    IntBuffer winArea = MPI.newIntBuffer(size),
    putVals = MPI.newIntBuffer(size);
    Win win = new Win(winArea, size, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
    // Set all the target areas to be -1
    for (int i = 0; i < size; ++i) {
    winArea.put(i, -1);
    putVals.put(i, rank);
    }
    win.fence(0);
    // Do a put to all other processes
    for (int i = 0; i < size; ++i)
    win.put(slice(putVals, i), 1, MPI.INT, i, rank, 1, MPI.INT);
    win.fence(0);
    // Check to see that we got the right values
    for (int i = 0; i < size; ++i)
    if (winArea.get(i) != i)
    System.out.println("Unexpected value!");
    win.free();
    for (int i = 0; i < size; ++i) check(winArea.get(i) == i, "fig17 element " + i);
  }

  public static void main(String[] args) throws Exception {
    MPI.Init(args);
    int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
    String dir = args.length > 0 ? args[0] : ".";
    String data = dir + "/mpi_api_fig16.dat";
    if (rank == 0) {
      java.nio.file.Files.write(java.nio.file.Paths.get("filename"), new byte[] {1, 2, 3});
      ByteBuffer ints = ByteBuffer.allocate(4 * 16 * size).order(ByteOrder.nativeOrder());
      for (int i = 0; i < 16 * size; i++) ints.putInt(4 * i, i);
      java.nio.file.Files.write(java.nio.file.Paths.get(data), ints.array());
    }
    MPI.COMM_WORLD.barrier();
    fig4();
    if (size >= 2) fig5();  // the figure sends to rank 1
    fig6();
    fig7();
    fig8();
    fig10();
    fig11();
    fig12();
    fig13();
    fig14();
    fig16(data);
    fig17();
    int[] all = {checks};
    MPI.COMM_WORLD.allReduce(all, 1, MPI.INT, MPI.SUM);
    if (rank == 0) System.out.println("seed figures: " + all[0] + " checks passed on " + size + " ranks");
    MPI.Finalize();
  }
}
