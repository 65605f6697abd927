// C# binding: the module class's managed code (callback registration, constants).
// Part of the C# entry file csharp.i, which includes the parts in this order.

// Register the callbacks before the first native call.
%pragma(csharp) imclasscode=%{
  internal const string LibraryName = "liboompi_csharp";  // as -dllimport in CMakeLists.txt
  static readonly bool oompiCallbacksRegistered = NativeCallbacks.Register();
%}

%typemap(cscode) oompi::rt::datatype %{
  public static readonly Datatype Byte = Of(TypeKind.Byte);
  public static readonly Datatype SByte = Of(TypeKind.Int8);
  public static readonly Datatype UInt8 = Of(TypeKind.Uint8);
  public static readonly Datatype Short = Of(TypeKind.Int16);
  public static readonly Datatype UShort = Of(TypeKind.Uint16);
  public static readonly Datatype Char = Of(TypeKind.Uint16);
  public static readonly Datatype Int = Of(TypeKind.Int32);
  public static readonly Datatype UInt = Of(TypeKind.Uint32);
  public static readonly Datatype Long = Of(TypeKind.Int64);
  public static readonly Datatype ULong = Of(TypeKind.Uint64);
  public static readonly Datatype Float = Of(TypeKind.Float32);
  public static readonly Datatype Double = Of(TypeKind.Float64);
  public static readonly Datatype Bool = Of(TypeKind.Boolean);
  /// <summary>Value-index pairs for MaxLoc/MinLoc: a struct { T value; int index; } as C lays it out.</summary>
  public static readonly Datatype ShortInt = ValueIndex(TypeKind.Int16);
  public static readonly Datatype Int2 = ValueIndex(TypeKind.Int32);
  public static readonly Datatype LongInt = ValueIndex(TypeKind.Int64);
  public static readonly Datatype FloatInt = ValueIndex(TypeKind.Float32);
  public static readonly Datatype DoubleInt = ValueIndex(TypeKind.Float64);
%}

// User ops: the director is NativeUserFunction, which only this assembly's UserFunction and
// UserFunction<T> (src/UserFunction.cs) may extend: their sealed Call catches every exception
// (on CoreCLR an exception crossing native frames kills the process).
%rename(NativeUserFunction) oompi::rt::user_function;
%typemap(csclassmodifiers) oompi::rt::user_function "public abstract unsafe partial class"
%csmethodmodifiers oompi::rt::user_function::user_function "internal";
%csmethodmodifiers oompi::rt::user_function::fail "internal";
%csmethodmodifiers oompi::rt::user_function::call "public virtual";
// Op.Create keeps the function alive (a collected director would be called after it is freed).
%rename(CreateNative) oompi::rt::op::create;
%csmethodmodifiers oompi::rt::op::create "private";
%typemap(cscode) oompi::rt::op %{
  private NativeUserFunction function;

  /// <summary>A user op calling fn (kept alive by this Op); commutative as MPI_Op_create's flag.</summary>
  public static Op Create(NativeUserFunction fn, bool commutative = true)
  {
    if (fn == null) throw new global::System.ArgumentNullException(nameof(fn));
    var op = CreateNative(fn, commutative);
    op.function = fn;
    return op;
  }

  /// <summary>A user op from a delegate over spans: <c>inOut[i] = input[i] op inOut[i]</c>.</summary>
  public static Op Create<T>(Reduction<T> reduce, bool commutative = true) where T : unmanaged
  {
    if (reduce == null) throw new global::System.ArgumentNullException(nameof(reduce));
    return Create(new DelegateFunction<T>(reduce), commutative);
  }

  public static readonly Op Sum = Of(OpKind.Sum);
  public static readonly Op Prod = Of(OpKind.Prod);
  public static readonly Op Max = Of(OpKind.Max);
  public static readonly Op Min = Of(OpKind.Min);
  public static readonly Op LAnd = Of(OpKind.Land);
  public static readonly Op LOr = Of(OpKind.Lor);
  public static readonly Op LXor = Of(OpKind.Lxor);
  public static readonly Op BAnd = Of(OpKind.Band);
  public static readonly Op BOr = Of(OpKind.Bor);
  public static readonly Op BXor = Of(OpKind.Bxor);
  public static readonly Op MaxLoc = Of(OpKind.Maxloc);
  public static readonly Op MinLoc = Of(OpKind.Minloc);
  /// <summary>One-sided only (Accumulate, GetAccumulate, FetchAndOp): overwrite, atomic read.</summary>
  public static readonly Op Replace = Of(OpKind.Replace);
  public static readonly Op NoOp = Of(OpKind.NoOp);
%}
