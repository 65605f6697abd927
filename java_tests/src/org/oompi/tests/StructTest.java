package org.oompi.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.oompi.Buffers;
import org.oompi.Struct;

/** Struct: C layout, the MPI struct datatype, records sent around the ring, bad uses refused. */
class StructTest extends WorldTest {
  static final class Complex extends Struct {
    final int real = addDouble(), imag = addDouble();
    @Override protected Data newData() { return new Data(); }
    final class Data extends Struct.Data {
      double getReal() { return getDouble(real); }
      double getImag() { return getDouble(imag); }
      void put(double r, double i) { putDouble(real, r); putDouble(imag, i); }
    }
  }

  /** struct { int8_t b; double d; int32_t a[3]; bool f; int16_t s; } in C. */
  static final class Mixed extends Struct {
    final int b = addByte(), d = addDouble(), a = addInt(3), f = addBoolean(), s = addShort();
    @Override protected Data newData() { return new Data(); }
    final class Data extends Struct.Data {
      void fill(int k) {
        putByte(b, (byte) k); putDouble(d, k * 0.5); putBoolean(f, k % 2 == 1); putShort(s, (short) -k);
        for (int i = 0; i < 3; i++) putInt(a, i, k * 10 + i);
      }
      void check(int k) {
        assertEquals((byte) k, getByte(b));
        assertEquals(k * 0.5, getDouble(d), 0.0);
        assertEquals(k % 2 == 1, getBoolean(f));
        assertEquals((short) -k, getShort(s));
        for (int i = 0; i < 3; i++) assertEquals(k * 10 + i, getInt(a, i));
      }
    }
  }

  /** struct { int32_t id; Complex c[2]; } */
  static final class Outer extends Struct {
    final Complex complex = new Complex();
    final int id = addInt(), c = addStruct(complex, 2);
    @Override protected Data newData() { return new Data(); }
    final class Data extends Struct.Data {
      int getId() { return getInt(id); }
      void putId(int v) { putInt(id, v); }
      Complex.Data c(int i) { return getStruct(complex, c, i); }
    }
  }

  @Test
  void complexNumbersAroundTheRing() {
    try (Complex type = new Complex()) {
      assertEquals(16, type.getExtent());
      assertEquals(16, type.getType().getSize());
      ByteBuffer out = Buffers.newByteBuffer(type.getExtent() * 5), in = Buffers.newByteBuffer(type.getExtent() * 5);
      for (int i = 0; i < 5; i++) type.<Complex.Data>getData(out, i).put(rank, i * 0.5);
      world.sendrecv(Buffers.typed(out, 5, type.getType()), next, 1, Buffers.typed(in, type.getType()), prev, 1);
      for (int i = 0; i < 5; i++) {
        Complex.Data c = type.getData(in, i);
        assertEquals(prev, c.getReal(), 0.0);
        assertEquals(i * 0.5, c.getImag(), 0.0);
      }
    }
  }

  @Test
  void mixedFieldsHaveCLayout() {
    try (Mixed type = new Mixed()) {
      assertEquals(0, type.b);
      assertEquals(8, type.d);
      assertEquals(16, type.a);
      assertEquals(28, type.f);
      assertEquals(30, type.s);
      assertEquals(32, type.getExtent());
      assertEquals(1 + 8 + 12 + 1 + 2, type.getType().getSize());  // the padding is not sent
      assertEquals(32, type.getType().getExtent());
      ByteBuffer out = Buffers.newByteBuffer(32 * 3), in = Buffers.newByteBuffer(32 * 3);
      for (int k = 0; k < 3; k++) type.<Mixed.Data>getData(out, k).fill(rank + k);
      world.sendrecv(Buffers.typed(out, 3, type.getType()), next, 2, Buffers.typed(in, 3, type.getType()), prev, 2);
      for (int k = 0; k < 3; k++) type.<Mixed.Data>getData(in, k).check(prev + k);
    }
  }

  @Test
  void nestedStructs() {
    try (Outer type = new Outer()) {
      assertEquals(8, type.c);
      assertEquals(40, type.getExtent());
      ByteBuffer buf = Buffers.newByteBuffer(40 * 2);
      if (rank == 0)
        for (int k = 0; k < 2; k++) {
          Outer.Data o = type.getData(buf, k);
          o.putId(100 + k);
          o.c(0).put(k, 1);
          o.c(1).put(k, 2);
        }
      world.bcast(Buffers.typed(buf, 2, type.getType()), 0);
      for (int k = 0; k < 2; k++) {
        Outer.Data o = type.getData(buf, k);
        assertEquals(100 + k, o.getId());
        assertEquals(k, o.c(1).getReal(), 0.0);
        assertEquals(2, o.c(1).getImag(), 0.0);
      }
      type.complex.close();
    }
  }

  @Test
  void badUses() {
    try (Complex type = new Complex()) {
      ByteBuffer buf = Buffers.newByteBuffer(32);
      assertThrows(IndexOutOfBoundsException.class, () -> type.getData(buf, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> type.getData(buf, -1));
      assertThrows(IllegalArgumentException.class,
          () -> type.getData(ByteBuffer.allocateDirect(32).order(ByteOrder.BIG_ENDIAN), 0));
      assertThrows(IndexOutOfBoundsException.class,  // 3 records do not fit in 32 bytes
          () -> world.bcast(Buffers.typed(buf, 3, type.getType()), 0));
    }
    Struct empty = new Struct() {
      @Override protected Data newData() { return null; }
    };
    assertThrows(IllegalStateException.class, empty::getType);
    assertThrows(IllegalStateException.class, () -> new Struct() {  // fields after getType()
      @Override protected Data newData() { return null; }
      { addInt(); getType(); addInt(); }
    });
    assertThrows(IllegalArgumentException.class, () -> new Struct() {
      @Override protected Data newData() { return null; }
      { addDouble(0); }
    });
  }
}
