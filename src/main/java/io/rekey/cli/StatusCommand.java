package io.rekey.cli;

import io.rekey.hbase.ClusterProbe;
import io.rekey.hbase.ClusterStatus;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import java.util.List;

/** {@code status}: does the cluster serve requests, and what is it made of. */
final class StatusCommand implements Command<StatusCommand.Options> {
  @Override
  public About about() {
    return About.of(
        "status",
        "check that the HBase cluster serves requests and show its servers",
        ClusterStatus.class);
  }

  static final OptionDef<Long> WAIT =
      OptionDef.number(
              "wait", "SECONDS", "keep trying this long before giving up (0: one try)", 0, 3600)
          .withDefault(0L);

  /**
   * Options of {@code status}.
   *
   * @param waitSeconds how long to keep trying
   */
  record Options(long waitSeconds) {}

  @Override
  public Parsing<Options> parsing() {
    return new Parsing<>(List.of(WAIT), this::read);
  }

  private Options read(OptionValues values) {
    return new Options(values.get(WAIT));
  }

  @Override
  public ExitCode run(Options options, CommandContext context) {
    ClusterStatus status = ClusterProbe.probe(context.hbase(), options.waitSeconds());
    String text =
        String.format(
            "HBase %s serves requests at %s%n  master: %s%n  region servers (%d): %s%n  user"
                + " tables: %d%n",
            status.hbaseVersion(),
            status.zookeeper(),
            status.master(),
            status.regionServers().size(),
            String.join(", ", status.regionServers()),
            status.tables());
    context.emit(text, status);
    return ExitCode.OK;
  }
}
