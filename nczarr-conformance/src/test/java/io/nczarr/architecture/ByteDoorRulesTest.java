package io.nczarr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.nczarr.architecture.fixture.DoorBypass;
import io.nczarr.architecture.fixture.StoreDoorBypass;
import java.net.http.HttpClient;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every byte read stays behind the one door (issue 21): HTTP requests, S3 client calls and file channels are
 * used only by the object-source implementations and the clients under them. The allowed packages:
 *
 * <ul>
 *   <li>HTTP requests ({@code java.net.http.HttpRequest}, {@code HttpResponse}, {@code HttpHeaders}, {@code
 *       HttpClient.send}): {@code io.nczarr.http} (the JDK-client plumbing: {@code HttpObjects}, {@code
 *       TimedExchange}, {@code BodySink}, {@code RangeAnswers}) and {@code io.nczarr.source} ({@code
 *       HttpObjectSource}). Holding an {@code HttpClient} (a resource the options make) is allowed anywhere.
 *   <li>The AWS SDK's S3 client and model ({@code software.amazon.awssdk.services.s3..}): {@code io.nczarr.s3}
 *       (under {@code S3ObjectSource} and the S3 store).
 *   <li>{@code java.nio.channels.FileChannel}: {@code io.nczarr.source} ({@code OpenFiles} under {@code
 *       LocalObjectSource}) and the namespace readers of {@code io.nczarr.store} itself (the directory store,
 *       which confines keys to its folder); not {@code io.nczarr.store.kerchunk}, not the binding.
 *   <li>Opening a backend ({@code S3Bucket.open}, {@code new HttpObjects}, {@code FileChannel.open}, {@code new
 *       ZipFile}): {@code io.nczarr.source} (the resolver: {@code StoreSources}, {@code ObjectSources}, {@code
 *       LocalFiles}) and the {@code s3}/{@code http} packages under it; stores receive what they read.
 * </ul>
 *
 * <p>Each rule is also run against {@link DoorBypass}, a class that does all three past the door, and must
 * find it: a rule that cannot fail proves nothing. On the code before the door, the HTTP rule fails for
 * {@code io.nczarr.raf.HttpRangeSource} (its own {@code HttpRequest}s) and the file rule for {@code
 * io.nczarr.store.ReferenceTargets}' {@code OpenFiles} had it been outside {@code io.nczarr.store}.
 */
class ByteDoorRulesTest {
    private static JavaClasses library;

    private static final List<String> HTTP_REQUEST_TYPES =
            List.of("java.net.http.HttpRequest", "java.net.http.HttpResponse", "java.net.http.HttpHeaders");

    @BeforeAll
    static void importClasses() {
        library = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(
                        location -> !location.contains("/io/nczarr/cli/") && !location.contains("/io/nczarr/testkit/"))
                .importPackages("io.nczarr");
    }

    static ArchRule httpRequestsOnlyBehindTheDoor() {
        return noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.http..", "io.nczarr.source..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName(HTTP_REQUEST_TYPES.get(0))
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName(HTTP_REQUEST_TYPES.get(1))
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName(HTTP_REQUEST_TYPES.get(2))
                .orShould()
                .callMethodWhere(DescribedPredicate.describe(
                        "HttpClient.send or sendAsync",
                        (JavaMethodCall c) -> c.getTargetOwner().isAssignableTo(HttpClient.class)
                                && c.getName().startsWith("send")))
                .because("HTTP bytes are read by HttpObjectSource / HttpObjects only (issue 21, one door)");
    }

    static ArchRule s3ClientOnlyBehindTheDoor() {
        return noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.s3..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("software.amazon.awssdk.services.s3..")
                .because("S3 bytes are read by S3Bucket under S3ObjectSource and the S3 store only");
    }

    static ArchRule fileChannelsOnlyBehindTheDoor() {
        return noClasses()
                .that()
                .resideOutsideOfPackages("io.nczarr.source..", "io.nczarr.store")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.nio.channels.FileChannel")
                .because("local bytes are read by LocalObjectSource (regular files only) and the directory store");
    }

    /** The packages that may open a backend: the resolver and the clients under it. */
    private static final String[] OPENERS = {"io.nczarr.source..", "io.nczarr.s3..", "io.nczarr.http.."};

    /**
     * Backends are opened by the resolver only ({@code io.nczarr.source.StoreSources}, {@code ObjectSources}, {@code
     * LocalFiles}): an S3 bucket lease ({@code S3Bucket.open}), an HTTP object reader ({@code new HttpObjects}), a
     * file channel ({@code FileChannel.open}) or a zip archive ({@code new ZipFile}) anywhere else is a store (or a
     * reference reader) deciding its backend, credentials and client beside the trust rules.
     */
    static ArchRule backendsOpenedOnlyByTheResolver() {
        return noClasses()
                .that()
                .resideOutsideOfPackages(OPENERS)
                .should()
                .callMethodWhere(DescribedPredicate.describe(
                        "S3Bucket.open",
                        (JavaMethodCall c) -> c.getTargetOwner().getName().equals("io.nczarr.s3.S3Bucket")
                                && c.getName().equals("open")))
                .orShould()
                .callMethodWhere(DescribedPredicate.describe(
                        "FileChannel.open",
                        (JavaMethodCall c) -> c.getTargetOwner().isAssignableTo(FileChannel.class)
                                && c.getName().equals("open")))
                .orShould()
                .callConstructorWhere(DescribedPredicate.describe(
                        "new HttpObjects or new ZipFile",
                        (JavaConstructorCall c) -> c.getTargetOwner().getName().equals("io.nczarr.http.HttpObjects")
                                || c.getTargetOwner().isAssignableTo(ZipFile.class)))
                .because("stores receive their backend from the one resolver (issue 21): trust, credentials and"
                        + " clients are decided in io.nczarr.source only");
    }

    @Test
    void backendsAreOpenedOnlyByTheResolver() {
        backendsOpenedOnlyByTheResolver().check(library);
    }

    @Test
    void theResolverRuleFindsAStoreThatOpensItsOwnBackend() {
        EvaluationResult r = backendsOpenedOnlyByTheResolver()
                .evaluate(new ClassFileImporter().importClasses(StoreDoorBypass.class));
        String report = r.getFailureReport().toString();
        for (String call : List.of("S3Bucket.open", "HttpObjects.<init>", "FileChannel.open", "ZipFile.<init>")) {
            assertTrue(report.contains(call), call + " must be found: " + report);
        }
    }

    @Test
    void httpRequestsAreMadeOnlyBehindTheDoor() {
        httpRequestsOnlyBehindTheDoor().check(library);
    }

    @Test
    void theS3ClientIsUsedOnlyBehindTheDoor() {
        s3ClientOnlyBehindTheDoor().check(library);
    }

    @Test
    void fileChannelsAreOpenedOnlyBehindTheDoor() {
        fileChannelsOnlyBehindTheDoor().check(library);
    }

    @Test
    void eachRuleFindsAClassThatGoesPastTheDoor() {
        JavaClasses bypass = new ClassFileImporter().importClasses(DoorBypass.class);
        for (ArchRule rule : List.of(
                httpRequestsOnlyBehindTheDoor(), s3ClientOnlyBehindTheDoor(), fileChannelsOnlyBehindTheDoor())) {
            EvaluationResult r = rule.evaluate(bypass);
            assertTrue(r.hasViolation(), "the rule must find DoorBypass: " + rule.getDescription());
            assertTrue(
                    r.getFailureReport().toString().contains(DoorBypass.class.getName()),
                    r.getFailureReport().toString());
        }
        assertEquals(3, HTTP_REQUEST_TYPES.size());
    }
}
