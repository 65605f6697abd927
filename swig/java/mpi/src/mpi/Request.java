package mpi;

import org.oompi.RequestVector;

/**
 * A nonblocking operation (org.oompi.Request). A completed non-persistent request becomes
 * null (isNull()), as MPI sets it to MPI_REQUEST_NULL; waiting on a null request returns at
 * once with an empty status. free() completes a pending send first, and cancels a pending
 * receive (oompi never lets MPI keep writing into memory Java may reuse).
 */
public class Request implements Freeable {
  org.oompi.Request r;
  private Status got;  // completed by getStatus(), not yet collected by a wait or test
  /** Objects the operation uses beyond the buffers oompi keeps (an Op of a reduction). */
  Object keep;

  Request(org.oompi.Request r) { this.r = r; }

  /** A request complete from the start with status st (its wait or test returns st once). */
  static Request completed(Status st) {
    Request q = new Request(null);
    q.got = st;
    return q;
  }

  Request(org.oompi.Request r, Object keep) {
    this.r = r;
    this.keep = keep;
  }

  /** Completed: a non-persistent request is freed and becomes null. */
  Status done(org.oompi.Status s) {
    Status st = new Status(s);
    if (!r.isPersistent()) {
      r.close();
      r = null;
      keep = null;
    }
    return st;
  }

  private Status collected() {
    Status g = got;
    got = null;
    if (r != null && !r.isPersistent()) {
      r.close();
      r = null;
      keep = null;
    }
    return g;
  }

  /** MPI_Wait (no Status made). */
  public final void waitFor() throws MPIException {
    org.oompi.Request q = r;
    if (q == null || got != null) {
      waitStatus();
      return;
    }
    try {
      q.waitFor();
      if (!q.isPersistent()) {
        q.close();
        r = null;
        keep = null;
      }
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Wait: the status of the completed operation. */
  public final Status waitStatus() throws MPIException {
    if (got != null) return collected();
    if (r == null) return new Status(null);
    try {
      return done(r.waitFor());
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Test: true if the operation completed (the request is then complete, as by waitFor). */
  public final boolean test() throws MPIException { return testStatus() != null; }

  /** MPI_Test: the status if the operation completed, else null. */
  public final Status testStatus() throws MPIException {
    if (got != null) return collected();
    if (r == null) return new Status(null);
    try {
      org.oompi.Status s = r.test();
      return s == null ? null : done(s);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Request_get_status: the status if complete (the request stays valid), else null. */
  public final Status getStatus() throws MPIException {
    if (got != null) return got;
    if (r == null) return new Status(null);
    try {
      org.oompi.Status s = r.test();
      if (s == null) return null;
      got = new Status(s);
      return got;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Cancel (a wait or test must still complete the request). */
  public final void cancel() throws MPIException {
    if (r == null) return;
    try { r.cancel(); } catch (RuntimeException e) { throw Errors.of(e); }
  }

  /** MPI_Request_free: a pending send completes first, a pending receive is cancelled. */
  @Override public void free() throws MPIException {
    if (r == null) return;
    try {
      r.close();
    } catch (RuntimeException e) {
      throw Errors.of(e);
    } finally {
      r = null;
      keep = null;
      got = null;
    }
  }

  public final boolean isNull() { return r == null && got == null; }

  // --- sets -------------------------------------------------------------------------------
  /** The non-null requests' native handles, and their positions in the array. */
  private static RequestVector vector(Request[] requests, int[] where) {
    RequestVector v = new RequestVector();
    for (int i = 0; i < requests.length; i++) {
      Request q = requests[i];
      if (q != null && q.r != null && q.got == null) {
        where[v.size()] = i;
        v.add(q.r);
      }
    }
    return v;
  }

  private static Status completeOne(Request q) {
    org.oompi.Status s = q.r.lastStatus();
    return q.done(s);
  }

  /** MPI_Waitall. */
  public static void waitAll(Request[] requests) throws MPIException { waitAllStatus(requests); }

  public static Status[] waitAllStatus(Request[] requests) throws MPIException {
    Status[] out = new Status[requests.length];
    int[] where = new int[requests.length];
    try {
      RequestVector v = vector(requests, where);
      if (v.size() > 0) org.oompi.Request.waitAll(v);
      boolean[] seen = new boolean[requests.length];
      for (int k = 0; k < v.size(); k++) {
        out[where[k]] = completeOne(requests[where[k]]);
        seen[where[k]] = true;
      }
      for (int i = 0; i < requests.length; i++)
        if (!seen[i]) out[i] = requests[i] == null ? new Status(null) : requests[i].waitStatus();
      return out;
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Waitany: the index of the completed request, MPI.UNDEFINED if all are null. */
  public static int waitAny(Request[] requests) throws MPIException {
    return waitAnyStatus(requests).getIndex();
  }

  public static Status waitAnyStatus(Request[] requests) throws MPIException {
    for (int i = 0; i < requests.length; i++)
      if (requests[i] != null && requests[i].got != null) return withIndex(requests[i].collected(), i);
    int[] where = new int[requests.length];
    try {
      RequestVector v = vector(requests, where);
      if (v.size() == 0) return new Status(null, MPI.UNDEFINED);  // all null: index UNDEFINED
      int k = org.oompi.Request.waitAny(v);
      if (k < 0) return new Status(null, MPI.UNDEFINED);
      return withIndex(completeOne(requests[where[k]]), where[k]);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** The requests' indices of waitSome/testSome's statuses (null stays null). */
  private static int[] indices(Status[] s) {
    if (s == null) return null;
    int[] idx = new int[s.length];
    for (int i = 0; i < s.length; i++) idx[i] = s[i].getIndex();
    return idx;
  }

  private static Status withIndex(Status s, int i) {
    return new Status(s == null ? null : s.raw(), i);
  }

  /** MPI_Waitsome: indices of the completed requests; null if all are null. */
  public static int[] waitSome(Request[] requests) throws MPIException {
    return indices(waitSomeStatus(requests));
  }

  public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
    return some(requests, true);
  }

  private static Status[] some(Request[] requests, boolean block) throws MPIException {
    int[] where = new int[requests.length];
    try {
      java.util.List<Status> got = new java.util.ArrayList<>();
      for (int i = 0; i < requests.length; i++)
        if (requests[i] != null && requests[i].got != null) got.add(withIndex(requests[i].collected(), i));
      RequestVector v = vector(requests, where);
      if (got.isEmpty() && v.size() == 0) return null;
      if (v.size() > 0) {
        int[] ks = block && got.isEmpty() ? org.oompi.Request.waitSome(v) : org.oompi.Request.testSome(v);
        for (int k : ks) got.add(withIndex(completeOne(requests[where[k]]), where[k]));
      }
      return got.toArray(new Status[0]);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  /** MPI_Testall: true if all completed (then all are complete). */
  public static boolean testAll(Request[] requests) throws MPIException {
    return testAllStatus(requests) != null;
  }

  public static Status[] testAllStatus(Request[] requests) throws MPIException {
    // oompi's testAll keeps no statuses (MPI's would be lost): test each as MPI_Request_get_status
    // does (a complete one keeps its status and stays active), then collect all as waitAll does.
    for (Request q : requests)
      if (q != null && q.getStatus() == null) return null;
    return waitAllStatus(requests);
  }

  /** MPI_Testany: the index of a completed request, or MPI.UNDEFINED (none yet, or all null). */
  public static int testAny(Request[] requests) throws MPIException {
    Status s = testAnyStatus(requests);
    return s == null ? MPI.UNDEFINED : s.getIndex();
  }

  public static Status testAnyStatus(Request[] requests) throws MPIException {
    for (int i = 0; i < requests.length; i++)
      if (requests[i] != null && requests[i].got != null) return withIndex(requests[i].collected(), i);
    int[] where = new int[requests.length];
    try {
      RequestVector v = vector(requests, where);
      if (v.size() == 0) return new Status(null, MPI.UNDEFINED);  // all null: index UNDEFINED
      int k = org.oompi.Request.testAny(v);
      if (k < 0) return null;  // none completed yet
      return withIndex(completeOne(requests[where[k]]), where[k]);
    } catch (RuntimeException e) {
      throw Errors.of(e);
    }
  }

  public static int[] testSome(Request[] requests) throws MPIException {
    return indices(testSomeStatus(requests));
  }

  public static Status[] testSomeStatus(Request[] requests) throws MPIException {
    return some(requests, false);
  }
}
