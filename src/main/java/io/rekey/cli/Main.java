package io.rekey.cli;

import io.rekey.common.FindingsFound;
import io.rekey.common.JsonResult;
import io.rekey.common.RekeyException;
import io.rekey.hbase.HBaseConnections;
import io.rekey.hbase.HBaseSettings;
import io.rekey.hbase.HadoopFiles;
import io.rekey.hbase.Outage;
import io.rekey.index.IndexJob;
import io.rekey.options.InvalidOptionException;
import io.rekey.options.Location;
import io.rekey.options.NearestName;
import io.rekey.options.OptionDef;
import io.rekey.options.OptionValues;
import io.rekey.pacing.Throttle;
import io.rekey.read.ReadOptions;
import io.rekey.run.RunLockedException;
import io.rekey.security.AccessDenied;
import io.rekey.security.DelegationTokens;
import io.rekey.security.Grant;
import io.rekey.security.GrantCheck;
import io.rekey.security.MissingGrantException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code hbase-rekey} command line: one subcommand per job. The only class that exits the JVM
 * (but in a YARN cluster-mode driver, which must not: {@link YarnClusterExit}); everything below it
 * returns results or throws.
 */
public final class Main {
  /** The program name in usage text. */
  public static final String PROGRAM = "hbase-rekey";

  /**
   * Goes to the log file only (conf/log4j2.properties): the stack trace of a failed command, which
   * the console replaces by one line saying what happened and what to do.
   */
  private static final Logger TRACE = LoggerFactory.getLogger("io.rekey.trace");

  private static final String INDEX = "index";

  /**
   * Where conf/log4j2.properties writes the whole log, stack traces included: the launcher's file,
   * else a YARN container's log directory, else a directory of the user's own under the temporary
   * directory (a shared {@code /tmp/hbase-rekey.log} would be one user's and refuse the others).
   */
  static final String LOG_FILE =
      System.getProperty(
          "rekey.log.file",
          System.getProperty(
                  "spark.yarn.app.container.log.dir",
                  System.getProperty("java.io.tmpdir") + "/" + System.getProperty("user.name"))
              + "/hbase-rekey.log");

  /** Ends the line of a run that failed (exit 1): where the whole story is. */
  private static final String LOG_HINT = " (log: " + LOG_FILE + ")";

  /** How far {@link #run} goes with a command line. */
  enum Depth {
    /** Parse it: the command and its options exist, and each option has its value. */
    PARSE,
    /** Also read the files it names and validate every value, as a run would first. */
    VALIDATE,
    /** Run the command. */
    RUN
  }

  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> env;
  private final Depth depth;
  private final Map<String, Command<?>> commands = new LinkedHashMap<>();

  /**
   * @param env the environment ({@code HBASE_CONF_DIR} is read from it)
   */
  public Main(PrintStream out, PrintStream err, Map<String, String> env) {
    this(out, err, env, Depth.RUN);
  }

  /** A command line checked to {@code depth} and not run, for the documentation's examples. */
  Main(PrintStream out, PrintStream err, Map<String, String> env, Depth depth) {
    this.depth = depth;
    this.out = out;
    this.err = err;
    this.env = Map.copyOf(env);
    for (Command<?> c :
        List.<Command<?>>of(
            new StatusCommand(),
            new DescribeCommand(),
            new GenerateCommand(),
            new LayoutCommand(),
            new AuditCommand(),
            new RekeyCommand(),
            new RekeySyncCommand(),
            new RekeyRepairCommand(),
            new VerifyCommand(),
            new IndexRunCommand(IndexJob.Kind.BUILD),
            new IndexRunCommand(IndexJob.Kind.UPDATE),
            new IndexScrutinyCommand(),
            new IndexLookupCommand(),
            new StreamStartCommand(),
            new StreamStatusCommand(),
            new StreamSwitchCommand(),
            new StreamStopCommand(),
            new StateCommand())) {
      commands.put(c.about().name(), c);
    }
  }

  /** The commands by name, in the order the usage lists them. */
  Map<String, Command<?>> commands() {
    return java.util.Collections.unmodifiableMap(commands);
  }

  public static void main(String[] args) {
    YarnClusterExit.ErrorLine err = new YarnClusterExit.ErrorLine(System.err);
    ExitCode code = new Main(System.out, err, System.getenv()).run(args);
    System.out.flush();
    err.flush();
    if (YarnClusterExit.applies(System.getProperties())) {
      // Inside YARN's ApplicationMaster: return or throw, never exit (see YarnClusterExit).
      YarnClusterExit.registerWithYarn(YarnClusterExit.applicationName(PROGRAM, args));
      if (code != ExitCode.OK) {
        throw new YarnClusterExit.CommandFailed(code, err.first());
      }
      return;
    }
    System.exit(code.code());
  }

  /** Runs one command line and says how it ended. */
  public ExitCode run(String... args) {
    if (args.length == 0) {
      err.print(rootUsage());
      return ExitCode.USAGE;
    }
    String name = args[0];
    if (name.equals("--help") || name.equals("-h") || name.equals("help")) {
      out.print(rootUsage());
      return ExitCode.OK;
    }
    if (name.equals("--version") || name.equals("version")) {
      out.print(BuildInfo.ofThisJar().describe());
      return ExitCode.OK;
    }
    int words = 1;
    if (name.equals(INDEX)) {
      // index has subcommands: 'index build', 'index update', ...
      if (args.length < 2 || args[1].startsWith("-")) {
        (args.length < 2 ? err : out).print(indexUsage());
        return args.length >= 2 && (args[1].equals("--help") || args[1].equals("-h"))
            ? ExitCode.OK
            : ExitCode.USAGE;
      }
      name = INDEX + " " + args[1];
      words = 2;
    }
    if (words == 1 && args.length >= 2 && commands.containsKey(name + " " + args[1])) {
      // 'rekey sync': a command with a subcommand of its own, next to the plain 'rekey'.
      name = name + " " + args[1];
      words = 2;
    }
    Command<?> command = commands.get(name);
    if (command == null) {
      err.println(
          "error: unknown command '"
              + name
              + "'"
              + NearestName.hint(name, commands.keySet(), "")
              + "; the commands are: "
              + String.join(", ", commands.keySet()));
      err.print(rootUsage());
      return ExitCode.USAGE;
    }
    String[] rest = Arrays.copyOfRange(args, words, args.length);
    List<OptionDef<?>> declared = declared(command);
    String program = PROGRAM + " " + name;
    ScoptParser.Outcome outcome =
        ScoptParser.parse(program, command.about().summary(), declared, rest);
    if (outcome instanceof ScoptParser.Help help) {
      out.println(help.usage());
      out.print(ExitCode.help(command.about().exitCodes()));
      out.println(
          "--json writes the result the JSON Schema "
              + JsonResult.schemaResource(name)
              + " in the jar describes");
      return ExitCode.OK;
    }
    if (outcome instanceof ScoptParser.Failed failed) {
      for (String e : failed.errors()) {
        err.println("error: " + withNearestOption(e, declared));
      }
      err.println(failed.usage());
      return ExitCode.USAGE;
    }
    if (depth == Depth.PARSE) {
      return ExitCode.OK;
    }
    return runParsed(command, program, declared, ((ScoptParser.Parsed) outcome).values());
  }

  /**
   * The command's grants, checked on a secure cluster before it starts (see {@link GrantCheck}).
   */
  private static void requireGrants(List<Grant> grants, HBaseSettings hbase) {
    Configuration conf = hbase.toConfiguration();
    if (grants.isEmpty() || !GrantCheck.applies(conf)) {
      return;
    }
    try (Connection connection = HBaseConnections.open(hbase)) {
      GrantCheck.require(connection, conf, grants);
    } catch (IOException e) {
      throw new RekeyException("cannot check the job's permissions: " + e.getMessage(), e);
    }
  }

  private static final Pattern UNKNOWN_OPTION = Pattern.compile("Unknown option --?(\\S+)");

  /** Scopt's "Unknown option --x" with the nearest declared option, when one is near. */
  static String withNearestOption(String error, List<OptionDef<?>> declared) {
    Matcher m = UNKNOWN_OPTION.matcher(error);
    if (!m.matches()) {
      return error;
    }
    List<String> names = declared.stream().map(OptionDef::name).toList();
    return error + NearestName.hint(m.group(1), names, "--");
  }

  private <O> ExitCode runParsed(
      Command<O> command, String program, List<OptionDef<?>> declared, OptionValues cli) {
    String name = command.about().name();
    OptionValues values;
    O options;
    CommandContext context;
    try {
      values = command.expand(withJobFile(command, cli)).validate(declared);
      options = command.typed(values);
      HBaseSettings hbase = CommonOptions.hbaseSettings(values, env);
      if (command.about().throttled()) {
        hbase = hbase.withDefaults(Throttle.from(values).properties());
      }
      if (declared.contains(ReadOptions.TARGET_SNAPSHOT_MIB)) {
        hbase = hbase.withDefaults(ReadOptions.comparedTargetProperties(values));
      }
      context = new CommandContext(out, err, hbase, values.get(CommonOptions.JSON));
    } catch (InvalidOptionException e) {
      return usageError(program, e);
    }
    if (depth == Depth.VALIDATE) {
      return ExitCode.OK;
    }
    try {
      requireGrants(command.grants(options), context.hbase());
      return command.run(options, context);
    } catch (InvalidOptionException e) {
      return usageError(program, e);
    } catch (MissingGrantException e) {
      err.println("error: " + name + ": " + e.getMessage());
      return ExitCode.USAGE;
    } catch (RunLockedException e) {
      err.println("error: " + name + ": " + e.getMessage());
      return ExitCode.BUSY;
    } catch (FindingsFound e) {
      err.println("error: " + name + ": " + e.getMessage());
      return ExitCode.FINDINGS;
    } catch (RekeyException e) {
      TRACE.error("{} failed", name, e);
      Optional<String> denied = refusal(e);
      if (denied.isPresent()) {
        err.println("error: " + name + ": " + denied.get() + LOG_HINT);
        return ExitCode.FAILED;
      }
      Optional<String> outage = Outage.cause(e);
      err.println(
          "error: "
              + name
              + ": "
              + (outage.isPresent()
                  ? "HBase at "
                      + context.hbase().describe(context.hbase().toConfiguration())
                      + " stopped answering ("
                      + outage.get()
                      + ") while the job said: "
                      + e.getMessage().strip().split("\n", 2)[0]
                      + ". Check that it is up ('hbase-rekey status'), then rerun the same command"
                  : e.getMessage())
              + LOG_HINT);
      return ExitCode.FAILED;
    } catch (Exception | LinkageError e) {
      Optional<String> denied = refusal(e);
      if (denied.isPresent()) {
        TRACE.error("{} stopped by the cluster's security", name, e);
        err.println("error: " + name + ": " + denied.get() + LOG_HINT);
        return ExitCode.FAILED;
      }
      Optional<String> outage = Outage.cause(e);
      if (outage.isPresent()) {
        TRACE.error("{} stopped by an outage", name, e);
        err.println(
            "error: "
                + name
                + ": HBase at "
                + context.hbase().describe(context.hbase().toConfiguration())
                + " stopped answering ("
                + outage.get()
                + "); check that it is up ('hbase-rekey status'), then rerun the same command."
                + " The stack trace is in "
                + LOG_FILE);
        return ExitCode.FAILED;
      }
      err.println(
          "error: "
              + name
              + " failed unexpectedly: "
              + e
              + " (this is a bug in hbase-rekey; please report it with the stack trace in "
              + LOG_FILE
              + ")");
      TRACE.error("{} failed unexpectedly", name, e);
      return ExitCode.FAILED;
    }
  }

  /** A failure the cluster's security explains: a missing grant, or an expired token. */
  private static Optional<String> refusal(Throwable e) {
    return AccessDenied.line(e).or(() -> DelegationTokens.line(e));
  }

  private OptionValues withJobFile(Command<?> command, OptionValues cli) {
    OptionDef<Location> option = CommonOptions.JOB_FILE;
    Location file = cli.get(option);
    if (cli.get(CommonOptions.CONF) != null) {
      if (file != null) {
        throw new InvalidOptionException(
            "--conf (after the command) is the old name of --job-file; give only --job-file");
      }
      option = CommonOptions.CONF;
      file = cli.get(option);
      err.println(
          "warning: --conf after the command is deprecated: name the job file with --job-file "
              + file
              + " (before the command, --conf K=V stays spark-submit's)");
    }
    if (file == null) {
      return cli;
    }
    return cli.over(
        HadoopFiles.readJobFile(
            file, option.name(), command.about().jobFileCommand(), declaredInFiles(command)));
  }

  private ExitCode usageError(String program, InvalidOptionException e) {
    err.println("error: " + e.getMessage());
    err.println("run '" + program + " --help' for the options");
    return ExitCode.USAGE;
  }

  /**
   * Checks a job file the way {@code --job-file FILE} would, without running anything.
   *
   * @return the command's typed options built from the file
   */
  public Object checkJobFile(String commandName, Path file) {
    Command<?> command = commands.get(commandName);
    if (command == null) {
      throw new InvalidOptionException(
          file + ": command '" + commandName + "' does not exist; use one of " + commands.keySet());
    }
    return command.typed(
        command
            .expand(
                OptionValues.fromFile(
                    file, command.about().jobFileCommand(), declaredInFiles(command)))
            .validate(declared(command)));
  }

  /** A command's options: its own, the throttles when it presses on region servers, the common. */
  private static List<OptionDef<?>> declared(Command<?> command) {
    List<OptionDef<?>> declared = new ArrayList<>(command.options());
    if (command.about().throttled()) {
      declared.addAll(Throttle.declared());
    }
    declared.addAll(CommonOptions.declared());
    return declared;
  }

  /** The options a command's job file may set. */
  private static List<OptionDef<?>> declaredInFiles(Command<?> command) {
    List<OptionDef<?>> inFile = new ArrayList<>(command.options());
    if (command.about().throttled()) {
      inFile.addAll(Throttle.declared());
    }
    inFile.addAll(CommonOptions.declaredInFiles());
    return inFile;
  }

  private String indexUsage() {
    StringBuilder usage = new StringBuilder();
    usage.append("Usage: ").append(PROGRAM).append(" index SUBCOMMAND --def FILE [OPTIONS]\n\n");
    usage.append("Build and maintain secondary index tables.\n\nSubcommands:\n");
    for (Command<?> c : commands.values()) {
      if (c.about().name().startsWith(INDEX + " ")) {
        usage.append(
            String.format(
                "  %-10s %s%n",
                c.about().name().substring(INDEX.length() + 1), c.about().summary()));
      }
    }
    return usage.toString();
  }

  private String rootUsage() {
    StringBuilder usage = new StringBuilder();
    usage.append("Usage: ").append(PROGRAM).append(" COMMAND [OPTIONS] | --version | --help\n\n");
    usage.append("Audit, re-key, index and verify HBase tables.\n\nCommands:\n");
    for (Command<?> c : commands.values()) {
      usage.append(String.format("  %-15s %s%n", c.about().name(), c.about().summary()));
    }
    usage.append("\n").append(ExitCode.help(EnumSet.allOf(ExitCode.class)));
    usage.append("\nRun '").append(PROGRAM).append(" COMMAND --help' for a command's options.\n");
    return usage.toString();
  }
}
