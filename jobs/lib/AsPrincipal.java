// Runs a Hadoop program's main class as a Kerberos principal logged in from a keytab, for
// jobs/cluster-local.sh --secure, where no kinit may be installed. A single-file Java program:
//
//   java -cp CLASSPATH jobs/lib/AsPrincipal.java PRINCIPAL KEYTAB MAIN-CLASS ARGS...
//
// e.g. HDFS's superuser making hbase.rootdir: ... hdfs/localhost@EXAMPLE.COM hdfs.keytab
// org.apache.hadoop.fs.FsShell -mkdir -p /hbase
import java.lang.reflect.Method;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

public class AsPrincipal {
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: AsPrincipal PRINCIPAL KEYTAB MAIN-CLASS ARGS...");
      System.exit(2);
    }
    UserGroupInformation.setConfiguration(new Configuration());
    UserGroupInformation user = UserGroupInformation.loginUserFromKeytabAndReturnUGI(args[0], args[1]);
    Method main = Class.forName(args[2]).getMethod("main", String[].class);
    String[] rest = Arrays.copyOfRange(args, 3, args.length);
    user.doAs((PrivilegedExceptionAction<Void>) () -> {
      main.invoke(null, (Object) rest);
      return null;
    });
  }
}
