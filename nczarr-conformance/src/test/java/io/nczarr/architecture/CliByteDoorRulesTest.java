package io.nczarr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.nczarr.architecture.fixture.CliBypass;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, "one door" for the command line (task 21c): every CLI command that reads a dataset ({@code dump},
 * {@code json}, {@code ls}, {@code bench}, {@code log}, {@code quicklook}, ...) reaches its bytes only through
 * the core's open path ({@code NcZarrFiles}, {@code Datasets}, {@code Stores}, {@code ObjectSources}): no file
 * reads, HTTP client, S3 SDK or test servers of its own in {@code io.nczarr.cli}. Exempt and confined: {@code
 * Serve} (serves a directory, so it walks and reads it) and {@code S3Demo} (starts the loopback S3 server), which
 * only {@code Main} may start, and the benchmarks of {@code io.nczarr.cli.bench} (which compare against other
 * readers), which only {@code Main} and the {@code bench} command may reach.
 */
class CliByteDoorRulesTest {
    private static JavaClasses cli;

    /** The command classes allowed to read past the door, by simple name (nested classes included). */
    static final Set<String> EXEMPT = Set.of("Serve", "S3Demo");

    /** Types a command must not use to read bytes itself. */
    private static final List<String> OWN_READERS = List.of(
            "java.net.http.HttpClient",
            "java.net.http.HttpRequest",
            "java.net.http.HttpResponse",
            "java.net.URLConnection",
            "java.net.HttpURLConnection",
            "java.nio.channels.FileChannel",
            "java.io.RandomAccessFile",
            "java.io.FileInputStream",
            "java.io.FileReader");

    /** {@code java.nio.file.Files} methods that read a file's content. */
    private static final Set<String> FILE_READS = Set.of(
            "readAllBytes",
            "readString",
            "readAllLines",
            "lines",
            "newInputStream",
            "newBufferedReader",
            "newByteChannel");

    @BeforeAll
    static void importClasses() {
        cli = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.nczarr");
    }

    private static String topLevel(JavaClass c) {
        String simple = c.getName().substring(c.getName().lastIndexOf('.') + 1);
        int dollar = simple.indexOf('$');
        return dollar < 0 ? simple : simple.substring(0, dollar);
    }

    /** The commands of {@code commandPackage} (not its subpackages, not the exempt ones) read only through the core. */
    static ArchRule commandsReadOnlyThroughTheCore(String commandPackage) {
        DescribedPredicate<JavaClass> commands = DescribedPredicate.describe(
                "commands of " + commandPackage + " other than " + EXEMPT,
                c -> c.getPackageName().equals(commandPackage) && !EXEMPT.contains(topLevel(c)));
        DescribedPredicate<JavaClass> ownReaders = DescribedPredicate.describe(
                "own byte readers " + OWN_READERS + ", the AWS SDK or the test servers",
                c -> OWN_READERS.contains(c.getName())
                        || c.getPackageName().startsWith("software.amazon.awssdk")
                        || c.getPackageName().startsWith("io.nczarr.testkit"));
        return noClasses()
                .that(commands)
                .should()
                .dependOnClassesThat(ownReaders)
                .orShould()
                .callMethodWhere(DescribedPredicate.describe(
                        "Files." + FILE_READS,
                        (JavaMethodCall m) -> m.getTargetOwner().getName().equals("java.nio.file.Files")
                                && FILE_READS.contains(m.getName())))
                .because("a command reads a dataset through the core's open path and ObjectSources only (issue 21)");
    }

    /** Serve, S3Demo and the benchmarks are reached from Main (and the bench command) only. */
    static ArchRule exemptCodeStaysConfined() {
        return noClasses()
                .that(DescribedPredicate.describe(
                        "classes other than Main, Bench and the exempt code itself",
                        (JavaClass c) -> !(c.getPackageName().equals("io.nczarr.cli")
                                        && Set.of("Main", "Bench", "Serve", "S3Demo")
                                                .contains(topLevel(c)))
                                && !c.getPackageName().startsWith("io.nczarr.cli.bench")))
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "Serve, S3Demo or io.nczarr.cli.bench",
                        (JavaClass c) -> (c.getPackageName().equals("io.nczarr.cli") && EXEMPT.contains(topLevel(c)))
                                || c.getPackageName().startsWith("io.nczarr.cli.bench")))
                .because("the code allowed past the door runs only as its own command");
    }

    @Test
    void cliCommandsReadOnlyThroughTheCore() {
        commandsReadOnlyThroughTheCore("io.nczarr.cli").check(cli);
    }

    @Test
    void serveDemoAndBenchmarksStayConfined() {
        exemptCodeStaysConfined().check(cli);
    }

    @Test
    void theRuleFindsACommandReadingBytesItself() {
        JavaClasses bypass = new ClassFileImporter().importClasses(CliBypass.class);
        EvaluationResult r =
                commandsReadOnlyThroughTheCore(CliBypass.class.getPackageName()).evaluate(bypass);
        String report = r.getFailureReport().toString();
        assertTrue(r.hasViolation(), report);
        for (String what : List.of("readAllBytes", "RandomAccessFile", "HttpClient")) {
            assertTrue(report.contains(what), what + " not found in " + report);
        }
    }
}
