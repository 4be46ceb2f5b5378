package io.rekey;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packages' layering, written down once; every arrow points down.
 *
 * <pre>
 * cli                                   the only place that parses a command line and exits
 * report                                text, JSON and HTML of the jobs' results
 * audit describe generate index rekey   the jobs: never one another
 * verify                                the comparison rekey, sync and the verify command share
 * write                                 the one write engine (shuffle records to bulk load)
 * read                                  snapshot and live readers, their samplers
 * run                                   run bookkeeping: state row, lock, run files and records
 * schema  hbase  spark  pacing          a table's description and design rules; HBase settings,
 *                                       connections, admin and the planners' view of the cluster;
 *                                       Spark session, Kryo, sizing, executor logging, progress;
 *                                       throttles and adaptive rates
 * security                              Kerberos, delegation tokens, grants and their checks
 * local                                 the local HBase's filesystem, loaded by name, used by none
 * keys sketch options common            pure foundations: key codecs, generic sketches, typed options,
 *                                       shared pieces
 * </pre>
 */
class LayeringTest {
  /** The write engine's cell record, which index entries are made as and the endpoint writes. */
  private static final DescribedPredicate<JavaClass> CELL_RECORD =
      nameMatching("io\\.rekey\\.write\\.ShuffleCell(\\$.*)?").forSubtype();

  /** The decisions of the Spark-free core outside its packages, nested classes included. */
  private static final String CORE_DECISIONS =
      "io\\.rekey\\.("
          + "hbase\\.ClusterView"
          + "|rekey\\.(RekeyPlanner|WindowMapping|RowFix|WideRowFix|WritersStopped|TargetFamilies|SwitchVerdict|AfterFailure)"
          + "|write\\.(Ledger|LoadBatches|StoredCells|LoadReconciler|WriterTasks)"
          + "|index\\.(IndexEntries|IndexKey|ScrutinyKind)"
          + ")(\\$.*)?";

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            // ArchUnit's DO_NOT_INCLUDE_TESTS knows target/test-classes only; a support-matrix cell
            // builds in target/CELL/test-classes.
            .withImportOption(location -> !location.contains("/test-classes/"))
            .importPackages("io.rekey");
  }

  @Test
  void everyArrowPointsDown() {
    layeredArchitecture()
        .consideringOnlyDependenciesInAnyPackage("io.rekey..")
        .layer("cli")
        .definedBy("io.rekey.cli..")
        .layer("report")
        .definedBy("io.rekey.report..")
        .layer("jobs")
        .definedBy(
            "io.rekey.audit..",
            "io.rekey.describe..",
            "io.rekey.generate..",
            "io.rekey.index..",
            "io.rekey.rekey..",
            "io.rekey.stream..")
        .layer("verify")
        .definedBy("io.rekey.verify..")
        .layer("write")
        .definedBy("io.rekey.write..")
        .layer("read")
        .definedBy("io.rekey.read..")
        .layer("run")
        .definedBy("io.rekey.run..")
        .layer("pacing")
        .definedBy("io.rekey.pacing..")
        .layer("security")
        .definedBy("io.rekey.security..")
        .layer("schema")
        .definedBy("io.rekey.schema..")
        .layer("hbase")
        .definedBy("io.rekey.hbase..")
        .layer("spark")
        .definedBy("io.rekey.spark..")
        .layer("local")
        .definedBy("io.rekey.local..")
        .layer("foundation")
        .definedBy(
            "io.rekey.keys..", "io.rekey.sketch..", "io.rekey.options..", "io.rekey.common..")
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("report")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("jobs")
        .mayOnlyBeAccessedByLayers("cli", "report")
        .whereLayer("verify")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs")
        .whereLayer("write")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify")
        .whereLayer("read")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify")
        .whereLayer("run")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify", "write", "read")
        .whereLayer("pacing")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify", "write", "read")
        .whereLayer("schema")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify")
        .whereLayer("spark")
        .mayOnlyBeAccessedByLayers("cli", "report", "jobs", "verify", "write", "read")
        .whereLayer("hbase")
        .mayOnlyBeAccessedByLayers(
            "cli", "report", "jobs", "verify", "write", "read", "run", "local")
        .whereLayer("security")
        .mayOnlyBeAccessedByLayers(
            "cli", "report", "jobs", "verify", "write", "read", "run", "hbase", "local")
        .whereLayer("local")
        .mayNotBeAccessedByAnyLayer()
        .check(main);
  }

  @Test
  void noPackagesImportEachOtherInACircle() {
    slices().matching("io.rekey.(*)..").should().beFreeOfCycles().check(main);
  }

  /**
   * The jobs do not use one another, with one shared core: what a row gives an index (Spark-free,
   * {@code io.rekey.index.entries}), which the stream's endpoint derives too when it keeps the
   * indexes of the table it writes.
   */
  @Test
  void theJobsDoNotReachIntoOneAnother() {
    slices()
        .matching("io.rekey.(audit|describe|generate|index|rekey|stream)..")
        .should()
        .notDependOnEachOther()
        .ignoreDependency(
            resideInAnyPackage("io.rekey.stream.."), resideInAnyPackage("io.rekey.index.entries.."))
        .check(main);
  }

  @Test
  void theFoundationsDependOnNothingAboveThem() {
    classes()
        .that()
        .resideInAnyPackage(
            "io.rekey.keys..", "io.rekey.sketch..", "io.rekey.options..", "io.rekey.common..")
        .should()
        .onlyDependOnClassesThat()
        .resideOutsideOfPackages(
            "io.rekey.cli..",
            "io.rekey.report..",
            "io.rekey.audit..",
            "io.rekey.describe..",
            "io.rekey.generate..",
            "io.rekey.index..",
            "io.rekey.rekey..",
            "io.rekey.stream..",
            "io.rekey.verify..",
            "io.rekey.write..",
            "io.rekey.read..",
            "io.rekey.schema..",
            "io.rekey.hbase..",
            "io.rekey.run..",
            "io.rekey.pacing..",
            "io.rekey.security..",
            "io.rekey.spark..",
            "io.rekey.local..")
        .check(main);
  }

  /**
   * The key codecs use the JDK and HBase's Bytes only, so applications can use them as a library.
   */
  @Test
  void theKeyCodecsArePure() {
    classes()
        .that()
        .resideInAPackage("io.rekey.keys..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage("java..", "io.rekey.keys..")
                .or(name("org.apache.hadoop.hbase.util.Bytes")))
        .check(main);
  }

  /** The sketches know nothing of HBase or Spark: the JDK and Apache DataSketches only. */
  @Test
  void theSketchesArePure() {
    classes()
        .that()
        .resideInAPackage("io.rekey.sketch..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.rekey.sketch..", "org.apache.datasketches..")
        .check(main);
  }

  /**
   * The core needs no Spark: the key codecs and mapping, index entry derivation, and the decisions
   * the jobs make (planning, load batches, the stored-cell proof, reconciliation, window mapping,
   * row fixes, the switch's verdict, scrutiny's kinds), so a region-server plugin can be built from
   * them without Spark. Checked transitively: nothing they use may reach Spark either.
   */
  @Test
  void theCoreNeedsNoSpark() {
    noClasses()
        .that(
            resideInAnyPackage(
                    "io.rekey.keys..",
                    "io.rekey.sketch..",
                    "io.rekey.options..",
                    "io.rekey.common..",
                    "io.rekey.schema..",
                    "io.rekey.stream..")
                .or(nameMatching(CORE_DECISIONS)))
        .should()
        .transitivelyDependOnClassesThat()
        .resideInAPackage("org.apache.spark..")
        .check(main);
  }

  /**
   * The stream's replication endpoint (its own jar) runs inside the source's region servers: it may
   * use the key codecs, the common types, HBase's and Hadoop's client and logging (and HBase's own
   * relocated protobuf, in which a WAL's bulk load marker is written), and nothing else of ours or
   * of anyone's, so its jar is small and loads beside HBase's own.
   */
  @Test
  void theStreamNeedsOnlyTheKeyCodecsAndAnHBaseClient() {
    classes()
        .that()
        .resideInAPackage("io.rekey.stream.endpoint..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "java..",
                    "io.rekey.stream.endpoint..",
                    "io.rekey.keys..",
                    "io.rekey.index.entries..",
                    "io.rekey.common..",
                    "org.apache.hadoop..",
                    "org.apache.hbase.thirdparty.com.google.protobuf..",
                    "org.slf4j..")
                .or(CELL_RECORD))
        .check(main);
  }

  /**
   * What a row gives an index travels in the endpoint's jar too (the stream keeps the indexes of
   * the table it writes): it may use the key codecs and the one cell record of the write engine it
   * shares with the Spark path, not the index's options, tables or jobs.
   */
  @Test
  void indexEntriesNeedOnlyTheKeyCodecsAndTheCellRecord() {
    classes()
        .that()
        .resideInAPackage("io.rekey.index.entries..")
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(
                    "java..", "io.rekey.index.entries..", "io.rekey.keys..", "org.apache.hadoop..")
                .or(CELL_RECORD))
        .check(main);
  }
}
