package mpi;

/** The MPI standard version (MPI_Get_version). */
public final class Version {
  private final int version, subVersion;

  Version(int version, int subVersion) {
    this.version = version;
    this.subVersion = subVersion;
  }

  public int getVersion() { return version; }

  public int getSubVersion() { return subVersion; }
}
