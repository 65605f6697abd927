package org.oompi;

import java.io.File;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Finds and loads liboompi_java.so, in this order: the system property {@code oompi.library}
 * (a full path); the file beside oompi.jar (the build tree); the installed library, at the path
 * relative to the jar that {@code cmake --install} lays out (recorded in the jar at build time:
 * share/java/oompi.jar, lib/jni/liboompi_java.so); the copy inside the jar (extracted to a
 * temporary file); {@code java.library.path}. So {@code java -cp oompi.jar:. App} needs nothing
 * else.
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
   * collecting (G1 from JDK 22, JEP 423). Elsewhere (JDK 17, or the Serial, Parallel, ZGC
   * collectors) a pinned array locks the GC, and a thread waiting in MPI would stall every thread
   * that allocates (a deadlock with MPI_THREAD_MULTIPLE). -Doompi.arrays=copy always copies.
   * Called once, from native code, at the first large array.
   */
  static boolean arraysCanPin() {
    if ("copy".equals(System.getProperty("oompi.arrays"))) return false;
    if (Runtime.version().feature() < 22) return false;
    try {
      var gcs = java.lang.management.ManagementFactory.getGarbageCollectorMXBeans();
      if (gcs.isEmpty()) return false;
      for (var gc : gcs) {
        if (!gc.getName().startsWith("G1 ")) return false;
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

  private static boolean loadFromJar() {
    String name = System.mapLibraryName(LIBRARY);
    String resource = "/org/oompi/native/" + platform() + "/" + name;
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) return false;
      Path dir = Files.createTempDirectory("oompi");
      dir.toFile().deleteOnExit();  // registered first: deleted last, once it is empty
      Path lib = dir.resolve(name);
      Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
      lib.toFile().deleteOnExit();
      System.load(lib.toAbsolutePath().toString());
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  static String platform() {
    String os = System.getProperty("os.name").toLowerCase().replaceAll("[^a-z0-9]", "");
    String arch = System.getProperty("os.arch").replace("amd64", "x86_64");
    return os + "-" + arch;
  }
}
