// kinit for the secure pseudo-cluster, where MIT's kinit may not be installed: a Kerberos ticket
// cache for a principal, from its keytab, through Apache Kerby's client (a jar of the
// pseudo-cluster's KDC). For jobs/cluster-local.sh kinit --secure; a single-file program:
//
//   java -cp CLASSPATH jobs/lib/Kinit.java KRB5_CONF_DIR PRINCIPAL KEYTAB CACHE
//
// KRB5_CONF_DIR holds the realm's krb5.conf. Hadoop reads the cache a job runs with from
// KRB5CCNAME, as it would one kinit wrote.
import java.io.File;
import org.apache.kerby.kerberos.kerb.client.KrbClient;
import org.apache.kerby.kerberos.kerb.type.ticket.TgtTicket;

public class Kinit {
  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: Kinit KRB5_CONF_DIR PRINCIPAL KEYTAB CACHE");
      System.exit(2);
    }
    KrbClient client = new KrbClient(new File(args[0]));
    client.init();
    TgtTicket tgt = client.requestTgt(args[1], new File(args[2]));
    File cache = new File(args[3]);
    cache.delete();
    client.storeTicket(tgt, cache);
    System.out.println(
        "ticket cache "
            + cache
            + " holds a ticket of "
            + tgt.getClientPrincipal().getName()
            + " until "
            + java.time.Instant.ofEpochMilli(tgt.getEncKdcRepPart().getEndTime().getTime()));
  }
}
