package io.rekey.options;

import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * A file or directory a user names: a local path, or a Hadoop filesystem URI ({@code hdfs://…},
 * {@code s3a://…}), as a job file, a JSON result or a report directory may be when the driver runs
 * in a cluster's container (YARN cluster mode).
 */
public record Location(String text) {
  private static final Pattern URI_WITH_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://.*");

  public Location {
    text = text.trim();
  }

  /** Whether it is on this host's filesystem (a plain path, or a {@code file://} URI). */
  public boolean isLocal() {
    return !URI_WITH_SCHEME.matcher(text).matches() || text.startsWith("file://");
  }

  /**
   * The local path.
   *
   * @throws IllegalStateException when it is no local location
   */
  public Path local() {
    if (!isLocal()) {
      throw new IllegalStateException(text + " is not on the local filesystem");
    }
    return text.startsWith("file://") ? Path.of(URI.create(text)) : Path.of(text);
  }

  /** The location of {@code name} inside this directory. */
  public Location child(String name) {
    if (isLocal()) {
      return new Location(local().resolve(name).toString());
    }
    return new Location(text.endsWith("/") ? text + name : text + "/" + name);
  }

  @Override
  public String toString() {
    return text;
  }
}
