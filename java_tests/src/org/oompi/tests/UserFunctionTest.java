package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Datatype;
import org.oompi.Op;
import org.oompi.UserFunction;

/** User-defined ops in both of seed 000's forms (Figs. 12-13), order, and exceptions. */
class UserFunctionTest extends WorldTest {
  @Test
  void arrayFormSumsDoubles() {
    // Fig. 12: the function sees double[] copies, whatever the collective's buffers are.
    UserFunction uf = new UserFunction() {
      @Override
      public void call(Object in, Object inOut, int count, Datatype type) {
        double[] vIn = (double[]) in, vInOut = (double[]) inOut;
        for (int i = 0; i < count; i++) vInOut[i] += vIn[i];
      }
    };
    try (Op op = new Op(uf, true)) {
      double[] out = new double[3];
      world.allreduce(new double[] {rank, 1, -rank}, out, op);
      assertArrayEquals(new double[] {size * (size - 1) / 2.0, size, -size * (size - 1) / 2.0}, out);
    }
  }

  @Test
  void byteBufferFormSumsDoublesInPlace() {
    // Fig. 13: zero-copy views of MPI's memory.
    UserFunction uf = new UserFunction() {
      @Override
      public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
        DoubleBuffer bIn = in.asDoubleBuffer(), bInOut = inOut.asDoubleBuffer();
        for (int i = 0; i < count; i++) bInOut.put(i, bInOut.get(i) + bIn.get(i));
      }
    };
    try (Op op = Op.create(uf, true)) {
      DoubleBuffer a = Buffers.newDoubleBuffer(1000);
      for (int i = 0; i < 1000; i++) a.put(i, i * (rank + 1));
      DoubleBuffer r = Buffers.newDoubleBuffer(1000);
      world.allreduce(a, r, op);
      for (int i = 0; i < 1000; i++) assertEquals(i * size * (size + 1) / 2.0, r.get(i), 0.0);
    }
  }

  @Test
  void nonCommutativeOpKeepsRankOrder() {
    // x o y = x: the result of a reduction is the lowest rank's value only if MPI keeps order.
    UserFunction first = new UserFunction() {
      @Override
      public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
        IntBuffer i = in.asIntBuffer(), o = inOut.asIntBuffer();
        for (int k = 0; k < count; k++) o.put(k, i.get(k));
      }
    };
    try (Op op = new Op(first, false)) {
      assertTrue(!op.isCommutative());
      int[] out = new int[2];
      world.allreduce(new int[] {rank + 10, rank}, out, op);
      assertArrayEquals(new int[] {10, 0}, out);
    }
  }

  static final class Boom extends RuntimeException {
    Boom() { super("boom from a user function"); }
  }

  @Test
  void exceptionSurfacesFromTheCollective() {
    Boom boom = new Boom();
    UserFunction thrower = new UserFunction() {
      @Override
      public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
        throw boom;
      }
    };
    int threw = 0;
    try (Op op = new Op(thrower, true)) {
      try {
        world.allreduce(new int[] {1}, new int[1], op);
      } catch (Boom caught) {
        assertSame(boom, caught);  // the same Throwable, not a copy
        threw = 1;
      }
    }
    int[] any = new int[1];
    world.allreduce(new int[] {threw}, any, Op.MAX);  // the communicator still works
    assertEquals(size > 1 ? 1 : 0, any[0]);  // one rank alone never combines anything
  }

  @Test
  void arrayFormOnADerivedTypeIsRefused() {
    UserFunction arraysOnly = new UserFunction() {
      @Override
      public void call(Object in, Object inOut, int count, Datatype type) {}
    };
    int refused = 0;
    try (Op op = new Op(arraysOnly, true); Datatype pair = Datatype.contiguous(2, Datatype.INT)) {
      try {
        world.allreduce(Buffers.typed(new int[2], 1, pair), Buffers.typed(new int[2], 1, pair), op);
      } catch (UnsupportedOperationException e) {
        assertTrue(e.getMessage().contains("predefined"), e.getMessage());
        refused = 1;
      }
    }
    int[] any = new int[1];
    world.allreduce(new int[] {refused}, any, Op.MAX);
    assertEquals(size > 1 ? 1 : 0, any[0]);
    assertThrows(NullPointerException.class, () -> new Op(null, true));
  }
}
