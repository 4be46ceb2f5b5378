// What the secure pseudo-cluster's HBase superuser does for its users, for jobs/cluster-local.sh
// grant|revoke|alter --secure, where no HBase shell is installed: the HBase shell's grant and
// revoke, and alter 'TABLE', METADATA => {KEY => VALUE}. A single-file Java program:
//
//   java -cp CLASSPATH jobs/lib/HBaseAsAdmin.java PRINCIPAL KEYTAB grant USER PERMISSIONS [@NAMESPACE | TABLE]
//   java -cp CLASSPATH jobs/lib/HBaseAsAdmin.java PRINCIPAL KEYTAB revoke USER [@NAMESPACE | TABLE]
//   java -cp CLASSPATH jobs/lib/HBaseAsAdmin.java PRINCIPAL KEYTAB alter TABLE KEY=VALUE
//
// PERMISSIONS are letters of RWXCA; no scope means the whole cluster (global).
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;
import org.apache.hadoop.security.UserGroupInformation;

public class HBaseAsAdmin {
  public static void main(String[] args) throws Exception {
    if (args.length == 5 && args[2].equals("alter") && args[4].contains("=")) {
      alter(args);
      return;
    }
    boolean grant = args.length >= 5 && args[2].equals("grant");
    boolean revoke = args.length >= 4 && args[2].equals("revoke");
    if (!grant && !revoke || args.length > (grant ? 6 : 5)) {
      System.err.println("usage: HBaseAsAdmin PRINCIPAL KEYTAB grant USER RWXCA [@NAMESPACE | TABLE]");
      System.err.println("       HBaseAsAdmin PRINCIPAL KEYTAB revoke USER [@NAMESPACE | TABLE]");
      System.err.println("       HBaseAsAdmin PRINCIPAL KEYTAB alter TABLE KEY=VALUE");
      System.exit(2);
    }
    var conf = HBaseConfiguration.create();
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation admin = UserGroupInformation.loginUserFromKeytabAndReturnUGI(args[0], args[1]);
    String user = args[3];
    Permission.Action[] actions;
    try {
      actions = grant ? actions(args[4]) : new Permission.Action[0];
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    String scope = args.length > (grant ? 5 : 4) ? args[grant ? 5 : 4] : "";
    Permission.Builder scoped =
        scope.isEmpty() ? Permission.newBuilder()
            : scope.startsWith("@") ? Permission.newBuilder(scope.substring(1))
            : Permission.newBuilder(TableName.valueOf(scope));
    UserPermission permission = new UserPermission(user, scoped.withActions(actions).build());
    admin.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (Connection connection = ConnectionFactory.createConnection(conf);
          Admin hbase = connection.getAdmin()) {
        if (grant) hbase.grant(permission, false);
        else hbase.revoke(new UserPermission(user, scoped.withActions(Permission.Action.values()).build()));
      }
      return null;
    });
    System.out.println((grant ? "granted " + args[4] + " to " : "revoked the permissions of ")
        + user + (scope.isEmpty() ? " (global)" : " on " + scope));
  }

  /** alter 'TABLE', METADATA => {KEY => VALUE}. */
  private static void alter(String[] args) throws Exception {
    var conf = HBaseConfiguration.create();
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation admin = UserGroupInformation.loginUserFromKeytabAndReturnUGI(args[0], args[1]);
    TableName table = TableName.valueOf(args[3]);
    String key = args[4].substring(0, args[4].indexOf('='));
    String value = args[4].substring(args[4].indexOf('=') + 1);
    admin.doAs((PrivilegedExceptionAction<Void>) () -> {
      try (Connection connection = ConnectionFactory.createConnection(conf);
          Admin hbase = connection.getAdmin()) {
        hbase.modifyTable(TableDescriptorBuilder.newBuilder(hbase.getDescriptor(table)).setValue(key, value).build());
      }
      return null;
    });
    System.out.println("set " + key + " = " + value + " on " + table);
  }

  private static Permission.Action[] actions(String letters) {
    Permission.Action[] actions = new Permission.Action[letters.length()];
    for (int i = 0; i < letters.length(); i++) {
      actions[i] = Permission.Action.valueOf(
          switch (Character.toUpperCase(letters.charAt(i))) {
            case 'R' -> "READ";
            case 'W' -> "WRITE";
            case 'X' -> "EXEC";
            case 'C' -> "CREATE";
            case 'A' -> "ADMIN";
            default -> throw new IllegalArgumentException(
                "permissions '" + letters + "': '" + letters.charAt(i)
                    + "' is not one of R (read), W (write), X (exec), C (create), A (admin)");
          });
    }
    return actions;
  }
}
