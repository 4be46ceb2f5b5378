package io.rekey.verify;

import io.rekey.hbase.TableAdmin;
import io.rekey.read.SourceReader;
import java.io.IOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * How the two sides of a comparison are read: which cells count on each ({@link Counted}) and the
 * scans that read them, every version, below {@code until} when one is given.
 */
public record Sides(Counted source, Counted target, Long until) {
  /**
   * The sides of comparing {@code source} with {@code target}, raw or not, as of {@code until}. A
   * raw comparison of a source whose markers depend on write order is refused ({@link
   * Counted#requireRawReadable}). A target's is not refused: a key bound to a column gives it
   * {@code NEW_VERSION_BEHAVIOR}, and the markers that retire a moved row's old key are written
   * after the cells they hide, so HBase's default rules, which a raw comparison applies, read them
   * alike (a row that moves back, whose cells are written again after such markers, shows as a
   * difference).
   */
  public static Sides of(
      TableAdmin admin, TableName source, TableName target, boolean raw, Long until) {
    TableDescriptor from = admin.descriptor(source, "source");
    if (raw) {
      Counted.requireRawReadable(from);
    }
    return new Sides(
        Counted.of(from, raw, until),
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
