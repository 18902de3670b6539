package io.nczarr.testkit.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * A real S3-protocol server on the loopback interface (S3Proxy with an in-memory blob store),
 * for tests, {@code ./nczarr demo} and the benchmark. Not for production. Needs
 * {@code org.gaul:s3proxy} on the classpath (an optional dependency).
 *
 * <p>The signed endpoint checks AWS v2/v4 signatures against one access key; an
 * {@link #anonymousEndpoint() anonymous endpoint} on a second port serves the same objects
 * without authentication (what a public-read bucket looks like to an unsigned client).
 * Objects are written straight into the blob store, not through HTTP.
 */
public final class LocalS3Server implements AutoCloseable {

    private final BlobStore blobStore;
    private final S3Proxy signed;
    private final S3Proxy anonymous;
    private final String accessKeyId;
    private final String secretAccessKey;

    private LocalS3Server(
            BlobStore blobStore, S3Proxy signed, S3Proxy anonymous, String accessKeyId, String secretAccessKey) {
        this.blobStore = blobStore;
        this.signed = signed;
        this.anonymous = anonymous;
        this.accessKeyId = accessKeyId;
        this.secretAccessKey = secretAccessKey;
    }

    /**
     * Starts both endpoints on 127.0.0.1, on free ports.
     *
     * @param accessKeyId the access key the signed endpoint accepts
     * @param secretAccessKey its secret
     */
    public static LocalS3Server start(String accessKeyId, String secretAccessKey) throws IOException {
        BlobStore store = new TransientNio2BlobStore();
        S3Proxy signed = null;
        S3Proxy anon = null;
        try {
            signed = S3Proxy.builder()
                    .blobStore(store)
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKeyId, secretAccessKey)
                    .build();
            signed.start();
            anon = S3Proxy.builder()
                    .blobStore(store)
                    .endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.NONE, null, null)
                    .build();
            anon.start();
            awaitStarted(signed);
            awaitStarted(anon);
            return new LocalS3Server(store, signed, anon, accessKeyId, secretAccessKey);
        } catch (Exception e) {
            stopQuietly(signed);
            stopQuietly(anon);
            throw e instanceof IOException io ? io : new IOException("cannot start the loopback S3 server: " + e, e);
        }
    }

    private static void awaitStarted(S3Proxy p) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!"STARTED".equals(p.getState())) {
            if (System.nanoTime() > deadline) {
                throw new IOException("loopback S3 server did not start (state " + p.getState() + ")");
            }
            Thread.sleep(5);
        }
    }

    /** {@code http://127.0.0.1:PORT}, signed requests with the configured key only. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + signed.getPort());
    }

    /** {@code http://127.0.0.1:PORT} of the unauthenticated endpoint over the same objects. */
    public URI anonymousEndpoint() {
        return URI.create("http://127.0.0.1:" + anonymous.getPort());
    }

    public String accessKeyId() {
        return accessKeyId;
    }

    public String secretAccessKey() {
        return secretAccessKey;
    }

    /** Creates a bucket (names of at least 3 characters) unless it exists. */
    public void createBucket(String bucket) {
        if (!blobStore.containerExists(bucket)) {
            blobStore.createContainer(bucket);
        }
    }

    public void put(String bucket, String key, byte[] data) throws IOException {
        put(bucket, key, new ByteArrayInputStream(data), data.length);
    }

    private void put(String bucket, String key, InputStream in, long length) throws IOException {
        try (InputStream i = in) {
            blobStore.putBlob(
                    PutObjectRequest.builder()
                            .bucket(bucket)
                            .key(key)
                            .contentLength(length)
                            .build(),
                    i);
        }
    }

    public void delete(String bucket, String key) {
        blobStore.removeBlob(
                DeleteObjectRequest.builder().bucket(bucket).key(key).build());
    }

    /**
     * Uploads every file below {@code dir} as {@code prefix/relative/path} (creating the bucket).
     *
     * @return the keys written
     */
    public List<String> upload(Path dir, String bucket, String prefix) throws IOException {
        createBucket(bucket);
        List<String> keys = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        String base = prefix == null || prefix.isEmpty() ? "" : prefix.replaceAll("/+$", "") + "/";
        for (Path f : files) {
            String rel = dir.relativize(f).toString().replace('\\', '/');
            String key = base + rel;
            put(bucket, key, Files.newInputStream(f), Files.size(f));
            keys.add(key);
        }
        return keys;
    }

    @Override
    public void close() {
        stopQuietly(anonymous);
        stopQuietly(signed);
        blobStore.close();
    }

    private static void stopQuietly(S3Proxy p) {
        if (p == null) {
            return;
        }
        try {
            p.stop();
        } catch (Exception e) {
            // stopping a loopback test server: nothing to do about it
        }
    }
}
