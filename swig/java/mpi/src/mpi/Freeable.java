package mpi;

/** Objects that hold MPI resources: free() releases them. */
public interface Freeable {
  void free() throws MPIException;
}
