package io.rekey.verify;

import io.rekey.hbase.TableAdmin;
import io.rekey.read.SourceReader;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Scan;

/**
 * How the two sides of a comparison are read: which cells count on each ({@link Counted}) and the
 * scans that read them, every version, below {@code until} when one is given.
 */
public record Sides(Counted source, Counted target, Long until) {
  /** The sides of comparing {@code source} with {@code target}, raw or not, as of {@code until}. */
  public static Sides of(
      TableAdmin admin, TableName source, TableName target, boolean raw, Long until) {
    return new Sides(
        Counted.of(admin.descriptor(source, "source"), raw, until),
        Counted.of(admin.descriptor(target, "target"), raw, until),
        until);
  }

  /** The same sides with the rows under {@code keys} (target keys) left out of both. */
  public Sides leavingOut(KeySet keys) {
    return new Sides(source.leavingOut(keys), target.leavingOut(keys), until);
  }

  /** The source's scan; {@code batch} cells per result (0 for whole rows). */
  public Scan sourceScan(int batch) {
    return below(SourceReader.fullScan(batch, source.raw()));
  }

  /** The target's scan. */
  public Scan targetScan(int batch) {
    return below(SourceReader.fullScan(batch, target.raw()));
  }

  private Scan below(Scan scan) {
    if (until == null) {
      return scan;
    }
    try {
      return scan.setTimeRange(0, until);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read below " + until, e);
    }
  }
}
