package io.nczarr.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.nczarr.architecture.fixture.DoorBypass;
import java.net.http.HttpClient;
import java.util.List;
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
