// A Kerberos KDC for jobs/cluster-local.sh start --secure: Hadoop's MiniKdc (Apache Kerby) on
// 127.0.0.1, from the jars Maven resolved for the pseudo-cluster. Java runs this file as it is
// (a single-file program), so it needs no build.
//
//   java -cp CLASSPATH jobs/lib/LocalKdc.java WORKDIR PORT TICKET_SECONDS RENEW_SECONDS \
//     KEYTAB=PRINCIPAL[,PRINCIPAL...] ...
//
// It creates the principals (realm EXAMPLE.COM) into the keytabs given, writes WORKDIR/krb5.conf,
// prints one line once it serves, and runs until it is killed. Its database lives in WORKDIR and is
// made anew at every start, so the keytabs are written anew too.
import java.io.File;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.apache.hadoop.minikdc.MiniKdc;

public class LocalKdc {
  public static void main(String[] args) throws Exception {
    if (args.length < 5) {
      System.err.println(
          "usage: LocalKdc WORKDIR PORT TICKET_SECONDS RENEW_SECONDS KEYTAB=PRINCIPAL[,...] ...");
      System.exit(2);
    }
    File work = new File(args[0]);
    work.mkdirs();
    Properties conf = MiniKdc.createConf();
    conf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    conf.setProperty(MiniKdc.KDC_PORT, args[1]);
    conf.setProperty(MiniKdc.MAX_TICKET_LIFETIME, args[2]);
    conf.setProperty(MiniKdc.MAX_RENEWABLE_LIFETIME, args[3]);
    MiniKdc kdc = new MiniKdc(conf, work);
    kdc.start();
    for (int i = 4; i < args.length; i++) {
      String[] keytabAndPrincipals = args[i].split("=", 2);
      File keytab = new File(keytabAndPrincipals[0]);
      keytab.delete();
      kdc.createPrincipal(keytab, keytabAndPrincipals[1].split(","));
    }
    Files.copy(
        kdc.getKrb5conf().toPath(),
        work.toPath().resolve("krb5.conf"),
        StandardCopyOption.REPLACE_EXISTING);
    System.out.println(
        "KDC of realm " + kdc.getRealm() + " serving on " + kdc.getHost() + ":" + kdc.getPort());
    Runtime.getRuntime().addShutdownHook(new Thread(kdc::stop));
    Thread.currentThread().join();
  }
}
