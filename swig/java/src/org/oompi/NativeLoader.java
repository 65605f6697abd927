package org.oompi;

import java.io.File;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds and loads liboompi_java.so, in this order: the system property {@code oompi.library}
 * (a full path); the file beside oompi.jar (the build tree); the installed library, at the path
 * relative to the jar that {@code cmake --install} lays out (recorded in the jar at build time:
 * share/java/oompi.jar, lib/jni/liboompi_java.so; a jar reached through a symbolic link, such as
 * the Maven repository's, counts from its target); the copy inside the jar; {@code
 * java.library.path}. So {@code java -cp oompi.jar:. App} needs nothing else, and an installed
 * library still wins over the jar's copy.
 *
 * <p>The jar's copy (org/oompi/native/linux-x86_64/liboompi_java.so) is extracted into a new
 * directory that only this user can enter (under {@code -Doompi.tmpdir}, default {@code
 * java.io.tmpdir}), checked against the size and SHA-256 recorded beside it at build time, loaded,
 * and deleted at once: the mapping stays, so nothing is left behind even when the rank is
 * killed (as mpirun kills the other ranks when one fails).
 */
final class NativeLoader {
  static final String LIBRARY = "oompi_java";
  private static boolean loaded;

  private NativeLoader() {}

  static synchronized void load() {
    if (loaded) return;
    String explicit = System.getProperty("oompi.library");
    if (explicit != null) {
      System.load(explicit);
    } else if (!loadBesideJar() && !loadInstalled() && !loadFromJar()) {
      System.loadLibrary(LIBRARY);
    }
    loaded = true;
    if ("copy".equals(System.getProperty("oompi.arrays"))) MPI.setArrayCopy(true);
  }

  /**
   * Whether large arrays may stay pinned (JNI critical) across a blocking send or receive
   * instead of being copied: only where the collector pins the array's region and goes on
   * collecting (G1 from JDK 22, JEP 423; Shenandoah on every JDK it ships in, 17 included:
   * HotSpot's GetPrimitiveArrayCritical pins the object where the heap supports_object_pinning,
   * which Shenandoah's does, and takes the GC locker otherwise). Elsewhere (G1 before JDK 22, the
   * Serial, Parallel, ZGC collectors) a pinned array locks the GC, and a thread waiting in MPI
   * would stall every thread that allocates (a deadlock with MPI_THREAD_MULTIPLE).
   * -Doompi.arrays=copy always copies. Called once, from native code, at the first large array.
   */
  static boolean arraysCanPin() {
    if ("copy".equals(System.getProperty("oompi.arrays"))) return false;
    try {
      var gcs = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans();
      if (gcs.isEmpty()) return false;
      String prefix = gcs.get(0).getName().startsWith("Shenandoah ") ? "Shenandoah "
          : Runtime.version().feature() >= 22 ? "G1 " : null;
      if (prefix == null) return false;
      for (var gc : gcs) {
        if (!gc.getName().startsWith(prefix)) return false;
      }
      return true;
    } catch (RuntimeException | LinkageError e) {  // no java.management module: copy
      return false;
    }
  }

  /** The directory of oompi.jar (or of the classes), null if unknown. */
  private static File jarDir() {
    try {
      var source = NativeLoader.class.getProtectionDomain().getCodeSource();
      if (source == null) return null;
      File location = new File(source.getLocation().toURI());
      try {
        location = location.toPath().toRealPath().toFile();  // a link's target, e.g. Maven's
      } catch (java.io.IOException e) {
        // as given
      }
      return location.isDirectory() ? location : location.getParentFile();
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean loadFile(File lib) {
    if (lib == null || !lib.isFile()) return false;
    System.load(lib.getAbsolutePath());
    return true;
  }

  private static boolean loadBesideJar() {
    File dir = jarDir();
    return dir != null && loadFile(new File(dir, System.mapLibraryName(LIBRARY)));
  }

  /** The installed library: resource installed-path is its directory relative to the jar's. */
  private static boolean loadInstalled() {
    File dir = jarDir();
    if (dir == null) return false;
    String resource = "/org/oompi/native/installed-path";
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) return false;
      String relative = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
      return !relative.isEmpty()
          && loadFile(new File(new File(dir, relative), System.mapLibraryName(LIBRARY)));
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /**
   * The jar's copy, if it has one for this platform: extracted, verified, loaded, deleted.
   * False when the jar has none; an UnsatisfiedLinkError saying why when it has one that cannot
   * be used (and none on java.library.path either).
   */
  private static boolean loadFromJar() {
    String name = System.mapLibraryName(LIBRARY);
    String resource = "/org/oompi/native/" + platform() + "/" + name;
    String expected;
    try (InputStream sum = NativeLoader.class.getResourceAsStream(resource + ".sha256")) {
      if (sum == null) return false;
      expected = new String(sum.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (java.io.IOException e) {
      return false;
    }
    Path dir = null, lib = null;
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) throw new java.io.IOException("oompi.jar has no " + resource);
      String parent = System.getProperty("oompi.tmpdir", System.getProperty("java.io.tmpdir"));
      dir = Files.createTempDirectory(Path.of(parent), "oompi-native");  // rwx------
      lib = dir.resolve(name);
      var digest = java.security.MessageDigest.getInstance("SHA-256");
      long size;
      try (var out = Files.newOutputStream(lib)) {
        size = new java.security.DigestInputStream(in, digest).transferTo(out);
      }
      String actual = java.util.HexFormat.of().formatHex(digest.digest()) + " " + size;
      if (!actual.equals(expected)) {
        throw new java.io.IOException("the extracted copy has SHA-256 and size " + actual
            + ", the jar recorded " + expected + " (a damaged or altered oompi.jar?)");
      }
      System.load(lib.toAbsolutePath().toString());
      return true;
    } catch (java.io.IOException | java.security.GeneralSecurityException
             | UnsatisfiedLinkError e) {
      try {
        System.loadLibrary(LIBRARY);
        return true;
      } catch (UnsatisfiedLinkError alsoMissing) {
        var error = new UnsatisfiedLinkError("oompi: cannot load " + name + " from oompi.jar ("
            + resource + " extracted to " + (lib != null ? lib : dir) + "): " + e
            + "; nor from java.library.path: " + alsoMissing.getMessage()
            + ". Set -Doompi.tmpdir to a directory that allows executables, or -Doompi.library"
            + " to the library's path.");
        error.initCause(e);
        throw error;
      }
    } finally {
      // Once loaded, the mapping outlives the file: delete it now, not at exit.
      try {
        if (lib != null) Files.deleteIfExists(lib);
        if (dir != null) Files.deleteIfExists(dir);
      } catch (java.io.IOException e) {
        if (lib != null) lib.toFile().deleteOnExit();
        if (dir != null) dir.toFile().deleteOnExit();
      }
    }
  }

  static String platform() {
    String os = System.getProperty("os.name").toLowerCase().replaceAll("[^a-z0-9]", "");
    String arch = System.getProperty("os.arch").replace("amd64", "x86_64");
    return os + "-" + arch;
  }
}
