package org.oompi.tests;

import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.oompi.Environment;
import org.oompi.TestSupport;
import org.oompi.ThreadLevel;

/**
 * JUnit 5 extension for tests under mpirun: initialises MPI once per JVM (one JVM per rank),
 * and after every test agrees on its verdict over all ranks. A test that failed on any rank
 * fails on every rank; a rank whose test failed while others are stuck in a collective it
 * skipped aborts the job after a grace period (OOMPI_TEST_GRACE seconds, default 10) instead
 * of leaving them hanging. Tests must run in the same order on every rank (use
 * {@code @TestMethodOrder(MethodOrderer.MethodName.class)}).
 */
public final class MpiExtension implements BeforeAllCallback, AfterTestExecutionCallback {
  private static Environment env;

  static synchronized void init() {
    // -Doompi.tests.threadLevel=FUNNELED: a test's other variant (java.array_slices_pinned)
    if (env == null)
      env = new Environment(ThreadLevel.valueOf(System.getProperty("oompi.tests.threadLevel", "MULTIPLE")));
  }

  /** The thread level MPI provides. */
  static synchronized ThreadLevel provided() {
    init();
    return env.getProvided();
  }

  /** Called when the launcher session closes: finalizes MPI. */
  static synchronized void shutdown() {
    if (env != null) {
      env.close();
      env = null;
    }
  }

  static double grace() {
    String s = System.getenv("OOMPI_TEST_GRACE");
    return s == null ? 10.0 : Double.parseDouble(s);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    init();
  }

  @Override
  public void afterTestExecution(ExtensionContext context) {
    boolean failedHere = context.getExecutionException().isPresent();
    String name = context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName();
    boolean failedAnywhere = TestSupport.agree(failedHere, grace(), name);
    if (failedAnywhere && !failedHere) {
      throw new AssertionError(name + " failed on another rank");
    }
  }
}
