package mpi;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * User keyvals and attributes of datatypes, windows and files. oompi keeps attributes in MPI
 * only on communicators (Comm's keyvals); for these three kinds the values live on the Java
 * object, which is all a Java program can observe (attributes hold Java objects here, and a
 * duplicate starts without them, as MPI_TYPE_NULL_COPY_FN would have it). One instance per
 * object; the keyvals of each kind are numbered separately, as in MPI.
 */
final class Attributes {
  /** The keyvals of one kind of object (createKeyval/freeKeyval). */
  static final class Keys {
    private final Set<Integer> live = new HashSet<>();
    private int next = 1;

    synchronized int create() {
      live.add(next);
      return next++;
    }

    synchronized void free(int keyval) throws MPIException {
      if (!live.remove(keyval)) throw invalid(keyval);
    }

    synchronized void check(int keyval) throws MPIException {
      if (!live.contains(keyval)) throw invalid(keyval);
    }
  }

  static MPIException invalid(int keyval) {
    return new MPIException(MPI.ERR_KEYVAL, "no keyval " + keyval + " (freed, or never created)");
  }

  private final Keys keys;
  private final Map<Integer, Object> values = new HashMap<>();

  Attributes(Keys keys) { this.keys = keys; }

  synchronized void set(int keyval, Object value) throws MPIException {
    keys.check(keyval);
    values.put(keyval, value);
  }

  /** The value, or null when none is set (MPI's flag false). */
  synchronized Object get(int keyval) throws MPIException {
    keys.check(keyval);
    return values.get(keyval);
  }

  synchronized void delete(int keyval) throws MPIException {
    keys.check(keyval);
    if (values.remove(keyval) == null && !values.containsKey(keyval))
      throw new MPIException(MPI.ERR_ARG, "no attribute " + keyval);
  }
}
