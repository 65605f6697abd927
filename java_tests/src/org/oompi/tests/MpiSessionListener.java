package org.oompi.tests;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Finalizes MPI once the JUnit launcher has run every test (registered as a service). */
public final class MpiSessionListener implements LauncherSessionListener {
  @Override
  public void launcherSessionClosed(LauncherSession session) {
    MpiExtension.shutdown();
  }
}
