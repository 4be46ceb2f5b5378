package io.rekey.hbase;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop configuration that travels to Spark executors: the driver's resolved settings (from
 * {@code --zk}, {@code --hbase-conf}, {@code --hbase-set}), so executors need no local files.
 */
public final class ShippedConfiguration implements Serializable {
  private static final long serialVersionUID = 1L;

  private transient Configuration conf;

  public ShippedConfiguration(Configuration conf) {
    this.conf = new Configuration(conf);
  }

  /** The configuration; callers must not change it (copy it first). */
  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
