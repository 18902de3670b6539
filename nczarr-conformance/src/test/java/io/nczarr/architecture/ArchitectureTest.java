package io.nczarr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/architecture.md describes, enforced over every module on this module's test class path (the
 * core, s3-raf, the netCDF-Java binding, the command line, the test kit, and each further binding such as
 * nczarr-spark, a test dependency here): data flows url → store → model → meta → chunk → read → aggregation →
 * open → binding; codecs and errors are leaves; only the netCDF-Java binding, the byte-range RandomAccessFile and
 * the command line know netCDF-Java; only the Spark binding knows Spark; the host-neutral core knows neither; the
 * library never uses the test kit or the command line; no package cycles; files are read by stores, not by URL
 * parsing or metadata code.
 */
class ArchitectureTest {
    private static JavaClasses library;
    private static JavaClasses all;

    @BeforeAll
    static void importClasses() {
        all = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.nczarr");
        library = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(
                        location -> !location.contains("/io/nczarr/cli/") && !location.contains("/io/nczarr/testkit/"))
                .importPackages("io.nczarr");
    }

    @Test
    void layersAreRespected() {
        ArchRule rule = layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("error")
                .definedBy("io.nczarr.error..")
                .layer("dtype")
                .definedBy("io.nczarr.dtype..")
                .layer("codec")
                .definedBy("io.nczarr.codec..")
                .layer("url")
                .definedBy("io.nczarr.url..")
                .layer("http")
                .definedBy("io.nczarr.http..")
                .layer("s3")
                .definedBy("io.nczarr.s3..")
                .layer("source")
                .definedBy("io.nczarr.source..")
                .layer("store")
                .definedBy("io.nczarr.store..")
                .layer("icechunk")
                .definedBy("io.nczarr.icechunk..")
                .layer("model")
                .definedBy("io.nczarr.model..")
                .layer("meta")
                .definedBy("io.nczarr.meta..")
                .layer("chunk")
                .definedBy("io.nczarr.chunk..")
                .layer("read")
                .definedBy("io.nczarr.read..")
                .layer("aggregation")
                .definedBy("io.nczarr.aggregation..")
                .layer("open")
                .definedBy("io.nczarr.open..")
                .layer("raf")
                .definedBy("io.nczarr.raf..")
                .layer("binding")
                .definedBy("io.nczarr.cdm..")
                .whereLayer("error")
                .mayOnlyAccessLayers("error")
                .whereLayer("dtype")
                .mayOnlyAccessLayers("dtype", "error")
                .whereLayer("codec")
                .mayOnlyAccessLayers("codec", "dtype", "error")
                .whereLayer("url")
                .mayOnlyAccessLayers("url", "error")
                .whereLayer("http")
                .mayOnlyAccessLayers("http", "error")
                .whereLayer("s3")
                .mayOnlyAccessLayers("s3", "http", "error")
                .whereLayer("source")
                .mayOnlyAccessLayers("source", "url", "s3", "http", "error")
                .whereLayer("store")
                .mayOnlyAccessLayers("store", "source", "url", "s3", "http", "error")
                .whereLayer("icechunk")
                .mayOnlyAccessLayers("icechunk", "store", "source", "url", "http", "s3", "error")
                .whereLayer("model")
                .mayOnlyAccessLayers("model", "codec", "dtype", "error")
                .whereLayer("meta")
                .mayOnlyAccessLayers("meta", "model", "store", "url", "codec", "dtype", "error")
                .whereLayer("chunk")
                .mayOnlyAccessLayers("chunk", "model", "store", "codec", "dtype", "error")
                .whereLayer("read")
                .mayOnlyAccessLayers("read", "chunk", "model", "error")
                .whereLayer("aggregation")
                .mayOnlyAccessLayers("aggregation", "read", "model", "store", "source", "url", "error")
                .whereLayer("open")
                .mayOnlyAccessLayers(
                        "open",
                        "read",
                        "icechunk",
                        "aggregation",
                        "chunk",
                        "meta",
                        "model",
                        "store",
                        "source",
                        "http",
                        "url",
                        "s3",
                        "codec",
                        "dtype",
                        "error")
                .whereLayer("raf")
                .mayOnlyAccessLayers("raf", "open", "source", "s3", "http", "url", "error")
                .whereLayer("binding")
                .mayNotBeAccessedByAnyLayer()
                .withOptionalLayers(true);
        rule.check(library);
    }

    @Test
    void onlyTheBindingAndTheRandomAccessFileKnowNetcdfJava() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.cdm..", "io.nczarr.raf..", "io.nczarr.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("ucar..")
                .because("only the netCDF-Java binding (nczarr-iosp, s3-raf) and the command line know netCDF-Java")
                .check(all);
    }

    /** The packages of the bindings and tools; everything else under io.nczarr is the host-neutral core. */
    private static final String[] NOT_CORE = {
        "io.nczarr.cdm..", "io.nczarr.raf..", "io.nczarr.cli..", "io.nczarr.testkit..", "io.nczarr.spark.."
    };

    @Test
    void onlyTheSparkBindingKnowsSpark() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.spark..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.apache.spark..")
                .check(all);
    }

    @Test
    void theCoreKnowsNoHost() {
        noClasses()
                .that()
                .resideOutsideOfPackages(NOT_CORE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("ucar..", "org.apache.spark..", "scala..")
                .check(all);
    }

    @Test
    void theLibraryNeverUsesTheTestKitOrTheCommandLine() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.cli..", "io.nczarr.testkit..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.nczarr.cli..", "io.nczarr.testkit..")
                .check(all);
    }

    @Test
    void theTestKitDependsOnNoProjectModule() {
        noClasses()
                .that()
                .resideInAPackage("io.nczarr.testkit..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(
                        "io.nczarr.testkit..",
                        "java..",
                        "javax..",
                        "com.fasterxml.jackson..",
                        "org.gaul..",
                        "software.amazon.awssdk..",
                        "org.junit..",
                        "org.opentest4j..",
                        "org.eclipse.jetty..",
                        "jakarta..",
                        "org.jclouds..",
                        "com.sun.net.httpserver..")
                .check(all);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.nczarr.(*)..").should().beFreeOfCycles().check(all);
    }

    @Test
    void codecsKnowOnlyBytesAndParameters() {
        classes()
                .that()
                .resideInAPackage("io.nczarr.codec..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.nczarr.codec..",
                        "io.nczarr.dtype..",
                        "io.nczarr.error..",
                        "java..",
                        "com.fasterxml.jackson..",
                        "com.github.luben.zstd..",
                        "net.jpountz..",
                        "org.apache.commons.compress..",
                        "org.tukaani.xz..",
                        "org.xerial.snappy..",
                        // optional native decoders (libdeflate) found on the system
                        "com.sun.jna..",
                        // the optional Vector API unshuffle (VectorUnshuffle, used only with nczarr.codec.vector)
                        "jdk.incubator.vector..")
                .check(library);
    }

    @Test
    void filesAreReadByStoresNotByParsingOrDecoding() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "io.nczarr.url..",
                        "io.nczarr.http..",
                        "io.nczarr.model..",
                        "io.nczarr.meta..",
                        "io.nczarr.chunk..",
                        "io.nczarr.codec..",
                        "io.nczarr.dtype..",
                        "io.nczarr.error..",
                        "io.nczarr.aggregation..",
                        "io.nczarr.open..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.nio.file.Files")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.io.FileInputStream")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.io.RandomAccessFile")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.util.zip.ZipFile")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.nio.channels.FileChannel")
                .check(library);
    }

    /** Hosts are classed (loopback, private, link-local) in one place, the trust resolver (issue 21). */
    @Test
    void hostsAreJudgedOnlyByTheTrustResolver() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.source..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.net.InetAddress")
                .check(library);
    }
}
