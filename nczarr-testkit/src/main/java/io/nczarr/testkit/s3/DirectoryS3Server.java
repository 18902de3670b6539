package io.nczarr.testkit.s3;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

/**
 * {@code nczarr serve}: a directory of the user's files as one read-only S3 bucket on 127.0.0.1 (S3Proxy's
 * file-system blob store; keys = relative paths), unauthenticated (clients use {@code aws.profile=none}, or any
 * key). The bucket is a symbolic link in a temporary folder, so nothing beside the directory is served and
 * nothing is written into it. {@link ReadOnlyDirectory} passes only reads (GET and HEAD of objects, listing,
 * bucket HEAD) and refuses every other operation with an S3 403; links out of the directory and files that are
 * not regular (FIFOs, devices) are neither listed nor served.
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
        if (port != 0) {
            checkFree(port);
        }
        Path real = dir.toRealPath();
        Path root = Files.createTempDirectory("nczarr-serve");
        Files.createSymbolicLink(root.resolve(bucket), real);
        BlobStore store = new ReadOnlyDirectory(new FilesystemNio2BlobStore(root.toString()), bucket, real);
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

    /** One clear line when the port is taken, before S3Proxy logs its own stack trace. */
    private static void checkFree(int port) throws IOException {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
        } catch (BindException e) {
            throw new IOException(
                    "port " + port + " on 127.0.0.1 is in use (choose another with --port, or 0 for" + " a free one)");
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
}
