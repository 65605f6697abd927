// Java binding: groups, infos, keyvals, datatypes and ops (AutoCloseable).
// Part of the Java entry file java.i, which includes the parts in this order.

OOMPI_JAVA_CLOSEABLE(oompi::rt::group, true, )
OOMPI_JAVA_CLOSEABLE(oompi::rt::info, true, )
OOMPI_JAVA_CLOSEABLE(oompi::rt::keyval, true, )
// Builtin datatypes are shared constants (Datatype.DOUBLE): closing one does nothing.
OOMPI_JAVA_CLOSEABLE(oompi::rt::datatype, (isNull() || !isBuiltin()),
  public static final Datatype BYTE = of(TypeKind.BYTE);
  public static final Datatype INT8 = of(TypeKind.INT8);
  public static final Datatype UINT8 = of(TypeKind.UINT8);
  public static final Datatype SHORT = of(TypeKind.INT16);
  public static final Datatype CHAR = of(TypeKind.UINT16);
  public static final Datatype INT = of(TypeKind.INT32);
  public static final Datatype LONG = of(TypeKind.INT64);
  public static final Datatype FLOAT = of(TypeKind.FLOAT32);
  public static final Datatype DOUBLE = of(TypeKind.FLOAT64);
  public static final Datatype BOOLEAN = of(TypeKind.BOOLEAN);
  /** Value-index pairs for MAXLOC/MINLOC, as C lays out {value; int index} (use them over a
   *  ByteBuffer with Buffers.typed). */
  public static final Datatype SHORT_INT = valueIndex(TypeKind.INT16);
  public static final Datatype INT2 = valueIndex(TypeKind.INT32);
  public static final Datatype LONG_INT = valueIndex(TypeKind.INT64);
  public static final Datatype FLOAT_INT = valueIndex(TypeKind.FLOAT32);
  public static final Datatype DOUBLE_INT = valueIndex(TypeKind.FLOAT64);
)

// The Op keeps its Java function reachable (BINDINGS trap 1: a collected director would be
// called by the trampoline after it was freed).
%rename(createNative) oompi::rt::op::create;
// The director is NativeUserFunction (addresses); org.oompi.UserFunction (hand-written) gives
// the ByteBuffer and array forms of seed 000's Figs. 12-13 over it.
%rename(NativeUserFunction) oompi::rt::user_function;
// A Java exception thrown in call() travels as oompi::java::java_error to the collective,
// which throws the same Throwable (never a copy, never a crash).
%feature("director:except") oompi::rt::user_function::call {
  jthrowable $error = jenv->ExceptionOccurred();
  if ($error) {
    jenv->ExceptionClear();
    throw oompi::java::java_error(jenv, $error);
  }
}
%javamethodmodifiers oompi::rt::op::create "private";
// Predefined ops are shared constants (Op.SUM): closing one does nothing.
OOMPI_JAVA_CLOSEABLE(oompi::rt::op, (isNull() || isUser()),
  private NativeUserFunction function;

  /** A user op calling fn (kept alive by this Op); commutative as MPI_Op_create's flag. */
  public static Op create(NativeUserFunction fn, boolean commutative) {
    return new Op(fn, commutative);
  }

  /** As create(): seed 000's {@code new Op(uf, true)}. Close it when done. */
  public Op(NativeUserFunction fn, boolean commutative) {
    this(MPIJNI.Op_createNative(NativeUserFunction.getCPtr(nonNull(fn)), fn, commutative), true);
    function = fn;
  }

  private static NativeUserFunction nonNull(NativeUserFunction fn) {
    if (fn == null) throw new NullPointerException("oompi: the user function is null");
    return fn;
  }

  public static final Op SUM = of(OpKind.SUM);
  public static final Op PROD = of(OpKind.PROD);
  public static final Op MAX = of(OpKind.MAX);
  public static final Op MIN = of(OpKind.MIN);
  public static final Op LAND = of(OpKind.LAND);
  public static final Op LOR = of(OpKind.LOR);
  public static final Op LXOR = of(OpKind.LXOR);
  public static final Op BAND = of(OpKind.BAND);
  public static final Op BOR = of(OpKind.BOR);
  public static final Op BXOR = of(OpKind.BXOR);
  public static final Op MAXLOC = of(OpKind.MAXLOC);
  public static final Op MINLOC = of(OpKind.MINLOC);
  /** One-sided only (accumulate, getAccumulate, fetchAndOp): overwrite, and an atomic read. */
  public static final Op REPLACE = of(OpKind.REPLACE);
  public static final Op NO_OP = of(OpKind.NO_OP);
)
