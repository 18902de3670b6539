package io.nczarr.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Spark binding's place in the layering (docs/architecture.md): only it knows Spark; it knows no
 * netCDF-Java, no other binding and no test kit; it reaches the core only through the public API packages
 * (open, read, model, url, error), never stores, chunks, codecs or metadata readers directly.
 */
class SparkArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.nczarr");
    }

    @Test
    void onlyTheSparkBindingKnowsSpark() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.nczarr.spark..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.spark..", "scala..")
                .check(classes);
    }

    @Test
    void theSparkBindingKnowsNoNetcdfJavaAndNoOtherBinding() {
        noClasses()
                .that()
                .resideInAPackage("io.nczarr.spark..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("ucar..", "thredds..", "io.nczarr.cdm..", "io.nczarr.raf..", "io.nczarr.testkit..")
                .check(classes);
    }

    @Test
    void theSparkBindingUsesOnlyTheCoresPublicApi() {
        noClasses()
                .that()
                .resideInAPackage("io.nczarr.spark..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.nczarr.store..",
                        "io.nczarr.chunk..",
                        "io.nczarr.codec..",
                        "io.nczarr.meta..",
                        "io.nczarr.s3..",
                        "io.nczarr.http..",
                        "io.nczarr.source..")
                .check(classes);
    }
}
