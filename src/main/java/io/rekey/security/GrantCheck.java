package io.rekey.security;

import io.rekey.common.RekeyException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.security.SecurityCapability;
import org.apache.hadoop.hbase.security.User;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.security.AccessControlException;

/**
 * Checks, before a command does anything, that its user holds every {@link Grant} it lists, and
 * refuses in one line with the grant to run when one is missing. HBase answers for its own
 * permissions ({@code Admin.hasUserPermissions}, which a user may ask about itself); HDFS answers
 * for the files a snapshot read opens ({@code FileSystem.access}). Where HBase has no
 * authorization, its grants are not checked.
 */
public final class GrantCheck {
  private static final String DOCS = "deploy/README.md, Permissions";

  private GrantCheck() {}

  /**
   * Whether a cluster so configured may refuse: Kerberos or authorization named in its settings. A
   * cluster with neither gets no check (and no connection for one).
   */
  public static boolean applies(Configuration conf) {
    return "kerberos".equalsIgnoreCase(conf.get("hbase.security.authentication"))
        || conf.getBoolean("hbase.security.authorization", false);
  }

  /**
   * @throws MissingGrantException naming the first grant missing
   */
  public static void require(Connection connection, Configuration conf, List<Grant> grants) {
    if (grants.isEmpty()) {
      return;
    }
    try (Admin admin = connection.getAdmin()) {
      User user = User.getCurrent();
      boolean authorization =
          admin.getSecurityCapabilities().contains(SecurityCapability.AUTHORIZATION);
      for (Grant grant : grants) {
        if (grant.kind() == Grant.Kind.SNAPSHOT_FILES) {
          requireSnapshotFiles(admin, conf, user, grant.table());
        } else if (authorization && grant.kind() == Grant.Kind.GLOBAL) {
          requireGlobal(admin, user, grant);
        } else if (authorization) {
          requirePermission(admin, user, grant);
        }
      }
    } catch (IOException e) {
      throw new RekeyException("cannot check the job's permissions: " + e.getMessage(), e);
    }
  }

  /**
   * Whether namespace {@code ns} exists. Listed by name, which HBase's authorization lets anyone
   * do; reading a namespace's descriptor takes ADMIN on it.
   */
  public static boolean namespaceListed(Admin admin, String ns) throws IOException {
    return java.util.Arrays.asList(admin.listNamespaces()).contains(ns);
  }

  private static void requirePermission(Admin admin, User user, Grant grant) throws IOException {
    boolean exists = admin.tableExists(grant.table());
    boolean onNamespace = grant.kind() == Grant.Kind.NAMESPACE_IF_ABSENT;
    if (exists == onNamespace) {
      return;
    }
    String namespace = grant.table().getNamespaceAsString();
    if (onNamespace && !namespaceListed(admin, namespace)) {
      requireNamespaceCreation(admin, user, grant, namespace);
      return;
    }
    List<Permission> asked = new ArrayList<>();
    for (Action action : grant.anyOf()) {
      asked.add(
          (onNamespace ? Permission.newBuilder(namespace) : Permission.newBuilder(grant.table()))
              .withActions(action)
              .build());
    }
    if (admin.hasUserPermissions(asked).contains(Boolean.TRUE)) {
      return;
    }
    String families = "";
    if (!onNamespace && isOnData(grant)) {
      FamilyGrants perFamily = FamilyGrants.ask(admin, grant.table(), grant.anyOf().get(0));
      if (perFamily.everyFamily()) {
        return;
      }
      families = perFamily.note();
    }
    String scope =
        onNamespace ? "namespace " + namespace : "table " + grant.table().getNameAsString();
    Action weakest = grant.anyOf().get(grant.anyOf().size() - 1);
    throw new MissingGrantException(
        user.getName()
            + " has no "
            + String.join(" or ", grant.anyOf().stream().map(Action::name).toList())
            + " permission on "
            + scope
            + ", which the job needs "
            + grant.purpose()
            + families
            + "; an HBase admin can grant it in the hbase shell: grant '"
            + user.getShortName()
            + "', '"
            + (char) weakest.code()
            + "', '"
            + (onNamespace ? "@" + namespace : grant.table().getNameAsString())
            + "'"
            + otherwise(grant)
            + " ("
            + DOCS
            + ")");
  }

  /**
   * Whether {@code grant} is READ or WRITE on a table's data, which HBase also grants per column
   * family: a user with it on every family of the table may read (or write) all of it.
   */
  private static boolean isOnData(Grant grant) {
    return grant.anyOf().equals(List.of(Action.READ))
        || grant.anyOf().equals(List.of(Action.WRITE));
  }

  /**
   * Which families of a table the user holds {@code action} on. Only all of them will do: with
   * some, HBase's scans return the granted families' cells and silently no others (a copy would
   * lose the rest), and its writes to the others fail mid-job.
   *
   * @param all the table's families; none when HBase will not show the user the table's settings
   *     (ADMIN or CREATE, which the job needs as well: the table-level line then stands)
   */
  private record FamilyGrants(Action action, List<String> all, List<String> granted) {
    static FamilyGrants ask(Admin admin, TableName table, Action action) throws IOException {
      List<String> all = new ArrayList<>();
      try {
        for (var family : admin.getDescriptor(table).getColumnFamilies()) {
          all.add(family.getNameAsString());
        }
      } catch (IOException e) {
        if (AccessDenied.line(e).isEmpty()) {
          throw e;
        }
      }
      List<Permission> asked = new ArrayList<>();
      for (String family : all) {
        asked.add(
            Permission.newBuilder(table)
                .withFamily(Bytes.toBytes(family))
                .withActions(action)
                .build());
      }
      List<Boolean> answers = asked.isEmpty() ? List.of() : admin.hasUserPermissions(asked);
      List<String> granted = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        if (Boolean.TRUE.equals(answers.get(i))) {
          granted.add(all.get(i));
        }
      }
      return new FamilyGrants(action, all, granted);
    }

    boolean everyFamily() {
      return !all.isEmpty() && granted.equals(all);
    }

    /** What the refusal adds when some families are granted; else nothing. */
    String note() {
      if (granted.isEmpty()) {
        return "";
      }
      List<String> missing = new ArrayList<>(all);
      missing.removeAll(granted);
      return " (it has "
          + action.name()
          + " on families "
          + String.join(", ", granted)
          + " but not on "
          + String.join(", ", missing)
          + (action == Action.READ
              ? ", whose cells HBase would leave out of the job's scans)"
              : ", where HBase would refuse the job's writes)");
    }
  }

  private static void requireGlobal(Admin admin, User user, Grant grant) throws IOException {
    List<Permission> asked = new ArrayList<>();
    for (Action action : grant.anyOf()) {
      asked.add(Permission.newBuilder().withActions(action).build());
    }
    if (admin.hasUserPermissions(asked).contains(Boolean.TRUE)) {
      return;
    }
    Action weakest = grant.anyOf().get(grant.anyOf().size() - 1);
    throw new MissingGrantException(
        user.getName()
            + " has no global "
            + String.join(" or ", grant.anyOf().stream().map(Action::name).toList())
            + " permission, which the job needs "
            + grant.purpose()
            + "; an HBase admin can grant it in the hbase shell: grant '"
            + user.getShortName()
            + "', '"
            + (char) weakest.code()
            + "' ("
            + DOCS
            + ")");
  }

  /**
   * A table to be made in a namespace that does not exist yet: making the namespace takes global
   * ADMIN (a grant on a namespace cannot come before it). Without {@code --create-namespace} the
   * job refuses the name itself, after this check; the way out named here serves either way.
   */
  private static void requireNamespaceCreation(
      Admin admin, User user, Grant grant, String namespace) throws IOException {
    Permission global = Permission.newBuilder().withActions(Action.ADMIN).build();
    if (admin.hasUserPermissions(List.of(global)).contains(Boolean.TRUE)) {
      return;
    }
    throw new MissingGrantException(
        user.getName()
            + " has no global ADMIN permission, which the job needs to create namespace "
            + namespace
            + " for "
            + grant.table().getNameAsString()
            + "; an HBase admin can create it and let the user create tables there, in the hbase"
            + " shell: create_namespace '"
            + namespace
            + "'; grant '"
            + user.getShortName()
            + "', 'C', '@"
            + namespace
            + "' ("
            + DOCS
            + ")");
  }

  /**
   * A snapshot read opens, as the job's user, the snapshot's description in {@code
   * hbase.rootdir/.hbase-snapshot} and the table's store files (under {@code data}, or {@code
   * archive} once compacted away). Before the snapshot is taken: the user must traverse those
   * directories and read the table's files now, and the snapshot about to be written must be
   * readable too: either the user may read {@code .hbase-snapshot} itself (a cluster without
   * protection, or an HDFS ACL given there), or HBase gives the table's readers ACLs on its
   * snapshots (the table's {@code hbase.acl.sync.to.hdfs.enable}, which {@link
   * #awaitSnapshotReadable} waits for). A refusal here leaves no snapshot behind.
   */
  private static void requireSnapshotFiles(
      Admin admin, Configuration conf, User user, TableName table) throws IOException {
    String rootDir = conf.get("hbase.rootdir");
    if (rootDir == null || !admin.tableExists(table)) {
      return; // a missing table is the job's own error, said in its words
    }
    Path root = new Path(rootDir);
    FileSystem fs = root.getFileSystem(conf);
    Path tableDir =
        new Path(root, "data/" + table.getNamespaceAsString() + "/" + table.getQualifierAsString());
    Refusal refusal = new Refusal(fs, user, table, tableDir);
    for (String dir : List.of("", ".hbase-snapshot", "archive", "mobdir")) {
      refusal.unless(dir.isEmpty() ? root : new Path(root, dir), FsAction.EXECUTE);
    }
    refusal.unless(tableDir, FsAction.READ_EXECUTE);
    var files = fs.listFiles(tableDir, true);
    if (files.hasNext()) {
      refusal.unless(files.next().getPath(), FsAction.READ);
    }
    boolean hbaseGivesAcls =
        Boolean.parseBoolean(admin.getDescriptor(table).getValue(SYNC_ACLS_TO_HDFS));
    if (!hbaseGivesAcls) {
      refusal.unless(new Path(root, ".hbase-snapshot"), FsAction.READ_EXECUTE);
    }
  }

  /** HBase's key, on the master and on a table, for its readers' HDFS ACLs on its snapshots. */
  public static final String SYNC_ACLS_TO_HDFS = "hbase.acl.sync.to.hdfs.enable";

  /** The refusal of a snapshot read, unless HDFS lets the user at a path. */
  private record Refusal(FileSystem fs, User user, TableName table, Path tableDir) {
    void unless(Path path, FsAction action) throws IOException {
      try {
        fs.access(path, action);
      } catch (FileNotFoundException e) {
        // Not made yet (an archive, a MOB directory): nothing to open there.
      } catch (AccessControlException e) {
        throw refused(path, action);
      }
    }

    private MissingGrantException refused(Path path, FsAction action) throws IOException {
      FileStatus status = fs.getFileStatus(path);
      String name = user.getShortName();
      return new MissingGrantException(
          user.getName()
              + " cannot read the files of a snapshot of "
              + table.getNameAsString()
              + ": HDFS denies it "
              + action.name().toLowerCase(Locale.ROOT).replace('_', '+')
              + " on "
              + Path.getPathWithoutSchemeAndAuthority(path)
              + " (owner "
              + status.getOwner()
              + ", mode "
              + status.getPermission()
              + "). Have HBase give the table's readers access (master coprocessors"
              + " AccessController,SnapshotScannerHDFSAclController with "
              + SYNC_ACLS_TO_HDFS
              + "=true, then alter '"
              + table.getNameAsString()
              + "', METADATA => {'"
              + SYNC_ACLS_TO_HDFS
              + "' => 'true'}), give "
              + name
              + " HDFS ACLs (access and default, r-x) on hbase.rootdir's .hbase-snapshot, archive"
              + " and "
              + Path.getPathWithoutSchemeAndAuthority(tableDir)
              + ", or run with --live-scan ("
              + DOCS
              + ")");
    }
  }

  /** How long HBase may take to give a new snapshot's readers their HDFS ACLs. */
  static final Duration SNAPSHOT_ACL_WAIT = Duration.ofSeconds(60);

  /**
   * Waits until the job's user can read snapshot {@code name}'s description, on a cluster where
   * {@link #applies}: HBase's SnapshotScannerHDFSAclController gives table readers their HDFS ACLs
   * on a snapshot's files after the snapshot completes, in the background. Returns at once where
   * the files are readable (or the job cannot see hbase.rootdir); after {@link #SNAPSHOT_ACL_WAIT}
   * it returns anyway and the read says what it could not open.
   */
  public static void awaitSnapshotReadable(Configuration conf, String name) throws IOException {
    String rootDir = conf.get("hbase.rootdir");
    if (rootDir == null || !applies(conf)) {
      return;
    }
    Path info = new Path(new Path(rootDir), ".hbase-snapshot/" + name + "/.snapshotinfo");
    FileSystem fs = info.getFileSystem(conf);
    long deadline = System.nanoTime() + SNAPSHOT_ACL_WAIT.toNanos();
    while (true) {
      try {
        fs.access(info, FsAction.READ);
        return;
      } catch (AccessControlException | FileNotFoundException e) {
        if (System.nanoTime() > deadline) {
          return;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("waiting for snapshot " + name);
        }
      }
    }
  }

  private static String otherwise(Grant grant) {
    return grant.otherwise().isEmpty() ? "" : " (" + grant.otherwise() + ")";
  }
}
