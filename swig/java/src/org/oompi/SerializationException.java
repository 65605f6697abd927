package org.oompi;

/**
 * An object graph could not be written or read in wire format v1: a corrupt or truncated
 * message, a size larger than the bytes left, an unknown back-reference, an object of the wrong
 * class, a graph nesting too deeply for the thread's stack, a null where the format has none.
 * Unchecked, like every oompi exception.
 */
public class SerializationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SerializationException(String message) {
    super(message);
  }

  public SerializationException(String message, Throwable cause) {
    super(message, cause);
  }
}
