package org.oompi.tests;

import org.junit.jupiter.api.extension.ExtendWith;
import org.oompi.Comm;

/**
 * The base of the test classes that run over the world communicator, under MpiExtension (MPI
 * initialised once, every test's verdict agreed by all ranks): this rank, the number of ranks,
 * and the ring's neighbours (next sends to, prev receives from; at one rank both are the rank
 * itself). JUnit makes a new instance per test.
 */
@ExtendWith(MpiExtension.class)
abstract class WorldTest {
  protected final Comm world = Comm.world();
  protected final int rank = world.getRank();
  protected final int size = world.getSize();
  protected final int next = (rank + 1) % size;
  protected final int prev = (rank + size - 1) % size;
}
