package io.rekey.write;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rekey.run.RunFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The loaded-once ledger of a run ({@code RUN/ledger.json}): every HFile the driver committed into
 * the load directory, with its cells, and whether HBase has loaded it. A load attempt loads only
 * the entries still {@code COMMITTED}; what an interrupted attempt did load is found in the
 * target's store files ({@link StoreFileCensus}), never by listing the load directory again.
 * Rewritten atomically after every change.
 *
 * @param runId the run's id: every file of the run is tagged {@code runId/name}
 * @param sinceMillis the oldest modification time among the committed files: older store files of
 *     the target cannot be this run's
 * @param loadAttempts bulk loads started so far: before the first, nothing can be loaded yet
 * @param entries the committed files, in the order they were committed
 */
public record Ledger(String runId, long sinceMillis, int loadAttempts, List<Entry> entries) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  /** Whether HBase has loaded an entry. */
  public enum State {
    /** In the load directory, not (yet) in the target. */
    COMMITTED,
    /** In the target's store files, whole or in pieces; never loaded again. */
    LOADED
  }

  /**
   * One committed file.
   *
   * @param name {@code FAMILY/FILE} under the load directory
   * @param firstRow the first row, hex
   * @param lastRow the last row, hex
   * @param note how the entry came to be, when not written by a task (a remainder), else null
   */
  public record Entry(
      String name,
      String family,
      long bytes,
      long cells,
      String firstRow,
      String lastRow,
      State state,
      String note) {
    /** The entry as HBase has loaded it. */
    public Entry loaded() {
      return new Entry(name, family, bytes, cells, firstRow, lastRow, State.LOADED, note);
    }

    @JsonIgnore
    public boolean isLoaded() {
      return state == State.LOADED;
    }

    static Entry of(WrittenFile f) {
      return new Entry(
          f.name(),
          f.family(),
          f.bytes(),
          f.cells(),
          HEX.formatHex(f.firstRow()),
          HEX.formatHex(f.lastRow()),
          State.COMMITTED,
          null);
    }
  }

  public Ledger {
    entries = List.copyOf(entries);
  }

  /** Cells in every entry. */
  @JsonIgnore
  public long cells() {
    return entries.stream().mapToLong(Entry::cells).sum();
  }

  /** Bytes in every entry. */
  public long bytes() {
    return entries.stream().mapToLong(Entry::bytes).sum();
  }

  /** The entries not yet loaded. */
  public List<Entry> pending() {
    return entries.stream().filter(e -> !e.isLoaded()).toList();
  }

  /** The ledger with every entry in {@code loaded} marked LOADED. */
  Ledger withLoaded(List<Entry> loaded) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      out.add(loaded.stream().anyMatch(l -> l.name().equals(e.name())) ? e.loaded() : e);
    }
    return new Ledger(runId, sinceMillis, loadAttempts, out);
  }

  /** The ledger with {@code old} replaced by {@code replacements}. */
  Ledger replacing(Entry old, List<Entry> replacements) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.name().equals(old.name())) {
        out.addAll(replacements);
      } else {
        out.add(e);
      }
    }
    return new Ledger(runId, sinceMillis, loadAttempts, out);
  }

  /** The ledger with one more load attempt started. */
  Ledger withLoadAttempt() {
    return new Ledger(runId, sinceMillis, loadAttempts + 1, entries);
  }

  /** Where the ledger of run directory {@code run} is kept. */
  public static Path file(Path run) {
    return new Path(run, "ledger.json");
  }

  /** The ledger in {@code run}, or null when the run committed nothing yet. */
  public static Ledger read(Configuration conf, Path run) throws IOException {
    Path file = file(run);
    FileSystem fs = file.getFileSystem(conf);
    if (!fs.exists(file)) {
      return null;
    }
    try (InputStream in = fs.open(file)) {
      return JSON.readValue(in, Ledger.class);
    }
  }

  /** Writes the ledger through a temporary file and a rename. */
  public void write(Configuration conf, Path run) throws IOException {
    RunFiles.writeAtomically(conf, file(run), JSON.writeValueAsString(this));
  }

  static byte[] row(String hex) {
    return HEX.parseHex(hex);
  }
}
