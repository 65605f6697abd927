// Java binding: the naming rules (camelCase methods, PascalCase classes) and renames.
// Part of the Java entry file java.i, which includes the parts in this order.

// --- naming ------------------------------------------------------------------------------
%rename("%(lowercamelcase)s", %$isfunction) "";
%rename("%(camelcase)s", %$isclass) "";
%rename("%(camelcase)s", %$isenum) "";
%rename("%(upper)s", %$isenumitem) "";
%rename("%(upper)s", %$isconstant) "";
%rename("%(camelcase)s", %$isvariable) "";  // attributes: getErrorClass()
// Object.wait() is final in Java: Request.waitFor() (written below, light requests).
// Offset/count overloads: send(buf, offset, count, dest, tag), recv(buf, offset, count, src, tag)
// (Comm's javacode: arrays through Port's range paths, which touch only the range; other
// buffers through these).
%rename(sendPart) oompi::rt::comm::send_part;
%rename(recvPart) oompi::rt::comm::recv_part;
%javamethodmodifiers oompi::rt::comm::send_part "private";
%javamethodmodifiers oompi::rt::comm::recv_part "private";
// Message.recv: arrays through the range path (Message's javacode), other buffers through this.
%rename(recvAny) oompi::rt::message::recv;
%javamethodmodifiers oompi::rt::message::recv "private";
%typemap(javacode) oompi::rt::message %{
  /** Receives the message into buf (an array: only the elements it fills are written). */
  public Status recv(Object buf) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvAny(buf);
    return recv(buf, 0, java.lang.reflect.Array.getLength(buf));
  }

  /** Receives the message into elements [offset, offset + count) of buf. */
  public Status recv(Object buf, long offset, long count) {
    int kind = Port.arrayKind(buf);
    if (kind < 0) return recvAny(Port.slice(buf, offset, count, "Message.recv"));
    Port.checkRange(buf, offset, count, "Message.recv");
    java.nio.ByteBuffer slot = Status.slot();
    recvArrayStatus(buf, (int) offset, (int) count, kind, slot);
    return new Status(slot);
  }
%}
