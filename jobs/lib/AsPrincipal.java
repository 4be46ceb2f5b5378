// Runs a Hadoop program as a Kerberos principal logged in from a keytab, for
// jobs/cluster-local.sh --secure, where no kinit may be installed. A single-file Java program:
//
//   java -cp CLASSPATH jobs/lib/AsPrincipal.java PRINCIPAL KEYTAB MAIN-CLASS ARGS... [--then ARGS...]...
//
// e.g. HDFS's superuser making hbase.rootdir: ... hdfs/localhost@EXAMPLE.COM hdfs.keytab
// org.apache.hadoop.fs.FsShell -mkdir -p /hbase --then -chown hbase /hbase
//
// A MAIN-CLASS that is a Hadoop Tool (FsShell is) runs once per --then group in this one JVM,
// stopping at the first that fails: each JVM costs seconds of compiling this file, loading Hadoop
// and logging in. Any other class runs its main once, with every argument.
import java.lang.reflect.Method;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

public class AsPrincipal {
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: AsPrincipal PRINCIPAL KEYTAB MAIN-CLASS ARGS... [--then ARGS...]...");
      System.exit(2);
    }
    Configuration conf = new Configuration();
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation user = UserGroupInformation.loginUserFromKeytabAndReturnUGI(args[0], args[1]);
    Class<?> program = Class.forName(args[2]);
    String[] rest = Arrays.copyOfRange(args, 3, args.length);
    int exit = user.doAs((PrivilegedExceptionAction<Integer>) () -> {
      if (!Tool.class.isAssignableFrom(program)) {
        Method main = program.getMethod("main", String[].class);
        main.invoke(null, (Object) rest);
        return 0;
      }
      for (String[] group : groups(rest)) {
        Tool tool = (Tool) program.getDeclaredConstructor().newInstance();
        int code = ToolRunner.run(conf, tool, group);
        if (code != 0) {
          System.err.println("failed (exit " + code + "): " + String.join(" ", group));
          return code;
        }
      }
      return 0;
    });
    System.exit(exit);
  }

  /** The arguments split at each --then. */
  private static List<String[]> groups(String[] args) {
    List<String[]> groups = new ArrayList<>();
    List<String> current = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--then")) {
        groups.add(current.toArray(String[]::new));
        current = new ArrayList<>();
      } else {
        current.add(arg);
      }
    }
    groups.add(current.toArray(String[]::new));
    return groups;
  }
}
