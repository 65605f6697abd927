/**
 * The Java bench programs' options: {@code --key=value}, or a bare {@code --key} (then "1"),
 * as bench/run.sh passes them (--quick, --rounds=N, --first-round=R, ...).
 */
final class BenchArgs {
  private BenchArgs() {}

  /** The value of option {@code key} in {@code args}, or {@code dflt} when it is not there. */
  static String opt(String[] args, String key, String dflt) {
    for (String a : args) if (a.startsWith("--" + key + "=")) return a.substring(key.length() + 3);
    for (String a : args) if (a.equals("--" + key)) return "1";
    return dflt;
  }
}
