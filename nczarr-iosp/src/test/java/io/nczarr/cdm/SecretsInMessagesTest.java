package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.TestFiles;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No failure message carries a secret: URLs with planted secrets (user info, query tokens, presigned-URL
 * parameters, secret fragment keys) are opened through {@link NcZarrFiles#open} against targets that
 * fail (a closed loopback port, missing local paths, the loopback S3 server with a wrong secret, a
 * loopback HTTP server answering 403, a file that is not netCDF, malformed URLs), and the secret must
 * appear in no message and no {@code toString()} of the whole exception chain (causes and suppressed).
 */
class SecretsInMessagesTest {
    /** Planted in every URL; never to be seen again. */
    private static final String SECRET = "Pl4ntedS3cretValue";

    private static RangeHttpServer forbidden;
    private static RangeHttpServer files;
    private static int closedPort;
    private static LocalS3 s3;

    @BeforeAll
    static void start() throws IOException {
        forbidden = RangeHttpServer.start().forceStatus(403);
        files = RangeHttpServer.start();
        files.put("/notnc.txt", "this is not a netCDF file, whatever the URL says".getBytes(StandardCharsets.UTF_8));
        files.put("/classic.nc", TestFiles.bytesDir().resolve("classic.nc"));
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        s3 = LocalS3.get();
        s3.upload(Corpus.testDataDir().resolve("sample.file"), "secrets", "sample.file");
        s3.server.put("secrets", "k.nc", Files.readAllBytes(TestFiles.bytesDir().resolve("classic.nc")));
    }

    @AfterAll
    static void stop() {
        forbidden.close();
        files.close();
    }

    static Stream<String> locations() {
        String closed = "127.0.0.1:" + closedPort;
        String fast = "&" + "nczarr.s3.maxAttempts=1";
        String signed = s3.signed.endpoint().toString();
        String presigned = "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + SECRET + "&X-Amz-Security-Token="
                + SECRET + "&X-Amz-Signature=" + SECRET + "&Signature=" + SECRET + "&AWSAccessKeyId=" + SECRET;
        return Stream.of(
                // the issue's examples
                "http://user:" + SECRET + "@" + closed + "/bucket/ds#mode=zarr,s3",
                "s3://bucket/ds?token=" + SECRET,
                // S3 stores: unreachable, query strings, secret fragment keys, a wrong secret (403)
                "http://" + closed + "/bucket/ds?X-Amz-Signature=" + SECRET + "#mode=zarr,s3",
                "http://" + closed + "/bucket/ds#mode=zarr,s3&aws.profile=none&aws.secret_access_key=" + SECRET + fast,
                "https://" + SECRET + "@" + closed + "/bucket/ds#mode=nczarr,s3&aws.profile=none",
                "s3://bucket/ds?" + presigned + "#mode=nczarr,s3",
                signed + "/secrets/sample.file#mode=nczarr,s3&aws.profile=" + LocalS3.WRONG_PROFILE
                        + "&aws.secret_access_key=" + SECRET + "&aws.session_token=" + SECRET + fast,
                signed + "/secrets/sample.file?X-Amz-Credential=" + SECRET + "#mode=nczarr,s3&aws.profile="
                        + LocalS3.PROFILE,
                // local stores that are not there
                "/nonexistent-nczarr/ds.file#mode=nczarr,file&aws.session_token=" + SECRET,
                "file:///nonexistent-nczarr/ds.file?token=" + SECRET + "#mode=nczarr,file",
                "/nonexistent-nczarr/ds.zip#mode=zarr,zip&access_token=" + SECRET,
                "file://user:" + SECRET + "@/nonexistent-nczarr/ds.file#mode=nczarr,file",
                // malformed URLs
                "ftp://user:" + SECRET + "@host/x",
                "https://host/x?sig=" + SECRET + "#mode=nczarr,bogus",
                "https://host/x?sig=" + SECRET + "|bad#mode=zarr,s3",
                "https://host/x#mode=zarr,s3&aws.secret_access_key=" + SECRET + "%zz",
                // mode=bytes: a presigned URL answered 403, unreachable, user info, not netCDF, S3 403, S3 query
                forbidden.url("/k.nc") + "?" + presigned + "#mode=bytes",
                "http://" + closed + "/k.nc?token=" + SECRET + "#mode=bytes",
                "http://user:" + SECRET + "@" + closed + "/k.nc#mode=bytes",
                files.url("/notnc.txt") + "?token=" + SECRET + "#mode=bytes",
                signed + "/secrets/k.nc#mode=bytes,s3&aws.profile=" + LocalS3.WRONG_PROFILE + "&aws.secret_access_key="
                        + SECRET + fast,
                "s3://bucket/k.nc?X-Amz-Signature=" + SECRET + "#mode=bytes");
    }

    @ParameterizedTest
    @MethodSource("locations")
    void noMessageCarriesASecret(String location) {
        IOException e =
                assertThrows(IOException.class, () -> NcZarrFiles.open(location).close(), location);
        List<String> secrets = new ArrayList<>(awsSecrets());
        secrets.add(SECRET);
        for (Throwable t : chain(e)) {
            for (String secret : secrets) {
                assertFalse(String.valueOf(t.getMessage()).contains(secret), () -> location + " -> " + t);
                assertFalse(String.valueOf(t).contains(secret), () -> location + " -> " + t);
                if (t instanceof NcZarrException n) {
                    assertFalse(String.valueOf(n.dataset()).contains(secret), n.dataset());
                }
            }
        }
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "still says what failed: " + e);
    }

    /** The exception, its causes and everything suppressed along the way. */
    private static List<Throwable> chain(Throwable top) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        List<Throwable> out = new ArrayList<>();
        List<Throwable> todo = new ArrayList<>(List.of(top));
        while (!todo.isEmpty()) {
            Throwable t = todo.remove(todo.size() - 1);
            if (t == null || seen.put(t, Boolean.TRUE) != null) {
                continue;
            }
            out.add(t);
            todo.add(t.getCause());
            todo.addAll(List.of(t.getSuppressed()));
        }
        return out;
    }

    /** The loopback S3 server's key ids and secrets (the right one and the wrong profile's). */
    private static List<String> awsSecrets() {
        List<String> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of(System.getProperty("nczarr.aws.credentialsFile")))) {
                int eq = line.indexOf('=');
                if (eq > 0 && line.trim().startsWith("aws_secret")) {
                    out.add(line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertTrue(out.size() >= 2, "secrets of the loopback S3 server");
        return out;
    }
}
