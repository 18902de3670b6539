package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.StoreException;
import io.nczarr.s3.S3Bucket;
import io.nczarr.testkit.s3.LocalS3;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Real failures of every store are {@link StoreException}s naming the store and the key, with a
 * retryable flag that says whether asking again may help.
 */
class StoreFailuresTest {

    @TempDir
    static Path tmp;

    @Test
    void zipWithTraversalEntriesIsRefused() throws IOException {
        Path zip = tmp.resolve("evil.zip");
        try (OutputStream os = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(os)) {
            z.putNextEntry(new ZipEntry(".zgroup"));
            z.write(StoreContractTest.bytes("{}"));
            z.putNextEntry(new ZipEntry("../evil/.zarray"));
            z.write(StoreContractTest.bytes("{}"));
        }
        StoreException e = assertThrows(StoreException.class, () -> new ZipStore(zip));
        assertTrue(e.getMessage().contains("../evil/.zarray"), e.getMessage());
        assertEquals(zip.toString(), e.dataset());
        assertFalse(e.isRetryable());
    }

    @Test
    void aFileThatIsNotAZipIsRefused() throws IOException {
        Path notZip = Files.write(tmp.resolve("not.zip"), new byte[] {'P', 'K', 3, 4, 0, 0, 0});
        StoreException e = assertThrows(StoreException.class, () -> new ZipStore(notZip));
        assertTrue(e.getMessage().contains("not a readable zip file"), e.getMessage());
        assertFalse(e.isRetryable());
    }

    @Test
    void aCorruptZipEntryIsAStoreFailureOfItsKey() throws IOException {
        Path zip = tmp.resolve("corrupt.zip");
        byte[] data = new byte[4000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 7 + i / 100);
        }
        try (OutputStream os = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(os)) {
            z.putNextEntry(new ZipEntry(".zgroup"));
            z.write(StoreContractTest.bytes("{}"));
            z.putNextEntry(new ZipEntry("v/0"));
            z.write(data);
        }
        byte[] file = Files.readAllBytes(zip);
        // the deflated data of v/0 follows its local header (30 bytes + name)
        int at = indexOf(file, StoreContractTest.bytes("v/0")) + 3;
        Arrays.fill(file, at + 2, at + 40, (byte) 0xA5);
        Files.write(zip, file);
        try (ZipStore s = new ZipStore(zip)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertEquals("v/0", e.key());
            assertEquals(zip.toString(), e.dataset());
            assertFalse(e.isRetryable());
            assertTrue(s.get(".zgroup").isPresent(), "the other entries stay readable");
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    @Test
    void objectSizeLimitIsEnforced() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("limit"));
        Files.write(dir.resolve("big"), new byte[100]);
        try (Store s = new DirectoryStore(dir, 10)) {
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("big"));
            assertTrue(e.getMessage().contains("big") && e.getMessage().contains("100 bytes"), e.getMessage());
            assertTrue(e.getMessage().contains(MemoryLimits.MAX_OBJECT_BYTES + "=10"), e.getMessage());
            assertEquals("big", e.key());
        }
    }

    @Test
    void anUnreadableFileIsAStoreFailureNotAMissingOne() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("unreadable"));
        Path f = Files.write(dir.resolve("secret"), new byte[] {1});
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("---------"));
        Assumptions.assumeFalse(Files.isReadable(f), "permissions are not enforced for this user");
        try (Store s = new DirectoryStore(dir)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("secret"));
            assertEquals("secret", e.key());
            assertTrue(e.getCause() instanceof AccessDeniedException, String.valueOf(e.getCause()));
            assertFalse(e.isRetryable());
        }
    }

    @Test
    void aMissingDirectoryIsNotAStore() {
        StoreException e = assertThrows(StoreException.class, () -> new DirectoryStore(tmp.resolve("nosuch")));
        assertTrue(e.getMessage().contains("nosuch"), e.getMessage());
    }

    @Test
    void localFailuresAreRetryableOnlyWhenTheSystemSaysTheyPass() {
        StoreException eagain = (StoreException) LocalFailures.of(
                "/d", "k", "cannot read the file", new IOException("Resource temporarily unavailable"));
        assertTrue(eagain.isRetryable());
        StoreException eio = (StoreException)
                LocalFailures.of("/d", "k", "cannot read the file", new IOException("Input/output error"));
        assertFalse(eio.isRetryable());
        assertEquals("/d: k: cannot read the file: IOException: Input/output error", eio.getMessage());
        InterruptedIOException interrupted = new InterruptedIOException();
        assertSame(
                interrupted, LocalFailures.of("/d", "k", "x", interrupted), "a cancelled read is not a store failure");
    }

    @Test
    void s3AccessDeniedIsNotRetryable() throws IOException {
        LocalS3 s3 = LocalS3.get();
        s3.upload(StoreContractTest.writeDirectory(tmp.resolve("denied.file")), "failures", "denied.file");
        String url = s3.signed.endpoint() + "/failures/denied.file#mode=nczarr,s3&aws.profile=" + LocalS3.WRONG_PROFILE;
        try (Store s = TestStores.open(DatasetUrl.parse(url))) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains("403"), e.getMessage());
            assertEquals(s.location(), e.dataset());
            assertEquals("v/0", e.key());
            assertFalse(e.isRetryable());
            StoreException list = assertThrows(StoreException.class, () -> s.list("v"));
            assertFalse(list.isRetryable());
            assertEquals("v", list.key());
        }
    }

    @Test
    void s3UnreachableServerIsRetryable() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/bucket/ds#mode=zarr,s3&aws.profile=none";
        try (Store s = TestStores.open(DatasetUrl.parse(url))) {
            StoreException e = assertThrows(StoreException.class, () -> s.get(".zgroup"));
            assertTrue(e.isRetryable(), e.getMessage());
            assertEquals(".zgroup", e.key());
            assertTrue(e.getMessage().startsWith(s.location() + ": .zgroup: "), e.getMessage());
        }
    }

    @Test
    void s3RetryableFailuresAreTheOnesThatMayPass() {
        assertTrue(S3Bucket.isRetryable(s3Failure(503, "SlowDown")));
        assertTrue(S3Bucket.isRetryable(s3Failure(500, "InternalError")));
        assertTrue(S3Bucket.isRetryable(s3Failure(429, "TooManyRequests")));
        assertTrue(S3Bucket.isRetryable(s3Failure(408, "RequestTimeout")));
        assertFalse(S3Bucket.isRetryable(s3Failure(403, "AccessDenied")));
        assertFalse(S3Bucket.isRetryable(s3Failure(404, "NoSuchBucket")));
        assertFalse(S3Bucket.isRetryable(s3Failure(400, "InvalidRequest")));
        assertTrue(S3Bucket.isRetryable(ApiCallTimeoutException.create(1000)));
        assertTrue(S3Bucket.isRetryable(SdkClientException.create(
                "Unable to execute HTTP request", new java.net.ConnectException("Connection refused"))));
        assertFalse(S3Bucket.isRetryable(SdkClientException.create("Unable to marshall")));
    }

    private static S3Exception s3Failure(int status, String code) {
        return (S3Exception) S3Exception.builder()
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).build())
                .build();
    }
}
