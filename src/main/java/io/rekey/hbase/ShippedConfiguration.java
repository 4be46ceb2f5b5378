package io.rekey.hbase;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop configuration that travels to Spark executors: the driver's resolved settings (from
 * {@code --zk}, {@code --hbase-conf}, {@code --hbase-set}), so executors need no local files.
 *
 * <p>Spark deserializes a stage's function once per task, and parsing a Hadoop configuration (a
 * thousand compressed strings) cost a writer task more than its smaller partitions took to write.
 * So each instance carries an id, and an executor parses the settings of an id once and hands the
 * same, read-only configuration to every later task of that job.
 */
public final class ShippedConfiguration implements Serializable {
  private static final long serialVersionUID = 2L;

  /** Configurations parsed in this JVM, by id: the last few jobs' (a job ships one or two). */
  private static final Map<String, Configuration> PARSED =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Configuration> eldest) {
          return size() > 8;
        }
      };

  private final String id = UUID.randomUUID().toString();
  private transient Configuration conf;

  public ShippedConfiguration(Configuration conf) {
    this.conf = new Configuration(conf);
  }

  /**
   * The configuration, shared by the tasks of a job: callers must not change it (copy it first).
   */
  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream data = new DataOutputStream(bytes)) {
      conf.write(data);
    }
    out.writeInt(bytes.size());
    bytes.writeTo(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    byte[] settings = new byte[in.readInt()];
    in.readFully(settings);
    synchronized (PARSED) {
      conf = PARSED.computeIfAbsent(id, k -> parse(settings));
    }
  }

  private static Configuration parse(byte[] settings) {
    Configuration parsed = new Configuration(false);
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(settings))) {
      parsed.readFields(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the shipped Hadoop configuration", e);
    }
    return parsed;
  }
}
