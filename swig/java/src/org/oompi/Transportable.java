package org.oompi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field that travels with its object in wire format v1 (docs/wire-format.md), Motor's
 * opt-in: a class whose fields (its own or its superclasses') carry this annotation is
 * Transportable; only the annotated fields are written, every other field arrives with the
 * value the no-argument constructor gives it.
 *
 * <p>Fields are written in declaration order, superclass fields first. Supported field types:
 * {@code boolean byte short char int long float double} (bool, i8, i16, u16, i32, i64, f32,
 * f64), their boxes, {@code String} (UTF-8), enums (their ordinal as an i32), arrays of any
 * supported type, {@code List<E>} / {@code ArrayList<E>} / {@code LinkedList<E>} of a supported
 * type, and Transportable classes. A field of a Transportable class is a <em>reference</em>
 * (C++ {@code std::shared_ptr}): null allowed, shared objects arrive once and stay shared,
 * cycles survive. With {@code byValue = true} the object (or the elements of an array or list of
 * it) is written in place as a struct (C++ a plain member {@code point origin} or
 * {@code std::vector<point>}): no identity, never null.
 *
 * <p>Strings, arrays and lists must not be null (wire v1 has no null for them); a reference
 * field must hold an object of exactly its declared class (the wire carries no type names).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Transportable {
  /** Write a Transportable object (or the elements of an array/list of them) by value. */
  boolean byValue() default false;
}
