package io.nczarr.store;

import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3Bucket;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.s3.S3Location;
import io.nczarr.s3.S3Settings;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.StoreException;
import io.nczarr.url.DatasetUrl;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * A dataset under a key prefix of an S3 bucket (AWS or any S3-compatible server). Each
 * {@link #get} is one GET (a 404 is a missing key, never a HEAD first), {@link #list} is LIST
 * with delimiter {@code /}, needed only for pure Zarr without {@code .zmetadata}. The client
 * comes from the shared {@link S3ClientPool} and is released on {@link #close()}.
 *
 * <p>Failures are {@link StoreException}s naming the dataset URL (never a credential) and the
 * key; server errors (5xx, 429, 408), timeouts and broken connections are retryable, refusals
 * (403, a missing bucket) and oversized objects are not.
 */
public final class S3Store implements Store {

    private final S3Bucket bucket;
    private final S3Location root;
    private final String location;
    private final long maxObjectBytes;

    public S3Store(S3Bucket bucket, String location, long maxObjectBytes) {
        this.bucket = bucket;
        this.root = bucket.settings().location();
        this.location = location;
        this.maxObjectBytes = maxObjectBytes;
    }

    /** Opens the store of an {@code s3}/{@code http(s)} dataset URL. Makes no request. */
    public static S3Store open(DatasetUrl url) throws IOException {
        S3Location loc;
        S3Settings settings;
        try {
            loc = S3Location.parse(url.uri());
            settings = S3Settings.resolve(loc, url.parameters(), AwsEnvironment.system());
        } catch (IllegalArgumentException e) {
            throw new StoreException(url.toString(), null, e.getMessage(), false, e);
        }
        return new S3Store(S3Bucket.open(settings, S3ClientPool.shared()), loc.url(), StoreLimits.DEFAULT_MAX_OBJECT_BYTES);
    }

    public S3Settings settings() {
        return bucket.settings();
    }

    @Override
    public String location() {
        return location;
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.get(objectKey, maxObjectBytes);
        } catch (IOException e) {
            throw failure(key, e);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        StoreLimits.checkRange(offset, length);
        String objectKey = root.resolve(StoreKeys.check(key));
        try {
            return bucket.getRange(objectKey, offset, length);
        } catch (IOException e) {
            throw failure(key, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        String key = StoreKeys.check(StoreKeys.trim(prefix));
        String p = root.resolve(key);
        try {
            return bucket.list(p.isEmpty() ? "" : p + "/");
        } catch (IOException e) {
            throw failure(key, e);
        }
    }

    /**
     * The bucket's failure as a {@link StoreException} of this dataset; interruptions pass
     * unchanged (the read was cancelled, the store is fine).
     */
    private IOException failure(String key, IOException e) {
        if (e instanceof NcZarrException || e instanceof InterruptedIOException) {
            return e;
        }
        // the detail keeps the bucket's text, which starts with the object's full URL (copyable)
        return new StoreException(location, key, String.valueOf(e.getMessage()), isRetryable(e), e);
    }

    /**
     * Whether the same request may succeed later: an HTTP status that says so (5xx, 429 throttled,
     * 408 request timeout), an SDK timeout, or a transport failure (a connection refused, reset or
     * timed out, a body cut short). A refusal (403, 400, a missing bucket) or a size limit is final.
     */
    static boolean isRetryable(IOException e) {
        if (e.getClass() != IOException.class) {
            // a transport failure reading the body (SocketTimeoutException, ConnectionClosedException ...)
            return !(e instanceof FileNotFoundException);
        }
        Throwable c = e.getCause();
        if (c instanceof SdkServiceException s) {
            int status = s.statusCode();
            return status >= 500 || status == 429 || status == 408 || s.isThrottlingException();
        }
        if (c instanceof ApiCallTimeoutException || c instanceof ApiCallAttemptTimeoutException) {
            return true;
        }
        if (c instanceof SdkClientException) {
            // "Unable to execute HTTP request": the cause says whether the network failed
            for (Throwable t = c.getCause(); t != null; t = t.getCause()) {
                if (t instanceof IOException) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public boolean listingIsCheap() {
        return false;
    }

    /** Requests in flight per read ({@code nczarr.s3.concurrency}, default 16). */
    @Override
    public int preferredConcurrency() {
        return bucket.settings().tuning().concurrency();
    }

    @Override
    public void close() {
        bucket.close();
    }

    @Override
    public String toString() {
        return "S3Store[" + location + ", " + bucket.settings().describe() + "]";
    }
}
