package io.nczarr.testkit.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateBucketRequest;
import software.amazon.awssdk.services.s3.model.CreateBucketResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * {@code nczarr serve}: a directory of the user's files as one read-only S3 bucket on 127.0.0.1 (S3Proxy's
 * file-system blob store; keys = relative paths), unauthenticated (clients use {@code aws.profile=none}, or any
 * key). The bucket is a symbolic link in a temporary folder, so nothing beside the directory is served and
 * nothing is written into it; every write request is refused with 403.
 */
public final class DirectoryS3Server implements AutoCloseable {
    private final S3Proxy proxy;
    private final BlobStore store;
    private final Path root;
    private final String bucket;

    private DirectoryS3Server(S3Proxy proxy, BlobStore store, Path root, String bucket) {
        this.proxy = proxy;
        this.store = store;
        this.root = root;
        this.bucket = bucket;
    }

    /**
     * Serves {@code dir} as bucket {@code bucket} on 127.0.0.1:{@code port} (0 = a free port).
     *
     * @throws IOException when the directory is not one, or the server cannot start (port taken)
     */
    public static DirectoryS3Server start(Path dir, String bucket, int port) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": not a directory");
        }
        Path root = Files.createTempDirectory("nczarr-serve");
        Files.createSymbolicLink(root.resolve(bucket), dir.toRealPath());
        BlobStore store = new ReadOnly(new FilesystemNio2BlobStore(root.toString()));
        S3Proxy proxy = null;
        try {
            proxy = S3Proxy.builder()
                    .blobStore(store)
                    .endpoint(URI.create("http://127.0.0.1:" + port))
                    .awsAuthentication(AuthenticationType.NONE, null, null)
                    .build();
            proxy.start();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!"STARTED".equals(proxy.getState())) {
                if ("FAILED".equals(proxy.getState()) || System.nanoTime() > deadline) {
                    throw new IOException("the S3 server did not start on port " + port + " (state " + proxy.getState()
                            + "; is the port taken?)");
                }
                Thread.sleep(5);
            }
            return new DirectoryS3Server(proxy, store, root, bucket);
        } catch (Exception e) {
            stop(proxy);
            Files.deleteIfExists(root.resolve(bucket));
            Files.deleteIfExists(root);
            throw e instanceof IOException io ? io : new IOException("cannot start the S3 server: " + e, e);
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    public String bucket() {
        return bucket;
    }

    @Override
    public void close() {
        stop(proxy);
        store.close();
        try {
            Files.deleteIfExists(root.resolve(bucket));
            Files.deleteIfExists(root);
        } catch (IOException e) {
            // a temporary folder holding one symbolic link
        }
    }

    private static void stop(S3Proxy p) {
        if (p == null) {
            return;
        }
        try {
            p.stop();
        } catch (Exception e) {
            // stopping a loopback server: nothing to do about it
        }
    }

    /** Refuses every request that would change something. */
    private static final class ReadOnly extends ForwardingBlobStore {
        ReadOnly(BlobStore delegate) {
            super(delegate);
        }

        private static S3Exception refused() {
            return (S3Exception) S3Exception.builder()
                    .statusCode(403)
                    .message("nczarr serve is read-only")
                    .build();
        }

        @Override
        public CreateBucketResponse createContainer(CreateBucketRequest request) {
            throw refused();
        }

        @Override
        public void clearContainer(ListObjectsV2Request request) {
            throw refused();
        }

        @Override
        public void deleteContainer(String container) {
            throw refused();
        }

        @Override
        public void deleteBucket(String container) {
            throw refused();
        }

        @Override
        public PutObjectResponse putBlob(PutObjectRequest request, InputStream in) {
            throw refused();
        }

        @Override
        public CopyObjectResponse copyBlob(CopyObjectRequest request) {
            throw refused();
        }

        @Override
        public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
            throw refused();
        }

        @Override
        public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
            throw refused();
        }

        @Override
        public CompleteMultipartUploadResponse completeMultipartUpload(
                MultipartUpload upload, CompleteMultipartUploadRequest request) {
            throw refused();
        }

        @Override
        public UploadPartResponse uploadMultipartPart(
                MultipartUpload upload, UploadPartRequest request, InputStream in) {
            throw refused();
        }
    }
}
