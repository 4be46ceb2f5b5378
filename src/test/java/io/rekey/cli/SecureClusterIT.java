package io.rekey.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rekey.read.ReadOptions;
import io.rekey.testing.PseudoCluster;
import io.rekey.testing.Scripts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command as an ordinary user on a Kerberized cluster: {@code jobs/cluster-local.sh start
 * --secure} (a KDC, HDFS with Kerberos and permissions, hbase.rootdir the HBase daemon's, HBase
 * with Kerberos and the AccessController, YARN with Kerberos); the user {@code alice} submits each
 * command through {@code jobs/hbase-rekey.sh} to YARN in cluster mode, and alongside each in client
 * mode too, with {@code --principal/--keytab}, holding only deploy/README.md's grants: READ and
 * ADMIN on the source, and CREATE on the namespace her tables go to. Tickets and delegation tokens
 * live two minutes: the client-mode rekey and sync each run longer, and complete because Spark
 * renews the tokens from the keytab; the same rekey and sync from a ticket cache, without a keytab,
 * stop at their first expired token with one line. Her snapshot reads work because HBase's
 * SnapshotScannerHDFSAclController gives the source's readers HDFS ACLs; a table without that gets
 * a one-line refusal before any snapshot. Then, for each row of the permissions table, a user
 * without the grant is refused in one line with exit 2, and nothing is left behind: no snapshot,
 * table, staging directory or lock.
 *
 * <p>The test JVM logs in as the HBase superuser {@code admin} to lay out tables and grants and to
 * read both sides independently of the tool; a Kerberos login is for the JVM's life, so this IT has
 * a JVM of its own: {@code mvn -B verify -Psecure}, which {@code .ci/run} runs last.
 */
@Tag("secure")
@Timeout(value = 40, unit = TimeUnit.MINUTES)
class SecureClusterIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String REALM = "EXAMPLE.COM";
  private static final String SOURCE_KEY = "text: ts:long + '_' + sender + '_' + msgid";
  private static final String TARGET_KEY = "salt(8) + sender + reverse_ts(ts) + msgid";
  private static final TableName SOURCE = TableName.valueOf("it:messages");

  /** The source of the migration whose copy and sync outlive the cluster's tokens. */
  private static final TableName EVENTS = TableName.valueOf("it:events");

  /** The same for the jobs without a keytab: a table of their own, written to as they run. */
  private static final TableName CACHE_EVENTS = TableName.valueOf("it:cache_events");

  /** A sync's rate, in cells per second: its 100 new rows, some 500 cells, outlast the tokens. */
  private static final String SLOW_WRITES = "3";

  /** How long the cluster's tickets and delegation tokens live: REKEY_TOKEN_MINUTES. */
  private static final Duration TOKEN_LIFE = Duration.ofMinutes(2);

  @TempDir static Path dir;
  private static final Map<String, String> env = new HashMap<>();
  private static int base;
  private static Path conf;
  private static Path keytabs;
  private static String krb5;
  private static Configuration hbaseConf;
  private static UserGroupInformation admin;

  @BeforeAll
  static void startCluster() throws Exception {
    base = Scripts.freePortRange(23000, 21);
    env.putAll(PseudoCluster.env(dir, base));
    env.put("REKEY_TOKEN_MINUTES", Long.toString(TOKEN_LIFE.toMinutes()));
    // Room for three applications at once: one in cluster mode, two in client mode.
    env.put("REKEY_NM_MEMORY_MB", "8192");
    env.put("REKEY_NM_VCORES", "8");
    conf = dir.resolve("cluster/conf");
    keytabs = dir.resolve("cluster/keytabs");
    krb5 = dir.resolve("cluster/kdc/krb5.conf").toString();
    Scripts.Finished start = cluster("start");
    assertThat(start.exit()).as(start.output()).isZero();
    assertThat(start.output())
        .contains("HDFS up", "HBase up", "YARN up", "alice.keytab  alice@" + REALM);

    // This JVM's Kerberos: the cluster's KDC, and the HBase superuser's login.
    System.setProperty("java.security.krb5.conf", krb5);
    hbaseConf = HBaseConfiguration.create();
    for (String site : List.of("core-site.xml", "hdfs-site.xml", "hbase-site.xml")) {
      hbaseConf.addResource(new org.apache.hadoop.fs.Path(conf.resolve(site).toString()));
    }
    UserGroupInformation.setConfiguration(hbaseConf);
    admin =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(
            "admin@" + REALM, keytabs.resolve("admin.keytab").toString());

    ExecutorService generators = Executors.newFixedThreadPool(3);
    List<Future<Scripts.Finished>> generated = new ArrayList<>();
    int seed = 7;
    for (TableName t : List.of(SOURCE, EVENTS, CACHE_EVENTS)) {
      int tableSeed = seed++;
      generated.add(
          generators.submit(
              () ->
                  asAdmin(
                      "generate",
                      "--table",
                      t.getNameAsString(),
                      "--rows",
                      1500,
                      "--seed",
                      tableSeed)));
    }
    generators.shutdown();
    for (Future<Scripts.Finished> g : generated) {
      ok(g.get());
    }
    hbase(
        a -> {
          a.createNamespace(NamespaceDescriptor.create("rk").build());
          a.createNamespace(NamespaceDescriptor.create("other").build());
          for (TableName source : List.of(SOURCE, EVENTS, CACHE_EVENTS)) {
            // HBase's way for readers to read snapshots: HDFS ACLs for the table's readers.
            a.modifyTable(
                TableDescriptorBuilder.newBuilder(a.getDescriptor(source))
                    .setValue("hbase.acl.sync.to.hdfs.enable", "true")
                    .build());
            // deploy/README.md's grants for alice's migration of the table.
            grant(a, Permission.newBuilder(source), "RA");
          }
          grant(a, Permission.newBuilder("rk"), "C");
        });
  }

  @AfterAll
  static void stopCluster() throws Exception {
    Scripts.Finished stop = cluster("stop");
    assertThat(stop.exit()).as(stop.output()).isZero();
  }

  @Test
  void everyCommandRunsAsAliceOnYarnAndLongJobsOutliveTheirTokens() throws Exception {
    // Alongside, in client mode: a migration whose copy and sync each run longer than the
    // cluster's tokens live, with a keytab; and the same from a ticket cache, without one; then
    // the other commands, so that each runs in client mode too.
    ExecutorService alongside = Executors.newFixedThreadPool(2);
    Future<?> longMigration =
        alongside.submit(
            () -> {
              longMigrationWithKeytab();
              return null;
            });
    Future<List<Scripts.Finished>> withoutKeytab =
        alongside.submit(SecureClusterIT::longJobsFromTicketCache);
    alongside.shutdown();

    // Cluster mode: the driver in the ApplicationMaster's container logs in from the keytab and
    // obtains the executors' tokens itself. Every command.
    String mode = "cluster";
    TableName target = TableName.valueOf("rk:salted_" + mode);
    String def = definition(mode, SOURCE);
    JsonNode generated = ok(alice(mode, "generate", "--table", "rk:generated", "--rows", "300"));
    assertThat(generated.get("rows").asLong()).isEqualTo(300L);
    assertThat(cells(TableName.valueOf("rk:generated"))).isGreaterThan(300L);

    JsonNode audit = ok(alice(mode, "audit", "--table", SOURCE.getNameAsString()));
    assertThat(audit.at("/totals/rows").asLong()).isEqualTo(1500L);

    JsonNode rekey = ok(alice(mode, copy("rekey", target, EVERY_TARGET_SNAPSHOTTED)));
    assertThat(rekey.at("/verify/matches").asBoolean()).isTrue();
    assertThat(rekey.at("/stored/stored").asLong()).isEqualTo(rekey.get("cellsWritten").asLong());
    JsonNode build = ok(alice(mode, "index", "build", "--def", def));
    assertThat(build.at("/counts/entries").asLong()).isEqualTo(1500L);

    appendAsAdmin(SOURCE, 1);
    JsonNode sync = ok(alice(mode, copy("rekey sync", target, "--write", "hfiles")));
    assertThat(sync.at("/totals/cellsWritten").asLong()).isGreaterThan(0L);
    ok(alice(mode, copy("rekey repair", target, EVERY_TARGET_SNAPSHOTTED)));
    JsonNode verify = ok(alice(mode, copy("verify", target, EVERY_TARGET_SNAPSHOTTED)));
    assertThat(verify.get("matches").asBoolean()).isTrue();
    // An independent read: every cell of the source is in the target.
    assertThat(cells(target)).isEqualTo(cells(SOURCE));

    JsonNode update = ok(alice(mode, "index", "update", "--def", def));
    assertThat(update.at("/counts/entries").asLong()).isEqualTo(100L);
    JsonNode scrutiny = ok(alice(mode, "index", "scrutiny", "--def", def));
    assertThat(scrutiny.get("missing").asLong()).isZero();
    assertThat(scrutiny.get("orphan").asLong()).isZero();
    JsonNode lookup =
        ok(alice(mode, "index", "lookup", "--def", def, "--value", "user00000", "--check-source"));
    assertThat(lookup.get("entries").asLong()).isGreaterThan(0L);

    longMigration.get();
    // Without a keytab: told at the start when its tokens expire; stopped at the first call an
    // expired token fails, not after Spark's three retries of it; one line with the way out.
    for (Scripts.Finished expired : withoutKeytab.get()) {
      assertThat(expired.exit()).as(expired.output()).isEqualTo(1);
      // The failed task's stack trace is in the log file, not on the console.
      assertThat(expired.output())
          .contains("warning: this job has no keytab, so Spark will not renew its HBase and HDFS")
          .doesNotContain("failed 4 times")
          .doesNotContain("\tat ");
      List<String> errors = expired.output().lines().filter(l -> l.startsWith("error: ")).toList();
      assertThat(errors).as(expired.output()).hasSize(1);
      assertThat(errors.get(0))
          .containsPattern(
              "^error: rekey( sync)?: the job's delegation tokens expired while it ran")
          .contains("rerun with spark-submit --principal alice@" + REALM + " --keytab FILE");
    }
  }

  /**
   * Client mode, where the driver is spark-submit's JVM and logs in from the keytab: a copy by live
   * scan, slowed by its rate to run longer than the cluster's tokens live, so Spark must renew them
   * on the way; then a sync whose executors write Puts, slowed the same way, whose driver uses its
   * HBase connection again after the token it opened with has expired. An independent read checks
   * both. Then the migration's other commands, and generate, in client mode.
   */
  private static void longMigrationWithKeytab() throws Exception {
    TableName target = TableName.valueOf("rk:events_salted");
    long started = System.nanoTime();
    ok(
        alice(
            "client",
            copy("rekey", EVENTS, target, "--live-scan", "--scan-rate", "10", "--no-verify")));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(TOKEN_LIFE);
    assertThat(cells(target)).isEqualTo(cells(EVENTS));

    appendAsAdmin(EVENTS, 3);
    started = System.nanoTime();
    JsonNode sync =
        ok(
            alice(
                "client",
                copy(
                    "rekey sync", EVENTS, target, "--write", "puts", "--write-rate", SLOW_WRITES)));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThan(TOKEN_LIFE);
    assertThat(sync.at("/totals/cellsWritten").asLong()).isGreaterThan(0L);
    // The generator stamps some versions in the future: those wait for a later window.
    long windowTo = sync.get("windowTo").asLong();
    assertThat(cells(target, windowTo)).isEqualTo(cells(EVENTS, windowTo));

    // The other commands of a migration in client mode too.
    ok(alice("client", copy("rekey repair", EVENTS, target)));
    JsonNode verify = ok(alice("client", copy("verify", EVENTS, target)));
    assertThat(verify.get("matches").asBoolean()).isTrue();
    assertThat(cells(target)).isEqualTo(cells(EVENTS));
    TableName generated = TableName.valueOf("rk:generated_client");
    ok(alice("client", "generate", "--table", generated.getNameAsString(), "--rows", "300"));
    assertThat(cells(generated)).isGreaterThan(300L);
  }

  /**
   * The same long copy and sync from a ticket cache, without a keytab: the copy (of a table of its
   * own, a quick one first so that the sync has a watermark) and the sync each outlive the tokens
   * they started with. Then, with a keytab again, the index commands in client mode.
   */
  private static List<Scripts.Finished> longJobsFromTicketCache() throws Exception {
    TableName target = TableName.valueOf("rk:events_from_cache");
    ok(aliceFromTicketCache(copy("rekey", CACHE_EVENTS, target, "--live-scan", "--no-verify")));
    appendAsAdmin(CACHE_EVENTS, 4);
    Scripts.Finished sync =
        aliceFromTicketCache(
            copy(
                "rekey sync",
                CACHE_EVENTS,
                target,
                "--write",
                "puts",
                "--write-rate",
                SLOW_WRITES));
    Scripts.Finished copy =
        aliceFromTicketCache(
            copy(
                "rekey",
                CACHE_EVENTS,
                TableName.valueOf("rk:events_without_keytab"),
                "--live-scan",
                "--scan-rate",
                "8"));

    // The index commands in client mode, with a keytab, on the same table.
    String def = definition("client", CACHE_EVENTS);
    JsonNode build = ok(alice("client", "index", "build", "--def", def));
    // Its 1,500 rows and the 100 appended before the sync.
    assertThat(build.at("/counts/entries").asLong()).isEqualTo(1600L);
    appendAsAdmin(CACHE_EVENTS, 6);
    JsonNode update = ok(alice("client", "index", "update", "--def", def));
    assertThat(update.at("/counts/entries").asLong()).isEqualTo(100L);
    JsonNode scrutiny = ok(alice("client", "index", "scrutiny", "--def", def));
    assertThat(scrutiny.get("missing").asLong()).isZero();
    assertThat(scrutiny.get("orphan").asLong()).isZero();
    JsonNode lookup = ok(alice("client", "index", "lookup", "--def", def, "--value", "user00000"));
    assertThat(lookup.get("entries").asLong()).isGreaterThan(0L);
    return List.of(sync, copy);
  }

  /** 100 messages written now into {@code table} by its owner, not alice; past the 1 s lag. */
  private static void appendAsAdmin(TableName table, int seed) throws Exception {
    ok(
        asAdmin(
            "generate",
            "--table",
            table.getNameAsString(),
            "--rows",
            "100",
            "--seed",
            seed,
            "--start-time",
            "now",
            "--interval-millis",
            "1",
            "--if-nonempty",
            "append"));
    Thread.sleep(2500);
  }

  @Test
  void aMissingGrantIsOneLineBeforeAnyWork() throws Exception {
    TableName none = table("it:no_grant");
    TableName readOnly = table("it:read_only");
    TableName noAdmin = table("it:no_admin");
    TableName someFamilies = table("it:some_families", "d", "m");
    TableName noAcls = table("it:no_hdfs_acls");
    TableName notWritable = table("rk:not_writable");
    TableName lockedState = table("rk:admins_state");
    hbase(
        a -> {
          grant(a, Permission.newBuilder(readOnly), "R");
          // READ on every family of the table does for READ on the table.
          grant(a, Permission.newBuilder(noAdmin), "C");
          grant(a, Permission.newBuilder(noAdmin).withFamily(Bytes.toBytes("m")), "R");
          grant(a, Permission.newBuilder(someFamilies), "C");
          grant(a, Permission.newBuilder(someFamilies).withFamily(Bytes.toBytes("m")), "R");
          grant(a, Permission.newBuilder(noAcls), "RA");
          grant(a, Permission.newBuilder(notWritable), "RC");
          grant(a, Permission.newBuilder(lockedState), "R");
        });
    List<String> snapshotsBefore = snapshots();
    List<String> stagingBefore = staging();

    refused(
        "has no READ permission on table it:no_grant, which the job needs to read it",
        "grant 'alice', 'R', 'it:no_grant'",
        "audit",
        "--table",
        none.getNameAsString());
    refused(
        "has no ADMIN or CREATE permission on table it:read_only, which the job needs to read its"
            + " settings",
        "grant 'alice', 'C', 'it:read_only'",
        "audit",
        "--table",
        readOnly.getNameAsString(),
        "--live-scan");
    refused(
        "has no READ permission on table it:some_families, which the job needs to read it (it has"
            + " READ on families m but not on d, whose cells HBase would leave out of the job's"
            + " scans)",
        "grant 'alice', 'R', 'it:some_families'",
        "audit",
        "--table",
        someFamilies.getNameAsString(),
        "--live-scan");
    refused(
        "has no ADMIN permission on table it:no_admin, which the job needs to take its snapshot",
        "grant 'alice', 'A', 'it:no_admin' (or run with --live-scan)",
        "audit",
        "--table",
        noAdmin.getNameAsString());
    refused(
        "cannot read the files of a snapshot of it:no_hdfs_acls: HDFS denies it",
        "SnapshotScannerHDFSAclController",
        "audit",
        "--table",
        noAcls.getNameAsString());
    refused(
        "has no ADMIN or CREATE permission on namespace other, which the job needs to create"
            + " other:target",
        "grant 'alice', 'C', '@other'",
        copy("rekey", TableName.valueOf("other:target"), "--live-scan"));
    refused(
        "has no global ADMIN permission, which the job needs to create namespace fresh for"
            + " fresh:target",
        "create_namespace 'fresh'; grant 'alice', 'C', '@fresh'",
        copy("rekey", TableName.valueOf("fresh:target"), "--live-scan", "--create-namespace"));
    refused(
        "has no global ADMIN permission, which the job needs to manage the stream's replication"
            + " peer",
        "grant 'alice', 'A'",
        copy("stream start", TableName.valueOf("rk:streamed"), "--live-scan"));
    refused(
        "has no WRITE permission on table rk:not_writable, which the job needs to write into it",
        "grant 'alice', 'W', 'rk:not_writable'",
        copy("rekey sync", notWritable, "--write", "puts"));
    refused(
        "has no WRITE permission on table rk:admins_state, which the job needs to keep run state",
        "grant 'alice', 'W', 'rk:admins_state'",
        copy("rekey", TableName.valueOf("rk:refused"), "--state-table", "rk:admins_state"));

    // What a missing grant must not leave behind.
    assertThat(snapshots()).isEqualTo(snapshotsBefore);
    assertThat(staging()).isEqualTo(stagingBefore);
    hbase(
        a -> {
          assertThat(a.tableExists(TableName.valueOf("other:target"))).isFalse();
          assertThat(a.tableExists(TableName.valueOf("rk:refused"))).isFalse();
          assertThat(a.tableExists(TableName.valueOf("rk:streamed"))).isFalse();
          assertThat(a.listReplicationPeers()).isEmpty();
          assertThat(a.listNamespaces()).doesNotContain("fresh");
        });
    assertThat(cells(lockedState)).as("no lock taken").isEqualTo(1L);

    // The way the line offers: the same audit as a live scan, reading the family granted.
    JsonNode live =
        ok(alice("client", "audit", "--table", noAdmin.getNameAsString(), "--live-scan"));
    assertThat(live.at("/totals/rows").asLong()).isEqualTo(1L);

    // A comparison's target alice may read but not snapshot is scanned live, not refused: the
    // verify reaches its verdict (the tables differ: exit 4), where a snapshot of it would fail.
    Scripts.Finished differs = alice("client", copy("verify", noAdmin, EVERY_TARGET_SNAPSHOTTED));
    assertThat(differs.exit()).as(differs.output()).isEqualTo(4);
    assertThat(snapshots()).isEqualTo(snapshotsBefore);
  }

  /**
   * A command as alice that must be refused: exit 2, one line with {@code what} and {@code fix}.
   */
  private static void refused(String what, String fix, String... command) throws Exception {
    Scripts.Finished run = alice("client", command);
    assertThat(run.exit()).as(run.output()).isEqualTo(2);
    List<String> errors = run.output().lines().filter(l -> l.startsWith("error: ")).toList();
    assertThat(errors).as(run.output()).hasSize(1);
    assertThat(errors.get(0)).contains("alice", what, fix);
    assertThat(run.output()).doesNotContain("\tat ");
  }

  /**
   * Every comparison's target through a snapshot of its own where alice may take one, however
   * small: the tables here are under the size a snapshot pays for.
   */
  private static final String[] EVERY_TARGET_SNAPSHOTTED = {
    "--" + ReadOptions.TARGET_SNAPSHOT_MIB.name(), "0"
  };

  /** {@code command} from it:messages to {@code target} through the test's key mapping. */
  private static String[] copy(String command, TableName target, String... more) {
    return copy(command, SOURCE, target, more);
  }

  /** {@code command} from {@code source} to {@code target} through the test's key mapping. */
  private static String[] copy(String command, TableName source, TableName target, String... more) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.addAll(
        List.of(
            "--source",
            source.getNameAsString(),
            "--target",
            target.getNameAsString(),
            "--source-key",
            SOURCE_KEY,
            "--target-key",
            TARGET_KEY));
    args.addAll(List.of(more));
    if (!args.contains("--state-table")) {
      args.addAll(List.of("--state-table", "rk:state"));
    }
    if (command.startsWith("rekey")) {
      // The writes made after the copy are seconds old when the sync runs.
      args.addAll(List.of("--safety-lag", "1", "--allow-short-lag"));
    }
    return args.toArray(String[]::new);
  }

  /**
   * The mode's index definition of {@code source}: a path, or in cluster mode a file name shipped
   * with --files.
   */
  private static String definition(String mode, TableName source) throws IOException {
    Path def =
        PseudoCluster.bySender(
            dir.resolve(mode + "-by-sender.properties"),
            source.getNameAsString(),
            "rk:by_sender_" + mode,
            "state-table = rk:state");
    return mode.equals("cluster") ? def.getFileName().toString() : def.toString();
  }

  /**
   * One command as alice on YARN in {@code mode} ({@code cluster} or {@code client}) with {@code
   * --principal/--keytab}; its result goes to HDFS in cluster mode. Every JVM is told where the KDC
   * is, as /etc/krb5.conf would on a real cluster.
   */
  private static Scripts.Finished alice(String mode, String... command) throws Exception {
    return alice(
        env,
        mode,
        List.of(
            "--principal",
            "alice@" + REALM,
            "--keytab",
            keytabs.resolve("alice.keytab").toString()),
        command);
  }

  /**
   * One command as alice in client mode without a keytab: from a ticket cache, which {@code
   * jobs/cluster-local.sh kinit} writes as MIT's kinit would, made just before.
   */
  private static Scripts.Finished aliceFromTicketCache(String... command) throws Exception {
    Scripts.Finished kinit = cluster("kinit", "alice");
    assertThat(kinit.exit()).as(kinit.output()).isZero();
    String export =
        kinit.output().lines().filter(l -> l.startsWith("export ")).findFirst().orElseThrow();
    Map<String, String> withCache = new HashMap<>(env);
    withCache.put("KRB5CCNAME", export.substring(export.indexOf('=') + 1));
    return alice(withCache, "client", List.of(), command);
  }

  private static Scripts.Finished alice(
      Map<String, String> env, String mode, List<String> login, String... command)
      throws Exception {
    String kdc = "-Djava.security.krb5.conf=" + krb5;
    List<String> line =
        new ArrayList<>(
            List.of("bash", "jobs/hbase-rekey.sh", "--master", "yarn", "--deploy-mode", mode));
    line.addAll(login);
    line.addAll(
        List.of(
            "--conf",
            "spark.yarn.jars=local:" + dir.resolve("cluster/spark-home/jars") + "/*",
            "--driver-java-options",
            kdc,
            "--conf",
            "spark.executor.extraJavaOptions=" + kdc,
            "--conf",
            "spark.yarn.am.extraJavaOptions=" + kdc + " " + PseudoCluster.SHORT_LIVED_JVM,
            "--num-executors",
            "1",
            "--executor-memory",
            "1g",
            "--driver-memory",
            "1g",
            "--conf",
            "spark.yarn.am.memory=512m",
            "--conf",
            "spark.ui.enabled=false"));
    boolean inContainer = mode.equals("cluster");
    if (inContainer) {
      List<String> files = new ArrayList<>(List.of(conf.resolve("hbase-site.xml").toString()));
      for (int i = 0; i + 1 < command.length; i++) {
        if (command[i].equals("--def")) {
          files.add(dir.resolve(command[i + 1]).toString());
        }
      }
      line.addAll(List.of("--files", String.join(",", files)));
    }
    line.addAll(List.of(command));
    String name = "result-" + java.util.UUID.randomUUID() + ".json";
    String json =
        inContainer
            ? "hdfs://127.0.0.1:" + base + "/user/alice/" + name
            : dir.resolve(name).toString();
    if (!inContainer) {
      line.addAll(List.of("--hbase-conf", conf.toString()));
    }
    line.addAll(List.of("--json", json));
    Scripts.Finished f = Scripts.run(env, 400, line);
    return PseudoCluster.withResult(f, json);
  }

  /** A command as the HBase superuser, in local mode. */
  private static Scripts.Finished asAdmin(Object... command) throws Exception {
    List<String> line =
        new ArrayList<>(
            List.of(
                "bash",
                "jobs/hbase-rekey.sh",
                "--master",
                "local[2]",
                "--driver-java-options",
                "-Djava.security.krb5.conf=" + krb5));
    for (Object word : command) {
      line.add(String.valueOf(word));
    }
    String json = dir.resolve("admin-" + java.util.UUID.randomUUID() + ".json").toString();
    line.addAll(
        List.of(
            "--hbase-conf",
            conf.toString(),
            "--hbase-set",
            "hbase.client.keytab.file=" + keytabs.resolve("admin.keytab"),
            "--hbase-set",
            "hbase.client.keytab.principal=admin@" + REALM,
            "--json",
            json));
    Scripts.Finished f = Scripts.run(env, 300, line);
    return PseudoCluster.withResult(f, json);
  }

  private static JsonNode ok(Scripts.Finished run) throws Exception {
    assertThat(run.exit()).as(run.output()).isZero();
    String path = PseudoCluster.resultPath(run);
    if (!path.startsWith("hdfs://")) {
      return JSON.readTree(Path.of(path).toFile());
    }
    return asSuperuser(
        (PrivilegedExceptionAction<JsonNode>)
            () -> {
              org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
              try (InputStream in = p.getFileSystem(hbaseConf).open(p)) {
                return JSON.readTree(in);
              }
            });
  }

  /**
   * {@code action} as the HBase superuser, its ticket renewed from the keytab first if due: tickets
   * live minutes on this cluster.
   */
  private static <T> T asSuperuser(PrivilegedExceptionAction<T> action) throws Exception {
    admin.checkTGTAndReloginFromKeytab();
    return admin.doAs(action);
  }

  /** An admin's action on HBase. */
  private interface AdminAction {
    void run(Admin admin) throws Exception;
  }

  private static void hbase(AdminAction action) throws Exception {
    asSuperuser(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try (Connection c = ConnectionFactory.createConnection(hbaseConf);
                  Admin a = c.getAdmin()) {
                action.run(a);
              }
              return null;
            });
  }

  private static void grant(Admin a, Permission.Builder scope, String letters) throws IOException {
    List<Permission.Action> actions = new ArrayList<>();
    for (char c : letters.toCharArray()) {
      for (Permission.Action action : Permission.Action.values()) {
        if (action.code() == c) {
          actions.add(action);
        }
      }
    }
    a.grant(
        new UserPermission(
            "alice", scope.withActions(actions.toArray(Permission.Action[]::new)).build()),
        false);
  }

  /** A table of the admin's with family m and one row. */
  private static TableName table(String name) throws Exception {
    return table(name, "m");
  }

  /** A table of the admin's with {@code families} and one row, in family m. */
  private static TableName table(String name, String... families) throws Exception {
    TableName table = TableName.valueOf(name);
    asSuperuser(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try (Connection c = ConnectionFactory.createConnection(hbaseConf)) {
                try (Admin a = c.getAdmin()) {
                  TableDescriptorBuilder descriptor = TableDescriptorBuilder.newBuilder(table);
                  for (String family : families) {
                    descriptor.setColumnFamily(ColumnFamilyDescriptorBuilder.of(family));
                  }
                  a.createTable(descriptor.build());
                }
                try (Table t = c.getTable(table)) {
                  t.put(
                      new Put(Bytes.toBytes("1700000000000_user1_0001"))
                          .addColumn(
                              Bytes.toBytes("m"), Bytes.toBytes("sender"), Bytes.toBytes("u")));
                }
              }
              return null;
            });
    return table;
  }

  /** Every cell of {@code table}, all versions, read by the admin through a scan. */
  private static long cells(TableName table) throws Exception {
    return cells(table, Long.MAX_VALUE);
  }

  /** The cells of {@code table} stamped before {@code before}, all versions, read by the admin. */
  private static long cells(TableName table, long before) throws Exception {
    return asSuperuser(
        (PrivilegedExceptionAction<Long>)
            () -> {
              long n = 0;
              try (Connection c = ConnectionFactory.createConnection(hbaseConf);
                  Table t = c.getTable(table);
                  ResultScanner s =
                      t.getScanner(new Scan().readAllVersions().setTimeRange(0, before))) {
                for (Result r : s) {
                  n += r.size();
                }
              }
              return n;
            });
  }

  private static List<String> snapshots() throws Exception {
    List<String> names = new ArrayList<>();
    hbase(a -> a.listSnapshots().forEach(s -> names.add(s.getName())));
    return names;
  }

  /** What alice's default staging directory holds. */
  private static List<String> staging() throws Exception {
    return asSuperuser(
        (PrivilegedExceptionAction<List<String>>)
            () -> {
              FileSystem fs =
                  FileSystem.get(java.net.URI.create("hdfs://127.0.0.1:" + base), hbaseConf);
              org.apache.hadoop.fs.Path root =
                  new org.apache.hadoop.fs.Path("/user/alice/hbase-staging");
              List<String> paths = new ArrayList<>();
              if (!fs.exists(root)) {
                return paths;
              }
              var files = fs.listFiles(root, true);
              while (files.hasNext()) {
                paths.add(files.next().getPath().toString());
              }
              return paths;
            });
  }

  private static Scripts.Finished cluster(String action, String... more) throws Exception {
    List<String> line =
        new ArrayList<>(List.of("bash", "jobs/cluster-local.sh", action, "--secure"));
    line.addAll(List.of(more));
    return Scripts.run(env, 300, line);
  }
}
