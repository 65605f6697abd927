package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.oompi.Environment;
import org.oompi.ThreadLevel;

/**
 * Open MPI's Java API entry point (package {@code mpi}) over oompi: Init/Finalize, the
 * predefined communicators, datatypes, operations and constants, and the buffer helpers.
 * Constants whose values MPI defines come from the MPI library oompi was built against.
 */
public final class MPI {
  private MPI() {}

  private static Environment env;
  private static boolean finalized;

  public static final int THREAD_SINGLE = 0, THREAD_FUNNELED = 1, THREAD_SERIALIZED = 2,
      THREAD_MULTIPLE = 3;

  public static final int ANY_SOURCE = org.oompi.MPI.ANY_SOURCE;
  public static final int ANY_TAG = org.oompi.MPI.ANY_TAG;
  public static final int PROC_NULL = org.oompi.MPI.PROC_NULL;
  public static final int ROOT = org.oompi.MPI.ROOT;
  public static final int UNDEFINED = org.oompi.MPI.UNDEFINED;

  // Comm.compare / Group.compare results.
  public static final int IDENT = 0, CONGRUENT = 1, SIMILAR = 2, UNEQUAL = 3;
  // Comm.getTopology results (MPI.UNDEFINED: none).
  public static final int GRAPH = 2, CART = 1, DIST_GRAPH = 3;
  // Predefined attribute keys (Comm.getAttr).
  public static final int TAG_UB = -101, HOST = -102, IO = -103, WTIME_IS_GLOBAL = -104,
      APPNUM = -105, LASTUSEDCODE = -106, UNIVERSE_SIZE = -107, WIN_BASE = -108,
      WIN_SIZE = -109, WIN_DISP_UNIT = -110;
  public static final int KEYVAL_INVALID = -1;
  public static final int COMM_TYPE_SHARED = 1;
  public static final int VERSION = 3, SUBVERSION = 1;
  public static final int BSEND_OVERHEAD = (int) org.oompi.BufferAttachment.overhead();
  public static final int MAX_OBJECT_NAME = 64, MAX_PORT_NAME = 1024, MAX_DATAREP_STRING = 128,
      MAX_INFO_KEY = 36, MAX_INFO_VAL = 256, MAX_PROCESSOR_NAME = 256;
  public static final int ORDER_C = 0, ORDER_FORTRAN = 1;
  public static final int DISTRIBUTE_BLOCK = org.oompi.MPI.DISTRIBUTE_BLOCK,
      DISTRIBUTE_CYCLIC = org.oompi.MPI.DISTRIBUTE_CYCLIC,
      DISTRIBUTE_NONE = org.oompi.MPI.DISTRIBUTE_NONE,
      DISTRIBUTE_DFLT_DARG = org.oompi.MPI.DISTRIBUTE_DFLT_DARG;
  public static final int MODE_CREATE = org.oompi.MPI.MODE_CREATE,
      MODE_RDONLY = org.oompi.MPI.MODE_RDONLY, MODE_WRONLY = org.oompi.MPI.MODE_WRONLY,
      MODE_RDWR = org.oompi.MPI.MODE_RDWR,
      MODE_DELETE_ON_CLOSE = org.oompi.MPI.MODE_DELETE_ON_CLOSE,
      MODE_UNIQUE_OPEN = org.oompi.MPI.MODE_UNIQUE_OPEN, MODE_EXCL = org.oompi.MPI.MODE_EXCL,
      MODE_APPEND = org.oompi.MPI.MODE_APPEND, MODE_SEQUENTIAL = org.oompi.MPI.MODE_SEQUENTIAL;
  public static final int DISPLACEMENT_CURRENT = -54278278;
  public static final int SEEK_SET = 600, SEEK_CUR = 602, SEEK_END = 604;
  public static final int MODE_NOCHECK = org.oompi.RmaMode.NOCHECK.swigValue(),
      MODE_NOPRECEDE = org.oompi.RmaMode.NOPRECEDE.swigValue(),
      MODE_NOPUT = org.oompi.RmaMode.NOPUT.swigValue(),
      MODE_NOSTORE = org.oompi.RmaMode.NOSTORE.swigValue(),
      MODE_NOSUCCEED = org.oompi.RmaMode.NOSUCCEED.swigValue();
  public static final int LOCK_EXCLUSIVE = 234, LOCK_SHARED = 235;

  // Error classes.
  public static final int SUCCESS = org.oompi.MPI.SUCCESS;
  public static final int ERR_BUFFER = org.oompi.MPI.ERR_BUFFER, ERR_COUNT = org.oompi.MPI.ERR_COUNT,
      ERR_TYPE = org.oompi.MPI.ERR_TYPE, ERR_TAG = org.oompi.MPI.ERR_TAG,
      ERR_COMM = org.oompi.MPI.ERR_COMM, ERR_RANK = org.oompi.MPI.ERR_RANK,
      ERR_REQUEST = org.oompi.MPI.ERR_REQUEST, ERR_ROOT = org.oompi.MPI.ERR_ROOT,
      ERR_GROUP = org.oompi.MPI.ERR_GROUP, ERR_OP = org.oompi.MPI.ERR_OP,
      ERR_TOPOLOGY = org.oompi.MPI.ERR_TOPOLOGY, ERR_DIMS = org.oompi.MPI.ERR_DIMS,
      ERR_ARG = org.oompi.MPI.ERR_ARG, ERR_UNKNOWN = org.oompi.MPI.ERR_UNKNOWN,
      ERR_TRUNCATE = org.oompi.MPI.ERR_TRUNCATE, ERR_OTHER = org.oompi.MPI.ERR_OTHER,
      ERR_INTERN = org.oompi.MPI.ERR_INTERN, ERR_IN_STATUS = org.oompi.MPI.ERR_IN_STATUS,
      ERR_PENDING = org.oompi.MPI.ERR_PENDING, ERR_ACCESS = org.oompi.MPI.ERR_ACCESS,
      ERR_AMODE = org.oompi.MPI.ERR_AMODE, ERR_BAD_FILE = org.oompi.MPI.ERR_BAD_FILE,
      ERR_FILE_EXISTS = org.oompi.MPI.ERR_FILE_EXISTS,
      ERR_FILE_IN_USE = org.oompi.MPI.ERR_FILE_IN_USE, ERR_FILE = org.oompi.MPI.ERR_FILE,
      ERR_IO = org.oompi.MPI.ERR_IO, ERR_NAME = org.oompi.MPI.ERR_NAME,
      ERR_NO_SPACE = org.oompi.MPI.ERR_NO_SPACE, ERR_NO_SUCH_FILE = org.oompi.MPI.ERR_NO_SUCH_FILE,
      ERR_PORT = org.oompi.MPI.ERR_PORT, ERR_QUOTA = org.oompi.MPI.ERR_QUOTA,
      ERR_READ_ONLY = org.oompi.MPI.ERR_READ_ONLY, ERR_SPAWN = org.oompi.MPI.ERR_SPAWN,
      ERR_UNSUPPORTED_DATAREP = org.oompi.MPI.ERR_UNSUPPORTED_DATAREP,
      ERR_UNSUPPORTED_OPERATION = org.oompi.MPI.ERR_UNSUPPORTED_OPERATION;
  public static final int ERR_WIN = org.oompi.MPI.ERR_WIN, ERR_BASE = org.oompi.MPI.ERR_BASE,
      ERR_SIZE = org.oompi.MPI.ERR_SIZE, ERR_DISP = org.oompi.MPI.ERR_DISP,
      ERR_LOCKTYPE = org.oompi.MPI.ERR_LOCKTYPE, ERR_RMA_SYNC = org.oompi.MPI.ERR_RMA_SYNC,
      ERR_ASSERT = org.oompi.MPI.ERR_ASSERT, ERR_KEYVAL = org.oompi.MPI.ERR_KEYVAL,
      ERR_INFO = org.oompi.MPI.ERR_INFO, ERR_INFO_KEY = org.oompi.MPI.ERR_INFO_KEY,
      ERR_INFO_VALUE = org.oompi.MPI.ERR_INFO_VALUE, ERR_INFO_NOKEY = org.oompi.MPI.ERR_INFO_NOKEY,
      ERR_LASTCODE = org.oompi.MPI.ERR_LASTCODE;
  static final int ERR_UNKNOWN_CLASS = org.oompi.MPI.ERR_UNKNOWN;

  public static final Errhandler ERRORS_ARE_FATAL = Errhandler.FATAL;
  public static final Errhandler ERRORS_RETURN = Errhandler.RETURN;

  // Predefined datatypes: Java element types (base types) as Open MPI's Table 1.
  public static final Datatype DATATYPE_NULL = new Datatype(null, Datatype.NULL, false, true);
  public static final Datatype BYTE = new Datatype(org.oompi.Datatype.of(org.oompi.TypeKind.BYTE), Datatype.BYTE, true, true);
  public static final Datatype CHAR = new Datatype(org.oompi.Datatype.CHAR, Datatype.CHAR, true, true);
  public static final Datatype SHORT = new Datatype(org.oompi.Datatype.SHORT, Datatype.SHORT, true, true);
  public static final Datatype BOOLEAN = new Datatype(org.oompi.Datatype.BOOLEAN, Datatype.BOOLEAN, true, true);
  public static final Datatype INT = new Datatype(org.oompi.Datatype.INT, Datatype.INT, true, true);
  public static final Datatype LONG = new Datatype(org.oompi.Datatype.LONG, Datatype.LONG, true, true);
  public static final Datatype FLOAT = new Datatype(org.oompi.Datatype.FLOAT, Datatype.FLOAT, true, true);
  public static final Datatype DOUBLE = new Datatype(org.oompi.Datatype.DOUBLE, Datatype.DOUBLE, true, true);
  /** MPI_PACKED: the bytes Comm.pack writes, sent and received as byte[] or ByteBuffer. */
  public static final Datatype PACKED = new Datatype(org.oompi.Datatype.packed(), Datatype.BYTE, false, true);
  /** Complex numbers: pairs of the base type (float[] / double[] arrays or buffers). */
  public static final Datatype FLOAT_COMPLEX = new Datatype(org.oompi.Datatype.of(org.oompi.TypeKind.COMPLEX64), Datatype.FLOAT, false, true);
  public static final Datatype DOUBLE_COMPLEX = new Datatype(org.oompi.Datatype.of(org.oompi.TypeKind.COMPLEX128), Datatype.DOUBLE, false, true);
  /** MAXLOC/MINLOC pairs in C layout, over ByteBuffers (base type: bytes). */
  public static final Datatype INT2 = new Datatype(org.oompi.Datatype.INT2, Datatype.BYTE, false, true);
  public static final Datatype SHORT_INT = new Datatype(org.oompi.Datatype.SHORT_INT, Datatype.BYTE, false, true);
  public static final Datatype LONG_INT = new Datatype(org.oompi.Datatype.LONG_INT, Datatype.BYTE, false, true);
  public static final Datatype FLOAT_INT = new Datatype(org.oompi.Datatype.FLOAT_INT, Datatype.BYTE, false, true);
  public static final Datatype DOUBLE_INT = new Datatype(org.oompi.Datatype.DOUBLE_INT, Datatype.BYTE, false, true);

  /** Struct objects of the pair types (getData over a ByteBuffer). */
  public static final Int2 int2 = new Int2();
  public static final ShortInt shortInt = new ShortInt();
  public static final LongInt longInt = new LongInt();
  public static final FloatInt floatInt = new FloatInt();
  public static final DoubleInt doubleInt = new DoubleInt();

  public static final Op MAX = new Op(org.oompi.Op.MAX), MIN = new Op(org.oompi.Op.MIN),
      SUM = new Op(org.oompi.Op.SUM), PROD = new Op(org.oompi.Op.PROD),
      LAND = new Op(org.oompi.Op.LAND), BAND = new Op(org.oompi.Op.BAND),
      LOR = new Op(org.oompi.Op.LOR), BOR = new Op(org.oompi.Op.BOR),
      LXOR = new Op(org.oompi.Op.LXOR), BXOR = new Op(org.oompi.Op.BXOR),
      REPLACE = new Op(org.oompi.Op.REPLACE), NO_OP = new Op(org.oompi.Op.NO_OP);
  /** MINLOC and MAXLOC work on INT2, SHORT_INT, LONG_INT, FLOAT_INT and DOUBLE_INT. */
  public static final Op MINLOC = new Op(org.oompi.Op.MINLOC), MAXLOC = new Op(org.oompi.Op.MAXLOC);

  /** Usable after Init (their communicators are attached then). */
  public static final Intracomm COMM_WORLD = new Intracomm(null), COMM_SELF = new Intracomm(null);
  public static final Request REQUEST_NULL = new Request(null);
  public static final Group GROUP_EMPTY = new Group(null);
  public static final Info INFO_NULL = new Info(null);
  /** MPI_INFO_ENV, set by Init (as Open MPI's MPI.INFO_ENV); getInfoEnv() returns the same. */
  public static Info INFO_ENV;

  /** MPI_Init (oompi asks for MPI_THREAD_MULTIPLE, as oompi's own API does); returns args. */
  public static String[] Init(String[] args) throws MPIException {
    start(null);
    return args;
  }

  /** MPI_Init_thread; returns the provided level. */
  public static int InitThread(String[] args, int required) throws MPIException {
    if (required < THREAD_SINGLE || required > THREAD_MULTIPLE)
      throw new MPIException(ERR_ARG, "no thread level " + required);
    start(ThreadLevel.swigToEnum(required));
    return env.getProvided().swigValue();
  }

  private static synchronized void start(ThreadLevel level) throws MPIException {
    if (env != null || finalized) throw new MPIException(ERR_OTHER, "MPI is already initialized.");
    try {
      env = level == null ? new Environment() : new Environment(level);
      COMM_WORLD.attach(org.oompi.Comm.world());
      COMM_SELF.attach(org.oompi.Comm.self());
      GROUP_EMPTY.g = org.oompi.Group.empty();
      INFO_ENV = new Info(org.oompi.Info.env());
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
    watchInitThread();
  }

  // --- a main that returns without MPI.Finalize --------------------------------------------
  // Open MPI's bindings left such a job to mpirun, which failed it (onesided/WinName). As
  // mpi4py (atexit) and Boost.MPI (the environment's destructor) do, MPI is finalized at exit
  // instead, from org.oompi's shutdown hook, when and only when the thread that called Init has
  // ended normally: not after an uncaught exception on it, nor on System.exit while it is still
  // running (other ranks may be waiting for this one: the hook aborts the job, as before).
  private static Thread initThread;
  private static volatile boolean initThreadFailed;

  private static void watchInitThread() {
    Thread t = Thread.currentThread();
    initThread = t;
    Thread.UncaughtExceptionHandler chained = t.getUncaughtExceptionHandler();
    t.setUncaughtExceptionHandler((thread, e) -> {
      initThreadFailed = true;
      if (chained != null) chained.uncaughtException(thread, e);
    });
    org.oompi.ExitPolicy.setBeforeAbort(MPI::finalizeAtExit);
  }

  private static void finalizeAtExit() {
    Thread t;
    synchronized (MPI.class) {
      t = initThread;
      if (env == null || finalized || t == null || t.isAlive() || initThreadFailed) return;
    }
    try {
      Finalize();
    } catch (MPIException e) {
      System.err.println("mpi: MPI.Finalize at exit failed: " + e.getMessage());
    }
  }

  public static int queryThread() throws MPIException {
    check();
    return env.getProvided().swigValue();
  }

  /** True on the thread that initialized MPI. */
  public static boolean isThreadMain() throws MPIException {
    check();
    return Thread.currentThread() == mainThread;
  }

  private static final Thread mainThread = Thread.currentThread();

  public static synchronized void Finalize() throws MPIException {
    check();
    try {
      env.close();
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
    finalized = true;
  }

  public static boolean isInitialized() throws MPIException {
    return Environment.initialized();
  }

  public static boolean isFinalized() throws MPIException {
    return Environment.finalized();
  }

  static void check() throws MPIException {
    if (!Environment.initialized() || Environment.finalized())
      throw new MPIException(ERR_OTHER, "MPI is not initialized (or already finalized).");
  }

  public static double wtime() throws MPIException { return Environment.wtime(); }

  public static double wtick() throws MPIException { return Environment.wtick(); }

  public static String getProcessorName() throws MPIException {
    check();
    return Environment.processorName();
  }

  // Neither throws MPIException (as in Open MPI's API): MPI_Get_version and
  // MPI_Get_library_version may be called before Init, and programs call them without a try.
  public static String getLibVersion() { return Environment.libraryVersion(); }

  public static Version getVersion() { return new Version(VERSION, SUBVERSION); }

  /**
   * MPI_Pcontrol: a hook for profiling tools; obj carries the C call's variable arguments. No
   * profiling layer sits under oompi, so (as in Open MPI and MPICH without one) it does nothing
   * but check that MPI is running.
   */
  public static void pControl(int level, Object obj) throws MPIException {
    check();
  }

  /** The MPI_INFO_ENV object. */
  public static Info getInfoEnv() throws MPIException {
    check();
    return INFO_ENV;
  }

  private static org.oompi.BufferAttachment attached;
  private static byte[] attachedBuffer;

  /**
   * MPI_Buffer_attach for bSend: oompi attaches memory of its own of buffer.length bytes (MPI
   * writes there while buffered sends are pending, which a Java array could not give it).
   */
  public static synchronized void attachBuffer(byte[] buffer) throws MPIException {
    check();
    if (buffer == null) throw new MPIException(ERR_BUFFER, "null buffer");
    if (attached != null) throw new MPIException(ERR_BUFFER, "a buffer is already attached");
    try {
      attached = org.oompi.BufferAttachment.attach(buffer.length);
      attachedBuffer = buffer;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** attachBuffer of a ByteBuffer's capacity. */
  public static void attachBuffer(ByteBuffer buffer) throws MPIException {
    if (buffer == null) throw new MPIException(ERR_BUFFER, "null buffer");
    attachBuffer(new byte[buffer.capacity()]);
  }

  /** MPI_Buffer_detach: waits for the buffered sends; returns the array given to attach. */
  public static synchronized byte[] detachBuffer() throws MPIException {
    check();
    if (attached == null) throw new MPIException(ERR_BUFFER, "no buffer is attached");
    try {
      attached.close();
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
    attached = null;
    byte[] b = attachedBuffer;
    attachedBuffer = null;
    return b;
  }

  // --- direct buffers in native byte order --------------------------------------------------
  public static ByteBuffer newByteBuffer(int capacity) {
    return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
  }

  public static CharBuffer newCharBuffer(int capacity) { return newByteBuffer(capacity * 2).asCharBuffer(); }

  public static ShortBuffer newShortBuffer(int capacity) { return newByteBuffer(capacity * 2).asShortBuffer(); }

  public static IntBuffer newIntBuffer(int capacity) { return newByteBuffer(capacity * 4).asIntBuffer(); }

  public static LongBuffer newLongBuffer(int capacity) { return newByteBuffer(capacity * 8).asLongBuffer(); }

  public static FloatBuffer newFloatBuffer(int capacity) { return newByteBuffer(capacity * 4).asFloatBuffer(); }

  public static DoubleBuffer newDoubleBuffer(int capacity) { return newByteBuffer(capacity * 8).asDoubleBuffer(); }

  // --- slices: a buffer that starts at an offset (C's &buf[offset]) --------------------------
  // The original buffer's position and limit are left as they were. A direct slice remembers
  // its parent (SliceParents): a datatype may reach before the slice, within the parent.
  public static ByteBuffer slice(ByteBuffer buf, int offset) {
    return SliceParents.record(buf.duplicate().clear().position(offset).slice().order(buf.order()), buf, offset);
  }

  public static CharBuffer slice(CharBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static ShortBuffer slice(ShortBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static IntBuffer slice(IntBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static LongBuffer slice(LongBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static FloatBuffer slice(FloatBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static DoubleBuffer slice(DoubleBuffer buf, int offset) { return SliceParents.record(buf.duplicate().clear().position(offset).slice(), buf, offset); }

  public static ByteBuffer slice(byte[] buf, int offset) { return ByteBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static CharBuffer slice(char[] buf, int offset) { return CharBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static ShortBuffer slice(short[] buf, int offset) { return ShortBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static IntBuffer slice(int[] buf, int offset) { return IntBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static LongBuffer slice(long[] buf, int offset) { return LongBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static FloatBuffer slice(float[] buf, int offset) { return FloatBuffer.wrap(buf, offset, buf.length - offset).slice(); }

  public static DoubleBuffer slice(double[] buf, int offset) { return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice(); }
}
