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

  private Errhandler errhandler;  // null: none set (MPI's default for files is ERRORS_RETURN)

  /** MPI_File_get_errhandler: ERRORS_RETURN until one is set (MPI's default for files). */
  public Errhandler getErrhandler() throws MPIException {
    live();
    return errhandler == null ? Errhandler.RETURN : errhandler;
  }

  public void setErrhandler(Errhandler errhandler) throws MPIException {
    if (errhandler == null) throw new MPIException(MPI.ERR_ARG, "null error handler");
    live();
    this.errhandler = errhandler;
  }

  /** MPI_File_call_errhandler: as Comm.callErrhandler. */
  public void callErrhandler(int errorCode) throws MPIException {
    live();
    Errors.call(this, errhandler == null ? Errhandler.RETURN : errhandler, errorCode, "File.callErrhandler");
  }

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

  // --- explicit offsets ---------------------------------------------------------------------
  public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().readAt(offset, b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().readAtAll(offset, b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().writeAt(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().writeAtAll(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().ireadAt(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().ireadAtAll(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iwriteAt(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iwriteAtAll(offset, b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  // --- individual file pointer ----------------------------------------------------------------
  public Status read(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().read(b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status readAll(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().readAll(b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status write(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().write(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().writeAll(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iread(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().ireadAll(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iwrite(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iwriteAll(b)); } catch (RuntimeException e) { throw Errors.of(e); }
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
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().readShared(b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().writeShared(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().ireadShared(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.async(buf, count, type);
    try { return new Request(live().iwriteShared(b)); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.out(buf, count, type);
    try { Status s = new Status(live().readOrdered(b)); Bufs.back(buf, b); return s; }
    catch (RuntimeException e) { throw Errors.of(e); }
  }

  public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
    Object b = Bufs.in(buf, count, type);
    try { return new Status(live().writeOrdered(b)); } catch (RuntimeException e) { throw Errors.of(e); }
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
}
