package mpi;

import java.nio.Buffer;

/**
 * MPI-IO (org.oompi.File): open, views, explicit offsets, individual and shared file pointers,
 * blocking, nonblocking (direct buffers) and split collectives. Offsets are in etypes of the
 * view, as in MPI.
 */
public final class File {
  private org.oompi.File f;

  /** MPI_File_open (collective over comm). */
  public File(Comm comm, String filename, int amode) throws MPIException {
    try { f = org.oompi.File.open(comm.c(), filename, amode); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public File(Comm comm, String filename, int amode, Info info) throws MPIException {
    try { f = org.oompi.File.open(comm.c(), filename, amode, info.handle()); }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  private org.oompi.File live() throws MPIException {
    if (f == null) throw new MPIException(MPI.ERR_FILE, "the file is closed");
    return f;
  }

  private final ErrhandlerSlot handler = new ErrhandlerSlot(Errhandler.RETURN, Errhandler.RETURN, "File");

  /** MPI_File_get_errhandler: ERRORS_RETURN until one is set (MPI's default for files). */
  public Errhandler getErrhandler() throws MPIException { live(); return handler.get(); }

  public void setErrhandler(Errhandler errhandler) throws MPIException { live(); handler.set(errhandler); }

  /** MPI_File_call_errhandler: as Comm.callErrhandler. */
  public void callErrhandler(int errorCode) throws MPIException { live(); handler.call(this, errorCode); }

  /** MPI_File_close (collective). */
  public void close() throws MPIException {
    try { live().close(); } catch (RuntimeException e) { throw Errors.of(e); }
    f = null;
  }

  public static void delete(String filename) throws MPIException {
    try { org.oompi.File.remove(filename); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public static void delete(String filename, Info info) throws MPIException { delete(filename); }

  public void setSize(long size) throws MPIException {
    try { live().setSize(size); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void preallocate(long size) throws MPIException {
    try { live().preallocate(size); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The file's size in bytes. */
  public long getSize() throws MPIException {
    try { return live().getSize(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public int getAMode() throws MPIException {
    try { return live().getAmode(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void setInfo(Info info) throws MPIException {
    try { live().setInfo(info.handle()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Info getInfo() throws MPIException {
    try { return new Info(live().getInfo()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private Datatype etype = MPI.BYTE, filetype = MPI.BYTE;

  /** MPI_File_set_view (collective): disp in bytes. */
  public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
    try {
      live().setView(disp, Bufs.type(etype), Bufs.type(filetype), datarep);
      this.etype = etype;
      this.filetype = filetype;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info)
      throws MPIException {
    setView(disp, etype, filetype, datarep);
  }

  public FileView getView() throws MPIException {
    try {
      org.oompi.FileView v = live().getView();
      return new FileView(v.getDisplacement(), etype, filetype, v.getDatarep());
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  // Every read, write and nonblocking call: the buffer rule, oompi's call (a lambda), the
  // exception mapping and, for reads, the copy back of a heap slice.
  private interface Call<R> { R on(org.oompi.File f, Object b); }

  private Status reading(Object buf, int count, Datatype type, Call<org.oompi.Status> call) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(call.on(live(), b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  private Status writing(Object buf, int count, Datatype type, Call<org.oompi.Status> call) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(call.on(live(), b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  private <R> R starting(Buffer buf, int count, Datatype type, Call<R> call) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return call.on(live(), b); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- explicit offsets ---------------------------------------------------------------------
  public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.readAt(offset, b));
  }

  public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.readAtAll(offset, b));
  }

  public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.writeAt(offset, b));
  }

  public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.writeAtAll(offset, b));
  }

  public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.ireadAt(offset, b)));
  }

  public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.ireadAtAll(offset, b)));
  }

  public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iwriteAt(offset, b)));
  }

  public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iwriteAtAll(offset, b)));
  }

  // --- individual file pointer ----------------------------------------------------------------
  public Status read(Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.read(b));
  }

  public Status readAll(Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.readAll(b));
  }

  public Status write(Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.write(b));
  }

  public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.writeAll(b));
  }

  public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iread(b)));
  }

  public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.ireadAll(b)));
  }

  public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iwrite(b)));
  }

  public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iwriteAll(b)));
  }

  private static org.oompi.SeekFrom whence(int w) throws MPIException {
    if (w == MPI.SEEK_SET) return org.oompi.SeekFrom.SET;
    if (w == MPI.SEEK_CUR) return org.oompi.SeekFrom.CURRENT;
    if (w == MPI.SEEK_END) return org.oompi.SeekFrom.END;
    throw new MPIException(MPI.ERR_ARG, "whence must be MPI.SEEK_SET, MPI.SEEK_CUR or MPI.SEEK_END");
  }

  public void seek(long offset, int whence) throws MPIException {
    try { live().seek(offset, whence(whence)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public long getPosition() throws MPIException {
    try { return live().getPosition(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** The absolute byte position of a view-relative offset. */
  public long getByteOffset(long offset) throws MPIException {
    try { return live().byteOffset(offset); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- shared file pointer ----------------------------------------------------------------------
  public Status readShared(Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.readShared(b));
  }

  public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.writeShared(b));
  }

  public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.ireadShared(b)));
  }

  public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
    return new Request(starting(buf, count, type, (f, b) -> f.iwriteShared(b)));
  }

  public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
    return reading(buf, count, type, (f, b) -> f.readOrdered(b));
  }

  public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
    return writing(buf, count, type, (f, b) -> f.writeOrdered(b));
  }

  public void seekShared(long offset, int whence) throws MPIException {
    try { live().seekShared(offset, whence(whence)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public long getPositionShared() throws MPIException {
    try { return live().getPositionShared(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- split collectives (direct buffers: MPI uses them between begin and end) ------------------
  public void readAllBegin(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { live().readAllBegin(b); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status readAllEnd(Buffer buf) throws MPIException {
    try { return new Status(live().readAllEnd()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void writeAllBegin(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { live().writeAllBegin(b); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeAllEnd(Buffer buf) throws MPIException {
    try { return new Status(live().writeAllEnd()); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** Extent of type in the file (native representation: its extent). */
  public int getTypeExtent(Datatype type) throws MPIException {
    try { return (int) Bufs.type(type).getExtent(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void setAtomicity(boolean atomicity) throws MPIException {
    try { live().setAtomicity(atomicity); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public boolean getAtomicity() throws MPIException {
    try { return live().getAtomicity(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public void sync() throws MPIException {
    try { live().sync(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- user attributes (MPI_File_create_keyval ...): the values live on this object -------------
  private static final Attributes.Keys KEYS = new Attributes.Keys();
  private final Attributes attrs = new Attributes(KEYS);

  public static int createKeyval() throws MPIException { return KEYS.create(); }

  public static void freeKeyval(int keyval) throws MPIException { KEYS.free(keyval); }

  public void setAttr(int keyval, Object value) throws MPIException { live(); attrs.set(keyval, value); }

  public void deleteAttr(int keyval) throws MPIException { live(); attrs.delete(keyval); }

  /** The attribute, or null when none is set; MPI.ERR_KEYVAL for a keyval never created. */
  public Object getAttr(int keyval) throws MPIException { live(); return attrs.get(keyval); }
}
