package org.oompi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A receive of an object of unknown size that has not completed yet ({@code comm.iorecv(type,
 * source, tag)}), as C++'s {@code object_future} and C#'s {@code ObjectRequest<T>}:
 * {@link #test} advances it without blocking (first a probe until a message matches, then
 * MPI_Imrecv into a direct buffer of exactly its size, which the request keeps), {@link #waitFor}
 * (or {@link #get}) blocks and returns the object. No buffer size is ever guessed. A corrupt
 * message throws {@link SerializationException} from test/waitFor. {@link #close} while the bytes
 * are being received waits for them (a matched message cannot be cancelled); before a message
 * matched it just stops probing. The communicator must stay open until then.
 *
 * <p>Object receives take their messages in the order they were posted, as MPI's receives do
 * (C++'s detail/object_match.hpp): of two iorecv for the same source and tag, the first posted
 * gets the first message, whichever is waited on first. A receive posted and never closed keeps
 * its place (as an MPI receive never waited on): close it when it is no longer wanted.
 */
public final class ObjectRequest<T> implements AutoCloseable {
  private final Comm comm;
  private final Class<T> type;
  private final boolean byValue;
  private final int source, tag;
  private Message msg;
  private Request req;
  private ByteBuffer buf;
  private T value;
  private RuntimeException error;
  private Status status;
  private boolean matched, completed;
  private long ticket;  // the posted receive, until a message is taken (0 after)

  ObjectRequest(Comm comm, Class<T> type, boolean byValue, int source, int tag) {
    this.comm = comm;
    this.type = type;
    this.byValue = byValue;
    this.source = source;
    this.tag = tag;
    this.ticket = comm.postObjectRecv(source, tag);
  }

  /** Advances the receive; true once the object has arrived (and was read). */
  public synchronized boolean test() {
    if (!completed) {
      if (!matched) {
        msg = comm.testObjectRecv(ticket);
        if (msg == null) return false;
        ticket = 0;
        start();
      }
      if (!completed) {
        Status st = req.test();
        if (st == null) return false;
        finish(st);
      }
    }
    if (error != null) throw error;
    return true;
  }

  /** Blocks until the object has arrived and returns it (null from MPI.PROC_NULL). */
  public synchronized T waitFor() {
    if (!completed) {
      if (!matched) {
        msg = comm.waitObjectRecv(ticket);
        ticket = 0;
        start();
      }
      if (!completed) finish(req.waitFor());
    }
    if (error != null) throw error;
    return value;
  }

  /** As {@link #waitFor} (C++'s {@code object_future::get}). */
  public T get() {
    return waitFor();
  }

  /** True once the object has arrived (or the receive failed). */
  public synchronized boolean isCompleted() {
    return completed;
  }

  /** The status of the message; null until one matched. */
  public synchronized Status getStatus() {
    return status;
  }

  private void start() {
    matched = true;
    try {
      startReceive();
    } finally {
      msg.delete();  // the request (if any) receives it now
      msg = null;
    }
  }

  private void startReceive() {
    status = msg.getStatus();
    if (status.getSource() == MPI.PROC_NULL) {
      completed = true;  // nothing arrives from PROC_NULL
      return;
    }
    long n = msg.getCountBytes();
    if (n > Integer.MAX_VALUE - 16) {
      // cannot land in a Java array: take the message off the queue anyway, then fail
      try {
        msg.recv(ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()));
      } catch (MPIException ignored) {
        // expected (MPI_ERR_TRUNCATE)
      }
      error = new SerializationException("oompi: an object message of " + n + " bytes exceeds a Java array");
      completed = true;
      return;
    }
    buf = ByteBuffer.allocateDirect((int) n).order(ByteOrder.nativeOrder());
    req = msg.irecv(buf);
  }

  private void finish(Status st) {
    completed = true;
    status = st;
    try {
      byte[] bytes = new byte[buf.capacity()];
      buf.get(bytes);
      value = Wire.read(bytes, 0, bytes.length, type, byValue);
    } catch (RuntimeException e) {
      error = e;
    } finally {
      buf = null;
      req.close();
      req = null;
    }
  }

  /** Waits for bytes already being received; otherwise just stops. Idempotent. */
  @Override
  public synchronized void close() {
    if (ticket != 0) {
      long t = ticket;
      ticket = 0;
      comm.cancelObjectRecv(t);  // later receives take its place
    }
    try {
      if (req != null) {
        req.waitFor();
        req.close();
        req = null;
      }
    } finally {
      buf = null;
      completed = true;
    }
  }
}
